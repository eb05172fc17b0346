import Imaging

/// Which regions the pose landmark model runs on, and the region the next frame tracks
/// (../shared/spec/PIPELINES.md §2.3, §2.5).
enum PoseRegions {
    /// The regions for this frame.
    ///
    /// In image mode (`tracked` is `nil`) these are the detector's rects. When tracking,
    /// `detected` is `nil` if the detector did not run; the tracked rects come first and a
    /// detector rect replaces every tracked rect it overlaps with IoU above
    /// `minTrackingConfidence` (association_norm_rect_calculator.cc). The list is clipped to
    /// `numPoses`.
    static func regions(
        tracked: [NormalizedRect]?, detected: [NormalizedRect]?, numPoses: Int, minTrackingConfidence: Float
    ) -> [NormalizedRect] {
        guard let tracked else {
            return RegionTracker.clip(detected ?? [], to: numPoses)
        }
        let merged = RectAssociation.replacingOverlaps([tracked, detected ?? []], threshold: minTrackingConfidence)
        return RegionTracker.clip(merged, to: numPoses)
    }

    /// The next frame's region from the two auxiliary landmarks (unsmoothed, image-normalized):
    /// their hull as a detection, the alignment-points rect from the first to the second at
    /// 90°, then ×1.25 and square (pose_landmarks_detector_graph.cc,
    /// mediapipe/modules/pose_landmark/pose_landmarks_to_roi.pbtxt).
    static func nextFrameRegion(auxiliaryLandmarks: [NormalizedLandmark], imageSize: ImageSize) throws(TasksError)
        -> NormalizedRect
    {
        let detection = LandmarksToDetection.detection(from: auxiliaryLandmarks)
        let rect = try DetectionToRect.alignmentPointsRect(
            for: detection, alignment: PoseDetectorPostprocessor.alignment, imageSize: imageSize)
        return RectTransformation.pose.apply(to: rect, imageSize: imageSize)
    }
}
