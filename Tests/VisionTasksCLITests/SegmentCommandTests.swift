import Foundation
import TestSupport
import Testing
import VisionTasks

@testable import VisionTasksCLI

/// `vision-tasks segment` and `bench segment` against the JSON and file contract of issue #24 and
/// MediaPipe's own category masks (../shared/reference/image_segmenter).
@Suite("segment command", .serialized)
struct SegmentCommandTests {
    static var model: String? { SharedData.path("models/selfie_segmenter.tflite") }

    /// The samples of a grayscale PNG file: (bit depth, colour type) from its IHDR chunk.
    static func pngHeader(_ path: String) throws -> (bitDepth: UInt8, colorType: UInt8, width: Int, height: Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        try #require(bytes.count > 26 && bytes[12..<16].elementsEqual("IHDR".utf8))
        func big(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (bytes[24], bytes[25], big(16), big(20))
    }

    @Test func jsonFieldsMaskFilesAndAnnotationsFollowTheContract() throws {
        guard let model = Self.model, let image = SharedData.path("images/decoded/astronaut.png"),
            let reference = SharedData.path("reference/image_segmenter/astronaut.both.category.png")
        else { return print("skipping: shared reference data not found (selfie_segmenter.tflite)") }
        let directory = try temporaryDirectory("segment")
        let both = runCLI([
            "segment", image, "--model", model, "--category-mask", "--masks", directory + "/masks", "--annotate",
            directory + "/annotated",
        ])
        #expect(both.status == 0, "\(both.errors)")
        let line = try #require(try ObjectsCommandTests.lines(both).first)
        #expect(
            Set(line.keys) == [
                "file", "width", "height", "timestampInMilliseconds", "labels", "confidenceMasks", "categoryMask",
                "qualityScores",
            ])
        #expect(line["labels"] as? [String] == ["selfie"])
        #expect(line["qualityScores"] as? [Double] == [1])
        let confidence = try #require((line["confidenceMasks"] as? [[String: Any]])?.first)
        #expect(confidence["width"] as? Int == 512 && confidence["height"] as? Int == 512)
        // MediaPipe's mean of the mask: 0.5418476462364197 (reference/image_segmenter/astronaut.json).
        #expect(abs((confidence["mean"] as? Double ?? 0) - 0.5418476462364197) <= 1e-6)
        let category = try #require(line["categoryMask"] as? [String: Any])
        let counts = try #require(category["counts"] as? [String: Int])
        #expect(Set(counts.keys) == ["0", "255"] && counts.values.reduce(0, +) == 512 * 512)

        // The category PNG holds MediaPipe's values: the reference file, pixel for pixel.
        let ours = try VisionTasksCLITestsSupport.grayValues(directory + "/masks/astronaut.category.png")
        let theirs = try VisionTasksCLITestsSupport.grayValues(reference)
        #expect(ours == theirs)
        #expect(ours.filter { $0 == 0 }.count == counts["0"])
        let categoryHeader = try Self.pngHeader(directory + "/masks/astronaut.category.png")
        #expect(categoryHeader.bitDepth == 8 && categoryHeader.colorType == 0 && categoryHeader.width == 512)
        let confidenceHeader = try Self.pngHeader(directory + "/masks/astronaut.confidence-0.png")
        #expect(confidenceHeader.bitDepth == 16 && confidenceHeader.colorType == 0 && confidenceHeader.height == 512)
        let picture = try MPImage(contentsOfFile: directory + "/annotated/astronaut.png")
        #expect(Int(picture.width) == 512 && Int(picture.height) == 512)

        // Defaults: confidence masks only; --no-confidence-masks with --category-mask: category only.
        let plain = try #require(try ObjectsCommandTests.lines(runCLI(["segment", image, "--model", model])).first)
        #expect(plain["categoryMask"] == nil && plain["confidenceMasks"] != nil)
        let onlyCategory = try #require(
            try ObjectsCommandTests.lines(
                runCLI(["segment", image, "--model", model, "--category-mask", "--no-confidence-masks"])
            ).first)
        #expect(onlyCategory["categoryMask"] != nil && onlyCategory["confidenceMasks"] == nil)
        let neither = runCLI(["segment", image, "--model", model, "--no-confidence-masks"])
        #expect(neither.status == 2 && neither.errors.contains("--category-mask"))
    }

    @Test func videoFramesGetNumberedMaskFilesAndBenchReportsTheResizeShare() throws {
        guard let model = Self.model, let frames = SharedData.path("images/frames/gesture_test_video"),
            let image = SharedData.path("images/decoded/business-person.png")
        else { return print("skipping: shared reference data not found (gesture_test_video)") }
        let directory = try temporaryDirectory("segment-video")
        let video = runCLI(["segment", frames, "--model", model, "--video", "--masks", directory])
        #expect(video.status == 0, "\(video.errors)")
        let lines = try ObjectsCommandTests.lines(video)
        #expect(lines.count == 30)
        #expect(
            lines.map { $0["timestampInMilliseconds"] as? Int }
                == (0..<30).map { Int((Double($0) * 1000 / 30).rounded()) })
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(files.filter { $0.hasSuffix(".confidence-0.png") }.count == 30)

        for mode in ["image", "video"] {
            let bench = runCLI([
                "bench", "segment", image, "--model", model, "--mode", mode, "--iterations", "2", "--json",
            ])
            #expect(bench.status == 0, "\(bench.errors)")
            let json = try bench.json()
            #expect(Set(json.keys) == ["medianMs", "minMs", "maxMs", "maskResizeMs", "maskResizeShare"])
            #expect((json["maskResizeShare"] as? Double ?? -1) >= 0)
        }
        let missing = runCLI(
            ["segment", image], environment: ["VISION_TASKS_OFFLINE": "1", "VISION_TASKS_MODELS": directory])
        #expect(missing.status != 0 && missing.errors.contains("selfie_segmenter.tflite"))
    }
}

/// Test helpers for grayscale PNG files.
enum VisionTasksCLITestsSupport {
    /// The gray values of an 8-bit grayscale PNG (decoded to RGB by the package's decoder).
    static func grayValues(_ path: String) throws -> [UInt8] {
        let image = try MPImage(contentsOfFile: path)
        let rgb = image.bitmap.convertedToRGB()
        return stride(from: 0, to: rgb.bytes.count, by: 3).map { rgb.bytes[$0] }
    }
}
