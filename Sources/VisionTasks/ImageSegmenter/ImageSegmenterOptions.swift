/// Options of an ``ImageSegmenter``; mirrors MediaPipe's `MPPImageSegmenterOptions`
/// (mediapipe/tasks/ios/vision/image_segmenter/sources/MPPImageSegmenterOptions.h), with the same
/// defaults.
///
/// A class, as upstream, so that the guide's code configures it through `let`:
///
/// ```swift
/// let options = ImageSegmenterOptions()
/// options.baseOptions.modelAssetPath = "selfie_segmenter.tflite"
/// options.shouldOutputCategoryMask = true
/// let segmenter = try ImageSegmenter(options: options)
/// ```
public final class ImageSegmenterOptions: TaskOptions, @unchecked Sendable {
    // @unchecked: plain configuration, read once when a segmenter is created.

    /// `.image` (default), `.video` or `.liveStream`.
    public var runningMode: RunningMode = .image
    /// Receives live-stream results; required in `.liveStream` mode and only there. Held weakly.
    public weak var imageSegmenterLiveStreamDelegate: (any ImageSegmenterLiveStreamDelegate)?
    /// The locale of the label display names the model may carry (default "en").
    public var displayNamesLocale: String = "en"
    /// Whether results carry one float confidence mask per model channel (default `true`).
    public var shouldOutputConfidenceMasks: Bool = true
    /// Whether results carry the byte category mask (default `false`).
    public var shouldOutputCategoryMask: Bool = false

    /// Creates options with MediaPipe's defaults.
    public override init() {
        super.init()
    }

    /// A new, independent instance with the same values (MediaPipe's options are `NSCopying`);
    /// the delegate is shared, still held weakly, and the base options are copied.
    public func copy() -> ImageSegmenterOptions {
        let copy = ImageSegmenterOptions()
        copy.baseOptions = baseOptions.copy()
        copy.runningMode = runningMode
        copy.imageSegmenterLiveStreamDelegate = imageSegmenterLiveStreamDelegate
        copy.displayNamesLocale = displayNamesLocale
        copy.shouldOutputConfidenceMasks = shouldOutputConfidenceMasks
        copy.shouldOutputCategoryMask = shouldOutputCategoryMask
        return copy
    }
}

extension ImageSegmenterOptions: VisionTaskOptions {
    package var liveStreamDelegate: AnyObject? { imageSegmenterLiveStreamDelegate }

    package var optionRules: [OptionRule] {
        [.someMaskRequested(confidence: shouldOutputConfidenceMasks, category: shouldOutputCategoryMask)]
    }
}
