import Imaging
import ModelFile

/// The pose landmarker's per-frame work, as MediaPipe's CPU graph runs it
/// (mediapipe/tasks/cc/vision/pose_landmarker/pose_landmarker_graph.cc,
/// pose_landmarks_detector_graph.cc, mediapipe/tasks/cc/vision/pose_detector/pose_detector_graph.cc;
/// ../shared/spec/PIPELINES.md §2).
///
/// Everything happens in the upright image: the detector sees the whole upright image, regions
/// and landmarks are normalized to it, and ``ImageToTensor`` applies the orientation while it
/// samples.
struct PoseLandmarkerProcessor: FrameProcessor {
    /// The options the pipeline reads, fixed at creation.
    struct Settings: Sendable {
        var numPoses: Int
        var minDetectionConfidence: Float
        var minPresenceConfidence: Float
        var minTrackingConfidence: Float
        var outputsSegmentationMasks: Bool
        /// Video and live-stream mode: track regions between frames and smooth landmarks
        /// (`use_stream_mode`).
        var tracks: Bool

        init(_ options: PoseLandmarkerOptions) {
            numPoses = options.numPoses
            minDetectionConfidence = options.minPoseDetectionConfidence
            minPresenceConfidence = options.minPosePresenceConfidence
            minTrackingConfidence = options.minTrackingConfidence
            outputsSegmentationMasks = options.shouldOutputSegmentationMasks
            tracks = options.runningMode != .image
        }
    }

    /// One pose found in a region.
    private struct Pose {
        var result: PoseLandmarksResultForROI
        var mask: Mask?
        var nextFrameRegion: NormalizedRect
    }

    let models: PoseLandmarkerModels
    let settings: Settings
    private let postprocessor: PoseDetectorPostprocessor
    private var tracker: RegionTracker
    private var smoothing = PoseSmoothing()

    init(models: PoseLandmarkerModels, settings: Settings) throws(TasksError) {
        self.models = models
        self.settings = settings
        postprocessor = try PoseDetectorPostprocessor()
        tracker = RegionTracker(maxCount: settings.numPoses)
    }

    mutating func process(_ image: MPImage, timestampInMilliseconds: Int) throws(TasksError) -> PoseLandmarkerResult {
        try run(image, timestampInMilliseconds: timestampInMilliseconds).result
    }

    /// ``process(_:timestampInMilliseconds:)`` that also returns what the landmark model gave
    /// for each reported pose before smoothing (for diagnostics and tests).
    mutating func run(
        _ image: MPImage, timestampInMilliseconds: Int
    ) throws(TasksError) -> (result: PoseLandmarkerResult, poses: [PoseLandmarksResultForROI]) {
        let upright = image.uprightSize
        let imageSize = ImageSize(width: upright.width, height: upright.height)

        // The detector runs on every image, and in stream mode only while fewer than numPoses
        // regions are tracked (../shared/spec/PIPELINES.md §2.3).
        let tracked: [NormalizedRect]? = settings.tracks ? tracker.previous : nil
        var detected: [NormalizedRect]?
        if !settings.tracks || tracker.needsDetection {
            detected = try detectPoses(in: image, imageSize: imageSize)
        }
        let regions = PoseRegions.regions(
            tracked: tracked, detected: detected, numPoses: settings.numPoses,
            minTrackingConfidence: settings.minTrackingConfidence)

        var poses: [Pose] = []
        poses.reserveCapacity(regions.count)
        for region in regions {
            if let pose = try landmarks(in: image, region: region, imageSize: imageSize) {
                poses.append(pose)
            }
        }

        var landmarks = poses.map(\.result.landmarks)
        var worldLandmarks = poses.map(\.result.worldLandmarks)
        if settings.tracks {
            // The next frame tracks the regions from this frame's unsmoothed auxiliary landmarks.
            tracker.update(nextRegions: poses.map(\.nextFrameRegion))
            // Smoothing applies to a single pose only (pose_landmarks_detector_graph.cc,
            // ../shared/spec/PIPELINES.md §2.7).
            if settings.numPoses == 1 {
                if let first = poses.first {
                    let smoothed = smoothing.smooth(
                        landmarks: first.result.landmarks, worldLandmarks: first.result.worldLandmarks,
                        nextFrameRegion: first.nextFrameRegion, imageSize: imageSize,
                        timestampInMilliseconds: timestampInMilliseconds)
                    landmarks[0] = smoothed.landmarks
                    worldLandmarks[0] = smoothed.worldLandmarks
                } else {
                    smoothing.frameWithoutPose()
                }
            }
        }
        let result = PoseLandmarkerResult(
            landmarks: landmarks, worldLandmarks: worldLandmarks, segmentationMasks: poses.compactMap(\.mask),
            timestampInMilliseconds: timestampInMilliseconds)
        return (result, poses.map(\.result))
    }

    /// The expanded pose rects of the detector, in NMS order (../shared/spec/PIPELINES.md §2.2): the whole
    /// upright image letterboxed into the tensor with a zero border.
    private func detectPoses(in image: MPImage, imageSize: ImageSize) throws(TasksError) -> [NormalizedRect] {
        let detector = models.detector
        let geometry = try detector.setInput(image, region: .fullImage, keepAspectRatio: true, border: .zero)
        try detector.invoke()
        let letterbox = geometry.letterboxPadding
        let postprocessor = postprocessor
        let minScore = settings.minDetectionConfidence
        let detections = try detector.withOutput(0) { (boxes) throws(TasksError) in
            try detector.withOutput(1) { (scores) throws(TasksError) in
                try postprocessor.detections(boxes: boxes, scores: scores, minScore: minScore, padding: letterbox)
            }
        }
        return try PoseDetectorPostprocessor.regions(for: detections, imageSize: imageSize)
    }

    /// Runs the landmark model on `region` (../shared/spec/PIPELINES.md §2.4–2.6); `nil` when the pose is not
    /// present there or the region is degenerate.
    private func landmarks(in image: MPImage, region: NormalizedRect, imageSize: ImageSize) throws(TasksError) -> Pose?
    {
        // A region without area makes no tensor upstream (the all-zero sentinel); a NaN one
        // would fail the graph. Either way this region yields no pose.
        guard region.width > 0, region.height > 0, region.xCenter.isFinite, region.yCenter.isFinite,
            region.width.isFinite, region.height.isFinite, region.rotation.isFinite
        else { return nil }
        let model = models.landmarks
        let geometry = try model.setInput(image, region: region, keepAspectRatio: false, border: .replicate)
        try model.invoke()
        let presence = try model.withOutput(1) { $0.first ?? 0 }
        guard presence > settings.minPresenceConfidence else { return nil }

        let models = models
        let minPresence = settings.minPresenceConfidence
        let decoded = try model.withOutput(0) { (landmarks) throws(TasksError) in
            try model.withOutput(3) { (heatmap) throws(TasksError) in
                try model.withOutput(4) { (world) throws(TasksError) in
                    try PoseLandmarksDecoder.decode(
                        landmarks: landmarks, presence: presence, heatmap: heatmap,
                        heatmapHeight: models.heatmapHeight, heatmapWidth: models.heatmapWidth, world: world,
                        inputWidth: model.inputWidth, inputHeight: model.inputHeight, roi: region,
                        minPresence: minPresence)
                }
            }
        }
        guard let decoded else { return nil }

        var mask: Mask?
        if settings.outputsSegmentationMasks {
            let transform = geometry.matrix
            mask = try model.withOutput(2) { (logits) throws(TasksError) in
                try SegmentationMaskProjection.mask(
                    logits: logits, maskWidth: models.maskWidth, maskHeight: models.maskHeight, matrix: transform,
                    imageSize: imageSize, threads: model.threads)
            }
        }
        let next = try PoseRegions.nextFrameRegion(auxiliaryLandmarks: decoded.auxiliaryLandmarks, imageSize: imageSize)
        return Pose(result: decoded, mask: mask, nextFrameRegion: next)
    }
}
