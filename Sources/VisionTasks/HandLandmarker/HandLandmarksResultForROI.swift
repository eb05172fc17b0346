/// What the hand landmark model yields for one region of interest, in image coordinates
/// (../shared/spec/PIPELINES.md §3.4).
struct HandLandmarksResultForROI: Sendable {
    /// The 21 hand landmarks, normalized to the image (no visibility or presence).
    var landmarks: [NormalizedLandmark]
    /// The 21 world landmarks in metres, rotated with the ROI.
    var worldLandmarks: [Landmark]
    /// Right or left, with the probability of that side.
    var handedness: ResultCategory
    /// The raw hand presence score.
    var presence: Float
}
