/// Finds human poses — 33 body landmarks each, in image and world coordinates, and optionally a
/// segmentation mask — in images, video frames or a live stream. MediaPipe's
/// `MPPPoseLandmarker` (mediapipe/tasks/ios/vision/pose_landmarker/sources/MPPPoseLandmarker.h)
/// with the same Swift names, running MediaPipe's CPU pipeline on this package's engine.
///
/// ```swift
/// let options = PoseLandmarkerOptions()
/// options.baseOptions.modelAssetPath = "pose_landmarker_full.task"
/// let landmarker = try PoseLandmarker(options: options)
/// let result = try landmarker.detect(image: try MPImage(contentsOfFile: "person.png"))
/// for pose in result.landmarks { print(pose[0].x, pose[0].y) }   // the nose
/// ```
///
/// In video and live-stream mode the landmarker tracks: the pose detector runs only while fewer
/// than `numPoses` poses are tracked, and with one pose the landmarks are smoothed over time.
public final class PoseLandmarker: Sendable {
    private let shell: TaskShell<PoseLandmarkerProcessor, PoseLandmarker>

    /// The 35 connections between pose landmarks that draw the skeleton, in MediaPipe's order
    /// (mediapipe/tasks/ios/vision/pose_landmarker/sources/MPPPoseLandmarksConnections.h).
    public static var poseLandmarks: [Connection] { PoseConnections.all }

    /// Creates a landmarker for the `.task` bundle at `modelPath` with default options (image
    /// mode).
    ///
    /// - Throws: ``TasksError`` when the bundle cannot be read or lacks a model.
    public convenience init(modelPath: String) throws(TasksError) {
        let options = PoseLandmarkerOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    /// Creates a landmarker.
    ///
    /// - Throws: ``TasksError`` for invalid options (`numPoses` below 1, a confidence outside
    ///   0…1, a live-stream delegate that does not fit the running mode), a missing model path,
    ///   a model file that cannot be opened or is not a valid bundle, or a bundle without
    ///   `pose_detector.tflite` or `pose_landmarks_detector.tflite`.
    public init(options: PoseLandmarkerOptions) throws(TasksError) {
        shell = try TaskShell(
            options: options, taskName: "poseLandmarker",
            makeProcessor: {
                let bundle = try TaskModel.bundle(options.baseOptions)
                let models = try PoseLandmarkerModels(
                    bundle: bundle, threadCount: options.baseOptions.threadCount,
                    segmentationMasks: options.shouldOutputSegmentationMasks)
                return try PoseLandmarkerProcessor(models: models, settings: .init(options))
            },
            deliver: { task, delegate, result, timestamp, error in
                (delegate as? any PoseLandmarkerLiveStreamDelegate)?.poseLandmarker(
                    task, didFinishDetection: result, timestampInMilliseconds: timestamp, error: error)
            })
        shell.attach(self)
    }

    /// Finds poses in one image (image mode only). Results are stamped 0, 1000, 2000, … ms in
    /// call order.
    ///
    /// - Throws: ``TasksError/runningModeMismatch(expected:actual:)`` outside image mode, or
    ///   an error processing the image.
    public func detect(image: MPImage) throws(TasksError) -> PoseLandmarkerResult {
        try shell.processImage(image)
    }

    /// Finds poses in one video frame (video mode only), tracking them from the previous frame.
    ///
    /// - Throws: ``TasksError/nonIncreasingTimestamp(previous:received:)`` unless the timestamp
    ///   is greater than the previous frame's (the call then changes nothing),
    ///   ``TasksError/runningModeMismatch(expected:actual:)`` outside video mode.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws(TasksError)
        -> PoseLandmarkerResult
    {
        try shell.processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Queues a live-stream frame and returns at once (live-stream mode only); the result
    /// reaches the delegate on the landmarker's serial queue, in frame order.
    ///
    /// While a frame is processed at most one newer frame waits; a frame arriving meanwhile
    /// replaces it, and the replaced frame gets no callback (see ``droppedFrameCount``).
    ///
    /// - Throws: ``TasksError/nonIncreasingTimestamp(previous:received:)`` or
    ///   ``TasksError/runningModeMismatch(expected:actual:)``, immediately.
    public func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws(TasksError) {
        try shell.processLiveStreamFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// The processor the models actually run on: always ``Delegate/CPU``, as this package has no
    /// GPU engine, even when `baseOptions.delegate` asks for ``Delegate/GPU`` (beyond MediaPipe).
    public var activeDelegate: Delegate { shell.activeDelegate }

    /// Live-stream frames replaced by newer ones before they were processed (beyond MediaPipe,
    /// which drops them silently).
    public var droppedFrameCount: Int { shell.droppedFrameCount }

    /// The results of a stream of video frames, each an image and its timestamp in
    /// milliseconds, processed one by one in video mode as the sequence is iterated (beyond
    /// MediaPipe).
    ///
    /// ```swift
    /// for try await result in landmarker.results(for: frames) { draw(result) }
    /// ```
    ///
    /// A frame is pulled only after the previous result was consumed, so a camera feeding an
    /// `AsyncStream` with `bufferingPolicy: .bufferingNewest(1)` always gets the latest frame
    /// processed. The work runs off the cooperative thread pool. An error (such as a timestamp
    /// that does not increase) ends the sequence; the landmarker stays usable.
    public func results<Frames: AsyncSequence>(
        for frames: Frames
    ) -> TaskResultSequence<Frames, PoseLandmarkerResult> where Frames.Element == (MPImage, Int) {
        shell.results(for: frames)
    }

    /// Waits until every queued live-stream frame is processed and its result delivered (beyond
    /// MediaPipe). Must not be called from the delegate.
    public func waitUntilIdle() {
        shell.waitUntilIdle()
    }
}
