import Foundation
import VisionTasks

/// Runs a task command (`pose`, `hands`, `objects`) on whatever its arguments name — images,
/// a folder, the frames of one video (`--video`), video files, a camera or raw frames on
/// standard input — with the command's ``TaskCommandAdapter`` doing the task-specific parts.
package struct TaskCommandDriver {
    /// Flags every task command accepts.
    package static let flags: Set<String> = ["video", "camera"]
    /// Options every task command accepts.
    package static let options: Set<String> = [
        "fps", "frame-ms", "annotate", "threads", "raw-stdin", "camera-size", "output",
    ]

    /// The usage lines shared by the task commands.
    package static let inputUsage = """
          inputs: image files; a folder (every image, sorted, IMAGE mode over all cores, summary on stderr);
                  video files (mp4, mov, mkv, avi, webm, … through ffmpeg; VIDEO mode, stream timestamps, one
                  line per frame with "frame"); --video: the images are the frames of one video (--fps/--frame-ms);
                  --camera [DEVICE] [--camera-size WxH] or --raw-stdin WxH[@FPS] (RGB24): LIVE_STREAM mode,
                  results as they arrive, summary on stderr at the end or on Ctrl-C
          --output FILE.jsonl writes the JSON lines to FILE instead of standard output;
          --annotate DIR (images) or --annotate OUT.mp4 (a video file) draws the results
        """

    package let arguments: Arguments
    package let context: CommandContext

    package init(_ arguments: Arguments, context: CommandContext) {
        self.arguments = arguments
        self.context = context
    }

    /// Runs the command; returns its exit status.
    package func run<Adapter: TaskCommandAdapter>(_ adapter: Adapter) throws -> Int32 {
        let kind = try TaskInputKind(arguments, context: context)
        let clock = try VideoClock(arguments)
        let threadCount = try arguments.integer("threads", in: 1...256)
        let writer = try JSONLineWriter(path: arguments.value("output"), context: context)
        switch kind {
        case .images(let paths, let fromFolder):
            return try ImageBatchRunner(
                adapter: adapter, writer: writer, context: context, annotateDirectory: arguments.value("annotate"),
                threadCount: threadCount, printsSummary: fromFolder
            ).run(paths)
        case .frames(let paths):
            return try runFrames(paths, clock: clock, adapter: adapter, writer: writer)
        case .videoFiles(let paths):
            return try VideoFileRunner(
                adapter: adapter, writer: writer, context: context, annotate: arguments.value("annotate")
            )
            .run(paths)
        case .camera(let device):
            let size = try cameraSize()
            let source = try FFmpegFrameSource(
                camera: device, width: size.width, height: size.height, searchPath: context.environment["PATH"])
            return try LiveStreamRunner(adapter: adapter, writer: writer, context: context, label: device).run(source)
        case .rawStandardInput(let format):
            let source = try StandardInputFrameSource(format: format, handle: context.standardInput)
            return try LiveStreamRunner(adapter: adapter, writer: writer, context: context, label: "-").run(source)
        }
    }

    /// `--camera-size WxH` (640x480 by default).
    private func cameraSize() throws -> (width: Int, height: Int) {
        guard let text = arguments.value("camera-size") else { return (640, 480) }
        let parts = text.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, (1...16384).contains(parts[0]), (1...16384).contains(parts[1]) else {
            throw CLIError.usage("--camera-size needs WIDTHxHEIGHT, e.g. 1280x720, not '\(text)'")
        }
        return (parts[0], parts[1])
    }

    /// `--video` on image files: one VIDEO-mode sequence, timestamps from the clock.
    private func runFrames<Adapter: TaskCommandAdapter>(
        _ paths: [String], clock: VideoClock, adapter: Adapter, writer: JSONLineWriter
    ) throws -> Int32 {
        let task = try adapter.makeTask(mode: .video, threadCount: nil, collector: nil)
        var report = BatchReport()
        for (index, input) in paths.enumerated() {
            report.run(input, console: context.console) {
                let image = try MPImage(contentsOfFile: context.absolute(input))
                let output = try adapter.detect(
                    task, videoFrame: image, timestampInMilliseconds: clock.timestamp(ofFrame: index))
                try writer.write(adapter.json(output, file: input, image: image))
                try adapter.writeFiles(for: output, file: input, frame: nil)
                if let directory = arguments.value("annotate") {
                    try adapter.annotate(output, on: image).write(
                        to: annotationPath(for: input, directory: directory, context: context))
                }
            }
        }
        return report.exitStatus
    }
}
