/// 8-bit pixels in memory, tightly packed row by row: what decoders produce, what the
/// image-to-tensor conversion reads and what the drawing canvas paints on.
///
/// Decoded files are always ``Layout-swift.enum/rgb8``; raw RGBA and BGRA input (camera frames)
/// is kept in its own layout so that it is not converted before cropping.
package struct Bitmap: Sendable, Equatable {
    /// The order and count of the bytes of one pixel.
    package enum Layout: Sendable, Equatable {
        /// Red, green, blue.
        case rgb8
        /// Red, green, blue, alpha (alpha ignored).
        case rgba8
        /// Blue, green, red, alpha (alpha ignored).
        case bgra8

        /// Bytes per pixel.
        package var bytesPerPixel: Int {
            self == .rgb8 ? 3 : 4
        }

        /// Offsets of the red, green and blue bytes inside a pixel.
        package var channelOffsets: (red: Int, green: Int, blue: Int) {
            self == .bgra8 ? (2, 1, 0) : (0, 1, 2)
        }
    }

    /// The largest width or height a bitmap may have.
    package static let maxDimension = 1 << 16

    /// Width in pixels.
    package let width: Int
    /// Height in pixels.
    package let height: Int
    /// Byte layout of a pixel.
    package let layout: Layout
    /// The pixel bytes, `height` rows of ``bytesPerRow`` bytes.
    package private(set) var bytes: [UInt8]

    /// Bytes per row (rows are tightly packed).
    package var bytesPerRow: Int { width * layout.bytesPerPixel }

    /// A bitmap of the given size with every byte zero (black).
    ///
    /// - Throws: ``ImageError/invalidDimensions(width:height:)`` for a zero, negative or
    ///   unrepresentable size.
    package init(width: Int, height: Int, layout: Layout = .rgb8) throws {
        let count = try Bitmap.byteCount(width: width, height: height, layout: layout)
        self.width = width
        self.height = height
        self.layout = layout
        bytes = [UInt8](repeating: 0, count: count)
    }

    /// Wraps already packed bytes. `bytes.count` must equal `width * height * bytesPerPixel`.
    package init(width: Int, height: Int, layout: Layout, bytes: [UInt8]) throws {
        let count = try Bitmap.byteCount(width: width, height: height, layout: layout)
        guard bytes.count == count else {
            throw ImageError.invalidPixelData(
                "expected \(count) bytes for \(width)x\(height) pixels, got \(bytes.count)")
        }
        self.width = width
        self.height = height
        self.layout = layout
        self.bytes = bytes
    }

    /// Copies raw pixels described by `format` and `bytesPerRow`. Gray is expanded to
    /// R = G = B; RGBA and BGRA keep their layout (alpha is ignored later, never premultiplied).
    ///
    /// - Throws: ``ImageError/invalidDimensions(width:height:)`` or
    ///   ``ImageError/invalidPixelData(_:)`` when the description does not fit the buffer.
    package init(
        copying pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int,
        format: PixelFormat
    ) throws {
        let layout: Layout
        switch format {
        case .rgb8, .gray8: layout = .rgb8
        case .rgba8: layout = .rgba8
        case .bgra8: layout = .bgra8
        }
        let count = try Bitmap.byteCount(width: width, height: height, layout: layout)
        let rowLength = width * format.bytesPerPixel
        guard bytesPerRow >= rowLength else {
            throw ImageError.invalidPixelData(
                "bytesPerRow \(bytesPerRow) is smaller than \(width) pixels of \(format.bytesPerPixel) bytes")
        }
        let (span, spanOverflow) = bytesPerRow.multipliedReportingOverflow(by: height - 1)
        let (needed, neededOverflow) = span.addingReportingOverflow(rowLength)
        guard !spanOverflow, !neededOverflow, pixels.count >= needed, let source = pixels.baseAddress else {
            throw ImageError.invalidPixelData(
                "buffer of \(pixels.count) bytes is too small for \(height) rows of \(bytesPerRow) bytes")
        }
        var packed = [UInt8](repeating: 0, count: count)
        packed.withUnsafeMutableBytes { destination in
            guard let target = destination.baseAddress else { return }
            if format == .gray8 {
                for y in 0..<height {
                    let row = source.advanced(by: y * bytesPerRow).assumingMemoryBound(to: UInt8.self)
                    let out = target.advanced(by: y * width * 3).assumingMemoryBound(to: UInt8.self)
                    for x in 0..<width {
                        let value = row[x]
                        out[3 * x] = value
                        out[3 * x + 1] = value
                        out[3 * x + 2] = value
                    }
                }
            } else if bytesPerRow == rowLength {
                target.copyMemory(from: source, byteCount: count)
            } else {
                for y in 0..<height {
                    target.advanced(by: y * rowLength)
                        .copyMemory(from: source.advanced(by: y * bytesPerRow), byteCount: rowLength)
                }
            }
        }
        self.width = width
        self.height = height
        self.layout = layout
        bytes = packed
    }

    /// The byte count of a tightly packed bitmap, validating the size.
    package static func byteCount(width: Int, height: Int, layout: Layout) throws -> Int {
        guard width > 0, height > 0, width <= maxDimension, height <= maxDimension else {
            throw ImageError.invalidDimensions(width: width, height: height)
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        let (count, overflow2) = pixels.multipliedReportingOverflow(by: layout.bytesPerPixel)
        guard !overflow, !overflow2 else {
            throw ImageError.invalidDimensions(width: width, height: height)
        }
        return count
    }

    /// The red, green and blue values of pixel (x, y); `nil` outside the bitmap.
    package func rgb(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8)? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let base = y * bytesPerRow + x * layout.bytesPerPixel
        let offsets = layout.channelOffsets
        return (bytes[base + offsets.red], bytes[base + offsets.green], bytes[base + offsets.blue])
    }

    /// This bitmap in RGB layout (itself when it already is).
    package func convertedToRGB() -> Bitmap {
        guard layout != .rgb8 else { return self }
        let offsets = layout.channelOffsets
        var output = [UInt8](repeating: 0, count: width * height * 3)
        bytes.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                for index in 0..<(width * height) {
                    destination[3 * index] = source[4 * index + offsets.red]
                    destination[3 * index + 1] = source[4 * index + offsets.green]
                    destination[3 * index + 2] = source[4 * index + offsets.blue]
                }
            }
        }
        return Bitmap(uncheckedWidth: width, height: height, layout: .rgb8, bytes: output)
    }

    /// The upright image as a new RGB bitmap: the stored pixels turned and flipped as
    /// `orientation` says.
    package func applying(_ orientation: ImageOrientation) -> Bitmap {
        let source = convertedToRGB()
        guard orientation != .up else { return source }
        let size = orientation.uprightSize(width: width, height: height)
        let map = orientation.storedPixelMap(width: width, height: height)
        var output = [UInt8](repeating: 0, count: size.width * size.height * 3)
        source.bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { destination in
                var index = 0
                for y in 0..<size.height {
                    for x in 0..<size.width {
                        let storedX = map.origin.x + x * map.xStep.x + y * map.yStep.x
                        let storedY = map.origin.y + x * map.xStep.y + y * map.yStep.y
                        let offset = (storedY * width + storedX) * 3
                        destination[index] = input[offset]
                        destination[index + 1] = input[offset + 1]
                        destination[index + 2] = input[offset + 2]
                        index += 3
                    }
                }
            }
        }
        return Bitmap(uncheckedWidth: size.width, height: size.height, layout: .rgb8, bytes: output)
    }

    /// Calls `body` with the pixel bytes for reading.
    package func withUnsafeBytes<Result>(
        _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        try bytes.withUnsafeBufferPointer(body)
    }

    /// Calls `body` with the pixel bytes for writing.
    package mutating func withUnsafeMutableBytes<Result>(
        _ body: (UnsafeMutableBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        try bytes.withUnsafeMutableBufferPointer { buffer in try body(buffer) }
    }

    /// Wraps bytes whose count the caller has already validated.
    package init(uncheckedWidth width: Int, height: Int, layout: Layout, bytes: [UInt8]) {
        self.width = width
        self.height = height
        self.layout = layout
        self.bytes = bytes
    }
}
