/// A live-stream frame accepted by a ``TaskRunner`` and not yet processed.
struct PendingFrame<Input: Sendable>: Sendable {
    var input: Input
    var timestamp: Int
}
