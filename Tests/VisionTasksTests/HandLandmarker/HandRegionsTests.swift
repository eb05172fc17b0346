import Imaging
import Testing

@testable import VisionTasks

@Suite("Hand regions")
struct HandRegionsTests {
    /// An upright hand: wrist at (0.5, 0.8), MCPs on y = 0.5, PIPs on y = 0.4.
    private func uprightHand() -> [NormalizedLandmark] {
        var hand = [NormalizedLandmark](repeating: NormalizedLandmark(x: 0.5, y: 0.5, z: 0), count: 21)
        hand[0] = NormalizedLandmark(x: 0.5, y: 0.8, z: 0)
        hand[1] = NormalizedLandmark(x: 0.4, y: 0.75, z: 0)
        hand[2] = NormalizedLandmark(x: 0.35, y: 0.7, z: 0)
        hand[3] = NormalizedLandmark(x: 0.3, y: 0.65, z: 0)
        for (finger, x) in zip([5, 9, 13, 17], [Float(0.42), 0.5, 0.58, 0.64]) {
            hand[finger] = NormalizedLandmark(x: x, y: 0.5, z: 0)
            hand[finger + 1] = NormalizedLandmark(x: x, y: 0.4, z: 0)
        }
        return hand
    }

    @Test func landmarksRectOfAnUprightHandIsItsBounds() throws {
        let image = ImageSize(width: 100, height: 100)
        let subset = HandRegions.rectLandmarkIndices.map { SIMD2(uprightHand()[$0].x, uprightHand()[$0].y) }
        let rect = HandRegions.landmarksRect(subset, imageSize: image)
        // Wrist to the mean of landmarks 5, 9, 13 points straight up: no rotation.
        #expect(close(rect.rotation, 0))
        // x from 0.3 (thumb IP) to 0.64, y from 0.4 (PIPs) to 0.8 (wrist).
        #expect(close(rect, NormalizedRect(xCenter: 0.47, yCenter: 0.6, width: 0.34, height: 0.4)))
    }

    @Test func nextFrameRegionExpandsAndShiftsTowardsTheFingers() throws {
        let image = ImageSize(width: 100, height: 100)
        let region = try HandRegions.nextFrameRegion(landmarks: uprightHand(), imageSize: image)
        // Shift −0.1·0.4 in y, then square 0.4 and ×2.
        #expect(close(region, NormalizedRect(xCenter: 0.47, yCenter: 0.56, width: 0.8, height: 0.8)))
        #expect(throws: TasksError.self) { try HandRegions.nextFrameRegion(landmarks: [], imageSize: image) }
    }

    @Test func handPointingRightIsRotatedByHalfPi() {
        // Swap axes: fingers now point to +x from a wrist at (0.2, 0.5).
        let turned = uprightHand().map { SIMD2<Float>(1 - $0.y, $0.x) }
        let subset = HandRegions.rectLandmarkIndices.map { turned[$0] }
        let rect = HandRegions.landmarksRect(subset, imageSize: ImageSize(width: 100, height: 100))
        #expect(close(rect.rotation, .pi / 2))
        #expect(close(rect.width, 0.34) && close(rect.height, 0.4))  // sizes in the rect's own frame
        #expect(close(rect.xCenter, 0.4) && close(rect.yCenter, 0.47))
    }

    @Test func runningMaximumStartsAtSmallestPositiveFloat() {
        // Upstream quirk: with every x negative the running maximum stays at FLT_MIN, so the
        // axis-aligned centre is off. Points span x −0.3…−0.2 (upright): centre −0.225, width 0.15
        // instead of −0.25 and 0.1.
        var points = HandRegions.rectLandmarkIndices.map { SIMD2<Float>(uprightHand()[$0].x, uprightHand()[$0].y) }
        let xs = points.map(\.x)
        let (low, high) = (xs.min() ?? 0, xs.max() ?? 0)
        points = points.map { SIMD2(-0.3 + ($0.x - low) / (high - low) * 0.1, $0.y) }
        let rect = HandRegions.landmarksRect(points, imageSize: ImageSize(width: 100, height: 100))
        #expect(close(rect.xCenter, -0.225, 1e-4))
        #expect(close(rect.width, 0.15, 1e-4))
    }

    @Test func trackedHandsWinOverDetections() {
        let tracked = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.4, height: 0.4)
        let overlapping = NormalizedRect(xCenter: 0.55, yCenter: 0.5, width: 0.4, height: 0.4)
        let other = NormalizedRect(xCenter: 0.1, yCenter: 0.1, width: 0.1, height: 0.1)
        #expect(
            HandRegions.regions(
                tracked: [tracked], detected: [overlapping, other], numHands: 2, minTrackingConfidence: 0.5)
                == [tracked, other])
        #expect(
            HandRegions.regions(tracked: nil, detected: [overlapping, other], numHands: 1, minTrackingConfidence: 0.5)
                == [overlapping])
        #expect(HandRegions.regions(tracked: [], detected: nil, numHands: 1, minTrackingConfidence: 0.5).isEmpty)
    }
}
