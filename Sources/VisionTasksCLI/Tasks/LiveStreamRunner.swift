import Foundation
import VisionTasks

/// LIVE_STREAM mode on a camera or a raw pipe: frames go to `detectAsync` as fast as they
/// come, results are printed as the task delivers them, and at the end (end of stream or
/// Ctrl-C) a summary on standard error accounts for every frame: each one either produced a
/// result or was dropped.
package struct LiveStreamRunner<Adapter: TaskCommandAdapter> {
    package var adapter: Adapter
    package var writer: JSONLineWriter
    package var context: CommandContext
    /// The `file` field of each line (`-` for standard input, the camera's device).
    package var label: String

    /// Frame accounting printed on exit.
    package struct Summary: Equatable {
        package var framesIn = 0
        package var resultsOut = 0
        package var failedResults = 0
        package var dropped = 0

        /// `live: 40 frames in, 12 results out (0 failed), 28 frames dropped`.
        package var line: String {
            "live: \(framesIn) frames in, \(resultsOut) results out (\(failedResults) failed), \(dropped) frames "
                + "dropped"
        }
    }

    /// Runs until `source` ends or Ctrl-C; exit status 1 when a frame failed or the stream broke.
    package func run(_ source: any FrameSource) throws -> Int32 {
        let writer = self.writer
        let adapter = self.adapter
        let console = context.console
        let label = self.label
        let collector = LiveResultCollector<Adapter.Output> { delivery in
            switch delivery.result {
            case .success(let output):
                guard let image = delivery.image else {
                    // Cannot happen (every submitted frame is recorded); said rather than lost.
                    return console.log(
                        "error: \(label): result for an unknown frame at \(delivery.timestampInMilliseconds) ms")
                }
                let line = TaskJSON.setting(
                    "frame", to: .int(delivery.frameIndex), in: adapter.json(output, file: label, image: image))
                do {
                    try writer.write(line)
                    try adapter.writeFiles(for: output, file: label, frame: delivery.frameIndex)
                } catch {
                    console.log("error: \(CLI.message(for: error))")
                }
            case .failure(let error):
                console.log("error: \(label) frame \(delivery.frameIndex): \(CLI.message(for: error))")
            }
        }
        let task = try adapter.makeTask(mode: .liveStream, threadCount: nil, collector: collector)
        let interrupt = InterruptSignal { source.close() }
        var summary = Summary()
        var refused = 0
        var streamError: (any Error)?
        do {
            while let frame = try source.nextFrame() {
                let image = try MPImage(
                    pixels: frame.pixels, width: frame.width, height: frame.height, bytesPerRow: frame.width * 3,
                    format: .rgb8)
                summary.framesIn += 1
                collector.submitting(
                    index: frame.index, timestampInMilliseconds: frame.timestampInMilliseconds, image: image)
                do {
                    try adapter.detectAsync(task, image: image, timestampInMilliseconds: frame.timestampInMilliseconds)
                } catch {
                    // Refused at once (a timestamp that does not increase): counted as dropped.
                    collector.refused(timestampInMilliseconds: frame.timestampInMilliseconds)
                    refused += 1
                    console.log("error: \(label) frame \(frame.index): \(CLI.message(for: error))")
                }
            }
        } catch {
            streamError = error
        }
        interrupt.cancel()
        source.close()
        collector.waitUntilAccounted(submitted: summary.framesIn - refused) { adapter.droppedFrameCount(of: task) }
        let counts = collector.counts
        summary.resultsOut = counts.delivered
        summary.failedResults = counts.failed
        summary.dropped = adapter.droppedFrameCount(of: task) + refused
        if let streamError { console.log("error: \(CLI.message(for: streamError))") }
        console.log(summary.line)
        return streamError == nil && refused == 0 && counts.failed == 0 ? 0 : 1
    }
}
