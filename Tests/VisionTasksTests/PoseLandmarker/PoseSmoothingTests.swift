import Imaging
import Testing

@testable import VisionTasks

@Suite("Pose smoothing")
struct PoseSmoothingTests {
    private let image = ImageSize(width: 100, height: 100)
    private let roi = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.5, height: 0.5)

    private func frame(_ x: Float, visibility: Float) -> ([NormalizedLandmark], [Landmark]) {
        (
            [NormalizedLandmark(x: x, y: 0.5, z: 0, visibility: visibility, presence: 0.9)],
            [Landmark(x: x, y: 0, z: 0, visibility: visibility, presence: 0.9)]
        )
    }

    @Test func smoothsPositionsAndVisibilityButNotPresence() {
        var smoothing = PoseSmoothing()
        let (l0, w0) = frame(0.5, visibility: 1)
        let first = smoothing.smooth(
            landmarks: l0, worldLandmarks: w0, nextFrameRegion: roi, imageSize: image, timestampInMilliseconds: 0)
        #expect(first.landmarks == l0 && first.worldLandmarks == w0)
        let (l1, w1) = frame(0.6, visibility: 0)
        let second = smoothing.smooth(
            landmarks: l1, worldLandmarks: w1, nextFrameRegion: roi, imageSize: image, timestampInMilliseconds: 33)
        #expect(close(second.landmarks[0].x, 0.594568, 2e-5))  // see FilterTests
        #expect(close(second.landmarks[0].visibility ?? 0, 0.9))
        #expect(second.landmarks[0].presence == 0.9)
        #expect(second.worldLandmarks[0].x > 0.5 && second.worldLandmarks[0].x < 0.6)
        #expect(close(second.worldLandmarks[0].visibility ?? 0, 0.9))
    }

    @Test func frameWithoutPoseResetsOnlyTheNormalizedPositionFilter() {
        var smoothing = PoseSmoothing()
        let (l0, w0) = frame(0.5, visibility: 1)
        _ = smoothing.smooth(
            landmarks: l0, worldLandmarks: w0, nextFrameRegion: roi, imageSize: image, timestampInMilliseconds: 0)
        smoothing.frameWithoutPose()
        let (l1, w1) = frame(0.6, visibility: 0)
        let after = smoothing.smooth(
            landmarks: l1, worldLandmarks: w1, nextFrameRegion: roi, imageSize: image, timestampInMilliseconds: 66)
        #expect(after.landmarks[0].x == 0.6)  // restarted: passes through
        #expect(close(after.landmarks[0].visibility ?? 0, 0.9))  // visibility filter kept its state
        #expect(after.worldLandmarks[0].x < 0.6)  // world filter kept its state
    }
}
