/// Detects objects in images, video frames or a live stream with a TFLite detection model that
/// carries metadata — MediaPipe's `MPPObjectDetector`
/// (mediapipe/tasks/ios/vision/object_detector/sources/MPPObjectDetector.h).
///
/// ```swift
/// let options = ObjectDetectorOptions()
/// options.baseOptions.modelAssetPath = "efficientdet_lite0.tflite"
/// options.maxResults = 5
/// let detector = try ObjectDetector(options: options)
/// let result = try detector.detect(image: try MPImage(contentsOfFile: "photo.jpg"))
/// ```
public final class ObjectDetector: Sendable {
    private let shell: TaskShell<ObjectDetectorProcessor, ObjectDetector>

    /// Creates a detector for the model at `modelPath` with default options (image mode).
    ///
    /// - Throws: ``TasksError`` when the model cannot be read or lacks what the detector needs.
    public convenience init(modelPath: String) throws(TasksError) {
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    /// Creates a detector.
    ///
    /// - Throws: ``TasksError`` for invalid options (`maxResults` 0, both category lists, a
    ///   delegate that does not fit the running mode), a missing or invalid model, or a model
    ///   without metadata when no labels or normalization are supplied.
    public init(options: ObjectDetectorOptions) throws(TasksError) {
        shell = try TaskShell(
            options: options, taskName: "objectDetector",
            makeProcessor: {
                try ObjectDetectorProcessor(model: try TaskModel.model(options.baseOptions), options: options)
            },
            deliver: { task, delegate, result, timestamp, error in
                (delegate as? any ObjectDetectorLiveStreamDelegate)?.objectDetector(
                    task, didFinishDetection: result, timestampInMilliseconds: timestamp, error: error)
            })
        shell.attach(self)
    }

    /// Detects objects in one image (image mode only). Results carry the timestamps 0, 1000,
    /// 2000, … in call order, as in MediaPipe.
    ///
    /// - Throws: ``TasksError`` when the detector is not in image mode or the image cannot be
    ///   processed.
    public func detect(image: MPImage) throws(TasksError) -> ObjectDetectorResult {
        try shell.processImage(image)
    }

    /// Detects objects in one video frame (video mode only); timestamps must increase, and a
    /// rejected call changes nothing.
    ///
    /// - Throws: ``TasksError`` when the detector is not in video mode, the timestamp does not
    ///   increase, or the image cannot be processed.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws(TasksError)
        -> ObjectDetectorResult
    {
        try shell.processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Queues a live-stream frame and returns at once (live-stream mode only); the result
    /// reaches the delegate on the detector's serial queue. Timestamps must increase. While a
    /// frame is processed at most one newer frame waits; a frame arriving meanwhile replaces
    /// it, and the replaced frame gets no callback.
    ///
    /// - Throws: ``TasksError`` when the detector is not in live-stream mode or the timestamp
    ///   does not increase.
    public func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws(TasksError) {
        try shell.processLiveStreamFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// The results of a sequence of video frames, each an image and its timestamp in
    /// milliseconds, processed one by one as the sequence is iterated (video mode only; beyond
    /// MediaPipe). The work runs off the cooperative thread pool.
    public func results<Frames: AsyncSequence>(
        for frames: Frames
    ) -> TaskResultSequence<Frames, ObjectDetectorResult> where Frames.Element == (MPImage, Int) {
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
