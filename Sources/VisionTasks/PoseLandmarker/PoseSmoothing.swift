import Imaging

/// The pose landmarker's temporal smoothing in video and live-stream mode with `numPoses == 1`
/// (pose_landmarker_graph.cc, pose_landmarks_detector_graph.cc, framework/api2/stream/smoothing.cc;
/// ../shared/spec/PIPELINES.md §2.7).
///
/// Four filters run in order: visibility low-pass (α 0.1) and one-euro on the normalized
/// landmarks (scaled by the next-frame ROI), then visibility low-pass and one-euro on the world
/// landmarks. Presence is not smoothed.
struct PoseSmoothing: Sendable {
    private var normalizedVisibility = VisibilitySmoother(alpha: VisibilitySmoother.poseAlpha)
    private var normalized = LandmarksSmoother(parameters: .poseNormalized)
    private var worldVisibility = VisibilitySmoother(alpha: VisibilitySmoother.poseAlpha)
    private var world = LandmarksSmoother(parameters: .poseWorld)

    /// Smooths pose 0 of a frame. `nextFrameRegion` is that pose's next-frame ROI, whose size
    /// sets the object scale.
    mutating func smooth(
        landmarks: [NormalizedLandmark], worldLandmarks: [Landmark], nextFrameRegion: NormalizedRect,
        imageSize: ImageSize, timestampInMilliseconds: Int
    ) -> (landmarks: [NormalizedLandmark], worldLandmarks: [Landmark]) {
        let microseconds = Int64(timestampInMilliseconds) * 1000
        let smoothedLandmarks = normalized.smooth(
            normalizedVisibility.smooth(landmarks), imageSize: imageSize, objectScaleROI: nextFrameRegion,
            timestampInMicroseconds: microseconds)
        let smoothedWorld = world.smooth(worldVisibility.smooth(worldLandmarks), timestampInMicroseconds: microseconds)
        return (smoothedLandmarks, smoothedWorld)
    }

    /// A frame without a pose. Only the normalized one-euro smoother resets: it alone also
    /// receives the image size, so MediaPipe runs it (with empty input) on such frames; the
    /// other three keep their state across the gap (../shared/spec/PIPELINES.md §1.15, inferred).
    mutating func frameWithoutPose() {
        normalized.reset()
    }
}
