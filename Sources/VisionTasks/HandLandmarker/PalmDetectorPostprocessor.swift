import Imaging

/// The palm detector's steps after the model: decode, weighted NMS, projection to the image,
/// and the hand rects the landmark model is run on
/// (mediapipe/tasks/cc/vision/hand_detector/hand_detector_graph.cc, ../shared/spec/PIPELINES.md §3.2).
struct PalmDetectorPostprocessor: Sendable {
    /// IoU above which palms are merged.
    static let nmsThreshold: Float = 0.3
    /// Keypoint 0 (wrist centre) to keypoint 2 (middle-finger MCP), turned to a target of
    /// 90 — radians, as the Tasks graph literally sets `rotation_vector_target_angle = 90`.
    /// After normalization this acts like ≈2.0354 rad (≈116.6°), not π/2; the legacy graph used
    /// 90 degrees. Kept as is to match MediaPipe (../shared/spec/PIPELINES.md §3.2, docs/DIFFERENCES.md).
    static let rotation = RotationVector(start: 0, end: 2, targetAngle: 90)

    /// The 2016 anchors of the 192×192 detector.
    let anchors: [Anchor]

    init() throws(TasksError) {
        anchors = try SSDAnchorGenerator.anchors(for: .palmDetector)
    }

    /// Palm detections in image-normalized coordinates from the two detector outputs
    /// ([2016 × 18] boxes, [2016 × 1] scores); `matrix` is the image-to-tensor matrix of the
    /// letterboxed input, which undoes letterbox, rotation and crop.
    func detections(
        boxes: UnsafeBufferPointer<Float>, scores: UnsafeBufferPointer<Float>, minScore: Float,
        matrix: CropMatrix
    ) throws(TasksError) -> [PipelineDetection] {
        let decoded = try DetectionDecoder.decode(
            boxes: boxes, scores: scores, anchors: anchors, options: .palmDetector(minScore: minScore))
        return NonMaxSuppression.weighted(decoded, iouThreshold: Self.nmsThreshold)
            .map { DetectionProjection.project($0, with: matrix) }
    }

    /// The hand rects for the palms, clipped to `numHands`: rotated palm rects ×2.6, shifted
    /// by −0.5 along their y-axis, square. No palms give one all-zero rect, which takes a slot
    /// in association and clipping but yields no landmarks (see ``HandRegions``).
    static func regions(
        for detections: [PipelineDetection], imageSize: ImageSize, numHands: Int
    ) throws(TasksError) -> [NormalizedRect] {
        let rects = try DetectionToRect.rects(
            for: detections, rotation: rotation, imageSize: imageSize, zeroRectWhenEmpty: true)
        let hands = rects.map { RectTransformation.palm.apply(to: $0, imageSize: imageSize) }
        return RegionTracker.clip(hands, to: numHands)
    }
}
