/// The options every task shares: which model file to load and where to run it.
///
/// Mirrors MediaPipe's `MPPBaseOptions` (mediapipe/tasks/ios/core/sources/MPPBaseOptions.h).
/// `modelAssetPath` is optional so that `Bundle.main.path(forResource:ofType:)` can be assigned
/// directly; a `nil` or empty path is rejected when the task is created.
public final class BaseOptions {
    /// The absolute path of the model: a `.task` bundle for the landmarkers, a `.tflite` file
    /// for the object detector.
    public var modelAssetPath: String?

    /// The processor to run the model on. Defaults to ``Delegate/CPU``. ``Delegate/GPU`` is
    /// accepted but runs on the CPU (this package has no GPU engine); a task's
    /// `activeDelegate` tells which processor is used.
    public var delegate: Delegate
    /// How many threads inference may use; `nil` (the default) uses every core. Beyond
    /// MediaPipe, whose CPU tasks run inference on one thread. Results do not depend on it.
    public var threadCount: Int?

    /// Creates options with no model path and the CPU delegate.
    public init() {
        modelAssetPath = nil
        delegate = .CPU
        threadCount = nil
    }

    /// Creates options for the model at `modelAssetPath`.
    public convenience init(modelAssetPath: String?, delegate: Delegate = .CPU) {
        self.init()
        self.modelAssetPath = modelAssetPath
        self.delegate = delegate
    }

    /// A new, independent instance with the same values (MediaPipe's options are `NSCopying`).
    public func copy() -> BaseOptions {
        let copy = BaseOptions(modelAssetPath: modelAssetPath, delegate: delegate)
        copy.threadCount = threadCount
        return copy
    }
}
