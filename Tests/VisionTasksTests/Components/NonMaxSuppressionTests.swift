import Testing

@testable import VisionTasks

@Suite("Non-max suppression")
struct NonMaxSuppressionTests {
    @Test func weightedMergesOverlapsByScore() {
        let a = detection(0, 0, 1, 1, score: 0.9, keypoints: [SIMD2(0, 0)])
        let b = detection(0.1, 0, 1, 1, score: 0.6, keypoints: [SIMD2(1, 0.5)])  // IoU with a = 0.9/1.1
        let c = detection(5, 5, 1, 1, score: 0.8, keypoints: [SIMD2(5, 5)])
        let result = NonMaxSuppression.weighted([b, c, a], iouThreshold: 0.5)
        #expect(result.count == 2)
        // xmin = (0·0.9 + 0.1·0.6)/1.5, xmax = (1·0.9 + 1.1·0.6)/1.5.
        #expect(close(result[0].box, RelativeBox(xMin: 0.04, yMin: 0, width: 1.0, height: 1)))
        #expect(close(result[0].keypoints[0], SIMD2(0.4, 0.2)))
        #expect(result[0].score == 0.9)  // the top detection's score is kept
        #expect(result[1] == c)  // alone: unchanged
    }

    @Test func weightedKeepsTheTopDetectionWhenEveryScoreIsZero() {
        // Scores that underflowed to 0 leave no weights: no 0/0, the top detection is kept.
        let a = detection(0, 0, 1, 1, score: 0, keypoints: [SIMD2(0.25, 0.5)])
        let b = detection(0.1, 0, 1, 1, score: 0, keypoints: [SIMD2(1, 0.5)])
        let result = NonMaxSuppression.weighted([a, b], iouThreshold: 0.5)
        #expect(result == [a])
    }

    @Test func weightedKeepsNonOverlappingDetectionsInScoreOrder() {
        let boxes = [
            detection(0, 0, 0.1, 0.1, score: 0.3), detection(0.5, 0.5, 0.1, 0.1, score: 0.7),
            detection(0.2, 0.2, 0.1, 0.1, score: 0.5),
        ]
        let result = NonMaxSuppression.weighted(boxes, iouThreshold: 0.3)
        #expect(result.map(\.score) == [0.7, 0.5, 0.3])
    }

    @Test func weightedStopsAfterAZeroAreaTopDetection() {
        // Upstream quirk: a top detection without area overlaps nothing, not even itself, so the
        // round removes nothing and the loop ends after emitting it.
        let result = NonMaxSuppression.weighted(
            [detection(0, 0, 0, 0, score: 0.9), detection(0.5, 0.5, 0.1, 0.1, score: 0.5)], iouThreshold: 0.3)
        #expect(result.count == 1)
        #expect(result[0].score == 0.9)
    }

    @Test func greedySuppressesAndCaps() {
        let boxes = [
            detection(0, 0, 1, 1, score: 0.9), detection(0.05, 0, 1, 1, score: 0.8),
            detection(3, 3, 1, 1, score: 0.7), detection(6, 6, 1, 1, score: 0.6),
        ]
        #expect(NonMaxSuppression.greedy(boxes, iouThreshold: 0.3).map(\.score) == [0.9, 0.7, 0.6])
        #expect(NonMaxSuppression.greedy(boxes, iouThreshold: 0.3, maxDetections: 2).map(\.score) == [0.9, 0.7])
        #expect(NonMaxSuppression.greedy(boxes, iouThreshold: 0.3, minScoreThreshold: 0.65).map(\.score) == [0.9, 0.7])
        #expect(NonMaxSuppression.greedy(boxes, iouThreshold: 0.99).count == 4)
    }

    /// libc++'s `std::sort` moves nothing when every score is equal (mixed ties are covered by
    /// LibCxxSortTests).
    @Test func allEqualScoresKeepTheirOrderAsLibCxxLeavesThem() {
        let boxes = (0..<5).map { detection(Float($0) * 2, 0, 1, 1, score: 0.5, classIndex: $0) }
        #expect(NonMaxSuppression.greedy(boxes, iouThreshold: 0.3).map(\.classIndex) == [0, 1, 2, 3, 4])
    }

    @Test func multiclassSuppressesWithinEachClassOnly() {
        let boxes = [
            detection(0, 0, 1, 1, score: 0.9, classIndex: 0), detection(0, 0, 1, 1, score: 0.8, classIndex: 1),
            detection(0.05, 0, 1, 1, score: 0.7, classIndex: 0),
        ]
        let result = NonMaxSuppression.multiclass(boxes, iouThreshold: 0.3)
        #expect(result.map(\.classIndex) == [0, 1])
        #expect(NonMaxSuppression.multiclass(boxes, iouThreshold: 0.3, maxDetections: 1).count == 1)
    }

    @Test func iouFollowsRectangleSemantics() {
        let a = RelativeBox(xMin: 0, yMin: 0, width: 2, height: 2)
        #expect(a.intersectionOverUnion(with: RelativeBox(xMin: 1, yMin: 1, width: 2, height: 2)) == Float(1) / 7)
        #expect(a.intersectionOverUnion(with: RelativeBox(xMin: 2, yMin: 0, width: 1, height: 1)) == 0)  // touching
        #expect(a.intersectionOverUnion(with: RelativeBox(xMin: 0, yMin: 0, width: -1, height: 1)) == 0)
        #expect(a.intersectionOverUnion(with: a) == 1)
    }
}
