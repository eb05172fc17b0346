/// The poses found in one image or frame — MediaPipe's `MPPPoseLandmarkerResult`
/// (mediapipe/tasks/ios/vision/pose_landmarker/sources/MPPPoseLandmarkerResult.h).
///
/// The three arrays hold one entry per pose, in the same order; all are empty when no pose was
/// found. Normalized landmarks refer to the upright image (the image as its orientation shows
/// it).
public struct PoseLandmarkerResult: TaskResult, Sendable {
    /// 33 landmarks per pose, normalized to the upright image's width and height, with
    /// visibility and presence.
    public var landmarks: [[NormalizedLandmark]]
    /// The same 33 landmarks per pose in metres, with the origin between the hips; visibility
    /// and presence as in ``landmarks``.
    public var worldLandmarks: [[Landmark]]
    /// One float mask per pose, the size of the upright image, 0…1 (1 = person), when
    /// `shouldOutputSegmentationMasks` is set; otherwise empty.
    public var segmentationMasks: [Mask]
    /// The frame's timestamp; 0, 1000, 2000, … in image mode.
    public var timestampInMilliseconds: Int

    /// Creates a result.
    public init(
        landmarks: [[NormalizedLandmark]], worldLandmarks: [[Landmark]], segmentationMasks: [Mask],
        timestampInMilliseconds: Int
    ) {
        self.landmarks = landmarks
        self.worldLandmarks = worldLandmarks
        self.segmentationMasks = segmentationMasks
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
