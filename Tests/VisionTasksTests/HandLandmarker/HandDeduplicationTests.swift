import Imaging
import TestSupport
import Testing

@testable import VisionTasks

@Suite("Hand deduplication")
struct HandDeduplicationTests {
    /// A real hand: MediaPipe's result for business-person.png (1 hand).
    private func referenceHand() throws -> (hand: [NormalizedLandmark], image: ImageSize)? {
        guard let reference = try References.image(task: "hand_landmarker", name: "business-person") else {
            skipWithoutSharedData("hand_landmarker/business-person")
            return nil
        }
        let hands = try #require(reference.runs["default"]?.result.handLandmarks)
        #expect(hands.count == 1 && hands[0].count == 21)
        return (hands[0].map(\.normalized), ImageSize(width: reference.image.width, height: reference.image.height))
    }

    private func shifted(_ hand: [NormalizedLandmark], dx: Float, dy: Float) -> [NormalizedLandmark] {
        hand.map { NormalizedLandmark(x: $0.x + dx, y: $0.y + dy, z: $0.z) }
    }

    @Test func nearCopyOfAHandIsSuppressedAndADistantOneKept() throws {
        guard let (hand, image) = try referenceHand() else { return }
        let xs = hand.map(\.x)
        let width = (xs.max() ?? 0) - (xs.min() ?? 0)
        let nearCopy = shifted(hand, dx: width * 0.02, dy: 0)
        let farCopy = shifted(hand, dx: width * 3, dy: 0)
        #expect(HandDeduplication.keptIndices([hand, nearCopy, farCopy], imageSize: image) == [0, 2])
        // Order matters: the first of two duplicates is the one kept.
        #expect(HandDeduplication.keptIndices([nearCopy, hand], imageSize: image) == [0])
        #expect(HandDeduplication.keptIndices([hand], imageSize: image) == [0])
    }

    @Test func sameBoxButFewMatchingLandmarksIsNotADuplicate() throws {
        guard let (hand, image) = try referenceHand() else { return }
        // Mirror the hand inside its own bounding box: IoU 1, but most landmarks move far.
        let xs = hand.map(\.x)
        let (low, high) = (xs.min() ?? 0, xs.max() ?? 0)
        let mirrored = hand.map { NormalizedLandmark(x: low + high - $0.x, y: $0.y, z: $0.z) }
        #expect(HandDeduplication.keptIndices([hand, mirrored], imageSize: image) == [0, 1])
    }

    @Test func iouOfLandmarkBounds() {
        #expect(HandDeduplication.iou(SIMD4(0, 0, 2, 2), SIMD4(1, 1, 3, 3)) == Float(1) / 7)
        #expect(HandDeduplication.iou(SIMD4(0, 0, 0, 2), SIMD4(0, 0, 2, 2)) == 0)  // no area
    }

    @Test func referenceResultsContainNoDuplicates() throws {
        // MediaPipe's outputs are already deduplicated, so nothing of them may be removed again.
        for name in ["business-person", "hand_test_image", "hand_thumb_up"] {
            guard let reference = try References.image(task: "hand_landmarker", name: name) else {
                skipWithoutSharedData("hand_landmarker/\(name)")
                return
            }
            let size = ImageSize(width: reference.image.width, height: reference.image.height)
            for run in reference.runs.values {
                let hands = (run.result.handLandmarks ?? []).map { $0.map(\.normalized) }
                #expect(!hands.isEmpty)
                #expect(HandDeduplication.keptIndices(hands, imageSize: size) == Array(hands.indices))
            }
        }
    }
}
