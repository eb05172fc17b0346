import Foundation
import VisionTasks

/// VIDEO mode on video files decoded by FFmpeg: one JSON line per frame with the stream's
/// timestamp, and with `--annotate` an annotated copy encoded by a second FFmpeg.
package struct VideoFileRunner<Adapter: TaskCommandAdapter> {
    package var adapter: Adapter
    package var writer: JSONLineWriter
    package var context: CommandContext
    /// `--annotate`: a video file (one input) or a folder that gets `<name>.mp4` per input.
    package var annotate: String?

    /// Where the annotated copy of `input` goes.
    package static func annotatedVideoPath(
        for input: String, annotate: String, inputCount: Int, context: CommandContext
    ) throws -> String {
        let fileExtension = (annotate as NSString).pathExtension.lowercased()
        if TaskInputKind.videoExtensions.contains(fileExtension) {
            guard inputCount == 1 else {
                throw CLIError.usage("--annotate names one video file; give a folder for several videos")
            }
            return context.absolute(annotate)
        }
        let name = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
        return context.absolute((annotate as NSString).appendingPathComponent(name + ".mp4"))
    }

    /// Runs each video as its own sequence; exit status 1 when anything failed.
    package func run(_ videos: [String]) throws -> Int32 {
        let searchPath = context.environment["PATH"]
        // Checked before any work, so that a missing FFmpeg is one clear error.
        guard FFmpegFrameSource.tool("ffmpeg", searchPath: searchPath) != nil else {
            throw MediaError.ffmpegMissing(tool: "ffmpeg")
        }
        guard FFmpegFrameSource.tool("ffprobe", searchPath: searchPath) != nil else {
            throw MediaError.ffmpegMissing(tool: "ffprobe")
        }
        let outputs = try annotate.map { annotate in
            try videos.map {
                try VideoFileRunner.annotatedVideoPath(
                    for: $0, annotate: annotate, inputCount: videos.count, context: context)
            }
        }
        var report = BatchReport()
        for (videoIndex, video) in videos.enumerated() {
            let source: FFmpegFrameSource
            do {
                source = try FFmpegFrameSource(videoPath: context.absolute(video), searchPath: searchPath)
            } catch {
                report.run(video, console: context.console) { throw error }
                continue
            }
            defer { source.close() }
            let task = try adapter.makeTask(mode: .video, threadCount: nil, collector: nil)
            var encoder: FFmpegVideoWriter?
            if let outputs {
                encoder = try FFmpegVideoWriter(
                    path: outputs[videoIndex], width: source.width, height: source.height,
                    framesPerSecond: source.framesPerSecond ?? 30, searchPath: searchPath)
            }
            var streamOK = true
            while streamOK {
                var frameIndex = -1
                report.run(video, console: context.console) {
                    do {
                        guard let frame = try source.nextFrame() else {
                            streamOK = false
                            return
                        }
                        frameIndex = frame.index
                        let image = try MPImage(
                            pixels: frame.pixels, width: frame.width, height: frame.height,
                            bytesPerRow: frame.width * 3, format: .rgb8)
                        let output = try adapter.detect(
                            task, videoFrame: image, timestampInMilliseconds: frame.timestampInMilliseconds)
                        try writer.write(
                            TaskJSON.setting(
                                "frame", to: .int(frame.index), in: adapter.json(output, file: video, image: image)))
                        try adapter.writeFiles(for: output, file: video, frame: frame.index)
                        try encoder?.write(adapter.annotate(output, on: image).canvas.bitmap)
                    } catch let error as MediaError {
                        // A broken stream or encoder ends this video.
                        streamOK = false
                        throw error
                    } catch {
                        throw CLIError.failed("frame \(frameIndex): \(CLI.message(for: error))")
                    }
                }
            }
            if let encoder {
                report.run(video, console: context.console) { try encoder.finish() }
            }
        }
        return report.exitStatus
    }
}
