import Imaging
import Testing

@testable import VisionTasks

@Suite("Tracking")
struct TrackingTests {
    // The rects of mediapipe/calculators/util/association_calculator_test.cc.
    let nr0 = NormalizedRect(xCenter: 0.2, yCenter: 0.2, width: 0.2, height: 0.2)
    let nr1 = NormalizedRect(xCenter: 0.4, yCenter: 0.2, width: 0.2, height: 0.2)
    let nr2 = NormalizedRect(xCenter: 1.0, yCenter: 0.3, width: 0.2, height: 0.2)
    let nr3 = NormalizedRect(xCenter: 0.35, yCenter: 0.15, width: 0.3, height: 0.3)
    let nr4 = NormalizedRect(xCenter: 1.1, yCenter: 0.3, width: 0.2, height: 0.2)
    let nr5 = NormalizedRect(xCenter: 0.45, yCenter: 0.05, width: 0.3, height: 0.3)

    @Test func laterStreamsReplaceOverlappingRects() {
        // `NormRectAssocTest`: nr5 wins over nr3, which had replaced nr0 and nr1; nr4 replaces nr2.
        #expect(
            RectAssociation.replacingOverlaps([[nr0, nr1, nr2], [nr3, nr4], [nr5]], threshold: 0.1) == [nr4, nr5])
        // `NormRectAssocTestReverse`.
        #expect(
            RectAssociation.replacingOverlaps([[nr5], [nr3, nr4], [nr0, nr1, nr2]], threshold: 0.1) == [nr0, nr1, nr2])
        // `NormRectAssocSingleInputStream`: later elements of the same stream win too.
        #expect(RectAssociation.replacingOverlaps([[nr3, nr5]], threshold: 0.1) == [nr5])
        // An empty first stream: the next one seeds the list.
        #expect(RectAssociation.replacingOverlaps([[], [nr0, nr2]], threshold: 0.1) == [nr0, nr2])
    }

    @Test func handAssociationKeepsTrackedRects() {
        // nr3 overlaps nr0 (IoU 0.02/0.11), nr4 overlaps nr2: both detector rects are dropped.
        #expect(RectAssociation.keepingTracked([nr0, nr2], detected: [nr3, nr4], threshold: 0.1) == [nr0, nr2])
        // A detector rect that overlaps nothing is appended; detector rects de-duplicate each other.
        #expect(RectAssociation.keepingTracked([nr0], detected: [nr2, nr4], threshold: 0.1) == [nr0, nr2])
        // Threshold is strict: IoU equal to it does not count as overlap.
        let iou = RectAssociation.box(of: nr0).intersectionOverUnion(with: RectAssociation.box(of: nr3))
        #expect(RectAssociation.keepingTracked([nr0], detected: [nr3], threshold: iou) == [nr0, nr3])
    }

    @Test func zeroRectTakesASlotWithoutOverlapping() {
        let zero = NormalizedRect(xCenter: 0, yCenter: 0, width: 0, height: 0)
        #expect(RectAssociation.keepingTracked([nr0], detected: [zero], threshold: 0.5) == [nr0, zero])
        #expect(RegionTracker.clip([zero, nr0], to: 1) == [zero])
    }

    @Test func detectorRunsUntilEnoughRegionsAreTracked() {
        var tracker = RegionTracker(maxCount: 2)
        #expect(tracker.needsDetection)  // first frame: nothing tracked
        tracker.update(nextRegions: [nr0])
        #expect(tracker.needsDetection)
        tracker.update(nextRegions: [nr0, nr2])
        #expect(!tracker.needsDetection)
        tracker.update(nextRegions: [])  // a frame without landmarks
        #expect(tracker.needsDetection)
        #expect(RegionTracker.clip([nr0, nr1, nr2], to: 2) == [nr0, nr1])
    }
}
