/// The pixel size of the input image, which the pipelines need to turn normalized
/// coordinates into pixels (MediaPipe's `IMAGE_SIZE` stream,
/// mediapipe/calculators/image/image_properties_calculator.cc).
package struct ImageSize: Sendable, Hashable {
    /// Width in pixels.
    package var width: Int
    /// Height in pixels.
    package var height: Int

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
