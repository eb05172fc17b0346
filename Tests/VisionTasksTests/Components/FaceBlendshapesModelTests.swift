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
        for face in try FaceLandmarkerReferences.faces(withResult: "face_blendshapes") {
            let expected = try #require(face.expected as? [[String: Any]])
            let scores = try model.scores(landmarks: face.landmarks, width: face.width, height: face.height)
            #expect(expected.compactMap { $0["category_name"] as? String } == FaceBlendshapesModel.names)
            for (score, reference) in zip(scores, expected) {
                worst = max(worst, abs(score - Float(reference["score"] as? Double ?? .nan)))
            }
            compared += 1
        }
        guard compared > 0 else { return skipWithoutSharedData("reference/face_landmarker blendshapes") }
        #expect(worst <= 1e-4, "blendshape scores differ by up to \(worst)")
        print("face blendshapes: \(compared) faces, worst score difference \(worst)")
    }
}
