import Imaging

/// What the pose landmark model yields for one region of interest, already in image
/// coordinates (../shared/spec/PIPELINES.md §2.4).
struct PoseLandmarksResultForROI: Sendable {
    /// The 33 pose landmarks, normalized to the image, with visibility and presence.
    var landmarks: [NormalizedLandmark]
    /// The 2 auxiliary landmarks used only for the next frame's ROI.
    var auxiliaryLandmarks: [NormalizedLandmark]
    /// The 33 world landmarks in metres, rotated with the ROI, visibility and presence copied.
    var worldLandmarks: [Landmark]
    /// The raw pose presence score.
    var presence: Float
}
