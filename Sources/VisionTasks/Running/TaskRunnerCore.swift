import Dispatch
import Foundation

/// The shared state of a ``TaskRunner``, kept alive by queued work after the runner is gone.
final class TaskRunnerCore<Processor: FrameProcessor>: Sendable {
    typealias Output = Processor.Output

    let processor: Locked<Processor>
    let flow = Locked(FlowState<PendingFrame<Processor.Input>>())
    /// Runs live-stream frames and background video frames, one at a time.
    let processingQueue: DispatchQueue
    /// Delivers live-stream results, in order.
    let callbackQueue: DispatchQueue
    private let resultHandler: TaskRunner<Processor>.ResultHandler?

    init(taskName: String, processor: sending Processor, resultHandler: TaskRunner<Processor>.ResultHandler?) {
        self.processor = Locked(processor)
        self.resultHandler = resultHandler
        // mediapipe/tasks/ios/vision/core/sources/MPPVisionTaskRunner.mm names the callback queue.
        let label = "com.mediapipe.tasks.vision.\(taskName)_\(UUID().uuidString)"
        callbackQueue = DispatchQueue(label: label)
        processingQueue = DispatchQueue(label: label + ".processing")
    }

    /// Runs the processor, turning any error into a ``TasksError``.
    static func run(_ processor: inout Processor, _ input: Processor.Input, _ timestamp: Int) throws(TasksError)
        -> Output
    {
        do {
            return try processor.process(input, timestampInMilliseconds: timestamp)
        } catch {
            throw TasksError.wrapping(error)
        }
    }

    /// Processes `frame` and then every frame that waits, until the limiter is idle. Runs on
    /// the processing queue.
    func drain(startingWith frame: PendingFrame<Processor.Input>) {
        var current: PendingFrame<Processor.Input>? = frame
        while let frame = current {
            let result = processor.withLock { processor in
                Result { () throws(TasksError) -> Output in try Self.run(&processor, frame.input, frame.timestamp) }
            }
            deliver(result, timestamp: frame.timestamp)
            current = flow.withLock { $0.next() }
        }
    }

    private func deliver(_ result: Result<Output, TasksError>, timestamp: Int) {
        guard let resultHandler, !flow.withLock({ $0.isClosed }) else { return }
        callbackQueue.async { [self] in
            guard !flow.withLock({ $0.isClosed }) else { return }
            resultHandler(result, timestamp)
        }
    }

    /// Stops processing and delivery; the frame being processed finishes, its result is
    /// discarded.
    func close() {
        flow.withLock { $0.close() }
    }
}

/// A live-stream frame accepted by a ``TaskRunner`` and not yet processed.
struct PendingFrame<Input: Sendable>: Sendable {
    var input: Input
    var timestamp: Int
}
