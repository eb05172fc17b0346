import Foundation
import ModelFile
import TestSupport
import Testing

@testable import VisionTasks

/// The face landmarker's pipeline (the task API is still to come, issue #21) against MediaPipe
/// 1.2.3's own results (../shared/reference/face_landmarker and reference/video/face_landmarker)
/// on the exact decoded pixels: the same number of faces, landmarks within 1e-4 (x, y) and 1e-3
/// (z), blendshape scores within 1e-4, matrix entries within 1e-4 relative and 1e-3 in the
/// translation column.
@Suite("FaceLandmarker pipeline fidelity", .serialized)
struct FaceLandmarkerPipelineTests {
    struct Worst {
        var xy = 0.0
        var z = 0.0
        var blendshape = 0.0
        var rotation = 0.0
        var translation = 0.0
        var faces = 0
    }

    static func processor(options: [String: Any], tracks: Bool) throws -> FaceLandmarkerProcessor? {
        guard let path = SharedData.path("models/face_landmarker.task") else { return nil }
        var settings = FaceLandmarkerProcessor.Settings()
        settings.numFaces = options["num_faces"] as? Int ?? 1
        settings.minFaceDetectionConfidence = Float(options["min_face_detection_confidence"] as? Double ?? 0.5)
        settings.minFacePresenceConfidence = Float(options["min_face_presence_confidence"] as? Double ?? 0.5)
        settings.minTrackingConfidence = Float(options["min_tracking_confidence"] as? Double ?? 0.5)
        settings.outputsBlendshapes = options["output_face_blendshapes"] as? Bool ?? false
        settings.outputsMatrices = options["output_facial_transformation_matrixes"] as? Bool ?? false
        return try FaceLandmarkerProcessor(
            bundle: ModelAssetBundle(contentsOfFile: path), settings: settings, tracks: tracks, threadCount: 2)
    }

    static func compare(
        _ output: FaceLandmarkerProcessor.Output, _ expected: [String: Any], label: String, into worst: inout Worst
    ) {
        let faces = expected["face_landmarks"] as? [[[String: Any]]] ?? []
        #expect(
            output.landmarks.count == faces.count, "\(label): \(output.landmarks.count) faces, MediaPipe \(faces.count)"
        )
        for (ours, theirs) in zip(output.landmarks, faces) {
            #expect(ours.count == theirs.count)
            for (point, reference) in zip(ours, theirs) {
                worst.xy = max(
                    worst.xy, abs(Double(point.x) - (reference["x"] as? Double ?? .nan)),
                    abs(Double(point.y) - (reference["y"] as? Double ?? .nan)))
                worst.z = max(worst.z, abs(Double(point.z) - (reference["z"] as? Double ?? .nan)))
            }
            worst.faces += 1
        }
        if let scores = output.blendshapes {
            let expectedScores = expected["face_blendshapes"] as? [[[String: Any]]] ?? []
            #expect(scores.count == expectedScores.count, "\(label): blendshape lists")
            for (ours, theirs) in zip(scores, expectedScores) {
                for (score, reference) in zip(ours, theirs) {
                    worst.blendshape = max(
                        worst.blendshape, abs(Double(score) - (reference["score"] as? Double ?? .nan)))
                }
            }
        }
        if let matrices = output.matrices {
            let expectedMatrices = expected["facial_transformation_matrixes"] as? [[[Double]]] ?? []
            #expect(matrices.count == expectedMatrices.count, "\(label): matrices")
            for (ours, theirs) in zip(matrices, expectedMatrices) {
                guard let ours else {
                    Issue.record("\(label): no matrix")
                    continue
                }
                for row in 0..<4 {
                    for column in 0..<4 {
                        let difference = abs(ours[row][column] - theirs[row][column])
                        if column == 3 {
                            worst.translation = max(worst.translation, difference)
                        } else {
                            worst.rotation = max(worst.rotation, difference / max(1, abs(theirs[row][column])))
                        }
                    }
                }
            }
        }
    }

    static func check(_ worst: Worst, _ label: String) {
        #expect(worst.xy <= 1e-4, "\(label): landmarks differ by \(worst.xy) in x or y")
        #expect(worst.z <= 1e-3, "\(label): landmarks differ by \(worst.z) in z")
        #expect(worst.blendshape <= 1e-4, "\(label): blendshape scores differ by \(worst.blendshape)")
        #expect(worst.rotation <= 1e-4, "\(label): matrices differ by \(worst.rotation) (relative)")
        #expect(worst.translation <= 1e-3, "\(label): translations differ by \(worst.translation)")
        print(
            "\(label): \(worst.faces) faces; x/y \(worst.xy), z \(worst.z), blendshapes \(worst.blendshape), "
                + "matrix \(worst.rotation), translation \(worst.translation)")
    }

    @Test func everyImageAndOptionSetMatchesMediaPipe() throws {
        let names = References.imageNames(task: "face_landmarker")
        guard SharedData.path("models/face_landmarker.task") != nil, !names.isEmpty else {
            return skipWithoutSharedData("face_landmarker.task and reference/face_landmarker")
        }
        var worst = Worst()
        for name in names {
            let document = try #require(try SegmentationReference.json("reference/face_landmarker/\(name).json"))
            let image = try #require(document["image"] as? [String: Any])
            let decoded = try #require(image["decoded_png"] as? String)
            let picture = try MPImage(contentsOfFile: try #require(SharedData.path(decoded)))
            let runs = try #require(document["runs"] as? [String: Any])
            for (run, value) in runs.sorted(by: { $0.key < $1.key }) {
                let entry = try #require(value as? [String: Any])
                let options = try #require(entry["options"] as? [String: Any])
                let expected = try #require(entry["result"] as? [String: Any])
                var processor = try #require(try Self.processor(options: options, tracks: false))
                Self.compare(
                    try processor.process(picture, timestampInMilliseconds: 0), expected, label: "\(name) \(run)",
                    into: &worst)
            }
        }
        Self.check(worst, "face landmarker images")
    }

    @Test(arguments: ["gesture_test_video", "hand_test_video"])
    func videoSequencesMatchMediaPipeFrameByFrame(_ sequence: String) throws {
        guard SharedData.path("models/face_landmarker.task") != nil,
            let document = try SegmentationReference.json("reference/video/face_landmarker/\(sequence).json")
        else { return skipWithoutSharedData("reference/video/face_landmarker/\(sequence)") }
        let video = try #require(document["video"] as? [String: Any])
        let directory = try #require(video["frames_png_dir"] as? String)
        let runs = try #require(document["runs"] as? [String: Any])
        var worst = Worst()
        for (run, value) in runs.sorted(by: { $0.key < $1.key }) {
            let entry = try #require(value as? [String: Any])
            let options = try #require(entry["options"] as? [String: Any])
            var processor = try #require(try Self.processor(options: options, tracks: true))
            for frame in try #require(entry["frames"] as? [[String: Any]]) {
                let index = try #require(frame["frame_index"] as? Int)
                let timestamp = try #require(frame["timestamp_ms"] as? Int)
                let png = try #require(SharedData.path(String(format: "\(directory)/%03d.png", index)))
                let output = try processor.process(try MPImage(contentsOfFile: png), timestampInMilliseconds: timestamp)
                Self.compare(output, frame, label: "\(sequence) \(run) frame \(index)", into: &worst)
            }
        }
        Self.check(worst, sequence)
    }
}
