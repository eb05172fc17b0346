import Foundation
import PoseDetection
import TestSupport
import Testing
import VisionTasks

@testable import VisionTasksCLI

@Suite("pose --api mlkit", .serialized)
struct MLKitPoseCommandTests {
    private func lines(_ run: CLIRun) throws -> [[String: Any]] {
        try run.output.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any])
        }
    }

    /// The landmarks of the first pose of a line.
    private func landmarks(_ line: [String: Any]) throws -> [[String: Any]] {
        let poses = try #require(line["poses"] as? [[String: Any]])
        try #require(poses.count == 1)
        return try #require(poses[0]["landmarks"] as? [[String: Any]])
    }

    /// A line decoded with `JSONDecoder`, which reads numbers exactly (JSONSerialization goes
    /// through `Decimal` and can be off in the last bits).
    private struct Line: Decodable {
        struct Position: Decodable { var x, y, z: Double }
        struct Landmark: Decodable {
            var type: String
            var position: Position
            var inFrameLikelihood: Float
        }
        struct Pose: Decodable { var landmarks: [Landmark] }
        var file: String
        var poses: [Pose]
    }

    /// Whether a line's landmarks are exactly `pose`'s.
    private func matches(_ text: Substring, _ pose: Pose) throws -> Bool {
        let line = try JSONDecoder().decode(Line.self, from: Data(text.utf8))
        guard line.poses.count == 1, line.poses[0].landmarks.count == pose.landmarks.count else { return false }
        return zip(line.poses[0].landmarks, pose.landmarks).allSatisfy { json, landmark in
            json.type == landmark.type.rawValue
                && json.position.x == Double(landmark.position.x) && json.position.y == Double(landmark.position.y)
                && json.position.z == Double(landmark.position.z)
                && json.inFrameLikelihood == landmark.inFrameLikelihood
        }
    }

    private func detector(_ model: String, _ mode: PoseDetectorMode, accurate: Bool = false) -> PoseDetector {
        let options: CommonPoseDetectorOptions = accurate ? AccuratePoseDetectorOptions() : PoseDetectorOptions()
        options.modelPath = model
        options.detectorMode = mode
        let clock = StepClock()
        return PoseDetector.poseDetector(options: options, clock: { clock.next() })
    }

    @Test func singleImagePrintsMLKitShapedLinesWithTheLibrarysPoses() throws {
        guard let model = SharedData.path("models/pose_landmarker_lite.task"),
            let image = SharedData.path("images/decoded/grace_hopper.png"),
            let empty = SharedData.path("images/decoded/od_test_image.png")
        else { return skipWithoutSharedData() }
        let run = runCLI(["pose", "--api", "mlkit", image, empty, "--single-image", "--model", model])
        #expect(run.status == 0, "\(run.errors)")
        let objects = try lines(run)
        try #require(objects.count == 2)
        #expect(Set(objects[0].keys) == ["file", "poses"])
        #expect(objects[0]["file"] as? String == image)
        let first = try landmarks(objects[0])
        #expect(first.map { $0["type"] as? String } == PoseLandmarkType.allTypes.map(\.rawValue))
        #expect(Set(first[27].keys) == ["type", "position", "inFrameLikelihood"])
        #expect(first[27]["type"] as? String == "leftAnkle")
        let expected = try detector(model, .singleImage).results(
            in: VisionImage(image: try MPImage(contentsOfFile: image)))
        #expect(expected.count == 1)
        #expect(try matches(run.output.split(separator: "\n")[0], try #require(expected.first)))
        // Pixels, not fractions: the nose lies inside the 512 × 600 picture, well away from 0…1.
        let nose = try #require(first[0]["position"] as? [String: Double])
        #expect((nose["x"] ?? 0) > 100 && (nose["x"] ?? 0) < 512 && (nose["y"] ?? 0) > 50 && (nose["y"] ?? 0) < 600)
        // Nobody in the second picture.
        #expect((objects[1]["poses"] as? [Any])?.isEmpty == true)
    }

    @Test func streamModeTracksAcrossTheInputs() throws {
        guard let model = SharedData.path("models/pose_landmarker_lite.task"),
            let frame0 = SharedData.path("images/frames/gesture_test_video/000.png"),
            let frame1 = SharedData.path("images/frames/gesture_test_video/001.png")
        else { return skipWithoutSharedData() }
        let run = runCLI(["pose", "--api", "mlkit", frame0, frame1, "--model", model])
        #expect(run.status == 0, "\(run.errors)")
        let objects = try lines(run)
        try #require(objects.count == 2)
        // The library's stream detector with frames 33 ms apart.
        let stream = detector(model, .stream)
        for (text, path) in zip(run.output.split(separator: "\n"), [frame0, frame1]) {
            let poses = try stream.results(in: VisionImage(image: try MPImage(contentsOfFile: path)))
            #expect(try matches(text, try #require(poses.first)), "\(path)")
        }
    }

    @Test func defaultModelsComeFromTheModelsFolder() throws {
        guard let folder = SharedData.path("models"),
            let lite = SharedData.path("models/pose_landmarker_lite.task"),
            let full = SharedData.path("models/pose_landmarker_full.task"),
            let image = SharedData.path("images/decoded/business-person.png")
        else { return skipWithoutSharedData() }
        let environment = ["VISION_TASKS_OFFLINE": "1", "VISION_TASKS_MODELS": folder]
        let visionImage = VisionImage(image: try MPImage(contentsOfFile: image))
        for accurate in [false, true] {
            let run = runCLI(
                ["pose", "--api", "mlkit", image, "--single-image"] + (accurate ? ["--accurate"] : []),
                environment: environment)
            #expect(run.status == 0, "\(run.errors)")
            let expected = try detector(accurate ? full : lite, .singleImage, accurate: accurate).results(
                in: visionImage)
            #expect(try matches(Substring(run.output), try #require(expected.first)), "accurate: \(accurate)")
        }
        // Without the model in the folder: one error line, status 1, nothing printed.
        let emptyFolder = try temporaryDirectory("mlkit-models")
        defer { try? FileManager.default.removeItem(atPath: emptyFolder) }
        let missing = runCLI(["pose", "--api", "mlkit", image], environment: ["VISION_TASKS_MODELS": emptyFolder])
        #expect(missing.status == 1 && missing.output.isEmpty)
        #expect(missing.errors.hasPrefix("error: ") && missing.errors.contains("pose_landmarker_lite.task"))
        let badPath = runCLI(["pose", "--api", "mlkit", image, "--model", "/nonexistent/pose.task"])
        #expect(badPath.status == 1 && badPath.output.isEmpty && badPath.errors.hasPrefix("error: "))
    }

    @Test func wrongAPIOrMixedOptionsAreUsageErrors() throws {
        let image = SharedData.path("images/decoded/grace_hopper.png") ?? "/nonexistent/a.png"
        for arguments in [
            ["--api", "tflite"], ["--api", "MLKit"], ["--accurate"], ["--single-image"],
            ["--api", "mediapipe", "--accurate"],
            ["--api", "mlkit", "--video"], ["--api", "mlkit", "--num-poses", "2"],
            ["--api", "mlkit", "--segmentation"],
        ] {
            let run = runCLI(["pose", image, "--model", "/nonexistent/pose.task"] + arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.output.isEmpty, "\(arguments)")
        }
        // `--api mediapipe` is the default API.
        guard let model = SharedData.path("models/pose_landmarker_lite.task") else { return skipWithoutSharedData() }
        let run = runCLI(["pose", image, "--api", "mediapipe", "--model", model])
        #expect(run.status == 0, "\(run.errors)")
        #expect(try run.json()["landmarks"] != nil)
    }

    private func skipWithoutSharedData() {
        print("skipping: shared reference data not found (pose --api mlkit)")
    }
}

/// Frame stamps 0, 33, 66, … ms, as the command uses them.
private final class StepClock: @unchecked Sendable {
    // @unchecked: `count` is touched only under `lock`.
    private let lock = NSLock()
    private var count = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return (count - 1) * 33
    }
}
