import Foundation
import ModelFile
import TestSupport
import Testing

@testable import VisionTasks

/// The face geometry pipeline on MediaPipe's own landmarks (../shared/reference/face_landmarker,
/// the runs with transformation matrices): the same 4×4 matrices, entries within 1e-4 relative
/// and the translation column within 1e-3 (issue #21).
@Suite struct FaceGeometryPipelineTests {
    static func metadata() throws -> GeometryPipelineMetadata? {
        guard let path = SharedData.path("models/face_landmarker.task") else { return nil }
        let archive = try ZipArchive(contentsOfFile: path)
        return try GeometryPipelineMetadata(
            bytes: try archive.storedData(named: "geometry_pipeline_metadata_landmarks.binarypb"))
    }

    @Test func theBundlesMetadataHasTheCanonicalMeshAndWeights() throws {
        guard let metadata = try Self.metadata() else { return skipWithoutSharedData("face_landmarker.task") }
        // ../shared/spec/PIPELINES.md §10 item 3: 468 vertices, 898 triangles, 33 weights.
        #expect(metadata.inputSource == 1)
        #expect(metadata.canonicalVertices.count == 468 && metadata.triangleIndices.count == 898 * 3)
        #expect(metadata.procrustesWeights.count == 33)
        // §8.7: landmark 4 weighs 0.070909939706326, 129 0.120625205338001.
        let weights = Dictionary(uniqueKeysWithValues: metadata.procrustesWeights.map { ($0.landmark, $0.weight) })
        #expect(weights[4] == Float(0.070909939706326) && weights[129] == Float(0.120625205338001))
    }

    @Test func matricesMatchMediaPipeOnItsLandmarks() throws {
        guard let metadata = try Self.metadata() else { return skipWithoutSharedData("face_landmarker.task") }
        let pipeline = FaceGeometryPipeline(metadata: metadata)
        var compared = 0
        var worstRotation = 0.0
        var worstTranslation = 0.0
        for face in try FaceLandmarkerReferences.faces(withResult: "facial_transformation_matrixes") {
            let expected = try #require(face.expected as? [[Double]])
            let matrix = try #require(
                try pipeline.transformationMatrix(landmarks: face.landmarks, width: face.width, height: face.height))
            for row in 0..<4 {
                for column in 0..<4 {
                    let difference = abs(matrix[row][column] - expected[row][column])
                    if column == 3 {
                        worstTranslation = max(worstTranslation, difference)
                    } else {
                        worstRotation = max(worstRotation, difference / max(1, abs(expected[row][column])))
                    }
                }
            }
            compared += 1
        }
        guard compared > 0 else { return skipWithoutSharedData("reference/face_landmarker matrices") }
        #expect(worstRotation <= 1e-4, "rotation and scale differ by up to \(worstRotation) (relative)")
        #expect(worstTranslation <= 1e-3, "translations differ by up to \(worstTranslation)")
        print("face geometry: \(compared) matrices, worst \(worstRotation) (relative), translation \(worstTranslation)")
    }

    @Test func landmarksAtOnePointGiveNoMatrix() throws {
        guard let metadata = try Self.metadata() else { return skipWithoutSharedData("face_landmarker.task") }
        let pipeline = FaceGeometryPipeline(metadata: metadata)
        let point = [SIMD3<Float>](repeating: SIMD3(0.5, 0.5, 0), count: 478)
        #expect(try pipeline.transformationMatrix(landmarks: point, width: 640, height: 480) == nil)
    }
}
