import Imaging

/// Decodes the hand landmark model's outputs for one ROI
/// (mediapipe/tasks/cc/vision/hand_landmarker/hand_landmarks_detector_graph.cc, ../shared/spec/PIPELINES.md §3.4).
///
/// Identify the outputs by order and shape as MediaPipe's graph does — landmarks (63),
/// presence (1), handedness (1), world landmarks (63) — not by their metadata names, which do
/// not follow the subgraph order (../shared/spec/PIPELINES.md §6.1).
enum HandLandmarksDecoder {
    static let landmarkCount = 21
    /// z is divided by the input width and then by this.
    static let normalizeZ: Float = 0.4

    /// Decodes one ROI, or returns `nil` when no hand is present (presence ≤ `minPresence`;
    /// raw score, strictly greater passes).
    static func decode(
        landmarks: UnsafeBufferPointer<Float>, presence: Float, handedness: Float,
        world: UnsafeBufferPointer<Float>, inputWidth: Int, inputHeight: Int, roi: NormalizedRect,
        minPresence: Float
    ) throws(TasksError) -> HandLandmarksResultForROI? {
        guard presence > minPresence else { return nil }
        let decoded = try LandmarkTensorDecoder.normalized(
            landmarks, count: landmarkCount, inputWidth: inputWidth, inputHeight: inputHeight, normalizeZ: normalizeZ)
        let worldLandmarks = try LandmarkTensorDecoder.absolute(world, count: landmarkCount)
        return HandLandmarksResultForROI(
            landmarks: LandmarkProjection.project(decoded, onto: roi),
            worldLandmarks: WorldLandmarkProjection.project(worldLandmarks, rotation: roi.rotation),
            handedness: Handedness.category(score: handedness),
            presence: presence)
    }
}

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
