import AllocationCounter
import Foundation
import Testing

@testable import Imaging

/// Headers that lie about the image size: each is rejected with a typed error, and no single
/// allocation on the decoding thread grows with what the header claims (the AllocationCounter
/// wrapper records the largest malloc of the tracking thread).
@Suite("Decoding memory bounds", .serialized)
struct DecodingMemoryBoundsTests {
    /// AllocationCounter session of this suite (InferenceTests use 1 and 2).
    private static let session: Int32 = 40
    /// No allocation while decoding a tiny file may exceed this (libpng's and libjpeg's state
    /// and the limit-bounded row buffers are far below it; the images claim hundreds of MB).
    private static let allowedAllocation: UInt64 = 4 << 20

    /// Decodes `bytes` on this thread while recording its largest allocation.
    private func decodeCountingLargestAllocation(_ bytes: [UInt8]) -> (Result<DecodedImage, any Error>, UInt64) {
        allocation_counter_reset_largest(Self.session)
        allocation_counter_track_this_thread(Self.session)
        let result = Result { try bytes.withUnsafeBytes { try ImageDecoder.decode($0) } }
        allocation_counter_track_this_thread(0)
        return (result, allocation_counter_session_largest(Self.session))
    }

    private func counterIsActive() -> Bool {
        guard allocation_counter_is_active() != 0 else {
            print("skipped: the allocation counter is not active on this platform")
            return false
        }
        return true
    }

    /// A PNG with a valid IHDR for the given size, one tiny IDAT and IEND.
    private func tinyPNG(width: UInt32, height: UInt32, colorType: UInt8 = 2) -> [UInt8] {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += CRC32.chunk("IHDR", CRC32.bigEndian(width) + CRC32.bigEndian(height) + [8, colorType, 0, 0, 0])
        png += CRC32.chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
        png += CRC32.chunk("IEND", [])
        return png
    }

    /// The 16 × 16 fixture JPEG with its SOF0 dimensions replaced.
    private func jpegClaiming(width: Int, height: Int) throws -> [UInt8] {
        var bytes = try FixturePattern.data("rgb.jpg")
        let sof = try #require((0..<(bytes.count - 9)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[sof + 5] = UInt8(height >> 8)
        bytes[sof + 6] = UInt8(height & 0xFF)
        bytes[sof + 7] = UInt8(width >> 8)
        bytes[sof + 8] = UInt8(width & 0xFF)
        return bytes
    }

    @Test func twentyThousandSquarePNGHeaderIsRejectedWithoutLargeAllocations() {
        guard counterIsActive() else { return }
        let (result, largest) = decodeCountingLargestAllocation(tinyPNG(width: 20000, height: 20000))
        #expect(
            throws: ImageError.imageTooLarge(
                width: 20000, height: 20000, maxWidth: 16384, maxHeight: 16384, maxPixelCount: 1 << 26)
        ) {
            try result.get()
        }
        #expect(largest < Self.allowedAllocation, "largest allocation \(largest) bytes")
    }

    @Test func twentyThousandSquareJPEGHeaderIsRejectedWithoutLargeAllocations() throws {
        guard counterIsActive() else { return }
        let (result, largest) = decodeCountingLargestAllocation(try jpegClaiming(width: 20000, height: 20000))
        #expect {
            try result.get()
        } throws: { error in
            guard case ImageError.imageTooLarge(let width, let height, _, _, _) = error else { return false }
            return width == 20000 && height == 20000
        }
        #expect(largest < Self.allowedAllocation, "largest allocation \(largest) bytes")
    }

    @Test func headerWithinTheLimitsOnATinyPNGIsTruncatedBeforeAllocating() {
        guard counterIsActive() else { return }
        // 64,000,000 pixels: within the limits (16384 per side, 2^26 pixels), 192 MB as RGB.
        expectTruncatedBeforeAllocating(tinyPNG(width: 16000, height: 4000), size: "16000x4000")
    }

    @Test func headerWithinTheLimitsOnATinyJPEGIsTruncatedBeforeAllocating() throws {
        guard counterIsActive() else { return }
        expectTruncatedBeforeAllocating(try jpegClaiming(width: 16000, height: 4000), size: "16000x4000")
    }

    /// Decoding `data` fails as truncated data naming `size`, and no allocation on the way
    /// reaches ``allowedAllocation``.
    private func expectTruncatedBeforeAllocating(_ data: [UInt8], size: String) {
        let (result, largest) = decodeCountingLargestAllocation(data)
        #expect {
            try result.get()
        } throws: { error in
            guard case ImageError.truncatedData(let message) = error else { return false }
            return message.contains(size)
        }
        #expect(largest < Self.allowedAllocation, "largest allocation \(largest) bytes")
    }

    @Test func lyingChunkLengthDoesNotReachTheAllocator() {
        guard counterIsActive() else { return }
        // Found by the png fuzzer: an eXIf chunk declaring 0x3000001A bytes in a 74-byte file;
        // libpng 1.6.39 allocated the declared length before reading the chunk.
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += CRC32.chunk("IHDR", CRC32.bigEndian(3) + CRC32.bigEndian(2) + [8, 2, 0, 0, 0])
        png += [0x30, 0x00, 0x00, 0x1A] + Array("eXIf".utf8) + Array(repeating: 0xFF, count: 12)
        let (result, largest) = decodeCountingLargestAllocation(png)
        #expect(throws: ImageError.self) { try result.get() }
        #expect(largest < Self.allowedAllocation, "largest allocation \(largest) bytes")
    }

    @Test func validImagesNearTheBoundStillDecode() throws {
        // A flat 2048 x 2048 gray PNG compresses close to deflate's limit (about 1000:1); the
        // bound must not reject it.
        let flat = try Bitmap(width: 2048, height: 2048, layout: .rgb8)
        let png = try ImageEncoder.png(flat)
        #expect(png.count < 2048 * 2048 * 3 / 300)
        let decoded = try png.withUnsafeBytes { try ImageDecoder.decode($0) }
        #expect(decoded.bitmap == flat)
        let jpeg = try ImageEncoder.jpeg(flat, quality: 50)
        let decodedJPEG = try jpeg.withUnsafeBytes { try ImageDecoder.decode($0) }
        #expect(decodedJPEG.bitmap.width == 2048 && decodedJPEG.bitmap.height == 2048)
    }

    @Test(arguments: [(1, 1), (1, 7), (9, 1)])
    func tinyImagesRoundTrip(width: Int, height: Int) throws {
        var bitmap = try Bitmap(width: width, height: height, layout: .rgb8)
        bitmap.withUnsafeMutableBytes { bytes in
            for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: 40 + index * 29) }
        }
        let png = try ImageEncoder.png(bitmap)
        #expect(try png.withUnsafeBytes { try ImageDecoder.decode($0) }.bitmap == bitmap)
        // JPEG: one flat color (chroma subsampling would blur a varied pattern).
        var flat = try Bitmap(width: width, height: height, layout: .rgb8)
        flat.withUnsafeMutableBytes { bytes in
            for index in bytes.indices { bytes[index] = [200, 120, 40][index % 3] }
        }
        let jpeg = try ImageEncoder.jpeg(flat, quality: 100)
        let decoded = try jpeg.withUnsafeBytes { try ImageDecoder.decode($0) }.bitmap
        #expect(decoded.width == width && decoded.height == height)
        let largestError = zip(decoded.bytes, flat.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(largestError <= 4, "JPEG at quality 100 on \(width)x\(height)")
    }
}
