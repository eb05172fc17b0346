import Foundation
import Imaging
import Testing

/// PNG and JPEG encoding round trips.
@Suite struct ImageEncoderTests {
    @Test func pngRoundTripIsLossless() throws {
        let bitmap = try OrientationTests.sampleBitmap(width: 53, height: 31)
        let file = try ImageEncoder.png(bitmap)
        #expect(Array(file.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        let decoded = try file.withUnsafeBytes { try ImageDecoder.decode($0) }
        #expect(decoded.bitmap == bitmap)
        #expect(decoded.orientation == nil)
    }

    @Test func jpegRoundTripIsClose() throws {
        // Smooth content compresses well: high quality keeps every value within a few levels.
        var bytes = [UInt8](repeating: 0, count: 64 * 48 * 3)
        for y in 0..<48 {
            for x in 0..<64 {
                bytes[(y * 64 + x) * 3] = UInt8(x * 4)
                bytes[(y * 64 + x) * 3 + 1] = UInt8(y * 5)
                bytes[(y * 64 + x) * 3 + 2] = 128
            }
        }
        let bitmap = try Bitmap(width: 64, height: 48, layout: .rgb8, bytes: bytes)
        let high = try ImageEncoder.jpeg(bitmap, quality: 95)
        let low = try ImageEncoder.jpeg(bitmap, quality: 10)
        #expect(Array(high.prefix(3)) == [0xFF, 0xD8, 0xFF])
        #expect(low.count < high.count)
        let decoded = try high.withUnsafeBytes { try ImageDecoder.decode($0) }.bitmap
        let largest = zip(decoded.bytes, bitmap.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(largest <= 6)
    }

    @Test func alphaLayoutsAreWrittenAsRGB() throws {
        let rgba = try Bitmap(width: 2, height: 1, layout: .bgra8, bytes: [10, 20, 30, 0, 40, 50, 60, 255])
        let decoded = try ImageEncoder.png(rgba).withUnsafeBytes { try ImageDecoder.decode($0) }.bitmap
        #expect(decoded.bytes == [30, 20, 10, 60, 50, 40])
    }

    @Test func orientationIsWrittenAsMetadata() throws {
        let bitmap = try OrientationTests.sampleBitmap(width: 8, height: 8)
        for orientation in ImageOrientation.allCases {
            let png = try ImageEncoder.png(bitmap, orientation: orientation)
            let jpeg = try ImageEncoder.jpeg(bitmap, orientation: orientation)
            #expect(try png.withUnsafeBytes { try ImageDecoder.decode($0) }.orientation == orientation)
            #expect(try jpeg.withUnsafeBytes { try ImageDecoder.decode($0) }.orientation == orientation)
        }
    }

    @Test func encodingChoosesTheFormatFromTheFileName() throws {
        let bitmap = try OrientationTests.sampleBitmap(width: 4, height: 4)
        #expect(try ImageEncoder.encode(bitmap, forPath: "out/Annotated.PNG").first == 0x89)
        #expect(try ImageEncoder.encode(bitmap, forPath: "a.jpeg").first == 0xFF)
        #expect(throws: ImageError.self) { try ImageEncoder.encode(bitmap, forPath: "a.gif") }
    }
}
