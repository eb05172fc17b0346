import Foundation
import Testing

@testable import VisionTasks

@Suite("Detection decoder")
struct DetectionDecoderTests {
    /// Two boxes of 4 + 2×2 values, scale 10, anchors centred at 0.5 of size 1.
    private func options(_ format: DetectionDecoderOptions.BoxFormat = .xywh) -> DetectionDecoderOptions {
        DetectionDecoderOptions(
            numClasses: 1, numBoxes: 2, numCoords: 8, boxCoordOffset: 0, keypointCoordOffset: 4, numKeypoints: 2,
            boxFormat: format, xScale: 10, yScale: 10, wScale: 10, hScale: 10, sigmoidScore: true,
            scoreClippingThreshold: 100, minScoreThreshold: 0.5)
    }

    private let anchors = [
        Anchor(xCenter: 0.5, yCenter: 0.5, width: 1, height: 1),
        Anchor(xCenter: 0.25, yCenter: 0.75, width: 0.5, height: 0.5),
    ]

    private func decode(_ boxes: [Float], _ scores: [Float], _ options: DetectionDecoderOptions) throws
        -> [PipelineDetection]
    {
        try boxes.withUnsafeBufferPointer { boxes in
            try scores.withUnsafeBufferPointer { scores in
                try DetectionDecoder.decode(boxes: boxes, scores: scores, anchors: anchors, options: options)
            }
        }
    }

    @Test func decodesBoxAndKeypointsAgainstTheirAnchor() throws {
        // Box 0: centre (0.6, 0.7), size 0.5×0.4; keypoints (0.4, 0.8) and (0.5, 0.5).
        // Box 1 (anchor 0.25, 0.75, size 0.5): centre 0.25 + 2/10·0.5 = 0.35, 0.75 − 0.05 = 0.7.
        let boxes: [Float] = [
            1, 2, 5, 4, -1, 3, 0, 0,
            2, -1, 4, 2, 0, 0, 10, 10,
        ]
        let result = try decode(boxes, [0, 2], options())
        #expect(result.count == 2)
        #expect(close(result[0].box, RelativeBox(xMin: 0.35, yMin: 0.5, width: 0.5, height: 0.4)))
        #expect(close(result[0].keypoints[0], SIMD2(0.4, 0.8)))
        #expect(close(result[0].keypoints[1], SIMD2(0.5, 0.5)))
        #expect(result[0].score == 0.5)  // sigmoid(0) is kept: equal to the threshold
        #expect(close(result[1].box, RelativeBox(xMin: 0.25, yMin: 0.65, width: 0.2, height: 0.1)))
        #expect(close(result[1].keypoints[1], SIMD2(0.75, 1.25)))
        #expect(close(result[1].score, 1 / (1 + expf(-2))))
    }

    @Test func yxhwLayoutSwapsBoxAndKeypointCoordinates() throws {
        let xywh: [Float] = [1, 2, 5, 4, -1, 3, 0.5, 0.25, 0, 0, 1, 1, 0, 0, 0, 0]
        let yxhw: [Float] = [2, 1, 4, 5, 3, -1, 0.25, 0.5, 0, 0, 1, 1, 0, 0, 0, 0]
        let a = try decode(xywh, [1, 1], options(.xywh))
        let b = try decode(yxhw, [1, 1], options(.yxhw))
        #expect(a == b)
    }

    @Test func scoresBelowThresholdAndNegativeSizesAreDropped() throws {
        let boxes: [Float] = [
            0, 0, 1, 1, 0, 0, 0, 0,
            0, 0, -1, 1, 0, 0, 0, 0,
        ]
        // Box 0 scores sigmoid(-0.1) < 0.5; box 1 has a negative width.
        #expect(try decode(boxes, [-0.1, 5], options()).isEmpty)
    }

    @Test func rawScoresAreClippedBeforeTheSigmoid() throws {
        var options = options()
        options.minScoreThreshold = nil
        options.scoreClippingThreshold = 10
        let boxes = [Float](repeating: 0, count: 16)
        let clipped = try decode(boxes, [50, -50], options)
        #expect(clipped[0].score == 1 / (1 + expf(-10)))
        #expect(clipped[0].score < 1)
        #expect(clipped[1].score > 0)
        options.scoreClippingThreshold = nil
        let unclipped = try decode(boxes, [50, -50], options)
        #expect(unclipped[0].score == 1)
    }

    @Test func exponentialBoxSizeAndMaxResults() throws {
        var options = options()
        options.applyExponentialOnBoxSize = true
        options.maxResults = 1
        let boxes: [Float] = [0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        let result = try decode(boxes, [3, 3], options)
        #expect(result.count == 1)
        #expect(close(result[0].box.width, 1))  // e^0 · 1
        #expect(close(result[0].box.height, expf(1)))  // e^(10/10) · 1
    }

    @Test func classFilterPicksBestAllowedClass() throws {
        var options = options()
        options.numClasses = 2
        options.classFilter = .allow([1])
        let boxes = [Float](repeating: 0, count: 16)
        let result = try decode(boxes, [5, 1, 5, 2], options)
        #expect(result.map(\.classIndex) == [1, 1])
        #expect(close(result[1].score, 1 / (1 + expf(-2))))
        options.classFilter = .ignore([0, 1])
        #expect(try decode(boxes, [5, 1, 5, 2], options).isEmpty)
    }

    @Test func shortTensorsAreAnErrorNotACrash() {
        #expect(throws: TasksError.self) { try decode([0, 0, 0], [0, 0], options()) }
    }
}
