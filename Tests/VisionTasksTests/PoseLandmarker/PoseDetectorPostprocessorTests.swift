import Foundation
import Imaging
import Testing

@testable import VisionTasks

@Suite("Pose detector post-processing")
struct PoseDetectorPostprocessorTests {
    /// Raw outputs with one pose on the stride-32 anchor at the tensor centre (index 2104, and
    /// its twin 2105 with a lower score): a 0.2×0.4 box, keypoint 0 at the centre and keypoint 1
    /// 0.1 above it.
    private func rawOutputs() -> (boxes: [Float], scores: [Float]) {
        var boxes = [Float](repeating: 0, count: 2254 * 12)
        var scores = [Float](repeating: -20, count: 2254)
        for index in [2104, 2105] {
            let base = index * 12
            boxes[base + 2] = 0.2 * 224
            boxes[base + 3] = 0.4 * 224
            boxes[base + 7] = -0.1 * 224  // keypoint 1, y
        }
        scores[2104] = 5
        scores[2105] = 3
        return (boxes, scores)
    }

    @Test func decodesMergesAndRemovesLetterbox() throws {
        let postprocessor = try PoseDetectorPostprocessor()
        #expect(postprocessor.anchors[2104] == Anchor(xCenter: 0.5, yCenter: 0.5, width: 1, height: 1))
        let (boxes, scores) = rawOutputs()
        // A 200×100 image letterboxed into the square tensor: 0.25 padding top and bottom.
        let padding = LetterboxPadding(left: 0, top: 0.25, right: 0, bottom: 0.25)
        let detections = try boxes.withUnsafeBufferPointer { boxes in
            try scores.withUnsafeBufferPointer { scores in
                try postprocessor.detections(boxes: boxes, scores: scores, minScore: 0.5, padding: padding)
            }
        }
        #expect(detections.count == 1)  // the twins merge
        let pose = try #require(detections.first)
        #expect(close(pose.score, 1 / (1 + expf(-5))))
        #expect(close(pose.box, RelativeBox(xMin: 0.4, yMin: 0.1, width: 0.2, height: 0.8)))
        #expect(close(pose.keypoints[0], SIMD2(0.5, 0.5)))
        #expect(close(pose.keypoints[1], SIMD2(0.5, 0.3)))
    }

    @Test func thresholdUsesTheSigmoidScore() throws {
        let postprocessor = try PoseDetectorPostprocessor()
        let (boxes, scores) = rawOutputs()
        let none = try boxes.withUnsafeBufferPointer { boxes in
            try scores.withUnsafeBufferPointer { scores in
                try postprocessor.detections(boxes: boxes, scores: scores, minScore: 0.999, padding: .zero)
            }
        }
        #expect(none.isEmpty)
    }

    @Test func regionIsTheExpandedAlignmentSquare() throws {
        // Keypoint 0 (100, 50) px, keypoint 1 (100, 30) px on 200×100: side 2·20 = 40 px, upright,
        // then ×1.25.
        let pose = detection(0.4, 0.1, 0.2, 0.8, keypoints: [SIMD2(0.5, 0.5), SIMD2(0.5, 0.3), .zero, .zero])
        let regions = try PoseDetectorPostprocessor.regions(for: [pose], imageSize: ImageSize(width: 200, height: 100))
        #expect(regions.count == 1)
        #expect(close(regions[0], NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.25, height: 0.5)))
    }
}
