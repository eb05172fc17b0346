/// Finds the EXIF `Orientation` tag in JPEG (APP1 "Exif" segment) and PNG (eXIf chunk)
/// files, and builds the minimal EXIF block that encoders write. Every read is bounds-checked;
/// a damaged EXIF block simply yields no orientation.
///
/// Formats: JPEG markers (ITU T.81 annex B), PNG chunks (PNG specification §5.3 and the eXIf
/// extension), TIFF 6.0 image file directories (EXIF 2.3 §4.6).
package enum ExifOrientationReader {
    /// The orientation stored in a JPEG file, or `nil` when it has none.
    package static func jpegOrientation(_ data: UnsafeRawBufferPointer) -> ImageOrientation? {
        guard data.count >= 4, data[0] == 0xFF, data[1] == 0xD8 else { return nil }
        var offset = 2
        while offset + 4 <= data.count {
            guard data[offset] == 0xFF else { return nil }
            let marker = data[offset + 1]
            if marker == 0xFF {  // fill byte
                offset += 1
                continue
            }
            // Markers without a length field.
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                offset += 2
                continue
            }
            // Start of scan or end of image: metadata segments come before.
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(data[offset + 2]) << 8 | Int(data[offset + 3])
            guard length >= 2, offset + 2 + length <= data.count else { return nil }
            let payloadStart = offset + 4
            let payloadCount = length - 2
            if marker == 0xE1, payloadCount >= 6,
                data[payloadStart] == 0x45, data[payloadStart + 1] == 0x78,  // "Ex"
                data[payloadStart + 2] == 0x69, data[payloadStart + 3] == 0x66,  // "if"
                data[payloadStart + 4] == 0, data[payloadStart + 5] == 0
            {
                let tiff = UnsafeRawBufferPointer(
                    rebasing: data[(payloadStart + 6)..<(payloadStart + payloadCount)])
                if let orientation = tiffOrientation(tiff) { return orientation }
            }
            offset += 2 + length
        }
        return nil
    }

    /// The orientation stored in a PNG file's eXIf chunk, or `nil` when it has none.
    package static func pngOrientation(_ data: UnsafeRawBufferPointer) -> ImageOrientation? {
        guard data.count >= 8 else { return nil }
        var offset = 8
        while offset + 12 <= data.count {
            let length = readUInt32(data, offset, bigEndian: true)
            let type = (data[offset + 4], data[offset + 5], data[offset + 6], data[offset + 7])
            guard length <= UInt32(data.count - offset - 12) else { return nil }
            let start = offset + 8
            let end = start + Int(length)
            if type == (0x65, 0x58, 0x49, 0x66) {  // "eXIf"
                return tiffOrientation(UnsafeRawBufferPointer(rebasing: data[start..<end]))
            }
            if type == (0x49, 0x45, 0x4E, 0x44) { return nil }  // "IEND"
            offset = end + 4
        }
        return nil
    }

    /// The `Orientation` tag (0x0112) of the first image file directory of a TIFF structure.
    package static func tiffOrientation(_ tiff: UnsafeRawBufferPointer) -> ImageOrientation? {
        guard tiff.count >= 8 else { return nil }
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): bigEndian = false  // "II"
        case (0x4D, 0x4D): bigEndian = true  // "MM"
        default: return nil
        }
        guard readUInt16(tiff, 2, bigEndian: bigEndian) == 42 else { return nil }
        let directory = Int(readUInt32(tiff, 4, bigEndian: bigEndian))
        guard directory >= 8, directory <= tiff.count - 2 else { return nil }
        let entryCount = Int(readUInt16(tiff, directory, bigEndian: bigEndian))
        for index in 0..<entryCount {
            let entry = directory + 2 + index * 12
            guard entry + 12 <= tiff.count else { return nil }
            let tag = readUInt16(tiff, entry, bigEndian: bigEndian)
            guard tag == 0x0112 else { continue }
            let type = readUInt16(tiff, entry + 2, bigEndian: bigEndian)
            let count = readUInt32(tiff, entry + 4, bigEndian: bigEndian)
            guard count >= 1 else { return nil }
            let value: Int
            switch type {
            case 3: value = Int(readUInt16(tiff, entry + 8, bigEndian: bigEndian))  // SHORT
            case 4: value = Int(readUInt32(tiff, entry + 8, bigEndian: bigEndian))  // LONG
            default: return nil
            }
            return ImageOrientation(exifValue: value)
        }
        return nil
    }

    /// A big-endian TIFF structure with one directory holding only the orientation tag.
    package static func tiffBlock(for orientation: ImageOrientation) -> [UInt8] {
        let value = UInt8(orientation.exifValue)
        return [
            0x4D, 0x4D, 0x00, 0x2A,  // "MM", 42
            0x00, 0x00, 0x00, 0x08,  // first directory at offset 8
            0x00, 0x01,  // one entry
            0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01,  // Orientation, SHORT, count 1
            0x00, value, 0x00, 0x00,  // value, padding
            0x00, 0x00, 0x00, 0x00,  // no next directory
        ]
    }

    /// The payload of a JPEG APP1 segment carrying ``tiffBlock(for:)``.
    package static func jpegExifPayload(for orientation: ImageOrientation) -> [UInt8] {
        [0x45, 0x78, 0x69, 0x66, 0x00, 0x00] + tiffBlock(for: orientation)
    }

    private static func readUInt16(_ data: UnsafeRawBufferPointer, _ offset: Int, bigEndian: Bool) -> UInt16 {
        let first = UInt16(data[offset])
        let second = UInt16(data[offset + 1])
        return bigEndian ? first << 8 | second : second << 8 | first
    }

    private static func readUInt32(_ data: UnsafeRawBufferPointer, _ offset: Int, bigEndian: Bool) -> UInt32 {
        var value: UInt32 = 0
        for index in 0..<4 {
            let byte = UInt32(data[offset + (bigEndian ? index : 3 - index)])
            value = value << 8 | byte
        }
        return value
    }
}
