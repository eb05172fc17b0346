import VisionTasks

/// What a task command (`pose`, `hands`, `objects`) plugs into ``TaskCommandDriver``: how to
/// create its task for a running mode, how to call it, and how to print and draw its results.
/// The driver owns everything else (inputs, modes, order, reports).
package protocol TaskCommandAdapter: Sendable {
    /// The task class (`PoseLandmarker`, …).
    associatedtype Task: AnyObject & Sendable
    /// The result of one image or frame.
    associatedtype Output: Sendable

    /// Creates a task in `mode` from the command's options. `threadCount`, when given, replaces
    /// `--threads` (the folder runner gives each worker one thread); in live-stream mode the
    /// task reports to `collector`.
    func makeTask(mode: RunningMode, threadCount: Int?, collector: LiveResultCollector<Output>?) throws -> Task

    /// Image mode.
    func detect(_ task: Task, image: MPImage) throws -> Output
    /// Video mode.
    func detect(_ task: Task, videoFrame: MPImage, timestampInMilliseconds: Int) throws -> Output
    /// Live-stream mode.
    func detectAsync(_ task: Task, image: MPImage, timestampInMilliseconds: Int) throws
    /// Live-stream frames the task dropped for newer ones.
    func droppedFrameCount(of task: Task) -> Int

    /// The JSON line of one result (`file` is the input as the user named it).
    func json(_ output: Output, file: String, image: MPImage) -> JSONValue
    /// The upright picture with `output` drawn on it.
    func annotate(_ output: Output, on image: MPImage) throws -> Annotation
    /// Writes the files that go with one result besides its JSON line (the segmenter's mask
    /// files); `file` is the input as the user named it, `frame` the frame's number in a video,
    /// camera or pipe (`nil` for image files). Most tasks write none.
    func writeFiles(for output: Output, file: String, frame: Int?) throws
}

extension TaskCommandAdapter {
    /// No files besides the JSON line.
    package func writeFiles(for output: Output, file: String, frame: Int?) throws {}
}

extension TaskCommandAdapter where Task: DetectingTask, Task.DetectionResult == Output {
    /// Image mode: the task's own `detect(image:)`.
    package func detect(_ task: Task, image: MPImage) throws -> Output {
        try task.detect(image: image)
    }

    /// Video mode: the task's own `detect(videoFrame:timestampInMilliseconds:)`.
    package func detect(_ task: Task, videoFrame: MPImage, timestampInMilliseconds: Int) throws -> Output {
        try task.detect(videoFrame: videoFrame, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// Live-stream mode: the task's own `detectAsync(image:timestampInMilliseconds:)`.
    package func detectAsync(_ task: Task, image: MPImage, timestampInMilliseconds: Int) throws {
        try task.detectAsync(image: image, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// The task's own count of dropped live-stream frames.
    package func droppedFrameCount(of task: Task) -> Int { task.droppedFrameCount }
}
