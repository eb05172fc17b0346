/// How a ``PoseDetector`` treats successive images (ML Kit's `PoseDetectorMode`).
public enum PoseDetectorMode: String, Sendable {
    /// Detect the most prominent person once, then track it across calls (the default).
    case stream
    /// Detect on every image, without tracking.
    case singleImage
}

/// Options shared by both pose detectors (ML Kit's `CommonPoseDetectorOptions`).
///
/// A class, as in ML Kit, so that the guide's code mutates it through `let`. Use
/// ``PoseDetectorOptions`` or ``AccuratePoseDetectorOptions``.
public class CommonPoseDetectorOptions: @unchecked Sendable {
    // @unchecked: plain configuration, read once when a detector is created.
    /// Stream (tracking) or single-image mode; `.stream` by default.
    public var detectorMode: PoseDetectorMode = .stream
    /// A model file to use instead of the default one from the models folder (beyond ML Kit).
    public var modelPath: String?

    init() {}

    /// The model files this kind of detector uses, in order of preference.
    var defaultModelFileNames: [String] { [] }
}

/// Options of the base pose detector: MediaPipe's pose_landmarker_lite model.
public final class PoseDetectorOptions: CommonPoseDetectorOptions, @unchecked Sendable {
    /// Creates options with the defaults (`.stream`).
    public override init() { super.init() }

    override var defaultModelFileNames: [String] { ["pose_landmarker_lite.task"] }
}

/// Options of the accurate pose detector: pose_landmarker_full, or pose_landmarker_heavy when present.
public final class AccuratePoseDetectorOptions: CommonPoseDetectorOptions, @unchecked Sendable {
    /// Creates options with the defaults (`.stream`).
    public override init() { super.init() }

    override var defaultModelFileNames: [String] { ["pose_landmarker_heavy.task", "pose_landmarker_full.task"] }
}
