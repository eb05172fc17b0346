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
        case let .cannotRead(path, reason):
            return "cannot read image file '\(path)': \(reason)"
        case .emptyData:
            return "image data is empty"
        case let .unsupportedFormat(message):
            return "unsupported image format: \(message)"
        case let .corruptData(message):
            return "corrupt image data: \(message)"
        case let .truncatedData(message):
            return "truncated image data: \(message)"
        case let .imageTooLarge(width, height, maxWidth, maxHeight, maxPixelCount):
            return "image of \(width)x\(height) pixels exceeds the limits "
                + "(\(maxWidth)x\(maxHeight), \(maxPixelCount) pixels)"
        case let .invalidDimensions(width, height):
            return "invalid image dimensions \(width)x\(height)"
        case let .invalidPixelData(message):
            return "invalid pixel data: \(message)"
        case let .unsupportedPixelFormat(message):
            return "unsupported pixel format: \(message)"
        case let .invalidRegion(message):
            return "invalid region of interest: \(message)"
        case let .invalidTensor(message):
            return "invalid tensor: \(message)"
        case let .invalidNormalization(message):
            return "invalid normalization: \(message)"
        case let .encodingFailed(message):
            return "image encoding failed: \(message)"
        case .outOfMemory:
            return "out of memory while processing an image"
        }
    }
}
