import Imaging

/// Decodes the pose landmark model's outputs for one ROI (pose_landmarks_detector_graph.cc,
/// mediapipe/modules/pose_landmark/tensors_to_pose_landmarks_and_segmentation.pbtxt;
/// ../shared/spec/PIPELINES.md §2.4).
enum PoseLandmarksDecoder {
    /// Landmarks in the model output: 33 pose, 2 auxiliary, 4 unused.
    static let modelLandmarkCount = 39
    static let poseLandmarkCount = 33
    static let auxiliaryRange = 33..<35

    /// Decodes one ROI, or returns `nil` when the pose is not present
    /// (presence ≤ `minPresence`; the raw score, no activation, strictly greater passes;
    /// mediapipe/calculators/util/thresholding_calculator.cc).
    ///
    /// - Parameters:
    ///   - landmarks: output 0, 39 × 5 values (x, y, z in tensor pixels, visibility and
    ///     presence logits).
    ///   - presence: output 1.
    ///   - heatmap: output 3, HWC with one channel per landmark.
    ///   - world: output 4, 39 × 3 values in metres.
    ///   - inputWidth / inputHeight: the model input size.
    ///   - roi: the rect the tensor was cropped from (pixel-square, no letterbox).
    static func decode(
        landmarks: UnsafeBufferPointer<Float>, presence: Float,
        heatmap: UnsafeBufferPointer<Float>, heatmapHeight: Int, heatmapWidth: Int,
        world: UnsafeBufferPointer<Float>, inputWidth: Int, inputHeight: Int, roi: NormalizedRect,
        minPresence: Float
    ) throws(TasksError) -> PoseLandmarksResultForROI? {
        guard presence > minPresence else { return nil }
        var decoded = try LandmarkTensorDecoder.normalized(
            landmarks, count: modelLandmarkCount, inputWidth: inputWidth, inputHeight: inputHeight,
            visibility: .sigmoid, presence: .sigmoid)
        _ = try HeatmapRefinement.refine(
            &decoded, heatmap: heatmap, height: heatmapHeight, width: heatmapWidth, channels: modelLandmarkCount)
        let pose = Array(decoded[0..<poseLandmarkCount])
        let auxiliary = Array(decoded[auxiliaryRange])
        var worldLandmarks = Array(
            try LandmarkTensorDecoder.absolute(world, count: modelLandmarkCount)[0..<poseLandmarkCount])
        for index in worldLandmarks.indices {
            worldLandmarks[index].visibility = pose[index].visibility
            worldLandmarks[index].presence = pose[index].presence
        }
        // The letterbox padding is zero for the pixel-square ROI, so only the projection remains.
        return PoseLandmarksResultForROI(
            landmarks: LandmarkProjection.project(pose, onto: roi),
            auxiliaryLandmarks: LandmarkProjection.project(auxiliary, onto: roi),
            worldLandmarks: WorldLandmarkProjection.project(worldLandmarks, rotation: roi.rotation),
            presence: presence)
    }
}

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
