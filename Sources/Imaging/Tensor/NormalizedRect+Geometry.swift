import Foundation

extension NormalizedRect {
    /// Whether this is the all-zero-size rectangle MediaPipe graphs use as a "no region"
    /// sentinel: image-to-tensor conversion makes no tensor for it
    /// (MP:mediapipe/calculators/tensor/image_to_tensor_calculator.cc).
    package var isZeroSizeSentinel: Bool {
        width == 0 && height == 0
    }

    /// The full image turned by `orientation`, as MediaPipe's iOS task runner builds it: the
    /// rotation of ``ImageOrientation/mediaPipeRotation`` and, for quarter turns, width and
    /// height swapped and rescaled by the aspect ratio (../shared/spec/PIPELINES.md §1.2). Mirrored
    /// orientations give `nil` (upstream rejects them).
    package static func mediaPipeFullImage(
        orientation: ImageOrientation, imageWidth: Int, imageHeight: Int
    ) -> NormalizedRect? {
        guard let rotation = orientation.mediaPipeRotation else { return nil }
        var rect = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 1, height: 1, rotation: rotation)
        if orientation.swapsWidthAndHeight {
            let width = Float(imageWidth)
            let height = Float(imageHeight)
            rect.width = 1 * height / width
            rect.height = 1 * width / height
        }
        return rect
    }

    /// Projects a point given in this rectangle's own normalized coordinates (0...1 across
    /// the rectangle, as landmark models output them) to image-normalized coordinates:
    /// x' = xc + (cos r·(x − ½) − sin r·(y − ½))·w, y' = yc + (sin r·(x − ½) + cos r·(y − ½))·h,
    /// z' = z·w (MP:mediapipe/calculators/util/landmark_projection_calculator.cc).
    package func projecting(x: Float, y: Float, z: Float = 0) -> (x: Float, y: Float, z: Float) {
        let dx = x - 0.5
        let dy = y - 0.5
        let cosine = CorrectlyRounded.cos(rotation)
        let sine = CorrectlyRounded.sin(rotation)
        return (
            xCenter + (cosine * dx - sine * dy) * width,
            yCenter + (sine * dx + cosine * dy) * height,
            z * width
        )
    }
}
