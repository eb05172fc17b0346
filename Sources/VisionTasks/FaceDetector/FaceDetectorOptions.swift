/// Options of a ``FaceDetector``; mirrors MediaPipe's `MPPFaceDetectorOptions`
/// (mediapipe/tasks/ios/vision/face_detector/sources/MPPFaceDetectorOptions.h), with the same
/// defaults.
///
/// A class, as upstream, so that the guide's code configures it through `let`:
///
/// ```swift
/// let options = FaceDetectorOptions()
/// options.baseOptions.modelAssetPath = "blaze_face_short_range.tflite"
/// options.minDetectionConfidence = 0.6
/// let detector = try FaceDetector(options: options)
/// ```
public final class FaceDetectorOptions: TaskOptions, @unchecked Sendable {
    // @unchecked: plain configuration, read once when a detector is created.

    /// `.image` (default), `.video` or `.liveStream`.
    public var runningMode: RunningMode = .image
    /// Receives live-stream results; required in `.liveStream` mode and only there. Held weakly.
    public weak var faceDetectorLiveStreamDelegate: (any FaceDetectorLiveStreamDelegate)?
    /// The detector's score threshold, 0…1: faces scoring below it are dropped. Default 0.5.
    public var minDetectionConfidence: Float = 0.5
    /// The overlap (intersection over union, 0…1) above which two detections are merged into
    /// one, their boxes and keypoints averaged by score. Default 0.3.
    public var minSuppressionThreshold: Float = 0.3

    /// Creates options with MediaPipe's defaults.
    public override init() {
        super.init()
    }

    /// A new, independent instance with the same values (MediaPipe's options are `NSCopying`);
    /// the delegate is shared, still held weakly, and the base options are copied.
    public func copy() -> FaceDetectorOptions {
        let copy = FaceDetectorOptions()
        copy.baseOptions = baseOptions.copy()
        copy.runningMode = runningMode
        copy.faceDetectorLiveStreamDelegate = faceDetectorLiveStreamDelegate
        copy.minDetectionConfidence = minDetectionConfidence
        copy.minSuppressionThreshold = minSuppressionThreshold
        return copy
    }
}

extension FaceDetectorOptions: VisionTaskOptions {
    package var liveStreamDelegate: AnyObject? { faceDetectorLiveStreamDelegate }

    // Proto field names: face_detector_graph_options.proto. MediaPipe checks neither value
    // (../shared/reference/errors.json: 1.5 and -0.1 are accepted, -0.1 finding 84 faces on
    // astronaut); both are range-checked here (docs/DIFFERENCES.md).
    package var optionRules: [OptionRule] {
        [
            .confidence(
                minDetectionConfidence, option: "minDetectionConfidence", protoName: "min_detection_confidence"),
            .confidence(
                minSuppressionThreshold, option: "minSuppressionThreshold",
                protoName: "min_suppression_threshold"),
        ]
    }
}
