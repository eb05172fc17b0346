import Foundation
import VisionTasks

/// Receives a task's live-stream results (each command makes it its task's delegate) and
/// keeps count, so that the live runner can wait until every submitted frame has either
/// produced a result or been dropped.
package final class LiveResultCollector<Output: Sendable>: @unchecked Sendable {
    // @unchecked: every stored property below `condition` is only touched under it.
    private let condition = NSCondition()
    private var frames: [Int: (index: Int, image: MPImage)] = [:]
    private var delivered = 0
    private var failed = 0
    private let handler: @Sendable (Delivery) -> Void

    /// One result as it arrives: the frame's index, timestamp and image, and the result or the
    /// error it raised.
    package struct Delivery {
        package var frameIndex: Int
        package var timestampInMilliseconds: Int
        package var image: MPImage?
        package var result: Result<Output, any Error>
    }

    /// Calls `handler` for each result, on the task's callback queue, in frame order.
    package init(handler: @escaping @Sendable (Delivery) -> Void) {
        self.handler = handler
    }

    /// Results received so far, and how many of them were errors.
    package var counts: (delivered: Int, failed: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (delivered, failed)
    }

    /// Records a frame about to be given to `detectAsync`.
    package func submitting(index: Int, timestampInMilliseconds timestamp: Int, image: MPImage) {
        condition.lock()
        defer { condition.unlock() }
        frames[timestamp] = (index, image)
    }

    /// Forgets a frame `detectAsync` refused.
    package func refused(timestampInMilliseconds timestamp: Int) {
        condition.lock()
        defer { condition.unlock() }
        frames[timestamp] = nil
    }

    /// Called by the task's delegate method.
    package func receive(_ output: Output?, timestampInMilliseconds timestamp: Int, error: (any Error)?) {
        condition.lock()
        let frame = frames.removeValue(forKey: timestamp)
        // Results come in frame order: older frames still listed were dropped by the task.
        for key in frames.keys where key < timestamp { frames[key] = nil }
        condition.unlock()
        let result: Result<Output, any Error>
        if let output, error == nil {
            result = .success(output)
        } else {
            result = .failure(error ?? CLIError.failed("no result"))
        }
        handler(
            Delivery(
                frameIndex: frame?.index ?? -1, timestampInMilliseconds: timestamp, image: frame?.image, result: result)
        )
        condition.lock()
        delivered += 1
        if case .failure = result { failed += 1 }
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until results plus `dropped()` reach `submitted` (the task counts its drops, and
    /// does not signal them, so the wait re-checks every few milliseconds).
    package func waitUntilAccounted(submitted: Int, dropped: () -> Int) {
        while true {
            let droppedNow = dropped()
            condition.lock()
            if delivered + droppedNow >= submitted {
                condition.unlock()
                return
            }
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.01))
            condition.unlock()
        }
    }
}
