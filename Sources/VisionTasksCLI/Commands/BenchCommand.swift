import VisionTasks

/// One task that `vision-tasks bench` can time.
package protocol BenchTask {
    /// The word after `bench` (`pose`).
    static var name: String { get }
    /// Runs the benchmark with the arguments after the task name.
    static func run(_ arguments: [String], context: CommandContext) throws -> Int32
}

/// `vision-tasks bench pose|hands|objects IMAGE [--model PATH] [--mode image|video]
/// [--iterations N] [--threads N] [--json]`, and `vision-tasks bench preprocess IMAGE
/// [--crop rotated|whole] [--iterations N] [--json]` for the image → tensor step alone.
package enum BenchCommand: Command {
    package static let name = "bench"
    package static let summary =
        "time a task per call (pose, hands, objects, faces, face-landmarks, segment) or its preprocessing"
    package static let usage = """
        vision-tasks bench TASK IMAGE [--model PATH] [--mode image|video] [--iterations N] [--threads N] [--json]
                                [--driven]
          TASK: \(tasks.map { $0.name }.joined(separator: ", "))
          face-landmarks also takes --blendshapes and --transformation-matrixes
          prints median, min and max ms per detect call after warm-up ({"medianMs","minMs","maxMs"} with --json);
          video mode re-feeds the image as successive frames, so it times tracked frames;
          --driven times as many calls as each line of standard input asks for (a driver alternating
          them with another runtime's) after a ready line
        vision-tasks bench preprocess IMAGE [--crop rotated|whole] [--iterations N] [--json]
          times the image -> tensor conversion alone: rotated = a 256x256 float landmark crop (rotation 0.4),
          whole = the whole image stretched to 300x300 bytes; --json adds "crop", "path", "image", "tensor"
        """

    /// The tasks that can be benchmarked. Each task adds itself here.
    package static var tasks: [any BenchTask.Type] {
        [
            PoseBench.self, HandsBench.self, ObjectsBench.self, FacesBench.self, FaceLandmarksBench.self,
            SegmentBench.self, PreprocessBench.self,
        ]
    }

    package static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        guard let taskName = arguments.first else { throw CLIError.usage("bench needs a TASK") }
        guard let task = tasks.first(where: { $0.name == taskName }) else {
            throw CLIError.usage("unknown bench task '\(taskName)'")
        }
        return try task.run(Array(arguments.dropFirst()), context: context)
    }

    /// The options every bench task accepts.
    package static let flags: Set<String> = ["json", "driven"]
    package static let options: Set<String> = ["model", "mode", "iterations", "threads"]

    /// `--mode image|video`; image by default.
    package static func isVideoMode(_ arguments: Arguments) throws -> Bool {
        switch arguments.value("mode") ?? "image" {
        case "image": return false
        case "video": return true
        case let other: throw CLIError.usage("--mode must be image or video, not '\(other)'")
        }
    }

    /// Times the detect calls of the task `makeTask` creates on the one IMAGE argument, in image
    /// mode or (`--mode video`) re-fed as successive frames: the body of every task's bench. In
    /// video mode the trackers (pose, hands) skip their detector after the first frame, so each
    /// call times a tracked frame.
    package static func timeDetections<Task: DetectingTask>(
        of taskName: String, _ arguments: [String], context: CommandContext, extraFlags: Set<String> = [],
        makeTask: (_ arguments: Arguments, _ video: Bool) throws -> Task,
        extra: (_ image: MPImage, _ medianMilliseconds: Double) throws -> [(String, JSONValue)] = { _, _ in [] }
    ) throws -> Int32 {
        let parsed = try Arguments(arguments, flags: flags.union(extraFlags), options: options)
        guard parsed.positionals.count == 1 else { throw CLIError.usage("bench \(taskName) takes one IMAGE") }
        let video = try isVideoMode(parsed)
        let task = try makeTask(parsed, video)
        let image = try MPImage(contentsOfFile: context.absolute(parsed.positionals[0]))
        let iterations = try parsed.integer("iterations", in: 1...100_000) ?? 50
        func detect(_ index: Int) throws {
            if video {
                _ = try task.detect(videoFrame: image, timestampInMilliseconds: index * 33)
            } else {
                _ = try task.detect(image: image)
            }
        }
        if parsed.flag("driven") {
            // Warm-up as the timed run has it; then each call is the next frame.
            for index in 0..<BenchTimer.standardWarmUp { try detect(index) }
            var next = BenchTimer.standardWarmUp
            var driven = DrivenBench(input: context.standardInput, console: context.console)
            try driven.serve(details: [("task", .string(taskName)), ("mode", .string(video ? "video" : "image"))]) {
                defer { next += 1 }
                return try BenchTimer.milliseconds { try detect(next) }
            }
            return 0
        }
        let timing = try BenchTimer(iterations: iterations).measure(detect)
        BenchTimer.report(
            timing, label: "\(taskName) (\(video ? "video" : "image"))", json: parsed.flag("json"),
            console: context.console, extra: try extra(image, timing.median))
        return 0
    }
}
