/// Limits checked against an image header before any pixel memory is allocated, so that
/// absurd or hostile files fail with ``ImageError/imageTooLarge(width:height:maxWidth:maxHeight:maxPixelCount:)``
/// instead of exhausting memory.
package struct DecodingLimits: Sendable, Equatable {
    /// Largest accepted width in pixels.
    package var maxWidth: Int
    /// Largest accepted height in pixels.
    package var maxHeight: Int
    /// Largest accepted width × height.
    package var maxPixelCount: Int
    /// Largest accepted number of scans in a progressive JPEG.
    package var maxProgressiveScans: Int
    /// Largest accepted file size in bytes when reading from disk.
    package var maxFileSize: Int

    /// Creates limits.
    package init(
        maxWidth: Int = 16384, maxHeight: Int = 16384, maxPixelCount: Int = 1 << 26,
        maxProgressiveScans: Int = 500, maxFileSize: Int = 1 << 30
    ) {
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.maxPixelCount = maxPixelCount
        self.maxProgressiveScans = maxProgressiveScans
        self.maxFileSize = maxFileSize
    }

    /// 16384 × 16384 at most, 64 Mi pixels (a 48-megapixel photo fits), 500 progressive
    /// scans, 1 GiB files.
    package static let standard = DecodingLimits()

    /// Whether an image of `width` × `height` is within these limits.
    package func allows(width: Int, height: Int) -> Bool {
        guard width > 0, height > 0, width <= maxWidth, height <= maxHeight else { return false }
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        return !overflow && count <= maxPixelCount
    }

    /// The error for an image of `width` × `height` that exceeds these limits.
    package func tooLarge(width: Int, height: Int) -> ImageError {
        .imageTooLarge(
            width: width, height: height, maxWidth: maxWidth, maxHeight: maxHeight,
            maxPixelCount: maxPixelCount)
    }
}
