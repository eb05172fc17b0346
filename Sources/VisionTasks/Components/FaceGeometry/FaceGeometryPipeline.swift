import Foundation
import ModelFile

/// The facial transformation matrix of MediaPipe's face geometry pipeline
/// (mediapipe/tasks/cc/vision/face_geometry/libs/geometry_pipeline.cc, face_geometry_from_landmarks_graph.cc;
/// ../shared/spec/PIPELINES.md §8.7): the face's landmarks are placed in a perspective camera
/// (vertical field of view 63°, near plane 1, origin at the top-left corner), rescaled twice by
/// the scale of a weighted Procrustes fit of the canonical face mesh, and the final fit of the
/// canonical mesh onto these metric landmarks is the matrix: uniform scale, rotation and
/// translation from the canonical model (centimetres) into a right-handed camera frame.
struct FaceGeometryPipeline {
    /// The camera of face_geometry_from_landmarks_graph.cc.
    static let verticalFieldOfViewDegrees = 63.0
    static let near = 1.0

    let canonical: [SIMD3<Double>]
    /// Procrustes weight per canonical vertex (0 for most).
    let weights: [Double]

    init(metadata: GeometryPipelineMetadata) {
        canonical = metadata.canonicalVertices.map { SIMD3(Double($0.x), Double($0.y), Double($0.z)) }
        var weights = [Double](repeating: 0, count: canonical.count)
        for (landmark, weight) in metadata.procrustesWeights { weights[landmark] = Double(weight) }
        self.weights = weights
    }

    /// The 4×4 matrix (rows) for `landmarks` — normalized (x, y) and z in x's scale — of an
    /// image `width × height` (the stored, unrotated size), or `nil` when the landmarks are all
    /// at one point (max distance from their mean ≤ 1e-3), as upstream skips them.
    ///
    /// - Throws: ``TasksError/internalError(_:)`` when the Procrustes fit degenerates (MediaPipe's
    ///   code 13).
    func transformationMatrix(landmarks: [SIMD3<Float>], width: Int, height: Int) throws(TasksError) -> [[Double]]? {
        let count = canonical.count
        guard landmarks.count >= count, width > 0, height > 0 else {
            throw .internalError("face geometry: \(landmarks.count) landmarks, the canonical mesh has \(count)")
        }
        let points = landmarks.prefix(count).map { SIMD3(Double($0.x), Double($0.y), Double($0.z)) }
        let mean = points.reduce(SIMD3<Double>(repeating: 0), +) / Double(count)
        let spread = points.map { (($0.x - mean.x) * ($0.x - mean.x) + ($0.y - mean.y) * ($0.y - mean.y)).squareRoot() }
        guard (spread.max() ?? 0) > 1e-3 else { return nil }
        // Screen to the near plane (ProjectXY): x·w − w/2, (1 − y)·h − h/2, z·w.
        let nearHeight = 2 * Self.near * tan(Self.verticalFieldOfViewDegrees * .pi / 360)
        let nearWidth = nearHeight * Double(width) / Double(height)
        let screen = points.map {
            SIMD3($0.x * nearWidth - nearWidth / 2, (1 - $0.y) * nearHeight - nearHeight / 2, $0.z * nearWidth)
        }
        let depthOffset = screen.map(\.z).reduce(0, +) / Double(count)
        func flipped(_ points: [SIMD3<Double>]) -> [SIMD3<Double>] { points.map { SIMD3($0.x, $0.y, -$0.z) } }
        /// MoveAndRescaleZ, UnprojectXY, ChangeHandedness.
        func metric(scale: Double) -> [SIMD3<Double>] {
            flipped(
                screen.map {
                    let z = ($0.z - depthOffset + Self.near) / scale
                    return SIMD3($0.x * z / Self.near, $0.y * z / Self.near, z)
                })
        }
        do {
            let first = try fit(flipped(screen)).scale
            let second = try fit(metric(scale: first)).scale
            let final = try fit(metric(scale: first * second))
            var matrix = [[Double]](repeating: [0, 0, 0, 0], count: 4)
            for row in 0..<3 {
                matrix[row] = final.rotationAndScale[row] + [final.translation[row]]
            }
            matrix[3] = [0, 0, 0, 1]
            return matrix
        } catch {
            throw .internalError("face geometry: the Procrustes fit failed (\(error))")
        }
    }

    private func fit(_ targets: [SIMD3<Double>]) throws -> WeightedProcrustes.Transform {
        try WeightedProcrustes.solve(sources: canonical, targets: targets, weights: weights)
    }
}
