import Foundation
import Imaging
import Testing

/// Bad input never crashes, never exits and never allocates for absurd headers: it decodes or
/// throws an ``ImageError``.
@Suite struct ImageDecoderRobustnessTests {
    private func decode(_ bytes: [UInt8]) throws -> DecodedImage {
        try bytes.withUnsafeBytes { try ImageDecoder.decode($0) }
    }

    /// Decodes and reports whether the outcome was a success or an ImageError (anything else
    /// fails the test).
    private func decodesOrThrowsImageError(_ bytes: [UInt8]) -> Bool {
        do {
            _ = try decode(bytes)
            return true
        } catch is ImageError {
            return true
        } catch {
            return false
        }
    }

    @Test func emptyDataIsATypedError() {
        #expect(throws: ImageError.emptyData) { try decode([]) }
    }

    @Test func unknownFormatIsATypedError() {
        #expect(throws: ImageError.self) { try decode(Array("GIF89a not supported".utf8)) }
        #expect(throws: ImageError.self) { try decode([0xFF, 0xD8]) }
    }

    @Test(arguments: ["rgb.jpg", "progressive.jpg", "cmyk.jpg", "gray.jpg"])
    func truncatedJPEGIsATypedErrorNotGrayFill(file: String) throws {
        let bytes = try FixturePattern.data(file)
        // Every cut inside the entropy-coded data or the headers must fail; only the final
        // EOI marker may be missing.
        for length in stride(from: 1, to: bytes.count - 2, by: 1) {
            let cut = Array(bytes[0..<length])
            do {
                _ = try decode(cut)
                Issue.record("\(file) cut at \(length) of \(bytes.count) bytes decoded")
            } catch let error as ImageError {
                switch error {
                case .truncatedData, .corruptData, .unsupportedFormat: break
                default: Issue.record("\(file) cut at \(length): unexpected \(error)")
                }
            }
        }
    }

    @Test(arguments: ["rgb8.png", "rgba16.png", "palette.png", "rgb8_interlaced.png"])
    func truncatedPNGIsATypedError(file: String) throws {
        let bytes = try FixturePattern.data(file)
        // The image data ends 12 bytes (the IEND chunk) before the end of the file.
        for length in 1..<(bytes.count - 12) {
            #expect(throws: ImageError.self, "\(file) cut at \(length)") {
                try decode(Array(bytes[0..<length]))
            }
        }
    }

    @Test func pngWithoutItsLastChunkStillDecodes() throws {
        let bytes = try FixturePattern.data("rgb8.png")
        let decoded = try decode(Array(bytes[0..<(bytes.count - 12)]))
        #expect(FixturePattern.difference(decoded.bitmap).max == 0)
    }

    @Test(arguments: [
        "rgb.jpg", "progressive.jpg", "rgb8.png", "rgba16.png", "palette_trns.png", "rgb8_interlaced.png",
    ])
    func randomlyCorruptedFilesDecodeOrThrowImageError(file: String) throws {
        let original = try FixturePattern.data(file)
        var generator = SeededGenerator(seed: 0x5EED_0000 &+ UInt64(file.utf8.count))
        let rounds = 400
        for round in 0..<rounds {
            var bytes = original
            let flips = 1 + Int(generator.next() % 8)
            for _ in 0..<flips {
                let position = Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 3 {
                case 0: bytes[position] = UInt8(truncatingIfNeeded: generator.next())
                case 1: bytes[position] ^= 1 << UInt8(generator.next() % 8)
                default: bytes[position] = [0x00, 0xFF, 0x7F, 0x80][Int(generator.next() % 4)]
                }
            }
            if generator.next() % 4 == 0 {
                bytes.removeLast(Int(generator.next() % UInt64(bytes.count / 2)))
            }
            #expect(decodesOrThrowsImageError(bytes), "\(file) round \(round)")
        }
    }

    @Test func hugeJPEGHeaderIsRejectedBeforeAllocating() throws {
        var bytes = try FixturePattern.data("rgb.jpg")
        // Find the SOF0 marker and announce 60000 × 60000 pixels.
        let sof = try #require((0..<(bytes.count - 9)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[sof + 5] = 0xEA
        bytes[sof + 6] = 0x60  // height 60000
        bytes[sof + 7] = 0xEA
        bytes[sof + 8] = 0x60  // width 60000
        #expect {
            try decode(bytes)
        } throws: { error in
            guard case ImageError.imageTooLarge(let width, let height, _, _, _) = error else { return false }
            return width == 60000 && height == 60000
        }
    }

    @Test func hugePNGHeaderIsRejectedBeforeAllocating() throws {
        let png = makePNG(width: 100_000, height: 100_000, colorType: 2)
        #expect {
            try decode(png)
        } throws: { error in
            guard case ImageError.imageTooLarge(let width, let height, _, _, _) = error else { return false }
            return width == 100_000 && height == 100_000
        }
        // Within each side's limit but beyond the pixel budget.
        #expect(throws: ImageError.self) { try decode(makePNG(width: 16000, height: 16000, colorType: 2)) }
    }

    @Test func zeroSizedImagesAreTypedErrors() throws {
        #expect(throws: ImageError.self) { try decode(makePNG(width: 0, height: 10, colorType: 2)) }
        var jpeg = try FixturePattern.data("rgb.jpg")
        let sof = try #require((0..<(jpeg.count - 9)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg[sof + 5] = 0
        jpeg[sof + 6] = 0  // height 0
        #expect(throws: ImageError.self) { try decode(jpeg) }
    }

    @Test func twelveBitJPEGIsUnsupported() throws {
        var jpeg = try FixturePattern.data("rgb.jpg")
        let sof = try #require((0..<(jpeg.count - 9)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg[sof + 4] = 12  // sample precision
        #expect(throws: ImageError.self) { try decode(jpeg) }
    }

    @Test func lowerLimitsRejectOrdinaryImages() throws {
        let bytes = try FixturePattern.data("rgb.jpg")
        let limits = DecodingLimits(maxWidth: 16, maxHeight: 16, maxPixelCount: 1000)
        #expect(throws: ImageError.self) {
            try bytes.withUnsafeBytes { try ImageDecoder.decode($0, limits: limits) }
        }
    }

    /// A PNG consisting of a valid IHDR for the given size and an empty image.
    private func makePNG(width: UInt32, height: UInt32, colorType: UInt8) -> [UInt8] {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let header = CRC32.bigEndian(width) + CRC32.bigEndian(height) + [8, colorType, 0, 0, 0]
        png += CRC32.chunk("IHDR", header)
        png += CRC32.chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
        png += CRC32.chunk("IEND", [])
        return png
    }
}

/// SplitMix64: a small deterministic generator for the mutation tests.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
