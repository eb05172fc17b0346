/// A rotated rectangle in pixels of the (upright) image: MediaPipe's `RotatedRect`
/// (MP:mediapipe/calculators/tensor/image_to_tensor_utils.h).
package struct RotatedPixelRect: Sendable, Equatable {
    /// Center x in pixels.
    package var centerX: Float
    /// Center y in pixels.
    package var centerY: Float
    /// Width in pixels, along the rectangle's own x axis.
    package var width: Float
    /// Height in pixels, along the rectangle's own y axis.
    package var height: Float
    /// Rotation in radians; positive turns the rectangle's x axis toward +y.
    package var rotation: Float

    /// Creates a rectangle.
    package init(centerX: Float, centerY: Float, width: Float, height: Float, rotation: Float) {
        self.centerX = centerX
        self.centerY = centerY
        self.width = width
        self.height = height
        self.rotation = rotation
    }

    /// The pixel rectangle of a normalized one in an image of `imageWidth` × `imageHeight`
    /// (MP: image_to_tensor_utils.cc `GetRoi`: each normalized value times the image size, in
    /// float).
    package init(_ rect: NormalizedRect, imageWidth: Int, imageHeight: Int) {
        centerX = rect.xCenter * Float(imageWidth)
        centerY = rect.yCenter * Float(imageHeight)
        width = rect.width * Float(imageWidth)
        height = rect.height * Float(imageHeight)
        rotation = rect.rotation
    }
}
