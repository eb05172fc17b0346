import Dispatch
import Foundation
import VisionTasks

/// Finds the body landmarks of one person in images or camera frames (ML Kit's `PoseDetector`),
/// running MediaPipe's pose landmarker on this package's engine.
///
/// ```swift
/// let options = PoseDetectorOptions()
/// options.detectorMode = .singleImage
/// let poseDetector = PoseDetector.poseDetector(options: options)
/// let poses = try poseDetector.results(in: VisionImage(image: try MPImage(contentsOfFile: "person.png")))
/// if let ankle = poses.first?.landmark(ofType: .leftAnkle), ankle.inFrameLikelihood > 0.5 {
///     print(ankle.position.x, ankle.position.y)
/// }
/// ```
///
/// - ``PoseDetectorMode/stream`` (the default) treats successive images as the frames of one
///   video: the person found first is tracked from frame to frame (the person detector runs
///   again only when the track is lost) and the landmarks are smoothed over time. Frames get
///   strictly increasing timestamps from a monotonic clock, in milliseconds.
/// - ``PoseDetectorMode/singleImage`` detects the person anew in every image, without tracking
///   or smoothing.
///
/// At most one person is reported; the result is empty when nobody is found. Base options run
/// `pose_landmarker_lite.task`, ``AccuratePoseDetectorOptions`` run `pose_landmarker_heavy.task`
/// when it is present and `pose_landmarker_full.task` otherwise. The model is the options'
/// `modelPath` when set, else the file in the app bundle's resources (`Bundle.main`), else the
/// one in the models folder: `$VISION_TASKS_MODELS`, or `Models` in the current directory. It is
/// loaded on the first call; a missing or invalid model is reported by that call (and retried by
/// the next one).
///
/// Calls may come from any thread; they are serialized, so frames are processed one at a time
/// in the order they arrive.
public final class PoseDetector: @unchecked Sendable {
    // @unchecked: the mutable state (`landmarker`, `lastTimestamp`) is touched only while
    // `lock` is held; everything else is constant.
    private let mode: PoseDetectorMode
    private let modelPath: String?
    private let defaultModelFileNames: [String]
    private let locator: PoseModelLocator
    private let clock: @Sendable () -> Int
    private let lock = NSLock()
    private let queue = DispatchQueue(label: "PoseDetection.PoseDetector")
    private var landmarker: PoseLandmarker?
    private var lastTimestamp: Int?

    /// Creates a detector with a snapshot of `options` (later changes to them have no effect).
    ///
    /// Like ML Kit's, this never fails: the model is loaded by the first ``results(in:)`` or
    /// ``process(_:completion:)`` call, which reports any error.
    public class func poseDetector(options: CommonPoseDetectorOptions) -> PoseDetector {
        PoseDetector(options: options, locator: .current(), clock: PoseDetector.monotonicMilliseconds())
    }

    /// A detector whose stream frames are stamped by `clock` (milliseconds; made strictly
    /// increasing) instead of the monotonic clock, so that tracking and smoothing do not
    /// depend on when the frames arrive.
    package static func poseDetector(
        options: CommonPoseDetectorOptions, clock: @escaping @Sendable () -> Int
    ) -> PoseDetector {
        PoseDetector(options: options, locator: .current(), clock: clock)
    }

    /// Creates a detector that finds its model with `locator` and stamps stream frames with
    /// `clock` (milliseconds; the detector makes the stamps strictly increasing).
    init(options: CommonPoseDetectorOptions, locator: PoseModelLocator, clock: @escaping @Sendable () -> Int) {
        mode = options.detectorMode
        modelPath = options.modelPath
        defaultModelFileNames = options.defaultModelFileNames
        self.locator = locator
        self.clock = clock
    }

    /// Finds the pose in `image`, synchronously on the calling thread.
    ///
    /// Unlike ML Kit, calling it on the main thread is allowed (it blocks that thread while
    /// the model runs).
    ///
    /// - Returns: One ``Pose`` with all 33 landmarks, or an empty array when nobody is found.
    /// - Throws: `TasksError`: `modelFileNotFound` when no model file is found, `invalidModel`
    ///   or `bundleMemberNotFound` for a file that is not a pose landmarker bundle,
    ///   `invalidImage` for an image that cannot be read.
    public func results(in image: VisionImage) throws -> [Pose] {
        try detect(image.mpImage())
    }

    /// Finds the pose in `image` in the background and passes the poses (or the error) to
    /// `completion`.
    ///
    /// On Apple platforms `completion` runs on the main queue, as ML Kit's does (so a
    /// command-line program must keep the main queue running, e.g. with `dispatchMain()`).
    /// Elsewhere, where no main run loop can be assumed, it runs on the detector's private
    /// serial queue. Either way results arrive in call order. The image's ``VisionImage/orientation``
    /// is read when this method is called.
    ///
    /// - Parameter image: The picture to search, read with its current orientation.
    /// - Parameter completion: Receives the poses (empty when nobody is found) and `nil`, or
    ///   `nil` and a `TasksError`.
    public func process(_ image: VisionImage, completion: @escaping ([Pose]?, Error?) -> Void) {
        let handler = CompletionHandler(completion)
        let input = Result { try image.mpImage() }
        queue.async { [self] in
            let outcome = input.flatMap { image in Result { try self.detect(image) } }
            #if canImport(Darwin)
                DispatchQueue.main.async { handler.deliver(outcome) }
            #else
                handler.deliver(outcome)
            #endif
        }
    }

    /// Finds the pose in `image` off the calling task (on the detector's private queue).
    ///
    /// - Returns: One ``Pose``, or an empty array when nobody is found.
    /// - Throws: The errors of ``results(in:)``.
    public func process(_ image: VisionImage) async throws -> [Pose] {
        let input = try image.mpImage()
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { [self] in
                continuation.resume(with: Result { try self.detect(input) })
            }
        }
    }

    /// Loads the model now instead of at the first image.
    ///
    /// - Throws: The model errors of ``results(in:)``.
    package func loadModel() throws {
        lock.lock()
        defer { lock.unlock() }
        _ = try loadedLandmarker()
    }

    // MARK: - Work

    /// Runs the landmarker on one image, holding the lock.
    private func detect(_ image: MPImage) throws -> [Pose] {
        lock.lock()
        defer { lock.unlock() }
        let landmarker = try loadedLandmarker()
        let result: PoseLandmarkerResult
        switch mode {
        case .stream:
            let timestamp = nextTimestamp()
            lastTimestamp = timestamp
            result = try landmarker.detect(videoFrame: image, timestampInMilliseconds: timestamp)
        case .singleImage:
            result = try landmarker.detect(image: image)
        }
        let size = image.uprightSize
        return PoseConversion.poses(from: result.landmarks, width: size.width, height: size.height)
    }

    /// The landmarker, created on first use; the lock must be held.
    private func loadedLandmarker() throws -> PoseLandmarker {
        if let landmarker { return landmarker }
        let options = PoseLandmarkerOptions()
        options.baseOptions.modelAssetPath = try locator.modelPath(
            for: modelPath, defaultFileNames: defaultModelFileNames)
        // Stream: video mode, which tracks the pose between frames and smooths its landmarks
        // (one pose, so the smoothing filters run). Single image: image mode.
        options.runningMode = mode == .stream ? .video : .image
        options.numPoses = 1
        let created = try PoseLandmarker(options: options)
        landmarker = created
        return created
    }

    /// The clock's time, moved past the previous frame's stamp when needed; the lock must be
    /// held.
    private func nextTimestamp() -> Int {
        let now = clock()
        guard let lastTimestamp else { return now }
        return now > lastTimestamp ? now : lastTimestamp + 1
    }

    /// Milliseconds of a monotonic clock since the call.
    private static func monotonicMilliseconds() -> @Sendable () -> Int {
        let start = DispatchTime.now().uptimeNanoseconds
        return {
            let now = DispatchTime.now().uptimeNanoseconds
            return Int((now &- start) / 1_000_000)
        }
    }
}

/// Carries a caller's completion closure to the queue that calls it.
private struct CompletionHandler: @unchecked Sendable {
    // @unchecked: ML Kit's completion type is not `@Sendable`; the closure is called exactly
    // once, on one queue, and never shared otherwise.
    let completion: ([Pose]?, Error?) -> Void

    init(_ completion: @escaping ([Pose]?, Error?) -> Void) {
        self.completion = completion
    }

    /// Passes a success or a failure to the closure.
    func deliver(_ outcome: Result<[Pose], Error>) {
        switch outcome {
        case .success(let poses): completion(poses, nil)
        case .failure(let error): completion(nil, error)
        }
    }
}
