/// Encodes bitmaps as PNG or JPEG: libpng and libjpeg-turbo on Linux, ImageIO on Apple
/// platforms. RGBA and BGRA bitmaps are written as RGB (alpha dropped).
package enum ImageEncoder {
    /// A PNG file of `bitmap`; `orientation`, when given, is stored in an eXIf chunk.
    package static func png(_ bitmap: Bitmap, orientation: ImageOrientation? = nil) throws -> [UInt8] {
        try PlatformCodec.encode(bitmap, format: .png, quality: 100, orientation: orientation)
    }

    /// An 8-bit grayscale PNG file of `samples` (`width × height` values, row-major), such as a
    /// segmenter's category mask, its values unchanged.
    ///
    /// - Throws: ``ImageError/encodingFailed(_:)`` when the sizes do not match the samples.
    package static func grayscalePNG(_ samples: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        guard width > 0, height > 0, samples.count == width * height else {
            throw ImageError.encodingFailed("PNG: \(samples.count) samples for \(width)×\(height) pixels")
        }
        return try PlatformCodec.encodeGrayPNG(samples, width: width, height: height, bitDepth: 8)
    }

    /// A 16-bit grayscale PNG file of `samples` (`width × height` values, row-major), such as a
    /// confidence mask scaled to 0…65535.
    ///
    /// - Throws: ``ImageError/encodingFailed(_:)`` when the sizes do not match the samples.
    package static func grayscalePNG16(_ samples: [UInt16], width: Int, height: Int) throws -> [UInt8] {
        guard width > 0, height > 0, samples.count == width * height else {
            throw ImageError.encodingFailed("PNG: \(samples.count) samples for \(width)×\(height) pixels")
        }
        var bigEndian = [UInt8](repeating: 0, count: samples.count * 2)
        for (index, sample) in samples.enumerated() {
            bigEndian[2 * index] = UInt8(truncatingIfNeeded: sample >> 8)
            bigEndian[2 * index + 1] = UInt8(truncatingIfNeeded: sample)
        }
        return try PlatformCodec.encodeGrayPNG(bigEndian, width: width, height: height, bitDepth: 16)
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
