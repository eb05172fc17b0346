import Foundation
import TestSupport
import Testing
import VisionTasks

@testable import VisionTasksCLI

@Suite("pose and bench pose commands", .serialized)
struct PoseCommandTests {
    private func lines(_ run: CLIRun) throws -> [[String: Any]] {
        try run.output.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any])
        }
    }

    @Test func printsOneJSONLinePerImageWithTheLibrarysResult() throws {
        guard let model = SharedData.path("models/pose_landmarker_lite.task"),
            let image = SharedData.path("images/decoded/astronaut.png"),
            let empty = SharedData.path("images/decoded/od_test_image.png")
        else { return skipWithoutSharedData() }
        let run = runCLI(["pose", image, empty, "--model", model])
        #expect(run.status == 0, "\(run.errors)")
        let objects = try lines(run)
        try #require(objects.count == 2)
        let first = objects[0]
        #expect(first["file"] as? String == image)
        #expect(first["width"] as? Int == 512 && first["height"] as? Int == 512)
        #expect(first["timestampInMilliseconds"] as? Int == 0)
        #expect(first["segmentationMasks"] == nil)
        let poses = try #require(first["landmarks"] as? [[[String: Double]]])
        let world = try #require(first["worldLandmarks"] as? [[[String: Double]]])
        #expect(poses.count == 1 && poses[0].count == 33 && world.count == 1 && world[0].count == 33)
        #expect(Set(poses[0][0].keys) == ["x", "y", "z", "visibility", "presence"])
        // The same numbers as the library.
        let expected = try PoseLandmarker(modelPath: model).detect(image: try MPImage(contentsOfFile: image))
        for (landmark, json) in zip(expected.landmarks[0], poses[0]) {
            #expect(Float(json["x"] ?? -1) == landmark.x && Float(json["y"] ?? -1) == landmark.y)
            #expect(Float(json["visibility"] ?? -1) == landmark.visibility)
        }
        #expect(Float(world[0][11]["z"] ?? -1) == expected.worldLandmarks[0][11].z)
        // The second image has no person; image-mode timestamps count up.
        #expect((objects[1]["landmarks"] as? [Any])?.isEmpty == true)
        #expect(objects[1]["timestampInMilliseconds"] as? Int == 1000)
    }

    @Test func segmentationAddsMaskSummariesAndAnnotateWritesPictures() throws {
        guard let model = SharedData.path("models/pose_landmarker_lite.task"),
            let image = SharedData.path("images/decoded/grace_hopper.png")
        else { return skipWithoutSharedData() }
        let folder = try temporaryDirectory("pose-annotate")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = runCLI([
            "pose", image, "--model", model, "--segmentation", "--annotate", folder + "/out", "--threads", "1",
        ])
        #expect(run.status == 0, "\(run.errors)")
        let object = try #require(try lines(run).first)
        let masks = try #require(object["segmentationMasks"] as? [[String: Any]])
        #expect(masks.count == 1)
        #expect(masks.first?["width"] as? Int == 512 && masks.first?["height"] as? Int == 600)
        let mean = try #require(masks.first?["mean"] as? Double)
        #expect(mean > 0.05 && mean < 0.95)
        let written = try MPImage(contentsOfFile: folder + "/out/grace_hopper.png")
        #expect(written.width == 512 && written.height == 600)
    }

    @Test func videoTreatsAFolderOfFramesAsOneVideo() throws {
        guard let model = SharedData.path("models/pose_landmarker_full.task"),
            let frames = SharedData.path("images/frames/gesture_test_video"),
            let reference = try References.video(task: "pose_landmarker_full", sequence: "gesture_test_video"),
            let run0 = reference.runs["default_with_masks"]
        else { return skipWithoutSharedData() }
        let folder = try temporaryDirectory("pose-video")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["002.png", "000.png", "001.png"] {
            try FileManager.default.copyItem(atPath: frames + "/" + name, toPath: folder + "/" + name)
        }
        let run = runCLI(["pose", folder, "--model", model, "--video", "--frame-ms", "33"])
        #expect(run.status == 0, "\(run.errors)")
        let objects = try lines(run)
        #expect(objects.map { ($0["file"] as? NSString)?.lastPathComponent } == ["000.png", "001.png", "002.png"])
        #expect(objects.map { $0["timestampInMilliseconds"] as? Int } == [0, 33, 66])
        // The detector frame agrees with MediaPipe's VIDEO-mode reference (the nose).
        let poses = try #require(objects.first?["landmarks"] as? [[[String: Double]]])
        let nose = try #require(run0.frames.first?.poseLandmarks?.first?.first)
        #expect(abs(Float(poses[0][0]["x"] ?? 0) - nose.x) < 2e-3 && abs(Float(poses[0][0]["y"] ?? 0) - nose.y) < 2e-3)

        let fps = runCLI(["pose", folder, "--model", model, "--video", "--fps", "10"])
        #expect(try lines(fps).map { $0["timestampInMilliseconds"] as? Int } == [0, 100, 200])
    }

    @Test func badInputsAreReportedAndTheRestStillRuns() throws {
        guard let model = SharedData.path("models/pose_landmarker_lite.task"),
            let image = SharedData.path("images/decoded/astronaut.png")
        else { return skipWithoutSharedData() }
        let run = runCLI(["pose", "/nonexistent/a.png", image, "--model", model])
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("error: /nonexistent/a.png: "))
        #expect(try lines(run).count == 1)

        let noModel = runCLI(["pose", image, "--model", "/nonexistent/pose.task"])
        #expect(noModel.status == 1 && noModel.errors.hasPrefix("error: ") && noModel.output.isEmpty)
        let usage = runCLI(["pose", image, "--model", model, "--num-poses", "0"])
        #expect(usage.status == 2)
        let wrongBundle = SharedData.path("models/hand_landmarker.task").map { runCLI(["pose", image, "--model", $0]) }
        #expect(wrongBundle?.status ?? 1 == 1)
        #expect(wrongBundle?.errors.contains("pose_detector.tflite") ?? true)
    }

    @Test func benchPrintsTimingsInBothModes() throws {
        guard let model = SharedData.path("models/pose_landmarker_lite.task"),
            let image = SharedData.path("images/decoded/astronaut.png")
        else { return skipWithoutSharedData() }
        for mode in ["image", "video"] {
            let run = runCLI(["bench", "pose", image, "--model", model, "--mode", mode, "--iterations", "3", "--json"])
            #expect(run.status == 0, "\(run.errors)")
            let object = try run.json()
            let median = try #require(object["medianMs"] as? Double)
            let minimum = try #require(object["minMs"] as? Double)
            let maximum = try #require(object["maxMs"] as? Double)
            #expect(minimum > 0 && minimum <= median && median <= maximum)
        }
        #expect(runCLI(["bench", "pose", image, "--model", model, "--mode", "sideways"]).status == 2)
    }

    private func skipWithoutSharedData() {
        print("skipping: shared reference data not found (pose command)")
    }
}
