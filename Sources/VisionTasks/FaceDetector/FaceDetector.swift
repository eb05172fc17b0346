/// Finds faces in images, video frames or a live stream with MediaPipe's BlazeFace detector — a
/// box, a score and six keypoints per face. MediaPipe's `MPPFaceDetector`
/// (mediapipe/tasks/ios/vision/face_detector/sources/MPPFaceDetector.h) with the same Swift names,
/// running MediaPipe's CPU pipeline on this package's engine.
///
/// ```swift
/// let detector = try FaceDetector(modelPath: "blaze_face_short_range.tflite")
/// let result = try detector.detect(image: try MPImage(contentsOfFile: "people.jpg"))
/// for face in result.detections { print(face.boundingBox, face.categories[0].score) }
/// ```
///
/// The detector keeps no state between frames: video mode is image mode with timestamps.
public final class FaceDetector: Sendable {
    private let shell: TaskShell<FaceDetectorProcessor, FaceDetector>

    /// Creates a detector for the BlazeFace model at `modelPath` with default options (image mode).
    ///
    /// - Throws: ``TasksError`` when the model cannot be read or is not a face detector.
    public convenience init(modelPath: String) throws(TasksError) {
        let options = FaceDetectorOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    /// Creates a detector.
    ///
    /// - Throws: ``TasksError`` for invalid options (a confidence or suppression threshold outside
    ///   0…1, a delegate that does not fit the running mode), a missing or invalid model, or a
    ///   model whose input is neither 128×128 nor 192×192.
    public init(options: FaceDetectorOptions) throws(TasksError) {
        shell = try TaskShell(
            options: options, taskName: "faceDetector",
            makeProcessor: { try FaceDetectorProcessor(options: options) },
            deliver: { task, delegate, result, timestamp, error in
                (delegate as? any FaceDetectorLiveStreamDelegate)?.faceDetector(
                    task, didFinishDetection: result, timestampInMilliseconds: timestamp, error: error)
            })
        shell.attach(self)
    }

    /// Finds faces in one image (image mode only). Results carry the timestamps 0, 1000, 2000, …
    /// in call order, as in MediaPipe.
    ///
    /// - Throws: ``TasksError`` when the detector is not in image mode or the image cannot be
    ///   processed.
    public func detect(image: MPImage) throws(TasksError) -> FaceDetectorResult {
        try shell.processImage(image)
    }

    /// Finds faces in one video frame (video mode only); timestamps must increase, and a rejected
    /// call changes nothing.
    ///
    /// - Throws: ``TasksError`` when the detector is not in video mode, the timestamp does not
    ///   increase, or the image cannot be processed.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws(TasksError)
        -> FaceDetectorResult
    {
        try shell.processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Queues a live-stream frame and returns at once (live-stream mode only); the result reaches
    /// the delegate on the detector's serial queue. Timestamps must increase. While a frame is
    /// processed at most one newer frame waits; a frame arriving meanwhile replaces it, and the
    /// replaced frame gets no callback.
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
    ) -> TaskResultSequence<Frames, FaceDetectorResult> where Frames.Element == (MPImage, Int) {
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
