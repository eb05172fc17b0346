/// What an ``MPImage`` was created from (MediaPipe's `MPPImageSourceType`,
/// mediapipe/tasks/ios/vision/core/sources/MPPImage.h).
public enum MPImageSourceType: Int, Sendable {
    /// An image: a `UIImage`, or an encoded JPEG/PNG file or data.
    case image = 0
    /// A pixel buffer: a `CVPixelBuffer`, or raw pixels.
    case pixelBuffer = 1
    /// A `CMSampleBuffer`.
    case sampleBuffer = 2
}
