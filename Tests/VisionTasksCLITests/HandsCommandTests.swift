import Foundation
import TestSupport
import Testing
import VisionTasks

@testable import VisionTasksCLI

@Suite("hands command", .serialized)
struct HandsCommandTests {
    static var model: String? { SharedData.path("models/hand_landmarker.task") }

    static func lines(_ run: CLIRun) throws -> [[String: Any]] {
        try run.output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func printsOneLinePerImageWithTheContractsFields() throws {
        guard let model = Self.model, let thumb = SharedData.path("images/decoded/hand_thumb_up.png"),
            let astronaut = SharedData.path("images/decoded/astronaut.png"),
            let reference = try References.image(task: "hand_landmarker", name: "hand_thumb_up"),
            let expected = reference.runs["num_hands_2"]?.result
        else { return print("skipping: ../shared not found") }
        let run = runCLI(["hands", thumb, astronaut, "--model", model, "--num-hands", "2", "--threads", "1"])
        #expect(run.status == 0, "\(run.errors)")
        let lines = try Self.lines(run)
        #expect(lines.count == 2)
        let first = try #require(lines.first)
        #expect(
            Set(first.keys) == [
                "file", "width", "height", "timestampInMilliseconds", "handedness", "landmarks", "worldLandmarks",
            ])
        #expect(first["file"] as? String == thumb)
        #expect(first["width"] as? Int == 640 && first["height"] as? Int == 521)
        #expect(first["timestampInMilliseconds"] as? Int == 0 && lines.last?["timestampInMilliseconds"] as? Int == 1000)
        let handedness = try #require(first["handedness"] as? [[[String: Any]]])
        let category = try #require(handedness.first?.first)
        #expect(Set(category.keys) == ["index", "score", "categoryName", "displayName"])
        #expect(category["categoryName"] as? String == expected.handedness?.first?.first?.categoryName)
        #expect(category["index"] as? Int == expected.handedness?.first?.first?.index)
        let landmarks = try #require(first["landmarks"] as? [[[String: Double]]])
        let world = try #require(first["worldLandmarks"] as? [[[String: Double]]])
        #expect(landmarks.count == 1 && landmarks[0].count == 21 && world[0].count == 21)
        #expect(Set(landmarks[0][0].keys) == ["x", "y", "z"])
        let wrist = try #require(expected.handLandmarks?.first?.first)
        #expect(
            abs(Float(landmarks[0][0]["x"] ?? 0) - wrist.x) <= 2e-3
                && abs(Float(landmarks[0][0]["y"] ?? 0) - wrist.y) <= 2e-3)
        let empty = try #require(lines.last)
        #expect((empty["landmarks"] as? [Any])?.isEmpty == true && (empty["handedness"] as? [Any])?.isEmpty == true)
    }

    @Test func videoModeTracksAFolderOfFramesWithContractTimestamps() throws {
        guard let model = Self.model, let frames = SharedData.path("images/frames/hand_test_video"),
            let reference = try References.video(task: "hand_landmarker", sequence: "hand_test_video")
        else { return print("skipping: ../shared not found") }
        let folder = try temporaryDirectory("hand-frames")
        for index in 0..<3 {
            let name = String(format: "%03d.png", index)
            try FileManager.default.copyItem(atPath: frames + "/" + name, toPath: folder + "/" + name)
        }
        let run = runCLI(["hands", folder, "--video", "--model", model, "--frame-ms", "33"])
        #expect(run.status == 0, "\(run.errors)")
        let lines = try Self.lines(run)
        #expect(lines.map { $0["timestampInMilliseconds"] as? Int } == [0, 33, 66])
        // Frame 0 is detected, not tracked: it matches MediaPipe's frame 0 closely.
        let first = try #require((lines.first?["landmarks"] as? [[[String: Double]]])?.first)
        let expected = try #require(reference.runs["default"]?.frames.first?.handLandmarks?.first)
        for (ours, theirs) in zip(first, expected) {
            #expect(abs(Float(ours["x"] ?? 0) - theirs.x) <= 2e-3 && abs(Float(ours["y"] ?? 0) - theirs.y) <= 2e-3)
        }
        let fps = runCLI(["hands", folder, "--video", "--model", model, "--fps", "30"])
        #expect(try Self.lines(fps).map { $0["timestampInMilliseconds"] as? Int } == [0, 33, 67])
    }

    @Test func annotationsDrawLeftAndRightHandsInTheirColours() throws {
        guard let model = Self.model, let thumb = SharedData.path("images/decoded/hand_thumb_up.png") else {
            return print("skipping: ../shared not found")
        }
        let directory = try temporaryDirectory("hand-annotations")
        let run = runCLI(["hands", thumb, "--model", model, "--annotate", directory])
        #expect(run.status == 0, "\(run.errors)")
        let line = try #require(try Self.lines(run).first)
        let wrist = try #require((line["landmarks"] as? [[[String: Double]]])?.first?.first)
        let side = (line["handedness"] as? [[[String: Any]]])?.first?.first?["categoryName"] as? String
        #expect(side == "Left")
        let picture = try MPImage(contentsOfFile: directory + "/hand_thumb_up.png")
        #expect(Int(picture.width) == 640 && Int(picture.height) == 521)
        // The wrist dot is drawn in the left-hand point colour.
        let (_, point) = HandsCommand.colors(side: side)
        let pixel = try #require(picture.bitmap.rgb(x: Int(wrist["x"]! * 640), y: Int(wrist["y"]! * 521)))
        #expect([pixel.red, pixel.green, pixel.blue] == [point.red, point.green, point.blue])
        #expect(HandsCommand.colors(side: "Left") != HandsCommand.colors(side: "Right"))
    }

    @Test func badOptionsAreReportedWithTheRightStatus() throws {
        guard let model = Self.model, let thumb = SharedData.path("images/decoded/hand_thumb_up.png") else {
            return print("skipping: ../shared not found")
        }
        let usage = runCLI(["hands", thumb, "--model", model, "--num-hands", "two"])
        #expect(usage.status == 2)
        let invalid = runCLI(["hands", thumb, "--model", model, "--num-hands", "0"])
        #expect(invalid.status == 1)
        #expect(invalid.errors.hasPrefix("error: INVALID_ARGUMENT: max_vec_size"))
        let detection = runCLI(["hands", thumb, "--model", model, "--min-hand-detection-confidence", "7"])
        #expect(detection.status == 1 && detection.errors.contains("minHandDetectionConfidence is 7.0"))
        let tracking = runCLI(["hands", thumb, "--model", model, "--video", "--min-tracking-confidence", "0"])
        #expect(tracking.status == 1 && tracking.errors.contains("min_tracking_confidence"))
        let missing = runCLI(["hands", "/nonexistent/picture.png", thumb, "--model", model])
        #expect(missing.status == 1)
        #expect(try Self.lines(missing).count == 1)  // the other input still ran
        #expect(missing.errors.contains("/nonexistent/picture.png"))
    }

    @Test func benchPrintsTimingsAsJSON() throws {
        guard let model = Self.model, let thumb = SharedData.path("images/decoded/hand_thumb_up.png") else {
            return print("skipping: ../shared not found")
        }
        for mode in ["image", "video"] {
            let run = runCLI(["bench", "hands", thumb, "--model", model, "--mode", mode, "--iterations", "2", "--json"])
            #expect(run.status == 0, "\(run.errors)")
            let json = try run.json()
            #expect(Set(json.keys) == ["medianMs", "minMs", "maxMs"])
            #expect((json["minMs"] as? Double ?? -1) > 0)
        }
        #expect(runCLI(["bench", "hands", thumb, "--model", model, "--mode", "stream"]).status == 2)
        #expect(runCLI(["bench", "hands", "--model", model]).status == 2)
    }

    /// `bench hands --driven`: a ready line naming the task and mode, then one array of times per
    /// request; video mode keeps counting frames across requests (timestamps must rise).
    @Test func benchDrivenTimesTheCallsEachInputLineAsksFor() throws {
        guard let model = Self.model, let thumb = SharedData.path("images/decoded/hand_thumb_up.png") else {
            return print("skipping: ../shared not found")
        }
        let run = runCLI(
            ["bench", "hands", thumb, "--model", model, "--mode", "video", "--threads", "1", "--driven"],
            standardInput: try drivenInput("2\n3"))
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(run.output)")
        let ready = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(ready["ready"] as? Bool == true && ready["task"] as? String == "hands")
        #expect(ready["mode"] as? String == "video")
        let times = try lines.dropFirst().map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [Double])
        }
        #expect(times.map(\.count) == [2, 3])
        #expect(times.joined().allSatisfy { $0 > 0 })
    }
}
