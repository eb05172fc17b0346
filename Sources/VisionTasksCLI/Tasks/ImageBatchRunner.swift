import Dispatch
import Foundation
import VisionTasks

/// IMAGE mode over a list of images (a folder's, or the files given), spread over the cores:
/// one task per worker thread, results printed in input order, failures reported and counted.
package struct ImageBatchRunner<Adapter: TaskCommandAdapter> {
    package var adapter: Adapter
    package var writer: JSONLineWriter
    package var context: CommandContext
    /// `--annotate DIR`.
    package var annotateDirectory: String?
    /// `--threads N`: threads per task (then fewer workers); without it each worker has one.
    package var threadCount: Int?
    /// Whether to print the summary line (folder inputs).
    package var printsSummary: Bool

    /// How many workers share `cores` when each task uses `threadCount` threads.
    package static func workerCount(inputs: Int, cores: Int, threadCount: Int?) -> Int {
        max(1, min(inputs, cores / max(1, threadCount ?? 1)))
    }

    private enum Outcome: Sendable {
        case line(JSONValue)
        case failure(String)
    }

    /// Runs every path; exit status 1 when any failed.
    package func run(_ paths: [String]) throws -> Int32 {
        let workers = ImageBatchRunner.workerCount(
            inputs: paths.count, cores: ProcessInfo.processInfo.activeProcessorCount, threadCount: threadCount)
        // One thread per task when several workers run; a lone worker keeps the engine's default.
        let threadsPerTask = threadCount ?? (workers > 1 ? 1 : nil)
        // Tasks are made here so that a bad model or option fails the command before any input.
        let tasks = try (0..<workers).map { _ in
            try adapter.makeTask(mode: .image, threadCount: threadsPerTask, collector: nil)
        }
        let results = OrderedResults<Outcome>(count: paths.count)
        let group = DispatchGroup()
        for task in tasks {
            DispatchQueue.global().async(group: group) { [adapter, context, annotateDirectory] in
                while let index = results.claim() {
                    let input = paths[index]
                    do {
                        let image = try MPImage(contentsOfFile: context.absolute(input))
                        let output = try adapter.detect(task, image: image)
                        // One task per worker numbers its own images: the line gets the
                        // timestamp a single task would have given (0, 1000, … in input order).
                        let line = TaskJSON.setting(
                            "timestampInMilliseconds", to: .int(index * 1000),
                            in: adapter.json(output, file: input, image: image))
                        try adapter.writeFiles(for: output, file: input, frame: nil)
                        if let annotateDirectory {
                            try adapter.annotate(output, on: image)
                                .write(to: annotationPath(for: input, directory: annotateDirectory, context: context))
                        }
                        results.store(.line(line), at: index)
                    } catch {
                        results.store(.failure(CLI.message(for: error)), at: index)
                    }
                }
            }
        }
        var progress = ProgressBar(total: paths.count, console: context.console)
        var failed = 0
        var writeError: (any Error)?
        for index in paths.indices {
            switch results.take(index) {
            case .line(let line):
                do {
                    if writeError == nil { try writer.write(line) }
                } catch {
                    writeError = error
                }
            case .failure(let message):
                failed += 1
                progress.finish()
                context.console.log("error: \(paths[index]): \(message)")
            }
            progress.update(done: index + 1)
        }
        group.wait()
        progress.finish()
        if let writeError { throw writeError }
        if printsSummary {
            let seconds = progress.elapsedSeconds
            context.console.log(
                String(
                    format: "%d images: %d ok, %d failed in %.1f s (%.1f images/s, %d workers)",
                    paths.count, paths.count - failed, failed, seconds, seconds > 0 ? Double(paths.count) / seconds : 0,
                    workers))
        }
        return failed == 0 ? 0 : 1
    }
}
