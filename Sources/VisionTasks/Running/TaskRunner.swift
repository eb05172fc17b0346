import Dispatch

/// Runs a task's ``FrameProcessor`` in the task's running mode: checks that each call matches
/// the mode, enforces increasing timestamps, serializes processing and, in live-stream mode,
/// limits the flow of frames and delivers results in order on one serial queue.
///
/// A task class does not use it directly: its ``TaskShell`` creates the runner from the task's
/// options and forwards the task's calls to it.
///
/// The semantics are MediaPipe's (mediapipe/tasks/ios/vision/core/sources/MPPVisionTaskRunner.mm,
/// mediapipe/tasks/cc/core/task_runner.cc): a call in the wrong mode or with a timestamp that does
/// not increase is rejected and changes nothing, so the task stays usable.
package final class TaskRunner<Processor: FrameProcessor>: Sendable {
    /// The input of one frame.
    package typealias Input = Processor.Input
    /// The result of one frame.
    package typealias Output = Processor.Output
    /// Receives live-stream results, on the runner's serial callback queue, in frame order:
    /// the result (or the error of that frame) and the frame's timestamp in milliseconds.
    package typealias ResultHandler = @Sendable (Result<Output, TasksError>, Int) -> Void

    /// The mode fixed at creation.
    package let runningMode: RunningMode
    private let core: TaskRunnerCore<Processor>

    /// Creates a runner that owns `processor`.
    ///
    /// `resultHandler` must be given in live-stream mode and only there; this is MediaPipe's
    /// "delegate present iff live stream" rule and fails with the same errors.
    /// `taskName` names the callback queue as MediaPipe does:
    /// `com.mediapipe.tasks.vision.<taskName>_<UUID>`.
    package init(
        runningMode: RunningMode, taskName: String, processor: sending Processor,
        resultHandler: ResultHandler?
    ) throws(TasksError) {
        try OptionValidation.checkDelegate(runningMode: runningMode, hasDelegate: resultHandler != nil)
        self.runningMode = runningMode
        core = TaskRunnerCore(taskName: taskName, processor: processor, resultHandler: resultHandler)
    }

    deinit {
        core.close()
    }

    /// How many live-stream frames were dropped because a newer frame replaced them while
    /// they waited (MediaPipe drops them silently; this count is an addition).
    package var droppedFrameCount: Int {
        core.flow.withLock { $0.droppedFrameCount }
    }

    /// Processes one image synchronously (image mode only). Results carry MediaPipe's
    /// synthetic timestamps 0, 1000, 2000, … ms in call order.
    package func processImage(_ input: Input) throws(TasksError) -> Output {
        try checkMode(.image)
        return try core.processor.withLock { (processor) throws(TasksError) -> Output in
            let timestamp = core.flow.withLock { state in
                defer { state.nextImageTimestamp += 1000 }
                return state.nextImageTimestamp
            }
            return try TaskRunnerCore<Processor>.run(&processor, input, timestamp)
        }
    }

    /// Processes one video frame synchronously (video mode only). The timestamp must be
    /// greater than the previous accepted one; a rejected frame changes nothing.
    package func processVideoFrame(_ input: Input, timestampInMilliseconds timestamp: Int) throws(TasksError) -> Output
    {
        try checkMode(.video)
        return try core.processor.withLock { (processor) throws(TasksError) -> Output in
            try core.flow.withLock { (state) throws(TasksError) in try state.accept(timestamp: timestamp) }
            return try TaskRunnerCore<Processor>.run(&processor, input, timestamp)
        }
    }

    /// Like ``processVideoFrame(_:timestampInMilliseconds:)``, but does the work on the
    /// runner's processing queue and suspends meanwhile instead of blocking a thread of the
    /// cooperative pool.
    package func processVideoFrameInBackground(
        _ input: Input, timestampInMilliseconds timestamp: Int
    ) async throws(TasksError) -> Output {
        try checkMode(.video)
        let result: Result<Output, TasksError> = await withCheckedContinuation { continuation in
            core.processingQueue.async { [self] in
                continuation.resume(
                    returning: Result { () throws(TasksError) -> Output in
                        try processVideoFrame(input, timestampInMilliseconds: timestamp)
                    })
            }
        }
        return try result.get()
    }

    /// Queues one live-stream frame and returns at once (live-stream mode only).
    ///
    /// Throws only for immediate errors: wrong mode or a timestamp that does not increase.
    /// The result, or the error processing it, reaches the result handler later. While a frame
    /// is processed, at most one newer frame waits; a frame arriving meanwhile replaces it.
    package func processLiveStreamFrame(_ input: Input, timestampInMilliseconds timestamp: Int) throws(TasksError) {
        try checkMode(.liveStream)
        let frame = PendingFrame(input: input, timestamp: timestamp)
        let startNow = try core.flow.withLock { (state) throws(TasksError) -> Bool in
            try state.accept(timestamp: timestamp)
            return state.enqueue(frame)
        }
        if startNow {
            let core = self.core
            core.processingQueue.async { core.drain(startingWith: frame) }
        }
    }

    /// Blocks until every queued live-stream frame is processed and its result delivered.
    /// Must not be called from the result handler.
    package func waitUntilIdle() {
        core.processingQueue.sync {}
        core.callbackQueue.sync {}
    }

    /// The results of `frames`, processed one by one in video mode as the sequence is iterated
    /// (beyond MediaPipe). `split` takes a frame apart into the input and its timestamp.
    ///
    /// Frames are pulled only when the previous result has been consumed, so a producer that
    /// feeds an `AsyncStream` with `bufferingPolicy: .bufferingNewest(1)` gets live-stream-like
    /// "latest frame wins" behaviour. An error ends the sequence; the runner stays usable.
    package func videoResults<Frames: AsyncSequence>(
        for frames: Frames, split: @escaping @Sendable (Frames.Element) -> (Input, Int)
    ) -> TaskResultSequence<Frames, Output> {
        TaskResultSequence(frames: frames) { [self] frame in
            let (input, timestamp) = split(frame)
            return try await processVideoFrameInBackground(input, timestampInMilliseconds: timestamp)
        }
    }

    private func checkMode(_ expected: RunningMode) throws(TasksError) {
        guard runningMode == expected else {
            throw .runningModeMismatch(expected: expected, actual: runningMode)
        }
    }
}
