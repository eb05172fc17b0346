import Imaging
import Testing

@testable import VisionTasks

@Suite("Pose landmarks decoding")
struct PoseLandmarksDecoderTests {
    private let cold: Float = -1e10  // a heatmap logit with sigmoid 0

    private struct Outputs {
        var landmarks = [Float](repeating: 0, count: 39 * 5)
        var heatmap = [Float](repeating: -1e10, count: 8 * 8 * 39)
        var world = [Float](repeating: 0, count: 39 * 3)
    }

    private func decode(_ outputs: Outputs, presence: Float = 0.9, roi: NormalizedRect, minPresence: Float = 0.5) throws
        -> PoseLandmarksResultForROI?
    {
        try outputs.landmarks.withUnsafeBufferPointer { landmarks in
            try outputs.heatmap.withUnsafeBufferPointer { heatmap in
                try outputs.world.withUnsafeBufferPointer { world in
                    try PoseLandmarksDecoder.decode(
                        landmarks: landmarks, presence: presence, heatmap: heatmap, heatmapHeight: 8, heatmapWidth: 8,
                        world: world, inputWidth: 256, inputHeight: 256, roi: roi, minPresence: minPresence)
                }
            }
        }
    }

    private var sample: Outputs {
        var outputs = Outputs()
        // Landmark 0 at tensor (64, 192) px, z 25.6, visibility logit 0, presence logit 2.
        outputs.landmarks[0..<5] = [64, 192, 25.6, 0, 2]
        // Auxiliary landmark 33 at the tensor centre.
        outputs.landmarks[33 * 5..<33 * 5 + 5] = [128, 128, 0, 0, 0]
        outputs.world[0..<3] = [1, 2, 3]
        return outputs
    }

    @Test func projectsIntoTheROIAndCopiesVisibilityToWorld() throws {
        let roi = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.5, height: 0.5)
        let result = try #require(try decode(sample, roi: roi))
        #expect(
            result.landmarks.count == 33 && result.worldLandmarks.count == 33 && result.auxiliaryLandmarks.count == 2)
        // (0.25, 0.75) in the ROI: 0.5 + (0.25 − 0.5)·0.5 and 0.5 + 0.25·0.5; z = 0.1·0.5.
        let first = result.landmarks[0]
        #expect(close(first.x, 0.375) && close(first.y, 0.625) && close(first.z, 0.05))
        #expect(first.visibility == 0.5)
        #expect(close(first.presence ?? 0, 0.8807971))
        #expect(
            result.auxiliaryLandmarks[0] == NormalizedLandmark(x: 0.5, y: 0.5, z: 0, visibility: 0.5, presence: 0.5))
        #expect(result.worldLandmarks[0] == Landmark(x: 1, y: 2, z: 3, visibility: 0.5, presence: first.presence))
        #expect(result.presence == 0.9)
    }

    @Test func presenceMustExceedTheThreshold() throws {
        let roi = NormalizedRect.fullImage
        #expect(try decode(sample, presence: 0.5, roi: roi, minPresence: 0.5) == nil)
        #expect(try decode(sample, presence: 0.51, roi: roi, minPresence: 0.5) != nil)
    }

    @Test func heatmapRefinesBeforeProjectionAndRotationTurnsWorld() throws {
        var outputs = sample
        // A confident heatmap cell for landmark 0 at (row 5, column 3) of the 8×8 map; the
        // landmark (0.25, 0.75) sits at column 2, row 6.
        outputs.heatmap[(5 * 8 + 3) * 39 + 0] = 4
        let roi = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 1, height: 1, rotation: .pi / 2)
        let result = try #require(try decode(outputs, roi: roi))
        // Refined to (3/8, 5/8), then rotated about the centre: (−0.125, 0.125) → (−0.125, −0.125).
        #expect(close(result.landmarks[0].x, 0.375) && close(result.landmarks[0].y, 0.375))
        #expect(close(result.worldLandmarks[0].x, -2) && close(result.worldLandmarks[0].y, 1))
        #expect(result.worldLandmarks[0].z == 3)
    }

    @Test func wrongTensorSizesAreErrors() {
        var outputs = sample
        outputs.heatmap = [Float](repeating: 0, count: 10)
        #expect(throws: TasksError.self) { try decode(outputs, roi: .fullImage) }
    }
}
