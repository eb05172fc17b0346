/// The bookkeeping of a ``TaskRunner``: timestamps and the live-stream flow limiter.
///
/// Live stream follows MediaPipe's FlowLimiterCalculator with `max_in_flight = 1` and
/// `max_in_queue = 1` (mediapipe/calculators/core/flow_limiter_calculator.cc,
/// mediapipe/tasks/ios/core/sources/MPPTaskInfo.mm): one frame is processed at a time, at most one
/// newer frame waits, and a frame arriving while one waits replaces it (the replaced frame is
/// dropped without a callback).
struct FlowState<Frame> {
    /// The last accepted timestamp in video or live-stream mode.
    var lastTimestamp: Int?
    /// The next synthetic image-mode timestamp in milliseconds.
    var nextImageTimestamp = 0
    /// Whether a live-stream frame is being processed.
    var isProcessing = false
    /// The frame waiting to be processed next.
    var waiting: Frame?
    /// How many live-stream frames were replaced before being processed.
    var droppedFrameCount = 0
    /// Set when the runner goes away: nothing more is processed or delivered.
    var isClosed = false

    /// Accepts `timestamp` if it is greater than the last accepted one.
    mutating func accept(timestamp: Int) throws(TasksError) {
        // mediapipe/tasks/cc/core/task_runner.cc: equal counts as not increasing.
        if let lastTimestamp, timestamp <= lastTimestamp {
            throw .nonIncreasingTimestamp(previous: lastTimestamp, received: timestamp)
        }
        lastTimestamp = timestamp
    }

    /// Hands a live-stream frame to the limiter. Returns `true` when the caller must start
    /// processing it now; otherwise the frame now waits (replacing and counting any frame that
    /// was waiting).
    mutating func enqueue(_ frame: Frame) -> Bool {
        if isClosed { return false }
        if !isProcessing {
            isProcessing = true
            return true
        }
        if waiting != nil { droppedFrameCount += 1 }
        waiting = frame
        return false
    }

    /// Called when a frame is done: returns the waiting frame to process next, or `nil` when
    /// the limiter becomes idle.
    mutating func next() -> Frame? {
        if isClosed {
            waiting = nil
            isProcessing = false
            return nil
        }
        if let frame = waiting {
            waiting = nil
            return frame
        }
        isProcessing = false
        return nil
    }

    /// Stops everything: the waiting frame is discarded.
    mutating func close() {
        isClosed = true
        waiting = nil
    }
}
