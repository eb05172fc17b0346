import Foundation
import Imaging
import Testing

@testable import VisionTasksCLI

/// `vision-tasks bench preprocess`: the benchmark row that replaced the timed image → tensor tests.
@Suite("bench preprocess")
struct PreprocessBenchTests {
    /// A 1280 × 720 PNG with a fixed pattern, written to a temporary folder.
    private func framePNG() throws -> String {
        var bytes = [UInt8](repeating: 0, count: 1280 * 720 * 3)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 13) }
        let path = try temporaryDirectory("preprocess") + "/frame.png"
        let png = try ImageEncoder.png(try Bitmap(width: 1280, height: 720, layout: .rgb8, bytes: bytes))
        try Data(png).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func eachCropReportsItsTimingTensorAndSamplingPath() throws {
        let frame = try framePNG()
        let expected = [("rotated", "general", "256x256x3 float"), ("whole", "rowInvariant", "300x300x3 uint8")]
        for (crop, path, tensor) in expected {
            let run = runCLI(["bench", "preprocess", frame, "--crop", crop, "--iterations", "3", "--json"])
            #expect(run.status == 0, "\(run.errors)")
            let json = try run.json()
            #expect(Set(json.keys) == ["medianMs", "minMs", "maxMs", "crop", "path", "image", "tensor"])
            #expect(json["crop"] as? String == crop)
            #expect(json["path"] as? String == path)
            #expect(json["tensor"] as? String == tensor)
            #expect(json["image"] as? String == "1280x720")
            let minimum = json["minMs"] as? Double ?? -1
            let maximum = json["maxMs"] as? Double ?? -1
            #expect(minimum >= 0 && minimum <= maximum)
        }
        let text = runCLI(["bench", "preprocess", frame, "--iterations", "1"])
        #expect(text.status == 0)
        #expect(text.output.contains("rotated (general path): median"))
    }

    @Test func badArgumentsAreUsageErrors() throws {
        let frame = try framePNG()
        #expect(runCLI(["bench", "preprocess", frame, "--crop", "diagonal"]).status == 2)
        #expect(runCLI(["bench", "preprocess"]).status == 2)
        #expect(runCLI(["bench", "preprocess", frame, "--iterations", "0"]).status == 2)
        let missing = runCLI(["bench", "preprocess", "/nonexistent/frame.png"])
        #expect(missing.status != 0 && missing.errors.contains("/nonexistent/frame.png"))
    }
}
