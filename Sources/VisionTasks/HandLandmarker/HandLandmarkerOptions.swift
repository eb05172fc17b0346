/// Options of a ``HandLandmarker``; mirrors MediaPipe's `MPPHandLandmarkerOptions`
/// (mediapipe/tasks/ios/vision/hand_landmarker/sources/MPPHandLandmarkerOptions.h), with the same
/// defaults.
///
/// A class, as upstream, so that the guide's code configures it through `let`.
public final class HandLandmarkerOptions: TaskOptions, @unchecked Sendable {
    // @unchecked: plain configuration, read once when a landmarker is created.

    /// `.image` (default), `.video` or `.liveStream`.
    public var runningMode: RunningMode = .image

    /// Receives live-stream results; required in `.liveStream` mode and only there. Held weakly.
    public weak var handLandmarkerLiveStreamDelegate: (any HandLandmarkerLiveStreamDelegate)?

    /// The most hands reported per image; at least 1. Defaults to 1.
    public var numHands: Int = 1

    /// The palm detector's score threshold, 0…1: palms scoring below it are ignored. Defaults to
    /// 0.5.
    public var minHandDetectionConfidence: Float = 0.5

    /// The hand landmark model's presence threshold, 0…1: a region whose presence score is not
    /// above it yields no hand. Defaults to 0.5.
    public var minHandPresenceConfidence: Float = 0.5

    /// In video and live-stream mode, the overlap (intersection over union, in (0, 1]) above
    /// which a freshly detected hand counts as one already tracked and is dropped. Not a
    /// landmark confidence, despite the name. Ignored in image mode. Defaults to 0.5.
    public var minTrackingConfidence: Float = 0.5

    /// Creates options with MediaPipe's defaults.
    public override init() {
        super.init()
    }

    /// A new, independent instance with the same values (MediaPipe's options are `NSCopying`).
    /// The delegate is shared, still held weakly.
    public func copy() -> HandLandmarkerOptions {
        let copy = HandLandmarkerOptions()
        copy.baseOptions = baseOptions.copy()
        copy.runningMode = runningMode
        copy.handLandmarkerLiveStreamDelegate = handLandmarkerLiveStreamDelegate
        copy.numHands = numHands
        copy.minHandDetectionConfidence = minHandDetectionConfidence
        copy.minHandPresenceConfidence = minHandPresenceConfidence
        copy.minTrackingConfidence = minTrackingConfidence
        return copy
    }
}

extension HandLandmarkerOptions: VisionTaskOptions {
    package var liveStreamDelegate: AnyObject? { handLandmarkerLiveStreamDelegate }

    // Proto field names: hand_detector_graph_options.proto, hand_landmarks_detector_graph_options.proto.
    // MediaPipe leaves the palm detector's threshold unchecked (any value is taken, and one above
    // 1 silently finds nothing); it is range-checked here like every other confidence
    // (docs/DIFFERENCES.md).
    package var optionRules: [OptionRule] {
        [
            .resultCount(numHands, option: "numHands"),
            .confidence(
                minHandDetectionConfidence, option: "minHandDetectionConfidence",
                protoName: "min_detection_confidence"),
            .confidence(
                minHandPresenceConfidence, option: "minHandPresenceConfidence", protoName: "min_detection_confidence"),
            .handTrackingConfidence(minTrackingConfidence),
        ]
    }
}
