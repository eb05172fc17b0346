/// The layout of raw 8-bit pixels handed to an image initializer.
public enum PixelFormat: Sendable, Equatable, CaseIterable {
    /// Red, green, blue, alpha: 4 bytes per pixel. Alpha is ignored, never premultiplied.
    case rgba8
    /// Blue, green, red, alpha: 4 bytes per pixel (the layout of `kCVPixelFormatType_32BGRA`).
    /// Alpha is ignored.
    case bgra8
    /// Red, green, blue: 3 bytes per pixel.
    case rgb8
    /// One gray byte per pixel; expanded to red = green = blue.
    case gray8

    /// The number of bytes one pixel occupies.
    public var bytesPerPixel: Int {
        switch self {
        case .rgba8, .bgra8: return 4
        case .rgb8: return 3
        case .gray8: return 1
        }
    }
}
