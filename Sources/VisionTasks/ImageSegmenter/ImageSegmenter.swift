/// Splits images, video frames or a live stream into regions — per pixel, a confidence for each
/// of the model's categories and the most likely category. MediaPipe's `MPPImageSegmenter`
/// (mediapipe/tasks/ios/vision/image_segmenter/sources/MPPImageSegmenter.h) with the same Swift
/// names, running MediaPipe's CPU pipeline on this package's engine.
///
/// ```swift
/// let segmenter = try ImageSegmenter(modelPath: "selfie_segmenter.tflite")
/// let result = try segmenter.segment(image: try MPImage(contentsOfFile: "person.jpg"))
/// let person = result.confidenceMasks?[0]   // float32, the image's size
/// ```
///
/// The segmenter keeps no state between frames: video mode is image mode with timestamps.
public final class ImageSegmenter: Sendable {
    private let shell: TaskShell<ImageSegmenterProcessor, ImageSegmenter>

    /// The names of the model's categories in channel order, from its label file (`[]` when it
    /// has none); the selfie segmenter's is `["selfie"]`.
    public let labels: [String]

    /// Creates a segmenter for the model at `modelPath` with default options (image mode,
    /// confidence masks only).
    ///
    /// - Throws: ``TasksError`` when the model cannot be read or is not a segmentation model.
    public convenience init(modelPath: String) throws(TasksError) {
        let options = ImageSegmenterOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    /// Creates a segmenter.
    ///
    /// - Throws: ``TasksError`` for invalid options (neither mask requested, a delegate that does
    ///   not fit the running mode), a missing or invalid model, or a model without a
    ///   `[1, height, width, channels]` mask output.
    public init(options: ImageSegmenterOptions) throws(TasksError) {
        var labels: [String] = []
        shell = try TaskShell(
            options: options, taskName: "imageSegmenter",
            makeProcessor: {
                let processor = try ImageSegmenterProcessor(options: options)
                labels = processor.info.labels
                return processor
            },
            deliver: { task, delegate, result, timestamp, error in
                (delegate as? any ImageSegmenterLiveStreamDelegate)?.imageSegmenter(
                    task, didFinishSegmentation: result, timestampInMilliseconds: timestamp, error: error)
            })
        self.labels = labels
        shell.attach(self)
    }

    /// Segments one image (image mode only). Results carry the timestamps 0, 1000, 2000, … in
    /// call order, as in MediaPipe.
    ///
    /// - Throws: ``TasksError`` when the segmenter is not in image mode or the image cannot be
    ///   processed.
    public func segment(image: MPImage) throws(TasksError) -> ImageSegmenterResult {
        try shell.processImage(image)
    }

    /// Segments one image (image mode only) and hands the result, or the error, to `completion`
    /// on the calling thread before returning — MediaPipe's variant that avoids copying masks;
    /// here masks are never copied, so it only differs from ``segment(image:)`` in form.
    public func segment(image: MPImage, completion: (ImageSegmenterResult?, (any Error)?) -> Void) {
        do {
            completion(try shell.processImage(image), nil)
        } catch {
            completion(nil, error)
        }
    }

    /// Segments one video frame (video mode only); timestamps must increase, and a rejected call
    /// changes nothing.
    ///
    /// - Throws: ``TasksError`` when the segmenter is not in video mode, the timestamp does not
    ///   increase, or the image cannot be processed.
    public func segment(videoFrame image: MPImage, timestampInMilliseconds: Int) throws(TasksError)
        -> ImageSegmenterResult
    {
        try shell.processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Segments one video frame (video mode only) and hands the result, or the error, to
    /// `completion` on the calling thread before returning.
    public func segment(
        videoFrame image: MPImage, timestampInMilliseconds: Int,
        completion: (ImageSegmenterResult?, (any Error)?) -> Void
    ) {
        do {
            completion(try shell.processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds), nil)
        } catch {
            completion(nil, error)
        }
    }

    /// Queues a live-stream frame and returns at once (live-stream mode only); the result reaches
    /// the delegate on the segmenter's serial queue. Timestamps must increase. While a frame is
    /// processed at most one newer frame waits; a frame arriving meanwhile replaces it, and the
    /// replaced frame gets no callback.
    ///
    /// - Throws: ``TasksError`` when the segmenter is not in live-stream mode or the timestamp
    ///   does not increase.
    public func segmentAsync(image: MPImage, timestampInMilliseconds: Int) throws(TasksError) {
        try shell.processLiveStreamFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// The results of a sequence of video frames, each an image and its timestamp in
    /// milliseconds, processed one by one as the sequence is iterated (video mode only; beyond
    /// MediaPipe). The work runs off the cooperative thread pool.
    public func results<Frames: AsyncSequence>(
        for frames: Frames
    ) -> TaskResultSequence<Frames, ImageSegmenterResult> where Frames.Element == (MPImage, Int) {
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

/// The package's generic task calls (CLI, benchmarks, tests) under the shared names.
extension ImageSegmenter: DetectingTask {
    package func detect(image: MPImage) throws(TasksError) -> ImageSegmenterResult {
        try segment(image: image)
    }

    package func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws(TasksError)
        -> ImageSegmenterResult
    {
        try segment(videoFrame: image, timestampInMilliseconds: timestampInMilliseconds)
    }

    package func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws(TasksError) {
        try segmentAsync(image: image, timestampInMilliseconds: timestampInMilliseconds)
    }
}

extension ImageSegmenter {
    /// Resizes a 256×256 confidence plane to `width × height` on the calling thread, as
    /// ``segment(image:)`` does for each mask; `vision-tasks bench segment` reports its share of
    /// the whole call. Returns the mask's first value.
    package static func resizeConfidenceMaskForBenchmark(width: Int, height: Int) -> Float {
        let plane = [Float](repeating: 0.5, count: 256 * 256)
        var resize = LinearMaskResize()
        let mask = Mask(float32Width: width, height: height, zeroed: false) { target in
            plane.withUnsafeBufferPointer { source in
                guard let base = source.baseAddress else { return }
                resize.resize(
                    source: base, stride: 1, sourceWidth: 256, sourceHeight: 256, into: target, width: width,
                    height: height, threads: .calling)
            }
        }
        return mask?.withUnsafeFloat32Buffer { $0.first } ?? 0
    }
}
