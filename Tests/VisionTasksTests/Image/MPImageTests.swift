import Foundation
import Imaging
import TestSupport
import Testing
import VisionTasks

/// MPImage initializers on Linux: files, data, EXIF orientation, raw pixels and their errors.
@Suite struct MPImageTests {
    /// `jpeg` with an EXIF APP1 segment declaring `orientation` inserted after SOI.
    static func insertingExif(_ jpeg: [UInt8], orientation: UInt8) -> [UInt8] {
        let tiff: [UInt8] = [
            0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01,
            0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, orientation, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00,
        ]
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
    }

    @Test func fileGivesItsSizeAndUprightOrientation() throws {
        guard let path = SharedData.path("images/decoded/hand_test_image.png") else {
            print("skipping: ../shared absent")
            return
        }
        let image = try MPImage(contentsOfFile: path)
        #expect(image.width == 640 && image.height == 427)
        #expect(image.orientation == .up)
        #expect(image.imageSourceType == .image)
        #expect(image.bitmap.width == 640)
    }

    @Test func exifOrientationIsHonouredAndCanBeOverridden() throws {
        guard let path = SharedData.path("images/original/grace_hopper.jpg") else {
            print("skipping: ../shared absent")
            return
        }
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let rotated = Data(Self.insertingExif(original, orientation: 6))
        let image = try MPImage(data: rotated)
        #expect(image.orientation == .right)
        // Stored 512 × 600; upright (like UIImage.size) 600 × 512.
        #expect(image.width == 600 && image.height == 512)
        #expect(image.bitmap.width == 512 && image.bitmap.height == 600)
        let overridden = try MPImage(data: rotated, orientation: .upMirrored)
        #expect(overridden.orientation == .upMirrored && overridden.width == 512)
        // Same pixels as the file without metadata.
        #expect(try MPImage(data: Data(original)).bitmap == image.bitmap)
    }

    @Test func rawPixelsKeepTheirLayoutAndSize() throws {
        // 3 × 2 BGRA pixels with 4 bytes of row padding.
        var bytes: [UInt8] = []
        for y in 0..<2 {
            for x in 0..<3 { bytes += [UInt8(x), UInt8(y), 200, 255] }
            bytes += [0, 0, 0, 0]
        }
        let image = try MPImage(pixels: bytes, width: 3, height: 2, bytesPerRow: 16, format: .bgra8, orientation: .left)
        #expect(image.width == 3 && image.height == 2)  // buffer size, as for CVPixelBuffer
        #expect(image.orientation == .left)
        #expect(image.imageSourceType == .pixelBuffer)
        let pixel = try #require(image.bitmap.rgb(x: 2, y: 1))
        #expect(pixel.red == 200 && pixel.green == 1 && pixel.blue == 2)

        let gray = try MPImage(pixels: [1, 2, 3, 4], width: 2, height: 2, bytesPerRow: 2, format: .gray8)
        #expect(gray.bitmap.rgb(x: 1, y: 1).map { [$0.red, $0.green, $0.blue] } == [4, 4, 4])
    }

    /// Expects `make` to fail with ``TasksError/invalidImage(_:)`` (code 3).
    private func expectInvalidImage(_ label: String, _ make: () throws -> MPImage) {
        do {
            _ = try make()
            Issue.record("\(label): expected an error")
        } catch let error as TasksError {
            #expect(error.code == .invalidArgumentError, "\(label)")
            if case .invalidImage = error {} else { Issue.record("\(label): unexpected \(error)") }
        } catch {
            Issue.record("\(label): untyped error \(error)")
        }
    }

    @Test func badInputsThrowInvalidArgument() {
        expectInvalidImage("missing file") { try MPImage(contentsOfFile: "/nonexistent.png") }
        expectInvalidImage("directory") { try MPImage(contentsOfFile: "/tmp") }
        expectInvalidImage("empty data") { try MPImage(data: Data()) }
        expectInvalidImage("unknown format") { try MPImage(data: Data("not an image".utf8)) }
        expectInvalidImage("short pixels") {
            try MPImage(pixels: [1, 2, 3], width: 2, height: 2, bytesPerRow: 6, format: .rgb8)
        }
        expectInvalidImage("zero size") {
            try MPImage(pixels: [], width: 0, height: 0, bytesPerRow: 0, format: .rgba8)
        }
    }

    @Test func truncatedJPEGIsAnErrorNotAGrayImage() throws {
        guard let path = SharedData.path("images/original/od_test_image.jpg") else {
            print("skipping: ../shared absent")
            return
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: TasksError.self) { try MPImage(data: bytes.prefix(bytes.count / 2)) }
    }
}
