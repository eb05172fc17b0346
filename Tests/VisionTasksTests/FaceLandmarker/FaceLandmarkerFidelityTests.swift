import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// FaceLandmarker against MediaPipe 1.2.3's own results (../shared/reference/face_landmarker and
/// reference/video/face_landmarker) on the exact decoded pixels, through the public API: the
/// same number of faces, landmarks within 1e-4 (x, y) and 1e-3 (z), blendshape scores within
/// 1e-4 with MediaPipe's names, matrix entries within 1e-4 relative and 1e-3 in the translation
/// column (issue #21).
@Suite("FaceLandmarker fidelity", .serialized)
struct FaceLandmarkerFidelityTests {
    struct Worst {
        var xy = 0.0
        var z = 0.0
        var blendshape = 0.0
        var rotation = 0.0
        var translation = 0.0
        var faces = 0
    }

    static var modelPath: String? { SharedData.path("models/face_landmarker.task") }

    /// A landmarker for the reference's option set (`num_faces`, `min_*`, `output_*`).
    static func landmarker(_ mode: RunningMode, reference: [String: Any] = [:]) throws -> FaceLandmarker? {
        guard let path = modelPath else { return nil }
        let options = FaceLandmarkerOptions()
        options.baseOptions.modelAssetPath = path
        options.runningMode = mode
        options.numFaces = reference["num_faces"] as? Int ?? 1
        options.minFaceDetectionConfidence = Float(reference["min_face_detection_confidence"] as? Double ?? 0.5)
        options.minFacePresenceConfidence = Float(reference["min_face_presence_confidence"] as? Double ?? 0.5)
        options.minTrackingConfidence = Float(reference["min_tracking_confidence"] as? Double ?? 0.5)
        options.outputFaceBlendshapes = reference["output_face_blendshapes"] as? Bool ?? false
        options.outputFacialTransformationMatrixes =
            reference["output_facial_transformation_matrixes"] as? Bool ?? false
        return try FaceLandmarker(options: options)
    }

    static func compare(
        _ result: FaceLandmarkerResult, _ expected: [String: Any], options: [String: Any], label: String,
        into worst: inout Worst
    ) {
        let faces = expected["face_landmarks"] as? [[[String: Any]]] ?? []
        #expect(
            result.faceLandmarks.count == faces.count,
            "\(label): \(result.faceLandmarks.count) faces, MediaPipe \(faces.count)")
        for (ours, theirs) in zip(result.faceLandmarks, faces) {
            #expect(ours.count == 478 && theirs.count == 478)
            for (point, reference) in zip(ours, theirs) {
                worst.xy = max(
                    worst.xy, abs(Double(point.x) - (reference["x"] as? Double ?? .nan)),
                    abs(Double(point.y) - (reference["y"] as? Double ?? .nan)))
                worst.z = max(worst.z, abs(Double(point.z) - (reference["z"] as? Double ?? .nan)))
                #expect(point.visibility == nil && point.presence == nil)
            }
            worst.faces += 1
        }

        let expectedShapes = expected["face_blendshapes"] as? [[[String: Any]]] ?? []
        if options["output_face_blendshapes"] as? Bool == true {
            #expect(result.faceBlendshapes.count == expectedShapes.count, "\(label): blendshape lists")
        } else {
            #expect(result.faceBlendshapes.isEmpty, "\(label): blendshapes not asked for")
        }
        for (ours, theirs) in zip(result.faceBlendshapes, expectedShapes) {
            #expect(ours.headIndex == 0 && ours.headName == "" && ours.categories.count == theirs.count)
            for (category, reference) in zip(ours.categories, theirs) {
                #expect(category.index == reference["index"] as? Int)
                #expect(category.categoryName == reference["category_name"] as? String)
                #expect(category.displayName == nil)
                worst.blendshape = max(
                    worst.blendshape, abs(Double(category.score) - (reference["score"] as? Double ?? .nan)))
            }
        }

        let expectedMatrices = expected["facial_transformation_matrixes"] as? [[[Double]]] ?? []
        if options["output_facial_transformation_matrixes"] as? Bool == true {
            #expect(result.facialTransformationMatrixes.count == expectedMatrices.count, "\(label): matrices")
        } else {
            #expect(result.facialTransformationMatrixes.isEmpty, "\(label): matrices not asked for")
        }
        for (ours, theirs) in zip(result.facialTransformationMatrixes, expectedMatrices) {
            #expect(ours.rows == 4 && ours.columns == 4)
            for row in 0..<4 {
                for column in 0..<4 {
                    // `data` is column-major, as MediaPipe's.
                    let value = Double(ours.data[column * 4 + row])
                    #expect(value == Double(ours.value(atRow: UInt(row), column: UInt(column))))
                    let difference = abs(value - theirs[row][column])
                    if column == 3 {
                        worst.translation = max(worst.translation, difference)
                    } else {
                        worst.rotation = max(worst.rotation, difference / max(1, abs(theirs[row][column])))
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
        guard Self.modelPath != nil, !names.isEmpty else {
            return skipWithoutSharedData("face_landmarker.task and reference/face_landmarker")
        }
        var worst = Worst()
        var runs = 0
        for name in names {
            let document = try #require(try SegmentationReference.json("reference/face_landmarker/\(name).json"))
            let image = try #require(document["image"] as? [String: Any])
            let decoded = try #require(image["decoded_png"] as? String)
            let picture = try MPImage(contentsOfFile: try #require(SharedData.path(decoded)))
            for (run, value) in try #require(document["runs"] as? [String: Any]).sorted(by: { $0.key < $1.key }) {
                let entry = try #require(value as? [String: Any])
                let options = try #require(entry["options"] as? [String: Any])
                let landmarker = try #require(try Self.landmarker(.image, reference: options))
                Self.compare(
                    try landmarker.detect(image: picture), try #require(entry["result"] as? [String: Any]),
                    options: options, label: "\(name) \(run)", into: &worst)
                runs += 1
            }
        }
        #expect(runs >= 30 && worst.faces >= 16, "\(runs) runs, \(worst.faces) faces")
        Self.check(worst, "face landmarker images")
    }

    @Test(arguments: ["gesture_test_video", "hand_test_video"])
    func videoSequencesMatchMediaPipeFrameByFrame(_ sequence: String) throws {
        guard Self.modelPath != nil,
            let document = try SegmentationReference.json("reference/video/face_landmarker/\(sequence).json")
        else { return skipWithoutSharedData("reference/video/face_landmarker/\(sequence)") }
        let video = try #require(document["video"] as? [String: Any])
        let directory = try #require(video["frames_png_dir"] as? String)
        var worst = Worst()
        for (run, value) in try #require(document["runs"] as? [String: Any]).sorted(by: { $0.key < $1.key }) {
            let entry = try #require(value as? [String: Any])
            let options = try #require(entry["options"] as? [String: Any])
            let landmarker = try #require(try Self.landmarker(.video, reference: options))
            for frame in try #require(entry["frames"] as? [[String: Any]]) {
                let index = try #require(frame["frame_index"] as? Int)
                let timestamp = try #require(frame["timestamp_ms"] as? Int)
                let png = try #require(SharedData.path(String(format: "\(directory)/%03d.png", index)))
                let result = try landmarker.detect(
                    videoFrame: try MPImage(contentsOfFile: png), timestampInMilliseconds: timestamp)
                #expect(result.timestampInMilliseconds == timestamp)
                Self.compare(result, frame, options: options, label: "\(sequence) \(run) frame \(index)", into: &worst)
            }
        }
        Self.check(worst, sequence)
    }
}
