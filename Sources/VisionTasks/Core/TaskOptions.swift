/// The base of every task's options class, holding the ``BaseOptions``.
///
/// Mirrors MediaPipe's `MPPTaskOptions` (mediapipe/tasks/ios/core/sources/MPPTaskOptions.h).
public class TaskOptions {
    /// The model path and delegate. Defaults to a fresh ``BaseOptions``.
    public var baseOptions: BaseOptions

    /// Creates options with default ``BaseOptions``.
    public init() {
        baseOptions = BaseOptions()
    }
}
