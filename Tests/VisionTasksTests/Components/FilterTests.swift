import Imaging
import Testing

@testable import VisionTasks

@Suite("Filters")
struct FilterTests {
    @Test func lowPassPassesFirstValueThenBlends() {
        var filter = LowPassFilter(alpha: 0.5)
        #expect(filter.apply(10) == 10)
        #expect(filter.apply(20) == 15)
        #expect(filter.apply(0) == 7.5)
        #expect(filter.lastRawValue == 0)
        #expect(filter.apply(100, alpha: 2) == 53.75)  // α outside 0…1 is ignored
    }

    @Test func oneEuroMatchesUpstreamTestValues() {
        // mediapipe/util/filtering/one_euro_filter_test.cc `OneEuroFilterValidValueChecks`:
        // frequency 1, min cutoff 0.001, beta 1, derivative cutoff 0.001.
        var filter = OneEuroFilter(frequency: 1, minCutoff: 0.001, beta: 1, derivateCutoff: 0.001)
        #expect(filter.apply(2, nanoseconds: 0, valueScale: 1) == 2)
        #expect(close(filter.apply(100, nanoseconds: 1000, valueScale: 1), 79.8, 0.2))
        // `OneEuroFilterValidValueFilter`: frequency 1, min cutoff 0.1, beta 0, derivative cutoff 0.1.
        var second = OneEuroFilter(frequency: 1, minCutoff: 0.1, beta: 0, derivateCutoff: 0.1)
        #expect(second.apply(2, nanoseconds: 1_000_000_000, valueScale: 1) == 2)
        #expect(close(second.apply(3, nanoseconds: 2_000_000_000, valueScale: 1), 2.4, 0.1))
        #expect(close(second.apply(4, nanoseconds: 3_000_000_000, valueScale: 1), 3.0, 0.1))
    }

    @Test func oneEuroHandComputedStep() {
        // With beta 0 the cut-off is min cutoff: α = 1/(1 + 30/(2π·1)) at the 30 Hz default
        // (the second sample after a first one at time 0 keeps 30 Hz).
        var filter = OneEuroFilter(frequency: 30, minCutoff: 1, beta: 0, derivateCutoff: 1)
        #expect(filter.apply(0, nanoseconds: 0, valueScale: 1) == 0)
        let alpha = 1 / (1 + 30 / (2 * Double.pi))
        #expect(close(filter.apply(10, nanoseconds: 100_000_000, valueScale: 1), Double(Float(alpha * 10)), 1e-5))
    }

    @Test func oneEuroIgnoresNonIncreasingTime() {
        var filter = OneEuroFilter(minCutoff: 1, beta: 0, derivateCutoff: 1)
        _ = filter.apply(0, nanoseconds: 1_000, valueScale: 1)
        #expect(filter.apply(42, nanoseconds: 1_000, valueScale: 1) == 42)  // passes through
        // The state did not change: the next sample blends with 0, not 42.
        #expect(filter.apply(42, nanoseconds: 2_000, valueScale: 1) < 42)
    }

    @Test func landmarkSmootherFiltersInPixelsWithROIScale() {
        // Hand-computed for the pose settings (min cutoff 0.05, beta 80, derivative cutoff 1):
        // x 0.5 → 0.6 on a 100 px image, ROI scale (0.5·100 + 0.5·100)/2 = 50, 30 Hz.
        // speed = 10 px·(1/50)·30 = 6; smoothed = 0.173172·6 = 1.03903 (α at 1 Hz);
        // cut-off 0.05 + 80·1.03903 = 83.1225; α = 0.945679; x = (0.945679·60 + 0.054321·50)/100.
        var smoother = LandmarksSmoother(parameters: .poseNormalized)
        let image = ImageSize(width: 100, height: 100)
        let roi = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.5, height: 0.5)
        let first = smoother.smooth(
            [NormalizedLandmark(x: 0.5, y: 0.5, z: 0, visibility: 0.9)], imageSize: image, objectScaleROI: roi,
            timestampInMicroseconds: 0)
        #expect(first == [NormalizedLandmark(x: 0.5, y: 0.5, z: 0, visibility: 0.9)])
        let second = smoother.smooth(
            [NormalizedLandmark(x: 0.6, y: 0.5, z: 0, visibility: 0.9)], imageSize: image, objectScaleROI: roi,
            timestampInMicroseconds: 33_000)
        #expect(close(second[0].x, 0.594568, 2e-5))
        #expect(second[0].y == 0.5 && second[0].visibility == 0.9)
    }

    @Test func landmarkSmootherPassesTinyObjectsThrough() {
        var smoother = LandmarksSmoother(parameters: .poseNormalized)
        let image = ImageSize(width: 100, height: 100)
        let tiny = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0, height: 0)
        _ = smoother.smooth(
            [NormalizedLandmark(x: 0.1, y: 0.1, z: 0)], imageSize: image, objectScaleROI: tiny,
            timestampInMicroseconds: 0)
        let out = smoother.smooth(
            [NormalizedLandmark(x: 0.9, y: 0.9, z: 0)], imageSize: image, objectScaleROI: tiny,
            timestampInMicroseconds: 33_000)
        #expect(out == [NormalizedLandmark(x: 0.9, y: 0.9, z: 0)])
    }

    @Test func worldSmootherDoesNotScaleValues() {
        // min cutoff 0.1, beta 40 with value scaling disabled; first sample passes.
        var smoother = LandmarksSmoother(parameters: .poseWorld)
        let first = smoother.smooth([Landmark(x: 0.1, y: 0.2, z: 0.3)], timestampInMicroseconds: 0)
        #expect(first == [Landmark(x: 0.1, y: 0.2, z: 0.3)])
        let second = smoother.smooth([Landmark(x: 0.2, y: 0.2, z: 0.3)], timestampInMicroseconds: 33_000)
        #expect(second[0].x > 0.1 && second[0].x < 0.2)
        #expect(second[0].y == 0.2)
        smoother.reset()
        let restarted = smoother.smooth([Landmark(x: 0.5, y: 0.5, z: 0.5)], timestampInMicroseconds: 66_000)
        #expect(restarted == [Landmark(x: 0.5, y: 0.5, z: 0.5)])
    }

    @Test func visibilitySmootherLowPassesVisibilityOnly() {
        var smoother = VisibilitySmoother(alpha: VisibilitySmoother.poseAlpha)
        let first = smoother.smooth([NormalizedLandmark(x: 1, y: 2, z: 3, visibility: 1, presence: 0.5)])
        #expect(first[0].visibility == 1)
        let second = smoother.smooth([NormalizedLandmark(x: 4, y: 5, z: 6, visibility: 0, presence: 0.25)])
        #expect(close(second[0].visibility ?? -1, 0.9))
        #expect(second[0].x == 4 && second[0].presence == 0.25)
        let third = smoother.smooth([NormalizedLandmark(x: 4, y: 5, z: 6, visibility: 0)])
        #expect(close(third[0].visibility ?? -1, 0.81))
    }
}
