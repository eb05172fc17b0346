import Imaging

/// A region of interest in pixels: centre, size and rotation (MediaPipe's `RotatedRect`,
/// mediapipe/calculators/tensor/image_to_tensor_utils.h).
package struct RotatedRect: Sendable, Hashable {
    package var centerX: Float
    package var centerY: Float
    package var width: Float
    package var height: Float
    package var rotation: Float

    package init(centerX: Float, centerY: Float, width: Float, height: Float, rotation: Float) {
        self.centerX = centerX
        self.centerY = centerY
        self.width = width
        self.height = height
        self.rotation = rotation
    }

    /// The pixel ROI of a normalized rect on an image (image_to_tensor_utils.cc `GetRoi`).
    package init(_ rect: NormalizedRect, imageSize: ImageSize) {
        let width = Float(imageSize.width), height = Float(imageSize.height)
        self.init(
            centerX: rect.xCenter * width, centerY: rect.yCenter * height,
            width: rect.width * width, height: rect.height * height, rotation: rect.rotation)
    }

    /// Grows the ROI to the tensor's aspect ratio for letterboxing and returns the padding
    /// (image_to_tensor_utils.cc `PadRoi`, PIPELINES.md §1.3 step 2). Without
    /// `keepAspectRatio` nothing changes and the padding is zero. Returns `nil` for a
    /// non-positive tensor or ROI size, which MediaPipe rejects.
    package mutating func letterbox(tensorWidth: Int, tensorHeight: Int, keepAspectRatio: Bool) -> LetterboxPadding? {
        guard keepAspectRatio else { return .zero }
        guard tensorWidth > 0, tensorHeight > 0, width > 0, height > 0 else { return nil }
        let tensorAspect = Float(tensorHeight) / Float(tensorWidth)
        let roiAspect = height / width
        if tensorAspect > roiAspect {
            height = width * tensorAspect
            let vertical = (1 - roiAspect / tensorAspect) / 2
            return LetterboxPadding(left: 0, top: vertical, right: 0, bottom: vertical)
        } else {
            width = height / tensorAspect
            let horizontal = (1 - tensorAspect / roiAspect) / 2
            return LetterboxPadding(left: horizontal, top: 0, right: horizontal, bottom: 0)
        }
    }
}
