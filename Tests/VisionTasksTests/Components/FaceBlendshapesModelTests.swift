import Foundation
import ModelFile
import TestSupport
import Testing

@testable import VisionTasks

/// The blendshapes model on MediaPipe's own landmarks (../shared/reference/face_landmarker, the
/// runs with blendshapes): the same 52 names and scores within 1e-4 (issue #21).
@Suite struct FaceBlendshapesModelTests {
    @Test func scoresMatchMediaPipeOnItsLandmarks() throws {
        guard let path = SharedData.path("models/face_landmarker.task") else {
            return skipWithoutSharedData("face_landmarker.task")
        }
        let model = try FaceBlendshapesModel(
            model: try ModelContainer(contentsOfFile: path).model(named: "face_blendshapes.tflite"), threadCount: 1)
        var compared = 0
        var worst: Float = 0
        for name in References.imageNames(task: "face_landmarker") {
            let document = try #require(try SegmentationReference.json("reference/face_landmarker/\(name).json"))
            let image = try #require(document["image"] as? [String: Any])
            let width = try #require(image["width"] as? Int)
            let height = try #require(image["height"] as? Int)
            let runs = try #require(document["runs"] as? [String: Any])
            for (_, value) in runs {
                let result = try #require((value as? [String: Any])?["result"] as? [String: Any])
                guard let blendshapes = result["face_blendshapes"] as? [[[String: Any]]], !blendshapes.isEmpty,
                    let faces = result["face_landmarks"] as? [[[String: Any]]]
                else { continue }
                for (face, expected) in zip(faces, blendshapes) {
                    let landmarks = face.map {
                        SIMD3(
                            Float($0["x"] as? Double ?? .nan), Float($0["y"] as? Double ?? .nan),
                            Float($0["z"] as? Double ?? .nan))
                    }
                    let scores = try model.scores(landmarks: landmarks, width: width, height: height)
                    #expect(expected.compactMap { $0["category_name"] as? String } == FaceBlendshapesModel.names)
                    for (score, reference) in zip(scores, expected) {
                        worst = max(worst, abs(score - Float(reference["score"] as? Double ?? .nan)))
                    }
                    compared += 1
                }
            }
        }
        guard compared > 0 else { return skipWithoutSharedData("reference/face_landmarker blendshapes") }
        #expect(worst <= 1e-4, "blendshape scores differ by up to \(worst)")
        print("face blendshapes: \(compared) faces, worst score difference \(worst)")
    }
}
