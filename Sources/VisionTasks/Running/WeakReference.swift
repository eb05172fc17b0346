/// A weak reference that can be captured by the `@Sendable` result handler of a
/// ``TaskRunner``, for a task's live-stream delegate.
///
/// MediaPipe holds the delegate weakly and calls it on the task's private serial queue; that is
/// the contract users sign up for, so handing the reference to that queue is sound even though
/// the delegate type itself is not `Sendable`. Use it only that way.
final class WeakReference<Object: AnyObject>: @unchecked Sendable {
    private(set) weak var object: Object?

    init(_ object: Object?) {
        self.object = object
    }
}
