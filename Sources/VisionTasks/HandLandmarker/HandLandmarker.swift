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
public final class HandLandmarker: Sendable {
    private let shell: TaskShell<HandLandmarkerProcessor, HandLandmarker>

    /// Creates a landmarker for the `.task` bundle at `modelPath` with default options (image
    /// mode, one hand).
    ///
    /// - Throws: ``TasksError`` when the bundle cannot be read or lacks a model.
    public convenience init(modelPath: String) throws(TasksError) {
        let options = HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    /// Creates a landmarker.
    ///
    /// - Throws: ``TasksError`` for invalid options (`numHands` below 1, a detection or presence
    ///   confidence outside 0…1, a tracking confidence outside (0, 1] in video or live-stream
    ///   mode, a delegate that does not fit the running mode), or a missing or invalid bundle.
    public init(options: HandLandmarkerOptions) throws(TasksError) {
        shell = try TaskShell(
            options: options, taskName: "handLandmarker",
            makeProcessor: { try HandLandmarkerProcessor(options: options) },
            deliver: { task, delegate, result, timestamp, error in
                (delegate as? any HandLandmarkerLiveStreamDelegate)?.handLandmarker(
                    task, didFinishDetection: result, timestampInMilliseconds: timestamp, error: error)
            })
        shell.attach(self)
    }

    /// Finds the hands in one image (image mode only). Results carry the timestamps 0, 1000,
    /// 2000, … in call order, as in MediaPipe.
    ///
    /// - Throws: ``TasksError`` when the landmarker is not in image mode or the image cannot be
    ///   processed.
    public func detect(image: MPImage) throws(TasksError) -> HandLandmarkerResult {
        try shell.processImage(image)
    }

    /// Finds the hands in one video frame (video mode only), tracking them from the previous
    /// frame. Timestamps must increase from call to call; a rejected call changes nothing.
    ///
    /// - Throws: ``TasksError`` when the landmarker is not in video mode, the timestamp does not
    ///   increase, or the image cannot be processed.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws(TasksError)
        -> HandLandmarkerResult
    {
        try shell.processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Queues a live-stream frame and returns at once (live-stream mode only); the result
    /// reaches the delegate on the landmarker's serial queue. Timestamps must increase. While
    /// a frame is processed at most one newer frame waits; a frame arriving meanwhile replaces
    /// it, and the replaced frame gets no callback.
    ///
    /// - Throws: ``TasksError`` when the landmarker is not in live-stream mode or the timestamp
    ///   does not increase.
    public func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws(TasksError) {
        try shell.processLiveStreamFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// The results of a sequence of video frames, each an image and its timestamp in
    /// milliseconds, processed one by one as the sequence is iterated (video mode only; beyond
    /// MediaPipe). The work runs off the cooperative thread pool.
    public func results<Frames: AsyncSequence>(
        for frames: Frames
    ) -> TaskResultSequence<Frames, HandLandmarkerResult> where Frames.Element == (MPImage, Int) {
        shell.results(for: frames)
    }

    /// The processor the models actually run on: always ``Delegate/CPU``, as this package has no
    /// GPU engine, even when `baseOptions.delegate` asks for ``Delegate/GPU`` (beyond MediaPipe).
    public var activeDelegate: Delegate { shell.activeDelegate }

    /// Live-stream frames replaced by newer ones before they were processed (beyond MediaPipe,
    /// which drops them silently).
    public var droppedFrameCount: Int { shell.droppedFrameCount }

    /// Waits until every queued live-stream frame is processed and its result delivered (beyond
    /// MediaPipe). Must not be called from the delegate.
    public func waitUntilIdle() {
        shell.waitUntilIdle()
    }
}

extension HandLandmarker {
    /// The palm's 6 connections: (0,1) (0,5) (9,13) (13,17) (5,9) (0,17).
    public static var handPalmConnections: [Connection] { HandConnections.palm }
    /// The thumb's 3 connections: (1,2) (2,3) (3,4).
    public static var handThumbConnections: [Connection] { HandConnections.thumb }
    /// The index finger's 3 connections: (5,6) (6,7) (7,8).
    public static var handIndexFingerConnections: [Connection] { HandConnections.indexFinger }
    /// The middle finger's 3 connections: (9,10) (10,11) (11,12).
    public static var handMiddleFingerConnections: [Connection] { HandConnections.middleFinger }
    /// The ring finger's 3 connections: (13,14) (14,15) (15,16).
    public static var handRingFingerConnections: [Connection] { HandConnections.ringFinger }
    /// The little finger's 3 connections: (17,18) (18,19) (19,20).
    public static var handPinkyConnections: [Connection] { HandConnections.pinky }
    /// The whole skeleton, 21 connections: palm, thumb, index, middle, ring and little finger
    /// in that order (mediapipe/tasks/ios/vision/hand_landmarker/sources/MPPHandLandmarksConnections.h).
    public static var handConnections: [Connection] { HandConnections.all }
}
