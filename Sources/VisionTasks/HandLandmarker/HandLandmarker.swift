/// Finds hands in images, video frames or a live stream and reports 21 landmarks per hand,
/// in image and world coordinates, and which hand it is — MediaPipe's `MPPHandLandmarker`
/// (mediapipe/tasks/ios/vision/hand_landmarker/sources/MPPHandLandmarker.h), running the
/// official `hand_landmarker.task` bundle.
///
/// ```swift
/// let options = HandLandmarkerOptions()
/// options.baseOptions.modelAssetPath = "hand_landmarker.task"
/// options.numHands = 2
/// let landmarker = try HandLandmarker(options: options)
/// let result = try landmarker.detect(image: try MPImage(contentsOfFile: "hands.jpg"))
/// for (hand, side) in zip(result.landmarks, result.handedness) {
///     print(side.first?.categoryName ?? "?", hand[HandLandmark.indexFingerTip.rawValue])
/// }
/// ```
///
/// Results are normalized to the upright image (the image with its ``MPImage/orientation``
/// applied). In video and live-stream mode the landmarker tracks: the palm detector runs only
/// while fewer than `numHands` hands are tracked.
public final class HandLandmarker: @unchecked Sendable {
    // @unchecked: all mutable state lives in the runner, which serializes it.
    private var runner: TaskRunner<HandLandmarkerProcessor>!

    /// Creates a landmarker for the `.task` bundle at `modelPath` with default options (image
    /// mode, one hand).
    ///
    /// - Throws: ``TasksError`` when the bundle cannot be read or lacks a model.
    public convenience init(modelPath: String) throws {
        let options = HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    /// Creates a landmarker.
    ///
    /// - Throws: ``TasksError`` for invalid options (`numHands` below 1, a presence confidence
    ///   outside 0…1, a tracking confidence outside (0, 1] in video or live-stream mode, a
    ///   delegate that does not fit the running mode), or a missing or invalid bundle.
    public init(options: HandLandmarkerOptions) throws {
        try OptionValidation.checkDelegate(
            runningMode: options.runningMode, hasDelegate: options.handLandmarkerLiveStreamDelegate != nil)
        try OptionValidation.checkResultCount(options.numHands, option: "numHands")
        try OptionValidation.checkConfidence(
            options.minHandPresenceConfidence, option: "minHandPresenceConfidence",
            protoName: "min_detection_confidence")
        try OptionValidation.checkHandTrackingConfidence(options.minTrackingConfidence, runningMode: options.runningMode)
        let processor = try HandLandmarkerProcessor(options: options)
        var handler: TaskRunner<HandLandmarkerProcessor>.ResultHandler?
        if options.runningMode == .liveStream {
            let delegate = WeakReference<AnyObject>(options.handLandmarkerLiveStreamDelegate)
            handler = { [weak self] result, timestamp in
                guard let self, let receiver = delegate.object as? any HandLandmarkerLiveStreamDelegate else { return }
                switch result {
                case let .success(output):
                    receiver.handLandmarker(self, didFinishDetection: output, timestampInMilliseconds: timestamp, error: nil)
                case let .failure(error):
                    receiver.handLandmarker(self, didFinishDetection: nil, timestampInMilliseconds: timestamp, error: error)
                }
            }
        }
        runner = try TaskRunner(
            runningMode: options.runningMode, taskName: "handLandmarker", processor: processor, resultHandler: handler)
    }

    /// Finds the hands in one image (image mode only). Results carry the timestamps 0, 1000,
    /// 2000, … in call order, as in MediaPipe.
    ///
    /// - Throws: ``TasksError`` when the landmarker is not in image mode or the image cannot be
    ///   processed.
    public func detect(image: MPImage) throws -> HandLandmarkerResult {
        try runner.processImage(image)
    }

    /// Finds the hands in one video frame (video mode only), tracking them from the previous
    /// frame. Timestamps must increase from call to call; a rejected call changes nothing.
    ///
    /// - Throws: ``TasksError`` when the landmarker is not in video mode, the timestamp does not
    ///   increase, or the image cannot be processed.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> HandLandmarkerResult {
        try runner.processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Queues a live-stream frame and returns at once (live-stream mode only); the result
    /// reaches the delegate on the landmarker's serial queue. Timestamps must increase. While
    /// a frame is processed at most one newer frame waits; a frame arriving meanwhile replaces
    /// it, and the replaced frame gets no callback.
    ///
    /// - Throws: ``TasksError`` when the landmarker is not in live-stream mode or the timestamp
    ///   does not increase.
    public func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try runner.processLiveStreamFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// The results of a sequence of video frames, each an image and its timestamp in
    /// milliseconds, processed one by one as the sequence is iterated (video mode only; beyond
    /// MediaPipe). The work runs off the cooperative thread pool.
    public func results<Frames: AsyncSequence>(
        for frames: Frames
    ) -> TaskResultSequence<Frames, HandLandmarkerResult> where Frames.Element == (MPImage, Int) {
        runner.videoResults(for: frames) { $0 }
    }

    /// Live-stream frames replaced by newer ones before they were processed (beyond MediaPipe,
    /// which drops them silently).
    public var droppedFrameCount: Int { runner.droppedFrameCount }
}
