import Foundation
import Imaging

/// The 24×16 pattern every decoder fixture shows (scripts/reference/image_fixtures.py).
enum FixturePattern {
    static let width = 24
    static let height = 16

    static func rgb(x: Int, y: Int) -> (red: Int, green: Int, blue: Int) {
        (x * 255 / 23, y * 255 / 15, (x + y) * 255 / 38)
    }

    /// The largest and the mean absolute channel difference between `bitmap` and the pattern.
    static func difference(_ bitmap: Bitmap) -> (max: Int, mean: Double) {
        var largest = 0
        var total = 0
        for y in 0..<height {
            for x in 0..<width {
                guard let pixel = bitmap.rgb(x: x, y: y) else { return (Int.max, .infinity) }
                let expected = rgb(x: x, y: y)
                for (value, target) in [
                    (pixel.red, expected.red), (pixel.green, expected.green), (pixel.blue, expected.blue),
                ] {
                    let difference = abs(Int(value) - target)
                    largest = max(largest, difference)
                    total += difference
                }
            }
        }
        return (largest, Double(total) / Double(width * height * 3))
    }

    /// The bytes of fixture `name`.
    static func data(_ name: String) throws -> [UInt8] {
        try GoldenFiles.bytes("fixtures/" + name)
    }

    /// Decodes fixture `name`.
    static func decode(_ name: String) throws -> DecodedImage {
        try data(name).withUnsafeBytes { try ImageDecoder.decode($0) }
    }
}

/// CRC-32 (ISO 3309, as PNG chunks use it), for crafting test PNGs.
enum CRC32 {
    static func checksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
            }
        }
        return ~crc
    }

    /// A PNG chunk: length, type, data, CRC.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        var chunk = bigEndian(UInt32(data.count)) + typeBytes + data
        chunk += bigEndian(checksum(typeBytes + data))
        return chunk
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
