/// The hands found in one image or frame: MediaPipe's `MPPHandLandmarkerResult`
/// (mediapipe/tasks/ios/vision/hand_landmarker/sources/MPPHandLandmarkerResult.h).
///
/// The three arrays have one entry per hand, in the same order: the order MediaPipe gives
/// (detector order, tracked hands first in video and live-stream mode). With no hand they are
/// all empty.
public struct HandLandmarkerResult: TaskResult, Sendable {
    /// The 21 landmarks of each hand (index with ``HandLandmark``), normalized to the upright
    /// image; `visibility` and `presence` are `nil`.
    public var landmarks: [[NormalizedLandmark]]
    /// The 21 landmarks of each hand in metres, centred near the hand.
    public var worldLandmarks: [[Landmark]]
    /// One category per hand: index 0 "Right" or index 1 "Left", with the probability of that
    /// side as score (MediaPipe 1.2.3's naming). The side is that of the hand as it appears in
    /// the upright image: the person's true hand for a picture of the scene, and also for a
    /// mirror-like capture given with a mirrored orientation, which undoes the mirror (see
    /// docs/DIFFERENCES.md).
    public var handedness: [[ResultCategory]]
    /// The frame's timestamp; 0, 1000, 2000, … in image mode.
    public var timestampInMilliseconds: Int

    /// Creates a result.
    public init(
        landmarks: [[NormalizedLandmark]], worldLandmarks: [[Landmark]], handedness: [[ResultCategory]],
        timestampInMilliseconds: Int
    ) {
        self.landmarks = landmarks
        self.worldLandmarks = worldLandmarks
        self.handedness = handedness
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
