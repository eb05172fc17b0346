import Foundation
import TestSupport
import Testing
import VisionTasks

@testable import VisionTasksCLI

/// `vision-tasks faces` and `bench faces` against the JSON contract of issue #20 and MediaPipe's own
/// detections (../shared/reference/face_detector).
@Suite("faces command", .serialized)
struct FacesCommandTests {
    static var model: String? { SharedData.path("models/blaze_face_short_range.tflite") }

    @Test func everyReferenceImageAndOptionSetPrintsMediaPipesFaces() throws {
        let names = References.imageNames(task: "face_detector")
        guard let model = Self.model, !names.isEmpty else {
            return print("skipping: shared reference data not found (blaze_face_short_range.tflite)")
        }
        for name in names {
            let reference = try #require(try References.image(task: "face_detector", name: name))
            let path = try #require(SharedData.path("images/decoded/\(name).png"))
            for (runName, run) in reference.runs {
                var arguments = ["faces", path, "--model", model]
                if let value = run.options.minDetectionConfidence {
                    arguments += ["--min-detection-confidence", "\(value)"]
                }
                if let value = run.options.minSuppressionThreshold {
                    arguments += ["--min-suppression-threshold", "\(value)"]
                }
                let result = runCLI(arguments)
                #expect(result.status == 0, "\(result.errors)")
                let line = try #require(try ObjectsCommandTests.lines(result).first)
                #expect(
                    Set(line.keys) == ["file", "width", "height", "timestampInMilliseconds", "detections"])
                let faces = try ObjectsCommandTests.detections(line)
                let expected = run.result.detections ?? []
                ObjectsCommandTests.expectMatches(faces, expected, "\(name) \(runName)")
                for (face, theirs) in zip(faces, expected) {
                    #expect(Set(face.keys) == ["boundingBox", "categories", "keypoints"])
                    let keypoints = try #require(face["keypoints"] as? [[String: Any]])
                    #expect(keypoints.count == 6)
                    for (point, reference) in zip(keypoints, theirs.keypoints ?? []) {
                        #expect(Set(point.keys) == ["x", "y", "label", "score"])
                        #expect(abs((point["x"] as? Double ?? .nan) - Double(reference.x)) <= 1e-6)
                        #expect(abs((point["y"] as? Double ?? .nan) - Double(reference.y)) <= 1e-6)
                        #expect(point["label"] is NSNull && point["score"] is NSNull)
                    }
                }
            }
        }
    }

    @Test func videoAnnotationBenchAndBadOptions() throws {
        guard let model = Self.model, let frames = SharedData.path("images/frames/gesture_test_video"),
            let reference = try References.video(task: "face_detector", sequence: "gesture_test_video"),
            let image = SharedData.path("images/decoded/business-person.png")
        else { return print("skipping: shared reference data not found (gesture_test_video)") }
        let video = runCLI(["faces", frames, "--model", model, "--video"])
        #expect(video.status == 0, "\(video.errors)")
        let lines = try ObjectsCommandTests.lines(video)
        let expected = try #require(reference.runs["default"]).frames
        #expect(lines.count == expected.count)
        for (line, frame) in zip(lines, expected) {
            ObjectsCommandTests.expectMatches(
                try ObjectsCommandTests.detections(line), frame.detections ?? [], "frame \(frame.frameIndex)")
        }

        let directory = try temporaryDirectory("faces")
        let annotated = runCLI(["faces", image, "--model", model, "--annotate", directory])
        #expect(annotated.status == 0, "\(annotated.errors)")
        let picture = try MPImage(contentsOfFile: directory + "/business-person.png")
        #expect(Int(picture.width) == 958 && Int(picture.height) == 1358)

        for mode in ["image", "video"] {
            let bench = runCLI([
                "bench", "faces", image, "--model", model, "--mode", mode, "--iterations", "2", "--json",
            ])
            #expect(bench.status == 0, "\(bench.errors)")
            #expect(Set(try bench.json().keys) == ["medianMs", "minMs", "maxMs"])
        }

        let invalid = runCLI(["faces", image, "--model", model, "--min-suppression-threshold", "1.5"])
        #expect(invalid.status == 1 && invalid.errors.contains("minSuppressionThreshold is 1.5"))
        #expect(runCLI(["faces", image, "--model", model, "--min-detection-confidence", "high"]).status == 2)
        let missing = runCLI(
            ["faces", image], environment: ["VISION_TASKS_OFFLINE": "1", "VISION_TASKS_MODELS": directory])
        #expect(missing.status != 0 && missing.errors.contains("blaze_face_short_range.tflite"))
    }
}
