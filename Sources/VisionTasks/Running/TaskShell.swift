/// The part every vision task shares, whatever it finds: validated options, the
/// ``TaskRunner`` for its running mode and the live-stream delegate wiring.
///
/// A task class holds one shell and forwards its public calls to it; the task brings only its
/// processor (the pipeline) and a delegate adapter (the one call of its delegate protocol):
///
/// ```swift
/// shell = try TaskShell(
///     options: options, taskName: "poseLandmarker",
///     makeProcessor: { try PoseLandmarkerProcessor(...) },
///     deliver: { task, delegate, result, timestamp, error in
///         (delegate as? any PoseLandmarkerLiveStreamDelegate)?.poseLandmarker(
///             task, didFinishDetection: result, timestampInMilliseconds: timestamp, error: error)
///     })
/// shell.attach(self)
/// ```
///
/// Every task therefore has the same surface: the three calls of MediaPipe's running modes,
/// `results(for:)`, `droppedFrameCount` and `waitUntilIdle()`, with the same errors.
package final class TaskShell<Processor: FrameProcessor, Task: AnyObject>: Sendable where Processor.Input == MPImage {
    /// The result of one image or frame.
    package typealias Output = Processor.Output
    /// Calls the task's delegate with one live-stream result (or the error of that frame). Runs
    /// on the task's serial callback queue, in frame order.
    package typealias Delivery =
        @Sendable (
            _ task: Task, _ delegate: AnyObject, _ result: Output?, _ timestampInMilliseconds: Int, _ error: TasksError?
        ) -> Void

    private let runner: TaskRunner<Processor>
    private let owner: Owner

    /// Checks `options` (``OptionValidation/check(_:)``: the delegate against the running mode,
    /// then the task's rules), makes the processor and the runner.
    ///
    /// - Throws: ``TasksError`` for invalid options, or the error of `makeProcessor` (a missing
    ///   or invalid model, wrapped into a ``TasksError``).
    package init<Options: VisionTaskOptions>(
        options: Options, taskName: String, makeProcessor: () throws -> sending Processor, deliver: @escaping Delivery
    ) throws(TasksError) {
        try OptionValidation.check(options)
        let processor: Processor
        do {
            processor = try makeProcessor()
        } catch {
            throw TasksError.wrapping(error)
        }
        let owner = Owner()
        var handler: TaskRunner<Processor>.ResultHandler?
        if options.runningMode == .liveStream {
            let delegate = WeakReference<AnyObject>(options.liveStreamDelegate)
            handler = { result, timestamp in
                guard let task = owner.task, let receiver = delegate.object else { return }
                switch result {
                case .success(let output): deliver(task, receiver, output, timestamp, nil)
                case .failure(let error): deliver(task, receiver, nil, timestamp, error)
                }
            }
        }
        self.owner = owner
        runner = try TaskRunner(
            runningMode: options.runningMode, taskName: taskName, processor: processor, resultHandler: handler)
    }

    /// Names the task that live-stream results are delivered for; call it at the end of the
    /// task's initializer. The task is held weakly: results that arrive after it is gone are
    /// dropped.
    package func attach(_ task: Task) {
        owner.task = task
    }

    /// Image mode: the result of one image, stamped 0, 1000, 2000, … ms in call order.
    package func processImage(_ image: MPImage) throws(TasksError) -> Output {
        try runner.processImage(image)
    }

    /// Video mode: the result of one frame; timestamps must increase.
    package func processVideoFrame(_ image: MPImage, timestampInMilliseconds: Int) throws(TasksError) -> Output {
        try runner.processVideoFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Live-stream mode: queues one frame and returns at once.
    package func processLiveStreamFrame(_ image: MPImage, timestampInMilliseconds: Int) throws(TasksError) {
        try runner.processLiveStreamFrame(image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// The processor the task's models run on (``TaskModel/engineDelegate``), whatever the
    /// options asked for.
    package var activeDelegate: Delegate { TaskModel.engineDelegate }

    /// Live-stream frames replaced by newer ones before they were processed.
    package var droppedFrameCount: Int { runner.droppedFrameCount }

    /// Blocks until every queued live-stream frame is processed and its result delivered.
    package func waitUntilIdle() {
        runner.waitUntilIdle()
    }

    /// The results of `frames` (an image and its timestamp each), processed in video mode as
    /// the sequence is iterated.
    package func results<Frames: AsyncSequence>(
        for frames: Frames
    ) -> TaskResultSequence<Frames, Output> where Frames.Element == (MPImage, Int) {
        runner.videoResults(for: frames) { $0 }
    }

    /// The task a shell serves, held weakly.
    ///
    /// `@unchecked Sendable`: `task` is written once, by ``attach(_:)`` in the task's
    /// initializer, before any frame can reach the runner (frames arrive only through the
    /// task's methods, which cannot be called before its initializer returns); after that it is
    /// only read, and a weak reference is loaded atomically by the runtime.
    private final class Owner: @unchecked Sendable {
        weak var task: Task?
    }
}

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
