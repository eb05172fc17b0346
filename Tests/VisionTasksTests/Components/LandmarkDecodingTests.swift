import Foundation
import Testing

@testable import VisionTasks

@Suite("Landmark decoding")
struct LandmarkDecodingTests {
    @Test func normalizedLandmarksDivideByInputSizeAndActivate() throws {
        let values: [Float] = [
            128, 64, 32, 0, 2,
            256, 0, -64, -2, 0,
        ]
        let landmarks = try values.withUnsafeBufferPointer {
            try LandmarkTensorDecoder.normalized(
                $0, count: 2, inputWidth: 256, inputHeight: 128, normalizeZ: 0.5, visibility: .sigmoid,
                presence: .sigmoid)
        }
        #expect(landmarks[0].x == 0.5 && landmarks[0].y == 0.5 && landmarks[0].z == 0.25)
        #expect(landmarks[0].visibility == 0.5)
        #expect(close(landmarks[0].presence ?? 0, 0.8807971))
        #expect(landmarks[1].x == 1 && landmarks[1].y == 0 && landmarks[1].z == -0.5)
        #expect(close(landmarks[1].visibility ?? 0, 0.1192029))
    }

    @Test func threeValuesPerLandmarkHaveNoVisibility() throws {
        let values: [Float] = [1, 2, 3, 4, 5, 6]
        let normalized = try values.withUnsafeBufferPointer {
            try LandmarkTensorDecoder.normalized($0, count: 2, inputWidth: 2, inputHeight: 4)
        }
        #expect(normalized[1] == NormalizedLandmark(x: 2, y: 1.25, z: 3))
        let world = try values.withUnsafeBufferPointer { try LandmarkTensorDecoder.absolute($0, count: 2) }
        #expect(world == [Landmark(x: 1, y: 2, z: 3), Landmark(x: 4, y: 5, z: 6)])
    }

    @Test func tooFewValuesIsAnError() {
        let values: [Float] = [1, 2]
        #expect(throws: TasksError.self) {
            try values.withUnsafeBufferPointer { try LandmarkTensorDecoder.absolute($0, count: 3) }
        }
    }

    // mediapipe/calculators/util/refine_landmarks_from_heatmap_calculator_test.cc, with a 3×3
    // kernel; `z` is a logit whose sigmoid is 0.
    private let z: Float = -1e16

    /// HWC from per-channel 3×3 planes.
    private func hwc(_ planes: [[Float]]) -> [Float] {
        var result = [Float](repeating: 0, count: 9 * planes.count)
        for (channel, plane) in planes.enumerated() {
            for pixel in 0..<9 { result[pixel * planes.count + channel] = plane[pixel] }
        }
        return result
    }

    @Test func heatmapRefinementMatchesUpstreamSmokeTest() throws {
        var landmarks = [NormalizedLandmark(x: 0.5, y: 0.5, z: 0)]
        let heatmap = hwc([[z, z, z, 1, z, z, z, z, z]])
        try heatmap.withUnsafeBufferPointer {
            _ = try HeatmapRefinement.refine(
                &landmarks, heatmap: $0, height: 3, width: 3, channels: 1, kernelSize: 3, minConfidence: 0.1)
        }
        #expect(landmarks[0].x == 0)
        #expect(close(landmarks[0].y, 1 / 3))
    }

    @Test func heatmapRefinementKeepsUnsureLandmarks() throws {
        var landmarks = Array(repeating: NormalizedLandmark(x: 0.5, y: 0.5, z: 0), count: 3)
        let plane: [Float] = [z, z, z, 0, z, z, z, z, z]  // best confidence sigmoid(0) = 0.5 < 0.6
        let heatmap = hwc([plane, plane, plane])
        try heatmap.withUnsafeBufferPointer {
            _ = try HeatmapRefinement.refine(
                &landmarks, heatmap: $0, height: 3, width: 3, channels: 3, kernelSize: 3, minConfidence: 0.6)
        }
        #expect(landmarks.allSatisfy { $0.x == 0.5 && $0.y == 0.5 })
    }

    @Test func heatmapRefinementClipsTheWindowAtTheBorder() throws {
        var landmarks = [NormalizedLandmark(x: 0, y: 0, z: 0), NormalizedLandmark(x: 0.9, y: 0.9, z: 0)]
        let heatmap = hwc([[z, z, z, 0, z, 0, z, z, z], [z, z, z, 0, z, 0, z, z, 0]])
        try heatmap.withUnsafeBufferPointer {
            _ = try HeatmapRefinement.refine(
                &landmarks, heatmap: $0, height: 3, width: 3, channels: 2, kernelSize: 3, minConfidence: 0.1)
        }
        #expect(landmarks[0].x == 0 && close(landmarks[0].y, 1 / 3))
        #expect(close(landmarks[1].x, 2 / 3) && close(landmarks[1].y, 0.5))
    }

    @Test func heatmapRefinementLeavesOutsideLandmarksAndPose7x7Window() throws {
        // 8×8 heatmap, one channel, a single hot cell at (row 5, column 6).
        var heatmap = [Float](repeating: z, count: 64)
        heatmap[5 * 8 + 6] = 3
        var landmarks = [NormalizedLandmark(x: 0.45, y: 0.3, z: 0), NormalizedLandmark(x: 1.0, y: 0.5, z: 0)]
        var first = [landmarks[0]]
        var outside = [landmarks[1]]
        try heatmap.withUnsafeBufferPointer {
            try HeatmapRefinement.refine(&first, heatmap: $0, height: 8, width: 8, channels: 1)
            try HeatmapRefinement.refine(&outside, heatmap: $0, height: 8, width: 8, channels: 1)
        }
        // Centre (col 3, row 2): the 7×7 window reaches column 6 and row 5.
        #expect(close(first[0].x, 6 / 8) && close(first[0].y, 5 / 8))
        #expect(outside == [landmarks[1]])  // x·W = 8 is outside
        landmarks = []
        #expect(throws: TasksError.self) {
            try heatmap.withUnsafeBufferPointer {
                try HeatmapRefinement.refine(&landmarks, heatmap: $0, height: 8, width: 8, channels: 1)
            }
        }
    }

    @Test func heatmapRefinementReportsConfidencesAndLeavesLandmarksBelowTheHeatmap() throws {
        // 8×8 heatmap, one channel, the bottom row hot. A landmark at y = 1.05 (row 8) lies below
        // the heatmap and stays put; upstream's bounds check never compares the row with the
        // height and would pull it onto the bottom rows (docs/DIFFERENCES.md).
        var heatmap = [Float](repeating: z, count: 64)
        for column in 0..<8 { heatmap[7 * 8 + column] = 3 }
        var below = [NormalizedLandmark(x: 0.5, y: 1.05, z: 0)]
        var inside = [NormalizedLandmark(x: 0.5, y: 0.95, z: 0)]
        let confidences = try heatmap.withUnsafeBufferPointer {
            (
                try HeatmapRefinement.refine(&below, heatmap: $0, height: 8, width: 8, channels: 1),
                try HeatmapRefinement.refine(&inside, heatmap: $0, height: 8, width: 8, channels: 1)
            )
        }
        #expect(below == [NormalizedLandmark(x: 0.5, y: 1.05, z: 0)])
        #expect(confidences.0 == [nil])
        #expect(close(inside[0].y, 7 / 8))
        #expect(close(confidences.1[0] ?? 0, 1 / (1 + expf(-3))))
    }
}
