import Foundation
import Imaging
import TestSupport
import Testing
import VisionTasks

@testable import VisionTasksCLI

/// `vision-tasks face-landmarks` and `bench face-landmarks` against the JSON contract of issue
/// #21 and MediaPipe's own results (../shared/reference/face_landmarker): the same faces,
/// landmarks within 1e-4 (x, y) and 1e-3 (z), blendshapes within 1e-4, matrices row-major within
/// 1e-4 relative (1e-3 for the translation column).
@Suite("face-landmarks command", .serialized)
struct FaceLandmarksCommandTests {
    static var model: String? { SharedData.path("models/face_landmarker.task") }

    static func document(_ relative: String) throws -> [String: Any]? {
        guard let path = SharedData.path(relative) else { return nil }
        return try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
    }

    /// The CLI arguments for a reference run's options.
    static func arguments(_ options: [String: Any]) -> [String] {
        var arguments: [String] = []
        let numbers: [(String, String)] = [
            ("num_faces", "--num-faces"), ("min_face_detection_confidence", "--min-face-detection-confidence"),
            ("min_face_presence_confidence", "--min-face-presence-confidence"),
            ("min_tracking_confidence", "--min-tracking-confidence"),
        ]
        for (key, flag) in numbers {
            if let value = options[key] as? NSNumber { arguments += [flag, "\(value)"] }
        }
        if options["output_face_blendshapes"] as? Bool == true { arguments.append("--blendshapes") }
        if options["output_facial_transformation_matrixes"] as? Bool == true {
            arguments.append("--transformation-matrixes")
        }
        return arguments
    }

    /// Compares one JSON line with MediaPipe's result, including which fields it has.
    static func expectMatches(_ line: [String: Any], _ expected: [String: Any], options: [String: Any], _ label: String)
    {
        let blendshapes = options["output_face_blendshapes"] as? Bool == true
        let matrices = options["output_facial_transformation_matrixes"] as? Bool == true
        var keys: Set<String> = ["file", "width", "height", "timestampInMilliseconds", "faceLandmarks"]
        if blendshapes { keys.insert("faceBlendshapes") }
        if matrices { keys.insert("facialTransformationMatrixes") }
        #expect(Set(line.keys) == keys, "\(label)")

        let faces = line["faceLandmarks"] as? [[[String: Any]]] ?? []
        let theirs = expected["face_landmarks"] as? [[[String: Any]]] ?? []
        #expect(faces.count == theirs.count, "\(label): \(faces.count) faces, MediaPipe \(theirs.count)")
        for (face, reference) in zip(faces, theirs) {
            #expect(face.count == 478)
            for (point, other) in zip(face, reference) {
                #expect(Set(point.keys) == ["x", "y", "z"])
                for (axis, tolerance) in [("x", 1e-4), ("y", 1e-4), ("z", 1e-3)] {
                    let difference = abs((point[axis] as? Double ?? .nan) - (other[axis] as? Double ?? .nan))
                    #expect(difference <= tolerance, "\(label) \(axis)")
                }
            }
        }
        if blendshapes {
            let ours = line["faceBlendshapes"] as? [[[String: Any]]] ?? []
            let reference = expected["face_blendshapes"] as? [[[String: Any]]] ?? []
            #expect(ours.count == reference.count, "\(label): blendshape lists")
            for (list, other) in zip(ours, reference) {
                #expect(list.count == 52)
                for (category, theirs) in zip(list, other) {
                    #expect(Set(category.keys) == ["index", "score", "categoryName", "displayName"])
                    #expect(category["categoryName"] as? String == theirs["category_name"] as? String)
                    #expect(category["displayName"] is NSNull)
                    let difference = abs((category["score"] as? Double ?? .nan) - (theirs["score"] as? Double ?? .nan))
                    #expect(difference <= 1e-4, "\(label) \(theirs["category_name"] ?? "")")
                }
            }
        }
        if matrices {
            let ours = line["facialTransformationMatrixes"] as? [[Double]] ?? []
            let reference = expected["facial_transformation_matrixes"] as? [[[Double]]] ?? []
            #expect(ours.count == reference.count, "\(label): matrices")
            for (matrix, rows) in zip(ours, reference) {
                #expect(matrix.count == 16)
                for (index, value) in matrix.enumerated() where index < 16 {
                    let expectedValue = rows[index / 4][index % 4]
                    let tolerance = index % 4 == 3 ? 1e-3 : 1e-4 * max(1, abs(expectedValue))
                    #expect(abs(value - expectedValue) <= tolerance, "\(label) matrix entry \(index)")
                }
            }
        }
    }

    @Test func everyReferenceImageAndOptionSetPrintsMediaPipesFaces() throws {
        let names = References.imageNames(task: "face_landmarker")
        guard let model = Self.model, !names.isEmpty else {
            return print("skipping: shared reference data not found (face_landmarker.task)")
        }
        var runs = 0
        for name in names {
            let document = try #require(try Self.document("reference/face_landmarker/\(name).json"))
            let path = try #require(SharedData.path("images/decoded/\(name).png"))
            for (runName, value) in try #require(document["runs"] as? [String: Any]) {
                let entry = try #require(value as? [String: Any])
                let options = try #require(entry["options"] as? [String: Any])
                let result = runCLI(["face-landmarks", path, "--model", model] + Self.arguments(options))
                #expect(result.status == 0, "\(result.errors)")
                let line = try #require(try HandsCommandTests.lines(result).first)
                Self.expectMatches(
                    line, try #require(entry["result"] as? [String: Any]), options: options, "\(name) \(runName)")
                runs += 1
            }
        }
        #expect(runs >= 30)
    }

    @Test func videoFramesTrackAsMediaPipe() throws {
        guard let model = Self.model, let frames = SharedData.path("images/frames/gesture_test_video"),
            let document = try Self.document("reference/video/face_landmarker/gesture_test_video.json")
        else { return print("skipping: shared reference data not found (gesture_test_video)") }
        let run = try #require((document["runs"] as? [String: Any])?["blendshapes_and_matrices"] as? [String: Any])
        let options = try #require(run["options"] as? [String: Any])
        let result = runCLI(
            ["face-landmarks", frames, "--model", model, "--video", "--frame-ms", "33"] + Self.arguments(options))
        #expect(result.status == 0, "\(result.errors)")
        let lines = try HandsCommandTests.lines(result)
        let expected = try #require(run["frames"] as? [[String: Any]])
        #expect(lines.count == expected.count)
        for (line, frame) in zip(lines, expected) {
            #expect(line["timestampInMilliseconds"] as? Int == frame["timestamp_ms"] as? Int)
            Self.expectMatches(line, frame, options: options, "frame \(frame["frame_index"] ?? "?")")
        }
    }

    @Test func annotationBenchAndBadOptions() throws {
        guard let model = Self.model, let image = SharedData.path("images/decoded/business-person.png") else {
            return print("skipping: shared reference data not found (face_landmarker.task)")
        }
        let directory = try temporaryDirectory("face-landmarks")
        let annotated = runCLI(["face-landmarks", image, "--model", model, "--annotate", directory])
        #expect(annotated.status == 0, "\(annotated.errors)")
        let plain = try MPImage(contentsOfFile: image)
        let picture = try MPImage(contentsOfFile: directory + "/business-person.png")
        #expect(Int(picture.width) == 958 && Int(picture.height) == 1358)
        // The mesh is drawn: pixels inside the face changed, pixels far from it did not.
        let line = try #require(try HandsCommandTests.lines(annotated).first)
        let face = try #require((line["faceLandmarks"] as? [[[String: Any]]])?.first)
        let nose = try #require(face[1]["x"] as? Double)
        let noseY = try #require(face[1]["y"] as? Double)
        let before = plain.bitmap.convertedToRGB()
        let after = picture.bitmap.convertedToRGB()
        func pixel(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> ArraySlice<UInt8> {
            let offset = y * bitmap.bytesPerRow + x * 3
            return bitmap.bytes[offset..<offset + 3]
        }
        var changed = 0
        let centreX = Int(nose * 958)
        let centreY = Int(noseY * 1358)
        for dy in -40...40 {
            for dx in -40...40
            where pixel(before, centreX + dx, centreY + dy) != pixel(after, centreX + dx, centreY + dy) {
                changed += 1
            }
        }
        #expect(changed > 200, "\(changed) pixels changed around the nose")
        #expect(pixel(before, 5, 1300) == pixel(after, 5, 1300))

        for mode in ["image", "video"] {
            let bench = runCLI([
                "bench", "face-landmarks", image, "--model", model, "--mode", mode, "--blendshapes",
                "--iterations", "2", "--json",
            ])
            #expect(bench.status == 0, "\(bench.errors)")
            #expect(Set(try bench.json().keys) == ["medianMs", "minMs", "maxMs"])
        }

        let invalid = runCLI(["face-landmarks", image, "--model", model, "--min-tracking-confidence", "1.5"])
        #expect(invalid.status == 1 && invalid.errors.contains("minTrackingConfidence is 1.5"))
        let zero = runCLI(["face-landmarks", image, "--model", model, "--num-faces", "0"])
        #expect(zero.status == 1 && zero.errors.contains("numFaces is 0"))
        #expect(runCLI(["face-landmarks", image, "--model", model, "--num-faces", "two"]).status == 2)
        let missing = runCLI(
            ["face-landmarks", image], environment: ["VISION_TASKS_OFFLINE": "1", "VISION_TASKS_MODELS": directory])
        #expect(missing.status != 0 && missing.errors.contains("face_landmarker.task"))
    }
}
