import Imaging
import Testing

@testable import VisionTasks

@Suite("Hand landmarks decoding")
struct HandLandmarksDecoderTests {
    private func decode(presence: Float, handedness: Float, roi: NormalizedRect) throws -> HandLandmarksResultForROI? {
        var landmarks = [Float](repeating: 0, count: 63)
        landmarks[0..<3] = [56, 168, 22.4]  // (0.25, 0.75) in the 224 px tensor, z 22.4/224/0.4 = 0.25
        var world = [Float](repeating: 0, count: 63)
        world[0..<3] = [0.01, 0.02, 0.03]
        return try landmarks.withUnsafeBufferPointer { landmarks in
            try world.withUnsafeBufferPointer { world in
                try HandLandmarksDecoder.decode(
                    landmarks: landmarks, presence: presence, handedness: handedness, world: world,
                    inputWidth: 224, inputHeight: 224, roi: roi, minPresence: 0.5)
            }
        }
    }

    @Test func decodesProjectsAndClassifies() throws {
        let roi = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.4, height: 0.4)
        let hand = try #require(try decode(presence: 0.8, handedness: 0.3, roi: roi))
        #expect(hand.landmarks.count == 21 && hand.worldLandmarks.count == 21)
        // 0.5 + (0.25 − 0.5)·0.4 and 0.5 + 0.25·0.4; z 0.25·0.4; no visibility or presence.
        #expect(close(hand.landmarks[0].x, 0.4) && close(hand.landmarks[0].y, 0.6) && close(hand.landmarks[0].z, 0.1))
        #expect(hand.landmarks[0].visibility == nil && hand.landmarks[0].presence == nil)
        #expect(hand.worldLandmarks[0] == Landmark(x: 0.01, y: 0.02, z: 0.03))
        #expect(hand.handedness == ResultCategory(index: 1, score: 0.7, categoryName: "Left", displayName: "Left"))
    }

    @Test func absentHandYieldsNothing() throws {
        #expect(try decode(presence: 0.5, handedness: 0.9, roi: .fullImage) == nil)
    }

    @Test func worldLandmarksTurnWithTheROI() throws {
        let roi = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 1, height: 1, rotation: .pi / 2)
        let hand = try #require(try decode(presence: 0.9, handedness: 0.9, roi: roi))
        #expect(close(hand.worldLandmarks[0].x, -0.02) && close(hand.worldLandmarks[0].y, 0.01))
    }

    @Test func handednessMapsIndexZeroToRight() {
        #expect(
            Handedness.category(score: 0.8)
                == ResultCategory(index: 0, score: 0.8, categoryName: "Right", displayName: "Right"))
        #expect(Handedness.category(score: 0.25).index == 1)
        #expect(Handedness.category(score: 0.25).score == 0.75)
        #expect(Handedness.category(score: 0.5).categoryName == "Right")  // a tie keeps the first class
    }
}
