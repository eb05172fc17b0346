#if !canImport(ImageIO) && canImport(CImagingSupport)
    import CImagingSupport
    // Imported so that the linker pulls in libjpeg and libpng.
    import CJPEG
    import CPNG

    /// Decoding and encoding through libjpeg-turbo and libpng (Linux). All library calls happen in
    /// the CImagingSupport C target, which catches their longjmp-based errors.
    enum PlatformCodec {
        /// Decodes `data` of a known format to an RGB bitmap.
        static func decode(
            _ data: UnsafeRawBufferPointer, format: ImageFileFormat, limits: DecodingLimits
        ) throws -> Bitmap {
            guard let base = data.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
                throw ImageError.emptyData
            }
            let cLimits = vt_decode_limits(
                max_width: Int32(clamping: limits.maxWidth), max_height: Int32(clamping: limits.maxHeight),
                max_pixels: Int64(limits.maxPixelCount), max_scans: Int32(clamping: limits.maxProgressiveScans))
            var info = vt_image_info()
            let name = format == .jpeg ? "JPEG" : "PNG"
            try withMessageBuffer { message, capacity in
                let status =
                    format == .jpeg
                    ? vt_jpeg_read_info(base, data.count, cLimits, &info, message, capacity)
                    : vt_png_read_info(base, data.count, cLimits, &info, message, capacity)
                try check(status, message: message, format: name, info: info, limits: limits)
            }
            // A small file must not make us allocate what its header claims (found while checking
            // memory bounds: a 100-byte PNG announcing 16000 x 4000 pixels allocated 192 MB).
            try EncodedDataBound.check(data, format: format, width: Int(info.width), height: Int(info.height))
            var bitmap = try Bitmap(width: Int(info.width), height: Int(info.height), layout: .rgb8)
            let width = info.width
            let height = info.height
            let rowBytes = bitmap.bytesPerRow
            try bitmap.withUnsafeMutableBytes { pixels in
                try withMessageBuffer { message, capacity in
                    let status =
                        format == .jpeg
                        ? vt_jpeg_decode_rgb(
                            base, data.count, cLimits, pixels.baseAddress, rowBytes, width, height, message, capacity)
                        : vt_png_decode_rgb(
                            base, data.count, cLimits, pixels.baseAddress, rowBytes, width, height, message, capacity)
                    try check(status, message: message, format: name, info: info, limits: limits)
                }
            }
            return bitmap
        }

        /// Encodes an RGB bitmap; `orientation` is written as EXIF metadata when given.
        static func encode(
            _ bitmap: Bitmap, format: ImageFileFormat, quality: Int, orientation: ImageOrientation?
        ) throws -> [UInt8] {
            let rgb = bitmap.convertedToRGB()
            let exif: [UInt8] =
                orientation.map {
                    format == .jpeg
                        ? ExifOrientationReader.jpegExifPayload(for: $0) : ExifOrientationReader.tiffBlock(for: $0)
                } ?? []
            let name = format == .jpeg ? "JPEG" : "PNG"
            return try rgb.withUnsafeBytes { pixels in
                try exif.withUnsafeBufferPointer { exifBuffer in
                    try withMessageBuffer { message, capacity in
                        var output: UnsafeMutablePointer<UInt8>? = nil
                        var outputSize = 0
                        let exifPointer = exifBuffer.isEmpty ? nil : exifBuffer.baseAddress
                        let status =
                            format == .jpeg
                            ? vt_jpeg_encode_rgb(
                                pixels.baseAddress, rgb.bytesPerRow, Int32(rgb.width), Int32(rgb.height),
                                Int32(clamping: quality), exifPointer, exifBuffer.count, &output, &outputSize,
                                message, capacity)
                            : vt_png_encode_rgb(
                                pixels.baseAddress, rgb.bytesPerRow, Int32(rgb.width), Int32(rgb.height),
                                exifPointer, exifBuffer.count, &output, &outputSize, message, capacity)
                        defer { vt_free(output) }
                        guard status == Int32(VT_STATUS_OK.rawValue), let output else {
                            if status == Int32(VT_STATUS_OUT_OF_MEMORY.rawValue) { throw ImageError.outOfMemory }
                            throw ImageError.encodingFailed("\(name): " + String(cString: message))
                        }
                        return Array(UnsafeBufferPointer(start: output, count: outputSize))
                    }
                }
            }
        }

        /// A grayscale PNG of `samples` (`width × height`, row-major; 16-bit samples big-endian).
        static func encodeGrayPNG(_ samples: [UInt8], width: Int, height: Int, bitDepth: Int) throws -> [UInt8] {
            try samples.withUnsafeBufferPointer { pixels in
                try withMessageBuffer { message, capacity in
                    var output: UnsafeMutablePointer<UInt8>? = nil
                    var outputSize = 0
                    let status = vt_png_encode_gray(
                        pixels.baseAddress, width * bitDepth / 8, Int32(clamping: width), Int32(clamping: height),
                        Int32(bitDepth), &output, &outputSize, message, capacity)
                    defer { vt_free(output) }
                    guard status == Int32(VT_STATUS_OK.rawValue), let output else {
                        if status == Int32(VT_STATUS_OUT_OF_MEMORY.rawValue) { throw ImageError.outOfMemory }
                        throw ImageError.encodingFailed("PNG: " + String(cString: message))
                    }
                    return Array(UnsafeBufferPointer(start: output, count: outputSize))
                }
            }
        }

        // MARK: - Helpers

        private static func withMessageBuffer<Result>(
            _ body: (UnsafeMutablePointer<CChar>, Int) throws -> Result
        ) rethrows -> Result {
            try withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer in
                buffer.initialize(repeating: 0)
                return try body(buffer.baseAddress!, buffer.count)
            }
        }

        private static func check(
            _ status: Int32, message: UnsafeMutablePointer<CChar>, format: String, info: vt_image_info,
            limits: DecodingLimits
        ) throws {
            guard status != Int32(VT_STATUS_OK.rawValue) else { return }
            let text = "\(format): " + String(cString: message)
            switch UInt32(bitPattern: status) {
            case VT_STATUS_TRUNCATED.rawValue: throw ImageError.truncatedData(text)
            case VT_STATUS_UNSUPPORTED.rawValue, VT_STATUS_UNAVAILABLE.rawValue:
                throw ImageError.unsupportedFormat(text)
            case VT_STATUS_TOO_LARGE.rawValue:
                throw limits.tooLarge(width: Int(info.width), height: Int(info.height))
            case VT_STATUS_TOO_MANY_SCANS.rawValue:
                throw ImageError.corruptData(text + " (limit \(limits.maxProgressiveScans))")
            case VT_STATUS_OUT_OF_MEMORY.rawValue: throw ImageError.outOfMemory
            default: throw ImageError.corruptData(text)
            }
        }
    }
#endif
