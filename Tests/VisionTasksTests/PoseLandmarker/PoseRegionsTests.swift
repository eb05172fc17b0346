import Imaging
import Testing

@testable import VisionTasks

@Suite("Pose regions")
struct PoseRegionsTests {
    @Test func nextFrameRegionComesFromTheAuxiliaryLandmarks() throws {
        // (100, 50) px to (100, 40) px on 200×100: side 2·10 = 20 px, upright, ×1.25.
        let rect = try PoseRegions.nextFrameRegion(
            auxiliaryLandmarks: [NormalizedLandmark(x: 0.5, y: 0.5, z: 0), NormalizedLandmark(x: 0.5, y: 0.4, z: 0)],
            imageSize: ImageSize(width: 200, height: 100))
        #expect(close(rect, NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.125, height: 0.25)))
        // Scale point to the right: rotated by +π/2.
        let turned = try PoseRegions.nextFrameRegion(
            auxiliaryLandmarks: [NormalizedLandmark(x: 0.5, y: 0.5, z: 0), NormalizedLandmark(x: 0.55, y: 0.5, z: 0)],
            imageSize: ImageSize(width: 200, height: 100))
        #expect(close(turned.rotation, .pi / 2))
    }

    @Test func imageModeTakesDetectorRectsClipped() {
        let a = NormalizedRect(xCenter: 0.2, yCenter: 0.2, width: 0.2, height: 0.2)
        let b = NormalizedRect(xCenter: 0.8, yCenter: 0.8, width: 0.2, height: 0.2)
        #expect(PoseRegions.regions(tracked: nil, detected: [a, b], numPoses: 1, minTrackingConfidence: 0.5) == [a])
        #expect(PoseRegions.regions(tracked: nil, detected: nil, numPoses: 1, minTrackingConfidence: 0.5).isEmpty)
    }

    @Test func trackingLetsDetectorRectsReplaceOverlappingTrackedOnes() {
        let tracked = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.4, height: 0.4)
        let nearby = NormalizedRect(xCenter: 0.52, yCenter: 0.5, width: 0.4, height: 0.4)
        let elsewhere = NormalizedRect(xCenter: 0.1, yCenter: 0.1, width: 0.1, height: 0.1)
        #expect(
            PoseRegions.regions(tracked: [tracked], detected: nil, numPoses: 2, minTrackingConfidence: 0.5) == [tracked]
        )
        #expect(
            PoseRegions.regions(
                tracked: [tracked], detected: [nearby, elsewhere], numPoses: 2, minTrackingConfidence: 0.5)
                == [nearby, elsewhere])
        // With a high threshold nothing counts as overlap: tracked first, then detected, clipped.
        #expect(
            PoseRegions.regions(tracked: [tracked], detected: [nearby], numPoses: 1, minTrackingConfidence: 0.99) == [
                tracked
            ])
    }
}
