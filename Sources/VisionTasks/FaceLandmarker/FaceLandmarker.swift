/// Finds faces in images, video frames or a live stream and reports 478 landmarks per face
/// (the face mesh and both irises), optionally with 52 blendshape scores and the face's 4×4
/// transformation matrix — MediaPipe's `MPPFaceLandmarker`
/// (mediapipe/tasks/ios/vision/face_landmarker/sources/MPPFaceLandmarker.h), running the
/// official `face_landmarker.task` bundle.
///
/// ```swift
/// let options = FaceLandmarkerOptions()
/// options.baseOptions.modelAssetPath = "face_landmarker.task"
/// options.outputFaceBlendshapes = true
/// let landmarker = try FaceLandmarker(options: options)
/// let result = try landmarker.detect(image: try MPImage(contentsOfFile: "portrait.jpg"))
/// for (face, shapes) in zip(result.faceLandmarks, result.faceBlendshapes) {
///     print(face[1], shapes.categories.first { $0.categoryName == "jawOpen" }?.score ?? 0)
/// }
/// ```
///
/// Landmarks are normalized to the upright image (the image with its ``MPImage/orientation``
/// applied). In video and live-stream mode the landmarker tracks faces from frame to frame, as
/// MediaPipe's C++, Python and Android tasks do: the face detector runs only while fewer than
/// `numFaces` faces are tracked, and a single face's landmarks are smoothed.
public final class FaceLandmarker: Sendable {
    private let shell: TaskShell<FaceLandmarkerProcessor, FaceLandmarker>

    /// Creates a landmarker for the `.task` bundle at `modelPath` with default options (image
    /// mode, one face, no blendshapes or matrices).
    ///
    /// - Throws: ``TasksError`` when the bundle cannot be read or lacks a model.
    public convenience init(modelPath: String) throws(TasksError) {
        let options = FaceLandmarkerOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    /// Creates a landmarker.
    ///
    /// - Throws: ``TasksError`` for invalid options (`numFaces` below 1, a confidence outside
    ///   0…1, a delegate that does not fit the running mode), a missing or invalid bundle, a
    ///   bundle without the member an output needs (`face_blendshapes.tflite` for blendshapes,
    ///   `geometry_pipeline_metadata_landmarks.binarypb` for matrices).
    public init(options: FaceLandmarkerOptions) throws(TasksError) {
        shell = try TaskShell(
            options: options, taskName: "faceLandmarker",
            makeProcessor: { try FaceLandmarkerProcessor(options: options) },
            deliver: { task, delegate, result, timestamp, error in
                (delegate as? any FaceLandmarkerLiveStreamDelegate)?.faceLandmarker(
                    task, didFinishDetection: result, timestampInMilliseconds: timestamp, error: error)
            })
        shell.attach(self)
    }

    /// Finds the faces in one image (image mode only). Results carry the timestamps 0, 1000,
    /// 2000, … in call order, as in MediaPipe.
    ///
    /// - Throws: ``TasksError`` when the landmarker is not in image mode or the image cannot be
    ///   processed.
    public func detect(image: MPImage) throws(TasksError) -> FaceLandmarkerResult {
        try shell.processImage(image)
    }

    /// Finds the faces in one video frame (video mode only), tracking them from the previous
    /// frame. Timestamps must increase from call to call; a rejected call changes nothing.
    ///
    /// - Throws: ``TasksError`` when the landmarker is not in video mode, the timestamp does not
    ///   increase, or the image cannot be processed.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws(TasksError)
        -> FaceLandmarkerResult
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
    ) -> TaskResultSequence<Frames, FaceLandmarkerResult> where Frames.Element == (MPImage, Int) {
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

// The connection sets of mediapipe/tasks/ios/vision/face_landmarker/sources/MPPFaceLandmarksConnections.h
// (equal, pair by pair, to face_landmarks_connections.h of the C++ task). Left and right are the
// subject's sides: the left eye lies on the image's right.
extension FaceLandmarker {
    /// The lips: 40 connections, outer and inner outline.
    public static func lipsConnections() -> [Connection] { FaceConnections.lips }
    /// The left eye's outline: 16 connections (around landmark 263).
    public static func leftEyeConnections() -> [Connection] { FaceConnections.leftEye }
    /// The left eyebrow: 8 connections.
    public static func leftEyebrowConnections() -> [Connection] { FaceConnections.leftEyebrow }
    /// The left iris: 4 connections around landmarks 474–477.
    public static func leftIrisConnections() -> [Connection] { FaceConnections.leftIris }
    /// The right eye's outline: 16 connections (around landmark 33).
    public static func rightEyeConnections() -> [Connection] { FaceConnections.rightEye }
    /// The right eyebrow: 8 connections.
    public static func rightEyebrowConnections() -> [Connection] { FaceConnections.rightEyebrow }
    /// The right iris: 4 connections around landmarks 469–472. (MediaPipe returns the left
    /// iris here; docs/DIFFERENCES.md.)
    public static func rightIrisConnections() -> [Connection] { FaceConnections.rightIris }
    /// The face's outline: 36 connections.
    public static func faceOvalConnections() -> [Connection] { FaceConnections.faceOval }
    /// Every contour, 132 connections: lips, left eye, left eyebrow, left iris, right eye, right
    /// eyebrow, right iris and face oval, in that order.
    public static func contoursConnections() -> [Connection] { FaceConnections.contours }
    /// The triangle mesh over the 468 face points: 2556 connections.
    public static func tesselationConnections() -> [Connection] { FaceConnections.tesselation }
    /// Lips, contours and tesselation concatenated, 2728 connections (the lips twice, as in
    /// MediaPipe).
    public static func faceConnections() -> [Connection] { FaceConnections.all }
}
