/// An error raised while reading, decoding, converting or encoding an image.
///
/// Every bad input (unreadable file, unknown format, corrupt or truncated data, absurd
/// dimensions, inconsistent raw-pixel arguments, invalid crop region) ends in one of these
/// cases; the imaging code never traps on outside data.
package enum ImageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case cannotRead(path: String, reason: String)
    /// The data is empty.
    case emptyData
    /// The data is not a JPEG or PNG file, or uses a feature the decoder does not support.
    case unsupportedFormat(String)
    /// The data is damaged.
    case corruptData(String)
    /// The data ends before the image is complete.
    case truncatedData(String)
    /// The header announces dimensions beyond the decoding limits; nothing large was allocated.
    case imageTooLarge(width: Int, height: Int, maxWidth: Int, maxHeight: Int, maxPixelCount: Int)
    /// A width or height is zero, negative or does not fit in memory.
    case invalidDimensions(width: Int, height: Int)
    /// Raw pixels that do not match their description (row length, buffer size).
    case invalidPixelData(String)
    /// A pixel format that cannot be used as input.
    case unsupportedPixelFormat(String)
    /// A crop region that cannot be converted (NaN, non-positive size).
    case invalidRegion(String)
    /// An output tensor description or buffer that does not fit the request.
    case invalidTensor(String)
    /// Normalization parameters that cannot produce a value range.
    case invalidNormalization(String)
    /// Encoding to PNG or JPEG failed.
    case encodingFailed(String)
    /// Memory ran out while decoding or encoding.
    case outOfMemory

    package var description: String {
        switch self {
        case .cannotRead(let path, let reason):
            return "cannot read image file '\(path)': \(reason)"
        case .emptyData:
            return "image data is empty"
        case .unsupportedFormat(let message):
            return "unsupported image format: \(message)"
        case .corruptData(let message):
            return "corrupt image data: \(message)"
        case .truncatedData(let message):
            return "truncated image data: \(message)"
        case .imageTooLarge(let width, let height, let maxWidth, let maxHeight, let maxPixelCount):
            return "image of \(width)x\(height) pixels exceeds the limits "
                + "(\(maxWidth)x\(maxHeight), \(maxPixelCount) pixels)"
        case .invalidDimensions(let width, let height):
            return "invalid image dimensions \(width)x\(height)"
        case .invalidPixelData(let message):
            return "invalid pixel data: \(message)"
        case .unsupportedPixelFormat(let message):
            return "unsupported pixel format: \(message)"
        case .invalidRegion(let message):
            return "invalid region of interest: \(message)"
        case .invalidTensor(let message):
            return "invalid tensor: \(message)"
        case .invalidNormalization(let message):
            return "invalid normalization: \(message)"
        case .encodingFailed(let message):
            return "image encoding failed: \(message)"
        case .outOfMemory:
            return "out of memory while processing an image"
        }
    }
}
