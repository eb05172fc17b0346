import Foundation
import Imaging

#if canImport(UIKit)
    import UIKit
#endif
#if canImport(CoreVideo)
    import CoreVideo
#endif
#if canImport(CoreMedia)
    import CoreMedia
#endif

/// An image to run a vision task on: MediaPipe's `MPImage` (`MPPImage`,
/// mediapipe/tasks/ios/vision/core/sources/MPPImage.h).
///
/// Besides the upstream initializers from `UIImage`, `CVPixelBuffer` and `CMSampleBuffer`
/// (Apple platforms), images can be read from JPEG or PNG files and data, and made from raw
/// RGBA, BGRA, RGB or gray pixels, on every platform.
///
/// The pixels are kept as stored; ``orientation`` says how to turn them upright. Unlike
/// MediaPipe's iOS SDK, the mirrored orientations are supported (front cameras produce them).
/// Alpha is ignored, never premultiplied.
///
/// ``width`` and ``height`` follow upstream: for images (files, data, `UIImage`) they are the
/// upright size, as UIKit reports it; for pixel buffers, sample buffers and raw pixels they are
/// the buffer's own size.
///
/// An `MPImage` is immutable and can be shared between threads.
public final class MPImage: @unchecked Sendable {
    // @unchecked: every stored property is a constant; UIImage, CVPixelBuffer and
    // CMSampleBuffer references are only handed back to the caller, never mutated.

    /// Width in pixels.
    public let width: CGFloat
    /// Height in pixels.
    public let height: CGFloat
    /// How the stored pixels must be turned to show the image upright.
    public let orientation: ImageOrientation
    /// What the image was created from.
    public let imageSourceType: MPImageSourceType

    /// The stored pixels, unrotated.
    package let bitmap: Bitmap

    #if canImport(UIKit)
        /// The `UIImage` this image was created from, or `nil`.
        public let image: UIImage?
    #endif
    #if canImport(CoreVideo)
        /// The pixel buffer this image was created from, or `nil`.
        public let pixelBuffer: CVPixelBuffer?
    #endif
    #if canImport(CoreMedia)
        /// The sample buffer this image was created from, or `nil`.
        public let sampleBuffer: CMSampleBuffer?
    #endif

    /// Wraps pixels that are already decoded. `width` and `height` default to the stored size
    /// for pixel-buffer sources and to the upright size otherwise.
    package init(
        bitmap: Bitmap, orientation: ImageOrientation, sourceType: MPImageSourceType,
        reportedSize: (width: Int, height: Int)? = nil
    ) {
        let size =
            reportedSize
            ?? (sourceType == .image
                ? orientation.uprightSize(width: bitmap.width, height: bitmap.height)
                : (bitmap.width, bitmap.height))
        self.bitmap = bitmap
        self.orientation = orientation
        imageSourceType = sourceType
        width = CGFloat(size.width)
        height = CGFloat(size.height)
        #if canImport(UIKit)
            image = nil
        #endif
        #if canImport(CoreVideo)
            pixelBuffer = nil
        #endif
        #if canImport(CoreMedia)
            sampleBuffer = nil
        #endif
    }

    #if canImport(UIKit) || canImport(CoreVideo) || canImport(CoreMedia)
        /// Wraps pixels converted from an Apple image type, keeping the original object.
        init(
            bitmap: Bitmap, orientation: ImageOrientation, sourceType: MPImageSourceType,
            reportedSize: (width: Int, height: Int), appleSource: AppleImageSource
        ) {
            self.bitmap = bitmap
            self.orientation = orientation
            imageSourceType = sourceType
            width = CGFloat(reportedSize.width)
            height = CGFloat(reportedSize.height)
            #if canImport(UIKit)
                image = appleSource.image
            #endif
            #if canImport(CoreVideo)
                pixelBuffer = appleSource.pixelBuffer
            #endif
            #if canImport(CoreMedia)
                sampleBuffer = appleSource.sampleBuffer
            #endif
        }
    #endif

    // MARK: - Files and data

    /// Reads a JPEG or PNG file; the orientation is the file's EXIF orientation, or `.up`.
    ///
    /// - Throws: ``TasksError/invalidImage(_:)`` when the file cannot be read, is not a JPEG or
    ///   PNG, is damaged or truncated, or is larger than 16384 × 16384 pixels or 64 Mi pixels.
    public convenience init(contentsOfFile path: String) throws(TasksError) {
        let decoded = try MPImage.decode { try ImageDecoder.decodeFile(atPath: path) }
        self.init(bitmap: decoded.bitmap, orientation: decoded.orientation ?? .up, sourceType: .image)
    }

    /// Reads a JPEG or PNG file and shows it with `orientation`, ignoring its EXIF orientation.
    ///
    /// - Throws: ``TasksError/invalidImage(_:)`` as ``init(contentsOfFile:)``.
    public convenience init(contentsOfFile path: String, orientation: ImageOrientation) throws(TasksError) {
        let decoded = try MPImage.decode { try ImageDecoder.decodeFile(atPath: path) }
        self.init(bitmap: decoded.bitmap, orientation: orientation, sourceType: .image)
    }

    /// Decodes JPEG or PNG data; the orientation is the data's EXIF orientation, or `.up`.
    ///
    /// - Throws: ``TasksError/invalidImage(_:)`` for empty, unknown, damaged, truncated or
    ///   oversized data.
    public convenience init(data: Data) throws(TasksError) {
        let decoded = try MPImage.decode { try ImageDecoder.decode(data) }
        self.init(bitmap: decoded.bitmap, orientation: decoded.orientation ?? .up, sourceType: .image)
    }

    /// Decodes JPEG or PNG data and shows it with `orientation`, ignoring its EXIF orientation.
    ///
    /// - Throws: ``TasksError/invalidImage(_:)`` as ``init(data:)``.
    public convenience init(data: Data, orientation: ImageOrientation) throws(TasksError) {
        let decoded = try MPImage.decode { try ImageDecoder.decode(data) }
        self.init(bitmap: decoded.bitmap, orientation: orientation, sourceType: .image)
    }

    // MARK: - Raw pixels

    /// Copies raw 8-bit pixels: `height` rows of `bytesPerRow` bytes, each starting with
    /// `width` pixels in `format`. Gray is expanded to R = G = B; alpha is ignored.
    ///
    /// - Throws: ``TasksError/invalidImage(_:)`` when the size is zero or too large, or the
    ///   buffer is shorter than the rows it should hold.
    public convenience init(
        pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int, format: PixelFormat,
        orientation: ImageOrientation = .up
    ) throws(TasksError) {
        let bitmap = try MPImage.decode {
            try Bitmap(copying: pixels, width: width, height: height, bytesPerRow: bytesPerRow, format: format)
        }
        self.init(bitmap: bitmap, orientation: orientation, sourceType: .pixelBuffer)
    }

    /// Copies raw 8-bit pixels from an array; see
    /// ``init(pixels:width:height:bytesPerRow:format:orientation:)-(UnsafeRawBufferPointer,_,_,_,_,_)``.
    public convenience init(
        pixels: [UInt8], width: Int, height: Int, bytesPerRow: Int, format: PixelFormat,
        orientation: ImageOrientation = .up
    ) throws(TasksError) {
        let bitmap = try MPImage.decode {
            try pixels.withUnsafeBytes {
                try Bitmap(copying: $0, width: width, height: height, bytesPerRow: bytesPerRow, format: format)
            }
        }
        self.init(bitmap: bitmap, orientation: orientation, sourceType: .pixelBuffer)
    }

    // MARK: - Package helpers

    /// The size of the upright image in pixels.
    package var uprightSize: (width: Int, height: Int) {
        orientation.uprightSize(width: bitmap.width, height: bitmap.height)
    }

    /// Runs an imaging operation and reports its failure as a ``TasksError``.
    static func decode<Result>(_ body: () throws -> Result) throws(TasksError) -> Result {
        do {
            return try body()
        } catch let error as ImageError {
            throw TasksError(error)
        } catch let error as TasksError {
            throw error
        } catch {
            throw TasksError.invalidImage(String(describing: error))
        }
    }
}

extension MPImage {
    /// The same pixels shown with another orientation (no copy of the pixels).
    package func withOrientation(_ orientation: ImageOrientation) -> MPImage {
        MPImage(bitmap: bitmap, orientation: orientation, sourceType: imageSourceType)
    }
}
