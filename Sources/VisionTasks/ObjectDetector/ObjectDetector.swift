import ModelFile

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
public final class ObjectDetector: @unchecked Sendable {
    // @unchecked: all mutable state lives in the runner, which serializes it.
    private var runner: TaskRunner<ObjectDetectorProcessor>!

    /// Creates a detector for the model at `modelPath` with default options (image mode).
    public convenience init(modelPath: String) throws {
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    /// Creates a detector.
    ///
    /// - Throws: ``TasksError`` for invalid options (`maxResults` 0, both category lists, a
    ///   delegate that does not fit the running mode), a missing or invalid model, or a model
    ///   without metadata when no labels or normalization are supplied.
    public init(options: ObjectDetectorOptions) throws {
        try OptionValidation.checkMaxResults(options.maxResults)
        try OptionValidation.checkCategoryLists(allowlist: options.categoryAllowlist, denylist: options.categoryDenylist)
        try OptionValidation.checkDelegate(
            runningMode: options.runningMode, hasDelegate: options.objectDetectorLiveStreamDelegate != nil)
        let path = try OptionValidation.modelPath(options.baseOptions)
        let model: TFLiteModel
        do {
            model = try TFLiteModel(contentsOfFile: path)
        } catch {
            throw TasksError.wrapping(error)
        }
        let processor = try ObjectDetectorProcessor(model: model, options: options)
        var handler: TaskRunner<ObjectDetectorProcessor>.ResultHandler?
        if options.runningMode == .liveStream {
            let delegate = WeakReference<AnyObject>(options.objectDetectorLiveStreamDelegate)
            handler = { [weak self] result, timestamp in
                guard let self, let receiver = delegate.object as? any ObjectDetectorLiveStreamDelegate else { return }
                switch result {
                case let .success(output):
                    receiver.objectDetector(self, didFinishDetection: output, timestampInMilliseconds: timestamp, error: nil)
                case let .failure(error):
                    receiver.objectDetector(self, didFinishDetection: nil, timestampInMilliseconds: timestamp, error: error)
                }
            }
        }
        runner = try TaskRunner(
            runningMode: options.runningMode, taskName: "objectDetector", processor: processor, resultHandler: handler)
    }

    /// Detects objects in one image (image mode only).
    public func detect(image: MPImage) throws -> ObjectDetectorResult {
        try runner.processImage(image)
    }

    /// Detects objects in one video frame (video mode only); timestamps must increase.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> ObjectDetectorResult {
        try runner.processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Queues a live-stream frame and returns at once (live-stream mode only); the result
    /// reaches the delegate. Timestamps must increase.
    public func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try runner.processLiveStreamFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Live-stream frames replaced by newer ones before they were processed (beyond MediaPipe).
    public var droppedFrameCount: Int { runner.droppedFrameCount }
}
