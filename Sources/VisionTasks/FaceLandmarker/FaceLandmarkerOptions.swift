/// Options of a ``FaceLandmarker``; mirrors MediaPipe's `MPPFaceLandmarkerOptions`
/// (mediapipe/tasks/ios/vision/face_landmarker/sources/MPPFaceLandmarkerOptions.h), with the
/// same defaults.
///
/// A class, as upstream, so that the guide's code configures it through `let`:
///
/// ```swift
/// let options = FaceLandmarkerOptions()
/// options.baseOptions.modelAssetPath = "face_landmarker.task"
/// options.numFaces = 2
/// options.outputFaceBlendshapes = true
/// let landmarker = try FaceLandmarker(options: options)
/// ```
public final class FaceLandmarkerOptions: TaskOptions, @unchecked Sendable {
    // @unchecked: plain configuration, read once when a landmarker is created.

    /// `.image` (default), `.video` or `.liveStream`.
    public var runningMode: RunningMode = .image

    /// Receives live-stream results; required in `.liveStream` mode and only there. Held weakly.
    public weak var faceLandmarkerLiveStreamDelegate: (any FaceLandmarkerLiveStreamDelegate)?

    /// The most faces reported per image; at least 1. Defaults to 1.
    public var numFaces: Int = 1

    /// The face detector's score threshold, 0…1: faces scoring below it are ignored. Defaults
    /// to 0.5.
    public var minFaceDetectionConfidence: Float = 0.5

    /// The landmark model's presence threshold, 0…1: a region whose face presence score is not
    /// above it yields no face. Defaults to 0.5.
    public var minFacePresenceConfidence: Float = 0.5

    /// In video and live-stream mode, the overlap (intersection over union, 0…1) above which a
    /// freshly detected face counts as one already tracked and is dropped. Ignored in image
    /// mode. Defaults to 0.5.
    public var minTrackingConfidence: Float = 0.5

    /// Whether each face gets its 52 blendshape scores (``FaceLandmarkerResult/faceBlendshapes``).
    /// The blendshapes model runs only when this is set. Defaults to `false`.
    public var outputFaceBlendshapes: Bool = false

    /// Whether each face gets its 4×4 facial transformation matrix
    /// (``FaceLandmarkerResult/facialTransformationMatrixes``). The geometry pipeline runs only
    /// when this is set. Defaults to `false`.
    public var outputFacialTransformationMatrixes: Bool = false

    /// Creates options with MediaPipe's defaults.
    public override init() {
        super.init()
    }

    /// A new, independent instance with the same values (MediaPipe's options are `NSCopying`).
    /// The delegate is shared, still held weakly, and the base options are copied.
    public func copy() -> FaceLandmarkerOptions {
        let copy = FaceLandmarkerOptions()
        copy.baseOptions = baseOptions.copy()
        copy.runningMode = runningMode
        copy.faceLandmarkerLiveStreamDelegate = faceLandmarkerLiveStreamDelegate
        copy.numFaces = numFaces
        copy.minFaceDetectionConfidence = minFaceDetectionConfidence
        copy.minFacePresenceConfidence = minFacePresenceConfidence
        copy.minTrackingConfidence = minTrackingConfidence
        copy.outputFaceBlendshapes = outputFaceBlendshapes
        copy.outputFacialTransformationMatrixes = outputFacialTransformationMatrixes
        return copy
    }
}

extension FaceLandmarkerOptions: VisionTaskOptions {
    package var liveStreamDelegate: AnyObject? { faceLandmarkerLiveStreamDelegate }

    // Proto field names: face_detector_graph_options.proto, face_landmarks_detector_graph_options.proto,
    // face_landmarker_graph_options.proto. MediaPipe checks only the presence confidence, and
    // names `min_detection_confidence` (the landmarks detector's field) in its message; it
    // accepts any detection or tracking confidence, and fails on numFaces < 1 with a graph
    // error. Every option is checked here under its own name (docs/DIFFERENCES.md).
    package var optionRules: [OptionRule] {
        [
            .resultCount(numFaces, option: "numFaces"),
            .confidence(
                minFaceDetectionConfidence, option: "minFaceDetectionConfidence",
                protoName: "min_detection_confidence"),
            .confidence(
                minFacePresenceConfidence, option: "minFacePresenceConfidence", protoName: "min_detection_confidence"),
            .confidence(minTrackingConfidence, option: "minTrackingConfidence", protoName: "min_tracking_confidence"),
        ]
    }
}
