/// A rotated rectangle in normalized image coordinates: the region of interest that task
/// pipelines compute and that image-to-tensor conversion crops.
///
/// Mirrors MediaPipe's `NormalizedRect` proto (mediapipe/framework/formats/rect.proto): the
/// center and size are fractions of the image width and height, and `rotation` is in radians,
/// clockwise positive in image coordinates (y pointing down).
package struct NormalizedRect: Sendable, Equatable, Hashable {
    /// Center x as a fraction of the image width.
    package var xCenter: Float
    /// Center y as a fraction of the image height.
    package var yCenter: Float
    /// Width as a fraction of the image width.
    package var width: Float
    /// Height as a fraction of the image height.
    package var height: Float
    /// Rotation in radians.
    package var rotation: Float

    /// Creates a rectangle.
    package init(xCenter: Float, yCenter: Float, width: Float, height: Float, rotation: Float = 0) {
        self.xCenter = xCenter
        self.yCenter = yCenter
        self.width = width
        self.height = height
        self.rotation = rotation
    }

    /// The whole image, unrotated.
    package static let fullImage = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 1, height: 1)
}
