/// The mean and standard deviation that turn 8-bit pixel values into a float model's input,
/// `(value - mean) / std`, per channel or for all channels.
public struct InputNormalization: Sendable, Equatable {
    /// The value subtracted from each channel: one value for all channels, or one per channel.
    public var mean: [Float]
    /// The value each channel is divided by after the subtraction: one value, or one per channel.
    public var std: [Float]

    /// Creates a normalization; `mean` and `std` hold one value or one per channel.
    public init(mean: [Float], std: [Float]) {
        self.mean = mean
        self.std = std
    }
}

/// Options of an ``ObjectDetector``; mirrors MediaPipe's `MPPObjectDetectorOptions`
/// (mediapipe/tasks/ios/vision/object_detector/sources/MPPObjectDetectorOptions.h).
///
/// A class, as upstream, so that the guide's code configures it through `let`.
public final class ObjectDetectorOptions: TaskOptions, @unchecked Sendable {
    // @unchecked: plain configuration, read once when a detector is created.
    /// `.image` (default), `.video` or `.liveStream`.
    public var runningMode: RunningMode = .image
    /// Receives live-stream results; required in `.liveStream` mode and only there. Held weakly.
    public weak var objectDetectorLiveStreamDelegate: (any ObjectDetectorLiveStreamDelegate)?
    /// The locale of the display names to attach, when the model has a label file in it.
    public var displayNamesLocale: String = "en"
    /// At most this many detections, best first; −1 (the default) returns all. 0 is an error.
    public var maxResults: Int = -1
    /// Detections scoring below this are dropped; a score equal to it is kept.
    public var scoreThreshold: Float = 0
    /// Only these category names are returned (exclusive with ``categoryDenylist``).
    public var categoryAllowlist: [String] = []
    /// These category names are never returned (exclusive with ``categoryAllowlist``).
    public var categoryDenylist: [String] = []

    /// Labels for a model without TFLite metadata, one per class index (beyond MediaPipe, which
    /// rejects such models). Ignored when the model has metadata.
    public var labels: [String]?
    /// Input normalization for a float model without TFLite metadata (beyond MediaPipe).
    /// Ignored when the model has metadata; not needed for 8-bit models.
    public var inputNormalization: InputNormalization?
    /// Anchors and box coding for a model with two raw outputs (boxes and scores) and no
    /// TFLite metadata (beyond MediaPipe, which rejects such models). Ignored when the model
    /// has metadata, whose `DETECTOR_METADATA` then says the same.
    public var rawOutputDecoding: RawOutputDecoding?

    /// Creates options with MediaPipe's defaults.
    public override init() {
        super.init()
    }

    /// A new, independent instance with the same values (MediaPipe's options are `NSCopying`);
    /// the delegate is shared, still held weakly, and the base options are copied.
    public func copy() -> ObjectDetectorOptions {
        let copy = ObjectDetectorOptions()
        copy.baseOptions = baseOptions.copy()
        copy.runningMode = runningMode
        copy.objectDetectorLiveStreamDelegate = objectDetectorLiveStreamDelegate
        copy.displayNamesLocale = displayNamesLocale
        copy.maxResults = maxResults
        copy.scoreThreshold = scoreThreshold
        copy.categoryAllowlist = categoryAllowlist
        copy.categoryDenylist = categoryDenylist
        copy.labels = labels
        copy.inputNormalization = inputNormalization
        copy.rawOutputDecoding = rawOutputDecoding
        return copy
    }
}

extension ObjectDetectorOptions: VisionTaskOptions {
    package var liveStreamDelegate: AnyObject? { objectDetectorLiveStreamDelegate }

    package var optionRules: [OptionRule] {
        [.maxResults(maxResults), .exclusiveCategoryLists(allowlist: categoryAllowlist, denylist: categoryDenylist)]
    }
}
