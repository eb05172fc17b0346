/// Options of a ``PoseLandmarker``; mirrors MediaPipe's `MPPPoseLandmarkerOptions`
/// (mediapipe/tasks/ios/vision/pose_landmarker/sources/MPPPoseLandmarkerOptions.h), with the
/// same defaults.
///
/// A class, as upstream, so that the guide's code configures it through `let`:
///
/// ```swift
/// let options = PoseLandmarkerOptions()
/// options.baseOptions.modelAssetPath = "pose_landmarker_full.task"
/// options.runningMode = .video
/// options.numPoses = 2
/// let landmarker = try PoseLandmarker(options: options)
/// ```
public final class PoseLandmarkerOptions: TaskOptions, @unchecked Sendable {
    // @unchecked: plain configuration, read once when a landmarker is created.

    /// `.image` (default), `.video` or `.liveStream`.
    public var runningMode: RunningMode = .image
    /// Receives live-stream results; required in `.liveStream` mode and only there. Held weakly.
    public weak var poseLandmarkerLiveStreamDelegate: (any PoseLandmarkerLiveStreamDelegate)?
    /// The largest number of poses to find; at least 1. Default 1.
    public var numPoses: Int = 1
    /// The pose detector's score threshold, 0…1. Default 0.5.
    public var minPoseDetectionConfidence: Float = 0.5
    /// The landmark model's pose presence threshold, 0…1: a pose is reported only when its
    /// presence score is above it. Default 0.5.
    public var minPosePresenceConfidence: Float = 0.5
    /// In video and live-stream mode, the overlap (intersection over union) above which a
    /// fresh detection replaces a tracked pose region, 0…1. Default 0.5.
    public var minTrackingConfidence: Float = 0.5
    /// Whether each pose also gets a segmentation mask. Default `false`; when `false` no mask
    /// work is done (MediaPipe's iOS task computes masks regardless; see docs/DIFFERENCES.md).
    public var shouldOutputSegmentationMasks: Bool = false

    /// Creates options with MediaPipe's defaults.
    public override init() {
        super.init()
    }

    /// A new, independent instance with the same values (MediaPipe's options are
    /// `NSCopying`); the delegate is shared, the base options are copied.
    public func copy() -> PoseLandmarkerOptions {
        let copy = PoseLandmarkerOptions()
        copy.baseOptions = baseOptions.copy()
        copy.runningMode = runningMode
        copy.poseLandmarkerLiveStreamDelegate = poseLandmarkerLiveStreamDelegate
        copy.numPoses = numPoses
        copy.minPoseDetectionConfidence = minPoseDetectionConfidence
        copy.minPosePresenceConfidence = minPosePresenceConfidence
        copy.minTrackingConfidence = minTrackingConfidence
        copy.shouldOutputSegmentationMasks = shouldOutputSegmentationMasks
        return copy
    }
}

extension PoseLandmarkerOptions: VisionTaskOptions {
    package var liveStreamDelegate: AnyObject? { poseLandmarkerLiveStreamDelegate }

    // Proto field names: pose_detector_graph_options.proto, pose_landmarks_detector_graph_options.proto,
    // pose_landmarker_graph_options.proto.
    package var optionRules: [OptionRule] {
        [
            .resultCount(numPoses, option: "numPoses"),
            .confidence(
                minPoseDetectionConfidence, option: "minPoseDetectionConfidence",
                protoName: "min_detection_confidence"),
            .confidence(
                minPosePresenceConfidence, option: "minPosePresenceConfidence", protoName: "min_detection_confidence"),
            .confidence(minTrackingConfidence, option: "minTrackingConfidence", protoName: "min_tracking_confidence"),
        ]
    }
}
