import Imaging
import Testing
@testable import VisionTasks

@Suite("Hand deduplication")
struct HandDeduplicationTests {
    /// A real hand: MediaPipe's result for business-person.png (1 hand).
    private func referenceHand() throws -> (hand: [NormalizedLandmark], image: ImageSize)? {
        guard let json = try ReferenceData.json("reference/hand_landmarker/business-person.json") else { return nil }
        let image = try #require(json["image"] as? [String: Any])
        let runs = try #require(json["runs"] as? [String: Any])
        let run = try #require(runs["default"] as? [String: Any])
        let result = try #require(run["result"] as? [String: Any])
        let hands = ReferenceData.hands(result["hand_landmarks"])
        #expect(hands.count == 1 && hands[0].count == 21)
        let size = ImageSize(width: try #require(image["width"] as? Int), height: try #require(image["height"] as? Int))
        return (hands[0], size)
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
            guard let json = try ReferenceData.json("reference/hand_landmarker/\(name).json") else { return }
            let image = try #require(json["image"] as? [String: Any])
            let size = ImageSize(width: try #require(image["width"] as? Int), height: try #require(image["height"] as? Int))
            let runs = try #require(json["runs"] as? [String: [String: Any]])
            for (_, run) in runs {
                let result = try #require(run["result"] as? [String: Any])
                let hands = ReferenceData.hands(result["hand_landmarks"])
                #expect(HandDeduplication.keptIndices(hands, imageSize: size) == Array(hands.indices))
            }
        }
    }
}
