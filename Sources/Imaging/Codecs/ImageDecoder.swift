import Foundation

/// The encoded file formats the decoder accepts.
package enum ImageFileFormat: Sendable, Equatable {
    /// JPEG (JFIF / EXIF), baseline or progressive.
    case jpeg
    /// PNG.
    case png

    /// Recognizes the format from the first bytes, or returns `nil`.
    package init?(sniffing data: UnsafeRawBufferPointer) {
        if data.count >= 3, data[0] == 0xFF, data[1] == 0xD8, data[2] == 0xFF {
            self = .jpeg
        } else if data.count >= 8,
            data[0] == 0x89, data[1] == 0x50, data[2] == 0x4E, data[3] == 0x47,
            data[4] == 0x0D, data[5] == 0x0A, data[6] == 0x1A, data[7] == 0x0A
        {
            self = .png
        } else {
            return nil
        }
    }
}

/// A decoded image file: its stored pixels and the orientation its metadata declares.
package struct DecodedImage: Sendable, Equatable {
    /// The stored (not yet rotated) pixels, RGB.
    package var bitmap: Bitmap
    /// The file format.
    package var format: ImageFileFormat
    /// The EXIF orientation (JPEG APP1 or PNG eXIf), or `nil` when the file declares none.
    package var orientation: ImageOrientation?
}

/// Decodes JPEG and PNG files to RGB bitmaps: libjpeg-turbo and libpng on Linux, ImageIO on
/// Apple platforms.
///
/// Gray, gray+alpha, palette and 16-bit PNGs and gray and CMYK JPEGs decode to RGB (gray as
/// R = G = B, alpha dropped without premultiplying, 16-bit samples rounded to 8 bits).
/// Truncated or damaged data, unsupported variants (12-bit or lossless JPEG) and dimensions
/// beyond ``DecodingLimits`` raise an ``ImageError`` before any large allocation.
package enum ImageDecoder {
    /// Decodes encoded bytes.
    package static func decode(
        _ data: UnsafeRawBufferPointer, limits: DecodingLimits = .standard
    ) throws -> DecodedImage {
        guard !data.isEmpty else { throw ImageError.emptyData }
        guard let format = ImageFileFormat(sniffing: data) else {
            throw ImageError.unsupportedFormat("the data is neither JPEG nor PNG")
        }
        let orientation: ImageOrientation?
        switch format {
        case .jpeg: orientation = ExifOrientationReader.jpegOrientation(data)
        case .png: orientation = ExifOrientationReader.pngOrientation(data)
        }
        let bitmap = try PlatformCodec.decode(data, format: format, limits: limits)
        return DecodedImage(bitmap: bitmap, format: format, orientation: orientation)
    }

    /// Decodes encoded bytes held in `Data`.
    package static func decode(_ data: Data, limits: DecodingLimits = .standard) throws -> DecodedImage {
        try data.withUnsafeBytes { try decode($0, limits: limits) }
    }

    /// Reads and decodes the file at `path`.
    ///
    /// - Throws: ``ImageError/cannotRead(path:reason:)`` when the file is missing, is not a
    ///   regular file or exceeds ``DecodingLimits/maxFileSize``; otherwise the errors of
    ///   ``decode(_:limits:)-(UnsafeRawBufferPointer,_)``.
    package static func decodeFile(atPath path: String, limits: DecodingLimits = .standard) throws -> DecodedImage {
        let data = try readFile(atPath: path, limits: limits)
        return try decode(data, limits: limits)
    }

    /// Reads a whole file after checking that it is a regular file within the size limit.
    package static func readFile(atPath path: String, limits: DecodingLimits = .standard) throws -> Data {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw ImageError.cannotRead(path: path, reason: "no such file or not accessible")
        }
        if let type = attributes[.type] as? FileAttributeType, type != .typeRegular {
            throw ImageError.cannotRead(path: path, reason: "not a regular file")
        }
        if let size = (attributes[.size] as? NSNumber)?.intValue, size > limits.maxFileSize {
            throw ImageError.cannotRead(
                path: path, reason: "file of \(size) bytes exceeds the \(limits.maxFileSize)-byte limit")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            throw ImageError.cannotRead(path: path, reason: "\(error.localizedDescription)")
        }
    }
}
