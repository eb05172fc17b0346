import Foundation
import Imaging
import Testing

/// Raw-pixel bitmaps: formats, strides and argument checks.
@Suite struct BitmapTests {
    @Test func rawFormatsAreCopiedWithTheirStride() throws {
        // 2 × 2 pixels, rows padded to 12 bytes.
        let rgba: [UInt8] = [1, 2, 3, 99, 4, 5, 6, 99, 0, 0, 0, 0, 7, 8, 9, 99, 10, 11, 12, 99, 0, 0, 0, 0]
        let fromRGBA = try rgba.withUnsafeBytes {
            try Bitmap(copying: $0, width: 2, height: 2, bytesPerRow: 12, format: .rgba8)
        }
        #expect(fromRGBA.layout == .rgba8)
        #expect(fromRGBA.convertedToRGB().bytes == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
        let fromBGRA = try rgba.withUnsafeBytes {
            try Bitmap(copying: $0, width: 2, height: 2, bytesPerRow: 12, format: .bgra8)
        }
        #expect(fromBGRA.convertedToRGB().bytes == [3, 2, 1, 6, 5, 4, 9, 8, 7, 12, 11, 10])
        let gray: [UInt8] = [10, 20, 0, 30, 40]
        let fromGray = try gray.withUnsafeBytes {
            try Bitmap(copying: $0, width: 2, height: 2, bytesPerRow: 3, format: .gray8)
        }
        #expect(fromGray.bytes == [10, 10, 10, 20, 20, 20, 30, 30, 30, 40, 40, 40])
        let rgb: [UInt8] = Array(1...12)
        let fromRGB = try rgb.withUnsafeBytes {
            try Bitmap(copying: $0, width: 2, height: 2, bytesPerRow: 6, format: .rgb8)
        }
        #expect(fromRGB.bytes == rgb)
    }

    @Test func inconsistentRawPixelsAreTypedErrors() throws {
        let bytes = [UInt8](repeating: 0, count: 16)
        bytes.withUnsafeBytes { buffer in
            #expect(throws: ImageError.self) {  // row shorter than the pixels
                try Bitmap(copying: buffer, width: 4, height: 1, bytesPerRow: 8, format: .rgba8)
            }
            #expect(throws: ImageError.self) {  // buffer too short
                try Bitmap(copying: buffer, width: 2, height: 3, bytesPerRow: 8, format: .rgba8)
            }
            #expect(throws: ImageError.self) {
                try Bitmap(copying: buffer, width: 0, height: 3, bytesPerRow: 8, format: .rgba8)
            }
            #expect(throws: ImageError.self) {
                try Bitmap(copying: buffer, width: 1, height: Int.max, bytesPerRow: 8, format: .gray8)
            }
            #expect(throws: ImageError.self) {
                try Bitmap(copying: buffer, width: 1, height: 2, bytesPerRow: Int.max / 2, format: .gray8)
            }
        }
        #expect(throws: ImageError.self) { try Bitmap(width: -1, height: 4) }
        #expect(throws: ImageError.self) { try Bitmap(width: 2, height: 2, layout: .rgb8, bytes: [1, 2]) }
    }

    @Test func lastRowNeedsOnlyItsPixels() throws {
        // The final row may end right after its pixels (no trailing stride padding).
        let bytes = [UInt8](repeating: 7, count: 8 + 6)
        let bitmap = try bytes.withUnsafeBytes {
            try Bitmap(copying: $0, width: 2, height: 2, bytesPerRow: 8, format: .rgb8)
        }
        #expect(bitmap.bytes.count == 12)
    }
}
