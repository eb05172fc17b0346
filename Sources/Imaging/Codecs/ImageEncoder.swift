/// Encodes bitmaps as PNG or JPEG: libpng and libjpeg-turbo on Linux, ImageIO on Apple
/// platforms. RGBA and BGRA bitmaps are written as RGB (alpha dropped).
package enum ImageEncoder {
    /// A PNG file of `bitmap`; `orientation`, when given, is stored in an eXIf chunk.
    package static func png(_ bitmap: Bitmap, orientation: ImageOrientation? = nil) throws -> [UInt8] {
        try PlatformCodec.encode(bitmap, format: .png, quality: 100, orientation: orientation)
    }

    /// A baseline JPEG file of `bitmap` at `quality` (1...100, clamped); `orientation`, when
    /// given, is stored in an EXIF APP1 segment.
    package static func jpeg(_ bitmap: Bitmap, quality: Int = 90, orientation: ImageOrientation? = nil) throws
        -> [UInt8]
    {
        try PlatformCodec.encode(bitmap, format: .jpeg, quality: quality, orientation: orientation)
    }

    /// Encodes in the format its file extension names (`.png`, `.jpg`, `.jpeg`).
    ///
    /// - Throws: ``ImageError/unsupportedFormat(_:)`` for any other extension.
    package static func encode(_ bitmap: Bitmap, forPath path: String, quality: Int = 90) throws -> [UInt8] {
        let lowercased = path.lowercased()
        if lowercased.hasSuffix(".png") { return try png(bitmap) }
        if lowercased.hasSuffix(".jpg") || lowercased.hasSuffix(".jpeg") { return try jpeg(bitmap, quality: quality) }
        throw ImageError.unsupportedFormat("cannot encode '\(path)': use a .png, .jpg or .jpeg file name")
    }
}
