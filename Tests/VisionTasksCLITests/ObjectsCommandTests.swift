import Foundation
import TestSupport
import Testing
import VisionTasks

@testable import VisionTasksCLI

/// `vision-tasks objects` and `bench objects` against the JSON contract (issue #8,
/// ../shared/spec/CONTRACT.md) and MediaPipe's own detections (../shared/reference/object_detector).
@Suite("objects command", .serialized)
struct ObjectsCommandTests {
    static var model: String? { SharedData.path("models/ssd_mobilenet_v1.tflite") }

    private func skipWithoutSharedData(_ what: String) {
        print("skipping: shared reference data not found (\(what))")
    }

    static func lines(_ run: CLIRun) throws -> [[String: Any]] {
        try run.output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    static func detections(_ line: [String: Any]) throws -> [[String: Any]] {
        try #require(line["detections"] as? [[String: Any]])
    }

    /// The image's decoded PNG and MediaPipe's detections for `optionSet`.
    static func reference(_ name: String, _ optionSet: String) throws -> (
        path: String, detections: [ReferenceDetection]
    )? {
        guard let path = SharedData.path("images/decoded/\(name).png"),
            let reference = try References.image(task: "object_detector", name: name),
            let detections = reference.runs[optionSet]?.result.detections
        else { return nil }
        return (path, detections)
    }

    /// Checks JSON detections against MediaPipe's: same order, boxes within 1 px, scores within
    /// 0.01, index -1 where MediaPipe reports none, the same (possibly null) names.
    static func expectMatches(_ json: [[String: Any]], _ expected: [ReferenceDetection], _ label: String) {
        #expect(json.count == expected.count, "\(label): \(json.count) detections, MediaPipe \(expected.count)")
        for (ours, theirs) in zip(json, expected) {
            let box = ours["boundingBox"] as? [String: Double] ?? [:]
            let reference = theirs.boundingBox
            for (key, value) in [
                ("x", reference.originX), ("y", reference.originY), ("width", reference.width),
                ("height", reference.height),
            ] {
                #expect(
                    abs((box[key] ?? .nan) - Double(value)) <= 1,
                    "\(label): box \(key) \(box[key] ?? .nan), MediaPipe \(value)")
            }
            let categories = ours["categories"] as? [[String: Any]] ?? []
            #expect(categories.count == theirs.categories.count, "\(label)")
            for (category, mediapipe) in zip(categories, theirs.categories) {
                #expect(category["index"] as? Int == (mediapipe.index ?? -1), "\(label)")
                #expect(abs(Float(category["score"] as? Double ?? .nan) - mediapipe.score) <= 0.01, "\(label)")
                #expect(category["categoryName"] as? String == mediapipe.categoryName, "\(label)")
                #expect(category["displayName"] as? String == mediapipe.displayName, "\(label)")
            }
        }
    }

    @Test func printsOneLinePerImageWithExactlyTheContractsFields() throws {
        guard let model = Self.model, let astronaut = try Self.reference("astronaut", "default"),
            let table = try Self.reference("od_test_image", "default")
        else { return skipWithoutSharedData("ssd_mobilenet_v1.tflite") }
        let run = runCLI(["objects", astronaut.path, table.path, "--model", model, "--threads", "1"])
        #expect(run.status == 0, "\(run.errors)")
        let lines = try Self.lines(run)
        try #require(lines.count == 2)
        let first = lines[0]
        #expect(Set(first.keys) == ["file", "width", "height", "timestampInMilliseconds", "detections"])
        #expect(first["file"] as? String == astronaut.path)
        #expect(first["width"] as? Int == 512 && first["height"] as? Int == 512)
        #expect(lines.map { $0["timestampInMilliseconds"] as? Int } == [0, 1000])
        let detection = try #require(try Self.detections(first).first)
        #expect(Set(detection.keys) == ["boundingBox", "categories"])
        #expect(Set((detection["boundingBox"] as? [String: Any] ?? [:]).keys) == ["x", "y", "width", "height"])
        let category = try #require((detection["categories"] as? [[String: Any]])?.first)
        #expect(Set(category.keys) == ["index", "score", "categoryName", "displayName"])
        // index is an integer (-1: MediaPipe drops the label id once a name is attached);
        // displayName is present and null (the SSD has no display-name file).
        #expect(category["index"] as? Int == -1)
        #expect(category["displayName"] is NSNull)
        Self.expectMatches(try Self.detections(first), astronaut.detections, "astronaut")
        Self.expectMatches(try Self.detections(lines[1]), table.detections, "od_test_image")
    }

    @Test func maxResultsAndScoreThresholdMatchMediaPipe() throws {
        guard let model = Self.model, let top3 = try Self.reference("grace_hopper", "max3_thr0"),
            let threshold = try Self.reference("od_test_image", "thr05")
        else { return skipWithoutSharedData("ssd_mobilenet_v1.tflite") }
        let max3 = runCLI(["objects", top3.path, "--model", model, "--max-results", "3"])
        #expect(max3.status == 0, "\(max3.errors)")
        Self.expectMatches(try Self.detections(try #require(try Self.lines(max3).first)), top3.detections, "max3")
        // od_test_image has a detection scoring exactly 0.5: the threshold is inclusive.
        #expect(threshold.detections.contains { $0.categories.first?.score == 0.5 })
        let thr = runCLI(["objects", threshold.path, "--model", model, "--score-threshold", "0.5"])
        #expect(thr.status == 0, "\(thr.errors)")
        Self.expectMatches(try Self.detections(try #require(try Self.lines(thr).first)), threshold.detections, "thr05")
    }

    @Test func allowAndDenyListsMatchMediaPipe() throws {
        guard let model = Self.model, let allowed = try Self.reference("grace_hopper", "allow_person"),
            let denied = try Self.reference("grace_hopper", "deny_person"),
            let all = try Self.reference("grace_hopper", "default")
        else { return skipWithoutSharedData("ssd_mobilenet_v1.tflite") }
        let allow = runCLI(["objects", allowed.path, "--model", model, "--allow", "person"])
        #expect(allow.status == 0, "\(allow.errors)")
        Self.expectMatches(
            try Self.detections(try #require(try Self.lines(allow).first)), allowed.detections, "allow person")
        let deny = runCLI(["objects", denied.path, "--model", model, "--deny", "person"])
        #expect(deny.status == 0, "\(deny.errors)")
        Self.expectMatches(
            try Self.detections(try #require(try Self.lines(deny).first)), denied.detections, "deny person")
        // A comma-separated list: every default detection whose name is listed, in order.
        let names = Set(all.detections.compactMap { $0.categories.first?.categoryName })
        try #require(names.count >= 2)
        let two = Array(names.sorted().prefix(2))
        let list = runCLI(["objects", all.path, "--model", model, "--allow", two.joined(separator: ",")])
        #expect(list.status == 0, "\(list.errors)")
        Self.expectMatches(
            try Self.detections(try #require(try Self.lines(list).first)),
            all.detections.filter { two.contains($0.categories.first?.categoryName ?? "") }, "allow \(two)")
    }

    @Test func localeIsAcceptedAndDisplayNamesStayNullWithoutADisplayNameFile() throws {
        guard let model = Self.model, let image = try Self.reference("astronaut", "default") else {
            return skipWithoutSharedData("ssd_mobilenet_v1.tflite")
        }
        for locale in ["en", "de"] {
            let run = runCLI(["objects", image.path, "--model", model, "--locale", locale])
            #expect(run.status == 0, "\(run.errors)")
            Self.expectMatches(
                try Self.detections(try #require(try Self.lines(run).first)), image.detections, "locale \(locale)")
        }
    }

    @Test func videoModeGivesEveryFrameTheImageResultAndContractTimestamps() throws {
        guard let model = Self.model, let first = try Self.reference("astronaut", "default"),
            let second = try Self.reference("camera", "default"),
            let third = try Self.reference("od_test_image", "default")
        else { return skipWithoutSharedData("ssd_mobilenet_v1.tflite") }
        let frames = [first, second, third]
        let run = runCLI(["objects"] + frames.map(\.path) + ["--model", model, "--video", "--fps", "30"])
        #expect(run.status == 0, "\(run.errors)")
        let lines = try Self.lines(run)
        // round(i × 1000 / 30)
        #expect(lines.map { $0["timestampInMilliseconds"] as? Int } == [0, 33, 67])
        for (line, frame) in zip(lines, frames) {
            Self.expectMatches(try Self.detections(line), frame.detections, "video \(frame.path)")
        }
        let steps = runCLI(["objects", first.path, second.path, "--model", model, "--video", "--frame-ms", "33"])
        #expect(try Self.lines(steps).map { $0["timestampInMilliseconds"] as? Int } == [0, 33])
    }

    @Test func annotateWritesAPNGWithTheBoxes() throws {
        guard let model = Self.model, let image = try Self.reference("od_test_image", "max3_thr0") else {
            return skipWithoutSharedData("ssd_mobilenet_v1.tflite")
        }
        let folder = try temporaryDirectory("objects-annotate")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = runCLI(["objects", image.path, "--model", model, "--max-results", "3", "--annotate", folder])
        #expect(run.status == 0, "\(run.errors)")
        let path = folder + "/od_test_image.png"
        let header = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(8)
        #expect(Array(header) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let original = try MPImage(contentsOfFile: image.path)
        let picture = try MPImage(contentsOfFile: path)
        #expect(picture.width == original.width && picture.height == original.height)
        // The best detection's left edge is drawn in green over most of its height.
        let line = try #require(try Self.lines(run).first)
        let box = try #require(try Self.detections(line).first?["boundingBox"] as? [String: Double])
        let x = Int((box["x"] ?? 0).rounded()) + 1
        let rows = Array(Int(box["y"] ?? 0) + 20..<Int((box["y"] ?? 0) + (box["height"] ?? 0)) - 3)
        try #require(rows.count > 10)
        let green = rows.filter { y in
            guard let pixel = picture.bitmap.rgb(x: x, y: y) else { return false }
            return pixel.red == 0 && pixel.green == 255 && pixel.blue == 0
        }
        #expect(Double(green.count) >= 0.9 * Double(rows.count), "\(green.count) of \(rows.count) edge pixels green")
        #expect(original.bitmap.rgb(x: x, y: rows[rows.count / 2]).map { [$0.red, $0.green, $0.blue] } != [0, 255, 0])
    }

    @Test func defaultModelIsEfficientDetLite0WhenPresentElseTheSSD() throws {
        guard let model = Self.model, let image = try Self.reference("astronaut", "default") else {
            return skipWithoutSharedData("ssd_mobilenet_v1.tflite")
        }
        let folder = try temporaryDirectory("objects-models")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = ["VISION_TASKS_OFFLINE": "1", "VISION_TASKS_MODELS": folder]
        // No model at all: a clear error naming the fallback model.
        let none = runCLI(["objects", image.path], environment: environment)
        #expect(none.status == 1)
        #expect(none.errors.hasPrefix("error: ") && none.errors.contains("ssd_mobilenet_v1.tflite"))
        // Only the SSD: it is used.
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/ssd_mobilenet_v1.tflite", withDestinationPath: model)
        let ssd = runCLI(["objects", image.path], environment: environment)
        #expect(ssd.status == 0, "\(ssd.errors)")
        // Standard error names the model that ran and says it is one checked against MediaPipe.
        #expect(
            ssd.errors.contains("objects: model \(folder)/ssd_mobilenet_v1.tflite (checked against MediaPipe 1.2.3"),
            "\(ssd.errors)")
        Self.expectMatches(
            try Self.detections(try #require(try Self.lines(ssd).first)), image.detections, "default SSD")
        // With efficientdet_lite0.tflite beside it, that file is chosen (here a broken file, so the
        // choice shows as a model error); --model still overrides it.
        try Data("not a model".utf8).write(to: URL(fileURLWithPath: folder + "/efficientdet_lite0.tflite"))
        let context = CommandContext(
            console: RecordingConsole().console, environment: environment,
            currentDirectory: FileManager.default.currentDirectoryPath)
        #expect(
            try ObjectsCommand.defaultModel(try Arguments([], flags: [], options: ["model"]), context: context)
                == folder + "/efficientdet_lite0.tflite")
        let broken = runCLI(["objects", image.path], environment: environment)
        #expect(broken.status == 1 && broken.output.isEmpty)
        let explicit = runCLI(["objects", image.path, "--model", model], environment: environment)
        #expect(explicit.status == 0, "\(explicit.errors)")
    }

    @Test func badOptionsAndInputsExitWithTheContractsStatus() throws {
        guard let model = Self.model, let image = try Self.reference("astronaut", "default"),
            let errors = try References.errors(),
            let bare = SharedData.path("models/ssd_mobilenet_v1_no_metadata.tflite")
        else { return skipWithoutSharedData("ssd_mobilenet_v1.tflite") }
        let zero = runCLI(["objects", image.path, "--model", model, "--max-results", "0"])
        #expect(zero.status == 1 && zero.output.isEmpty)
        #expect(zero.errors.contains(try #require(errors["object_detector_max_results_0"]?.message)))
        let both = runCLI(["objects", image.path, "--model", model, "--allow", "person", "--deny", "dog"])
        #expect(both.status == 1)
        #expect(both.errors.contains(try #require(errors["object_detector_allowlist_and_denylist"]?.message)))
        let noMetadata = runCLI(["objects", image.path, "--model", bare])
        #expect(noMetadata.status == 1)
        #expect(noMetadata.errors.contains(try #require(errors["object_detector_model_without_metadata"]?.message)))
        #expect(runCLI(["objects", image.path, "--model", model, "--max-results", "many"]).status == 2)
        #expect(runCLI(["objects", image.path, "--model", model, "--score-threshold", "high"]).status == 2)
        #expect(runCLI(["objects", image.path, "--model", model, "--no-such-flag"]).status == 2)
        #expect(runCLI(["objects", "--model", model]).status == 2)
        // A missing input fails alone: the other image still gets its line, the status is 1.
        let missing = runCLI(["objects", "/nonexistent/picture.png", image.path, "--model", model])
        #expect(missing.status == 1)
        #expect(try Self.lines(missing).count == 1)
        #expect(missing.errors.contains("/nonexistent/picture.png"))
    }

    @Test func benchPrintsTimingsAsJSONInBothModes() throws {
        guard let model = Self.model, let image = try Self.reference("od_test_image", "default") else {
            return skipWithoutSharedData("ssd_mobilenet_v1.tflite")
        }
        for mode in ["image", "video"] {
            let run = runCLI([
                "bench", "objects", image.path, "--model", model, "--mode", mode, "--iterations", "2", "--json",
            ])
            #expect(run.status == 0, "\(run.errors)")
            let json = try run.json()
            #expect(Set(json.keys) == ["medianMs", "minMs", "maxMs"])
            #expect((json["minMs"] as? Double ?? -1) > 0)
        }
        #expect(runCLI(["bench", "objects", image.path, "--model", model, "--mode", "stream"]).status == 2)
        #expect(runCLI(["bench", "objects", "--model", model]).status == 2)
    }

    /// A model whose post-processing is outside the graph (two raw outputs, #23) runs through the
    /// command like any other, with MediaPipe's results on that model, and standard error says it
    /// is not a catalog model.
    @Test func aRawOutputModelGivesMediaPipesDetections() throws {
        guard let model = DerivedModels.path("ssd_mobilenet_v1_raw.tflite"),
            let image = SharedData.path("images/decoded/od_test_image.png")
        else { return skipWithoutSharedData("ssd_mobilenet_v1_raw.tflite (scripts/reference/make_derived_models.sh)") }
        let fixture = SharedData.packageRoot.appendingPathComponent(
            "Tests/VisionTasksTests/Fixtures/RawSSD/od_test_image.json")
        let expected = try #require(try References.image(atPath: fixture.path).runs["thr03_max5"]?.result.detections)
        let run = runCLI(["objects", image, "--model", model, "--score-threshold", "0.3", "--max-results", "5"])
        #expect(run.status == 0, "\(run.errors)")
        Self.expectMatches(try Self.detections(try #require(try Self.lines(run).first)), expected, "raw SSD")
        #expect(run.errors.contains("a model of your own"), "\(run.errors)")
    }
}
