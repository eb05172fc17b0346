/// The processor a task runs its models on.
///
/// Mirrors MediaPipe's `MPPDelegate` (mediapipe/tasks/ios/core/sources/MPPBaseOptions.h): the
/// cases keep MediaPipe's Swift spelling and raw values.
public enum Delegate: Int, Sendable, CaseIterable {
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// The CPU. This is the default.
    case CPU = 0
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// The GPU. This package has no GPU engine: a task asked for the GPU runs on the CPU, with
    /// the same results, and says so in its `activeDelegate` property (docs/DIFFERENCES.md).
    case GPU = 1
}
