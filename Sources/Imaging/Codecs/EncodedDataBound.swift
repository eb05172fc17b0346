/// A check, before the pixel buffer is allocated, that the encoded data is large enough to
/// hold the image its header announces.
///
/// ``DecodingLimits`` bound what a header may claim; this bounds what a *small file* may claim:
/// a 100-byte PNG announcing 16000 × 4000 pixels (within the limits) would otherwise make the
/// decoder allocate 192 MB before finding that the data is missing. Both bounds are exact
/// lower bounds for valid files, so no valid image is rejected:
/// - PNG: deflate codes at most 258 bytes per 2 bits (a length-258 match with one-bit codes),
///   so its output is at most 1032 times its input (RFC 1951 §3.2.5; the zlib technical
///   details give the same 1032:1 limit). The image needs at least width × height × bits per
///   pixel / 8 bytes of inflated data, all from IDAT chunks.
/// - Huffman-coded JPEG (SOF0/1/2): the first scan codes each block of its components with at
///   least one bit (a DC Huffman code is 1–16 bits, ITU T.81 §F.1.2.1 and §G.1.2.1), so the
///   data after the first SOS holds at least one bit per block of the component with the
///   fewest blocks. Arithmetic-coded JPEGs can go below one bit per block and are not bounded
///   here (the ``DecodingLimits`` still apply).
package enum EncodedDataBound {
    /// Largest deflate expansion factor.
    static let deflateExpansion = 1032

    /// Throws ``ImageError/truncatedData(_:)`` when `data` cannot hold a `width` × `height` image.
    package static func check(_ data: UnsafeRawBufferPointer, format: ImageFileFormat, width: Int, height: Int) throws {
        switch format {
        case .png: try checkPNG(data, width: width, height: height)
        case .jpeg: try checkJPEG(data, width: width, height: height)
        }
    }

    private static func bigEndian32(_ data: UnsafeRawBufferPointer, _ offset: Int) -> Int {
        (Int(data[offset]) << 24) | (Int(data[offset + 1]) << 16) | (Int(data[offset + 2]) << 8) | Int(data[offset + 3])
    }

    private static func checkPNG(_ data: UnsafeRawBufferPointer, width: Int, height: Int) throws {
        // IHDR: bit depth at offset 24, color type at 25 (PNG spec §11.2.2).
        guard data.count >= 26 else { return }
        let bitDepth = Int(data[24])
        let channels: Int
        switch data[25] {
        case 0, 3: channels = 1  // gray, palette
        case 4: channels = 2  // gray + alpha
        case 2: channels = 3  // RGB
        case 6: channels = 4  // RGBA
        default: return  // libpng rejects it with its own message
        }
        var idatBytes = 0
        var offset = 8
        while offset + 8 <= data.count {
            let length = bigEndian32(data, offset)
            let isIDAT =
                data[offset + 4] == 0x49 && data[offset + 5] == 0x44 && data[offset + 6] == 0x41
                && data[offset + 7] == 0x54
            // A chunk running past the end contributes what is there.
            let available = min(length, data.count - offset - 8)
            if isIDAT { idatBytes += available }
            offset += 8 + available + 4
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow else { return }
        let neededBytes = pixels / 8 * bitDepth * channels
        if neededBytes > deflateExpansion * idatBytes + deflateExpansion {
            throw ImageError.truncatedData(
                "PNG: \(idatBytes) bytes of image data cannot hold the \(width)x\(height) pixels the header announces")
        }
    }

    private static func checkJPEG(_ data: UnsafeRawBufferPointer, width: Int, height: Int) throws {
        var offset = 2
        var components: [(horizontal: Int, vertical: Int)] = []
        var huffman = false
        while offset + 4 <= data.count {
            guard data[offset] == 0xFF else { return }  // libjpeg reports the damage
            let marker = data[offset + 1]
            if marker == 0xFF {
                offset += 1
                continue
            }  // fill byte
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                offset += 2
                continue
            }
            let length = (Int(data[offset + 2]) << 8) | Int(data[offset + 3])
            guard length >= 2, offset + 2 + length <= data.count else { return }
            switch marker {
            case 0xC0, 0xC1, 0xC2:  // baseline, extended, progressive Huffman
                huffman = true
                let count = length >= 8 ? Int(data[offset + 9]) : 0
                components = []
                for index in 0..<count where offset + 10 + 3 * index + 2 <= offset + 2 + length {
                    let sampling = data[offset + 11 + 3 * index]
                    components.append((Int(sampling >> 4), Int(sampling & 0x0F)))
                }
            case 0xDA:  // start of scan: the entropy-coded data follows its header
                guard huffman, !components.isEmpty else { return }
                let maxH = components.map(\.horizontal).max() ?? 1
                let maxV = components.map(\.vertical).max() ?? 1
                guard maxH > 0, maxV > 0, components.allSatisfy({ $0.horizontal > 0 && $0.vertical > 0 }) else {
                    return
                }
                let fewestBlocks =
                    components.map { component -> Int in
                        let columns = (width * component.horizontal + maxH - 1) / maxH
                        let rows = (height * component.vertical + maxV - 1) / maxV
                        return ((columns + 7) / 8) * ((rows + 7) / 8)
                    }.min() ?? 0
                let entropyBytes = data.count - (offset + 2 + length)
                if fewestBlocks > entropyBytes * 8 {
                    throw ImageError.truncatedData(
                        "JPEG: \(entropyBytes) bytes of scan data cannot hold the \(width)x\(height) pixels "
                            + "the header announces")
                }
                return
            default:
                break
            }
            offset += 2 + length
        }
    }
}
