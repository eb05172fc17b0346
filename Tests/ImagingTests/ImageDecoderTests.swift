import Foundation
import Imaging
import TestSupport
import Testing

/// Decoding of the shared originals and of every PNG/JPEG variant the decoder must handle.
@Suite struct ImageDecoderTests {
    static let originals = [
        "astronaut.png", "business-person.png", "camera.png", "grace_hopper.jpg", "hand_test_image.jpg",
        "hand_thumb_up.jpg", "od_test_image.jpg",
    ]

    @Test(arguments: originals)
    func originalDecodesToMediaPipesPixels(file: String) throws {
        guard let original = SharedData.path("images/original/" + file),
            let decodedPath = SharedData.path("images/decoded/" + file.split(separator: ".")[0] + ".png")
        else {
            print("skipping \(file): ../shared/images absent")
            return
        }
        let ours = try ImageDecoder.decodeFile(atPath: original).bitmap
        let reference = try ImageDecoder.decodeFile(atPath: decodedPath).bitmap
        #expect(ours.width == reference.width && ours.height == reference.height)
        var largest = 0
        for (a, b) in zip(ours.bytes, reference.bytes) {
            largest = max(largest, abs(Int(a) - Int(b)))
        }
        // PNG decodes identically everywhere; JPEG decoders differ by a few levels.
        let tolerance = file.hasSuffix(".png") ? 0 : 3
        #expect(largest <= tolerance, "\(file): max difference \(largest)")
    }

    @Test(arguments: originals)
    func decodedPNGMatchesReferenceChecksum(file: String) throws {
        let name = String(file.split(separator: ".")[0])
        guard let path = SharedData.path("images/decoded/\(name).png"),
            let json = SharedData.path("reference/pose_landmarker_full/\(name).json")
        else {
            print("skipping \(name): ../shared absent")
            return
        }
        struct Document: Decodable {
            struct Image: Decodable {
                let decodedPixelsSha256: String
                enum CodingKeys: String, CodingKey { case decodedPixelsSha256 = "decoded_pixels_sha256" }
            }
            let image: Image
        }
        let expected = try JSONDecoder().decode(Document.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
        let bitmap = try ImageDecoder.decodeFile(atPath: path).bitmap
        #expect(SHA256Digest.hex(bitmap.bytes) == expected.image.decodedPixelsSha256)
    }

    @Test(arguments: [
        "rgb8.png", "rgba8.png", "rgb16.png", "rgba16.png", "rgb8_interlaced.png", "rgb8_exif6.png",
    ])
    func colorPNGVariantDecodesExactly(file: String) throws {
        let decoded = try FixturePattern.decode(file)
        #expect(decoded.format == .png)
        #expect(decoded.bitmap.width == FixturePattern.width && decoded.bitmap.height == FixturePattern.height)
        // Alpha dropped without premultiplying (alpha is 0 at (0, 0) in the RGBA files), 16-bit
        // samples (value · 257) scaled back exactly.
        #expect(FixturePattern.difference(decoded.bitmap).max == 0)
    }

    @Test(arguments: ["gray8.png", "gray_alpha8.png", "gray16.png"])
    func grayPNGExpandsToEqualChannels(file: String) throws {
        let bitmap = try FixturePattern.decode(file).bitmap
        for y in 0..<FixturePattern.height {
            for x in 0..<FixturePattern.width {
                let pixel = try #require(bitmap.rgb(x: x, y: y))
                let expected = UInt8(FixturePattern.rgb(x: x, y: y).red)
                #expect(pixel.red == expected && pixel.green == expected && pixel.blue == expected)
            }
        }
    }

    @Test(arguments: ["palette.png", "palette_trns.png"])
    func palettePNGExpandsToPaletteColors(file: String) throws {
        let bitmap = try FixturePattern.decode(file).bitmap
        for y in 0..<FixturePattern.height {
            for x in 0..<FixturePattern.width {
                let index = (x + y) % 16
                let pixel = try #require(bitmap.rgb(x: x, y: y))
                #expect(
                    Int(pixel.red) == index * 16 && Int(pixel.green) == 255 - index * 16
                        && Int(pixel.blue) == (index * 37) % 256)
            }
        }
    }

    @Test func oneBitPNGExpandsToBlackAndWhite() throws {
        let bitmap = try FixturePattern.decode("gray1.png").bitmap
        for y in 0..<FixturePattern.height {
            for x in 0..<FixturePattern.width {
                let expected: UInt8 = (x + y) % 2 == 1 ? 255 : 0
                #expect(bitmap.rgb(x: x, y: y)?.green == expected)
            }
        }
    }

    @Test(arguments: ["rgb.jpg", "progressive.jpg", "cmyk.jpg", "rgb_exif6.jpg"])
    func colorJPEGVariantDecodesCloseToPattern(file: String) throws {
        let decoded = try FixturePattern.decode(file)
        #expect(decoded.format == .jpeg)
        let difference = FixturePattern.difference(decoded.bitmap)
        #expect(difference.mean < 2.5, "\(file): mean difference \(difference.mean)")
        #expect(difference.max <= 24, "\(file): max difference \(difference.max)")
    }

    @Test func grayJPEGExpandsToEqualChannels() throws {
        let bitmap = try FixturePattern.decode("gray.jpg").bitmap
        var worst = 0
        for y in 0..<FixturePattern.height {
            for x in 0..<FixturePattern.width {
                let pixel = try #require(bitmap.rgb(x: x, y: y))
                #expect(pixel.red == pixel.green && pixel.green == pixel.blue)
                worst = max(worst, abs(Int(pixel.red) - FixturePattern.rgb(x: x, y: y).red))
            }
        }
        #expect(worst <= 8)
    }

    @Test func exifOrientationIsReadFromJPEGAndPNG() throws {
        #expect(try FixturePattern.decode("rgb_exif6.jpg").orientation == .right)
        #expect(try FixturePattern.decode("rgb8_exif6.png").orientation == .right)
        #expect(try FixturePattern.decode("rgb.jpg").orientation == nil)
        #expect(try FixturePattern.decode("rgb8.png").orientation == nil)
    }

    @Test func decodingAFileReportsMissingPaths() {
        #expect(throws: ImageError.self) {
            try ImageDecoder.decodeFile(atPath: "/nonexistent/image.png")
        }
        #expect(throws: ImageError.self) {
            try ImageDecoder.decodeFile(atPath: "/tmp")
        }
    }
}
