import Imaging
import ModelFile

/// The hand landmarker's per-frame work, as MediaPipe's CPU graph runs it
/// (mediapipe/tasks/cc/vision/hand_landmarker/hand_landmarker_graph.cc; ../shared/spec/PIPELINES.md §3): the palm
/// detector when needed, the hand regions (tracked ones first in video and live-stream mode),
/// the landmark model on each region, duplicate removal, and the regions for the next frame.
///
/// Everything happens in the upright image: regions and results are normalized to
/// `image.uprightSize`, and the image-to-tensor step reads the stored pixels through the
/// orientation.
struct HandLandmarkerProcessor: FrameProcessor {
    /// The thresholds and counts the pipeline uses.
    struct Settings: Sendable {
        var numHands: Int
        var minHandDetectionConfidence: Float
        var minHandPresenceConfidence: Float
        var minTrackingConfidence: Float
    }

    /// The bundle members MediaPipe reads (../shared/spec/PIPELINES.md §3.1).
    static let detectorMember = "hand_detector.tflite"
    static let landmarksMember = "hand_landmarks_detector.tflite"

    private let detector: TaskModel
    private let landmarker: TaskModel
    private let palms: PalmDetectorPostprocessor
    private let settings: Settings
    /// The regions carried from frame to frame; `nil` in image mode, which does not track.
    var tracker: RegionTracker?

    /// Loads the bundle named by `options` for the options' thresholds and running mode (the
    /// options themselves are checked by ``HandLandmarker``).
    init(options: HandLandmarkerOptions) throws(TasksError) {
        let settings = Settings(
            numHands: options.numHands, minHandDetectionConfidence: options.minHandDetectionConfidence,
            minHandPresenceConfidence: options.minHandPresenceConfidence,
            minTrackingConfidence: options.minTrackingConfidence)
        try self.init(
            bundle: TaskModel.bundle(options.baseOptions), settings: settings, tracks: options.runningMode != .image,
            threadCount: options.baseOptions.threadCount)
    }

    init(bundle: ModelAssetBundle, settings: Settings, tracks: Bool, threadCount: Int?) throws(TasksError) {
        detector = try TaskModel(
            model: TaskModel.member(Self.detectorMember, of: bundle), name: Self.detectorMember,
            threadCount: threadCount)
        landmarker = try TaskModel(
            model: TaskModel.member(Self.landmarksMember, of: bundle), name: Self.landmarksMember,
            threadCount: threadCount)
        try HandModelOutputs.checkDetector(detector)
        try HandModelOutputs.checkLandmarker(landmarker)
        palms = try PalmDetectorPostprocessor()
        self.settings = settings
        tracker = tracks ? RegionTracker(maxCount: settings.numHands) : nil
    }

    mutating func process(_ image: MPImage, timestampInMilliseconds: Int) throws(TasksError) -> HandLandmarkerResult {
        let upright = image.uprightSize
        let imageSize = ImageSize(width: upright.width, height: upright.height)

        // The detector runs on every image, and on a video frame unless enough hands are
        // tracked (../shared/spec/PIPELINES.md §1.14).
        var detected: [NormalizedRect]?
        if tracker?.needsDetection ?? true {
            detected = try detectHandRegions(image, imageSize: imageSize)
        }
        let regions = HandRegions.regions(
            tracked: tracker?.previous, detected: detected, numHands: settings.numHands,
            minTrackingConfidence: settings.minTrackingConfidence)

        var hands: [HandLandmarksResultForROI] = []
        var nextRegions: [NormalizedRect] = []
        for region in regions where !HandRegions.isPlaceholder(region) {
            guard let hand = try landmarks(image, region: region) else { continue }
            hands.append(hand)
            nextRegions.append(try HandRegions.nextFrameRegion(landmarks: hand.landmarks, imageSize: imageSize))
        }

        // hand_landmarks_deduplication_calculator.cc: duplicates leave every output, the
        // next-frame regions included (../shared/spec/PIPELINES.md §3.6).
        let kept = HandDeduplication.keptIndices(hands.map(\.landmarks), imageSize: imageSize)
        if kept.count != hands.count {
            hands = kept.map { hands[$0] }
            nextRegions = kept.map { nextRegions[$0] }
        }
        tracker?.update(nextRegions: nextRegions)

        return HandLandmarkerResult(
            landmarks: hands.map(\.landmarks), worldLandmarks: hands.map(\.worldLandmarks),
            handedness: hands.map { [$0.handedness] }, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Runs the palm detector on the whole image and returns the hand regions it gives,
    /// clipped to `numHands` (one all-zero placeholder when there is no palm).
    private func detectHandRegions(_ image: MPImage, imageSize: ImageSize) throws(TasksError) -> [NormalizedRect] {
        // keep_aspect_ratio = true, BORDER_ZERO (hand_detector_graph.cc; ../shared/spec/PIPELINES.md §3.2).
        let geometry = try detector.setInput(image, region: .fullImage, keepAspectRatio: true, border: .zero)
        try detector.invoke()
        let matrix = geometry.matrix
        let palms = palms
        let minScore = settings.minHandDetectionConfidence
        let detections = try detector.withOutput(HandModelOutputs.detectorBoxes) { (boxes) throws(TasksError) in
            try detector.withOutput(HandModelOutputs.detectorScores) { (scores) throws(TasksError) in
                try palms.detections(boxes: boxes, scores: scores, minScore: minScore, matrix: matrix)
            }
        }
        return try PalmDetectorPostprocessor.regions(for: detections, imageSize: imageSize, numHands: settings.numHands)
    }

    /// Runs the hand landmark model on one region; `nil` when it finds no hand there.
    private func landmarks(_ image: MPImage, region: NormalizedRect) throws(TasksError) -> HandLandmarksResultForROI? {
        // keep_aspect_ratio = false, BORDER_REPLICATE (hand_landmarks_detector_graph.cc;
        // ../shared/spec/PIPELINES.md §3.4).
        _ = try landmarker.setInput(image, region: region, keepAspectRatio: false, border: .replicate)
        try landmarker.invoke()
        let presence = try landmarker.withOutput(HandModelOutputs.presence) { $0.first ?? 0 }
        guard presence > settings.minHandPresenceConfidence else { return nil }
        let handedness = try landmarker.withOutput(HandModelOutputs.handedness) { $0.first ?? 0 }
        let model = landmarker
        let minPresence = settings.minHandPresenceConfidence
        return try model.withOutput(HandModelOutputs.landmarks) { (landmarks) throws(TasksError) in
            try model.withOutput(HandModelOutputs.worldLandmarks) { (world) throws(TasksError) in
                try HandLandmarksDecoder.decode(
                    landmarks: landmarks, presence: presence, handedness: handedness, world: world,
                    inputWidth: model.inputWidth, inputHeight: model.inputHeight, roi: region, minPresence: minPresence)
            }
        }
    }
}
