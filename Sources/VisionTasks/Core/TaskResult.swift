/// A result of one task call, stamped with the time of the frame it belongs to.
///
/// MediaPipe's results inherit from `MPPTaskResult`
/// (mediapipe/tasks/ios/core/sources/MPPTaskResult.h); here they are value types that adopt
/// this protocol instead.
public protocol TaskResult: Sendable {
    /// The frame's timestamp in milliseconds. In image mode this is 0, 1000, 2000, … in call
    /// order, as in MediaPipe.
    var timestampInMilliseconds: Int { get }
}
