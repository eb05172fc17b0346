import Foundation
import TestSupport
import Testing

@testable import VisionTasksCLI

@Suite struct InspectCommandTests {
    static let document: ModelsDocument? = SharedData.path("models/MODELS.md").flatMap { try? ModelsDocument(path: $0) }

    @Test(arguments: SharedData.modelFiles)
    func jsonMatchesModelsDocument(file: String) throws {
        guard let path = SharedData.path("models/\(file)"), let document = Self.document else {
            print("skipped \(file): ../shared is not available")
            return
        }
        let run = runCLI(["inspect", path, "--json"])
        #expect(run.status == 0, "\(run.errors)")
        let json = try run.json()
        #expect(json["file"] as? String == path)
        let models = try #require(json["models"] as? [[String: Any]])
        let isBundle = file.hasSuffix(".task")
        #expect(models.count == (isBundle ? 2 : 1))
        if isBundle {
            #expect((json["members"] as? [String]) == models.compactMap { $0["name"] as? String })
        }
        for model in models {
            let name = try #require(model["name"] as? String)
            let facts = try #require(document.models[isBundle ? "\(file):\(name)" : file])
            #expect((model["ops"] as? [String: Int]) == facts.operatorCounts)
            #expect(model["macs"] as? Int == facts.macs)
            #expect(model["opCount"] as? Int == facts.operatorCount)
            let inputs = try #require(model["inputs"] as? [[String: Any]])
            #expect(inputs.compactMap { $0["shape"] as? [Int] } == facts.inputs.map(\.shape))
            #expect(inputs.compactMap { $0["dtype"] as? String } == facts.inputs.map(\.dtype))
            if facts.hasMetadata {
                #expect(model["metadata"] is [String: Any])
            } else {
                #expect(model["metadata"] is NSNull)
            }
        }
    }

    @Test func ssdJSONShowsQuantizationNormalizationAndLabels() throws {
        guard let path = SharedData.path("models/ssd_mobilenet_v1.tflite") else {
            print("skipped: ../shared is not available")
            return
        }
        let model = try #require((try runCLI(["inspect", path, "--json"]).json()["models"] as? [[String: Any]])?.first)
        let input = try #require((model["inputs"] as? [[String: Any]])?.first)
        let quantization = try #require(input["quantization"] as? [String: Any])
        #expect(quantization["scale"] as? [Double] == [0.0078125])
        #expect(quantization["zeroPoint"] as? [Int] == [128])
        let metadata = try #require(model["metadata"] as? [String: Any])
        let normalization = try #require(metadata["normalization"] as? [String: Any])
        #expect(normalization["mean"] as? [Double] == [127.5])
        #expect(metadata["labelCount"] as? Int == 90)
        #expect((metadata["labels"] as? [String])?.first == "person")
    }

    @Test func textOutputNamesMembersOperatorsAndMACs() throws {
        guard let path = SharedData.path("models/pose_landmarker_lite.task") else {
            print("skipped: ../shared is not available")
            return
        }
        let run = runCLI(["inspect", path])
        #expect(run.status == 0)
        #expect(run.output.contains("members: pose_detector.tflite, pose_landmarks_detector.tflite"))
        #expect(run.output.contains("DENSIFY"))
        #expect(run.output.contains("MACs: 197,822,208"))
        #expect(run.output.contains("reduced_precision_support: fp16accfp32"))
    }

    @Test func missingFileFailsWithOneErrorLine() {
        let run = runCLI(["inspect", "/nonexistent/model.tflite"])
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(run.errors.hasPrefix("error: "))
        #expect(run.errors.contains("/nonexistent/model.tflite"))
    }

    @Test func corruptFileFailsWithATypedMessage() throws {
        let directory = try temporaryDirectory("inspect")
        let path = directory + "/broken.tflite"
        try Data([0x1C, 0, 0, 0] + Array("TFL3".utf8) + Array(repeating: 0xFF, count: 64)).write(
            to: URL(fileURLWithPath: path))
        let run = runCLI(["inspect", path])
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("error: malformed model"))
    }

    @Test func wrongUsageExitsWithStatusTwo() {
        #expect(runCLI(["inspect"]).status == 2)
        #expect(runCLI(["inspect", "a", "b"]).status == 2)
        #expect(runCLI(["inspect", "a", "--no-such-flag"]).status == 2)
        #expect(runCLI(["no-such-command"]).status == 2)
        #expect(runCLI([]).status == 2)
    }

    @Test func helpAndVersionSucceed() {
        let help = runCLI(["help"])
        #expect(help.status == 0)
        #expect(help.output.contains("inspect"))
        #expect(help.output.contains("models"))
        #expect(runCLI(["help", "inspect"]).output.contains("vision-tasks inspect FILE"))
        #expect(runCLI(["--version"]).output.hasPrefix("vision-tasks "))
    }
}
