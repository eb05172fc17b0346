import Imaging

/// The pose detector's steps after the model: decode, weighted NMS, letterbox removal, and the
/// rects the landmark model is run on (mediapipe/tasks/cc/vision/pose_detector/pose_detector_graph.cc,
/// ../shared/spec/PIPELINES.md §2.2).
struct PoseDetectorPostprocessor: Sendable {
    /// IoU above which detections are merged: the `min_suppression_threshold` default of
    /// PoseDetectorGraphOptions, which iOS does not change.
    static let nmsThreshold: Float = 0.5
    /// Keypoint 0 (mid-hip) to keypoint 1 (full-body scale point), turned to 90°.
    static let alignment = RotationVector.degrees(start: 0, end: 1, targetDegrees: 90)

    /// The 2254 anchors of the 224×224 detector.
    let anchors: [Anchor]

    init() throws(TasksError) {
        anchors = try SSDAnchorGenerator.anchors(for: .poseDetector)
    }

    /// Detections in image-normalized coordinates from the two detector outputs
    /// ([2254 × 12] boxes, [2254 × 1] scores) of a letterboxed full-image tensor with `padding`.
    ///
    /// The tensor must show the whole upright image: the detections are only un-letterboxed
    /// (upstream also passes a rotated crop here and then mistakes its coordinates for
    /// unrotated ones, ../shared/spec/PIPELINES.md §2.2; PoseLandmarker always crops the upright image).
    func detections(
        boxes: UnsafeBufferPointer<Float>, scores: UnsafeBufferPointer<Float>, minScore: Float,
        padding: LetterboxPadding
    ) throws(TasksError) -> [PipelineDetection] {
        let decoded = try DetectionDecoder.decode(
            boxes: boxes, scores: scores, anchors: anchors, options: .poseDetector(minScore: minScore))
        return NonMaxSuppression.weighted(decoded, iouThreshold: Self.nmsThreshold)
            .map { LetterboxRemoval.remove(padding, from: $0) }
    }

    /// The expanded pose rects for all detections, in NMS order: alignment-points rect then
    /// ×1.25, square.
    static func regions(for detections: [PipelineDetection], imageSize: ImageSize) throws(TasksError)
        -> [NormalizedRect]
    {
        var rects: [NormalizedRect] = []
        rects.reserveCapacity(detections.count)
        for detection in detections {
            let rect = try DetectionToRect.alignmentPointsRect(
                for: detection, alignment: alignment, imageSize: imageSize)
            rects.append(RectTransformation.pose.apply(to: rect, imageSize: imageSize))
        }
        return rects
    }
}
