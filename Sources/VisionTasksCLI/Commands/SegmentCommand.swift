import Foundation
import Imaging
import VisionTasks

/// `vision-tasks segment IMAGE... [--model PATH] [--category-mask] [--no-confidence-masks]
/// [--masks DIR] [--annotate DIR] [--video] [--fps N | --frame-ms N] [--threads N]`, and on
/// folders, videos, cameras and raw pipes through ``TaskCommandDriver``.
package enum SegmentCommand: Command {
    package static let name = "segment"
    package static let summary = "segment images (ImageSegmenter), one JSON line per input, masks as PNG files"
    package static let usage = """
        vision-tasks segment IMAGE... [--model PATH] [--category-mask] [--no-confidence-masks] [--masks DIR]
                             [--video] [--fps N | --frame-ms N] [--annotate DIR] [--threads N] [--output FILE.jsonl]
        vision-tasks segment VIDEO... | --camera [DEVICE] | --raw-stdin WxH[@FPS]  [options as above]
          default model: selfie_segmenter.tflite in the models folder
          prints {"file","width","height","timestampInMilliseconds","labels":[...],
                  "confidenceMasks":[{"width","height","mean"}],
                  "categoryMask":{"width","height","counts":{"<value>":pixels}},"qualityScores":[...]}
                  (a key is absent when that output is off)
          --masks DIR writes <stem>.category.png (8-bit, MediaPipe's values: the category index, 255 where none
            applies; for the selfie model 0 = selfie, 255 = background) and <stem>.confidence-<i>.png (16-bit,
            round(value x 65535)); for videos, cameras and pipes <stem>.<frame>.category.png and so on per frame
          --annotate DIR (or an output video for a video) writes the input with the masks blended over it
        """ + "\n" + TaskCommandDriver.inputUsage

    static let flags: Set<String> = TaskCommandDriver.flags.union(["category-mask", "no-confidence-masks"])
    static let options: Set<String> = Set(["model", "masks"]).union(TaskCommandDriver.options)

    /// Options from the command line.
    static func segmenterOptions(_ arguments: Arguments, context: CommandContext, video: Bool) throws
        -> ImageSegmenterOptions
    {
        let options = ImageSegmenterOptions()
        options.baseOptions.modelAssetPath = try taskModelPath(
            arguments, defaultFile: "selfie_segmenter.tflite", context: context)
        options.baseOptions.threadCount = try arguments.integer("threads", in: 1...256)
        options.runningMode = video ? .video : .image
        options.shouldOutputCategoryMask = arguments.flag("category-mask")
        options.shouldOutputConfidenceMasks = !arguments.flag("no-confidence-masks")
        return options
    }

    package static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try Arguments(arguments, flags: flags, options: options)
        if parsed.flag("no-confidence-masks") && !parsed.flag("category-mask") {
            throw CLIError.usage("--no-confidence-masks needs --category-mask: the segmenter must output some mask")
        }
        return try TaskCommandDriver(parsed, context: context).run(Adapter(arguments: parsed, context: context))
    }

    /// The image segmenter plugged into the shared task driver.
    struct Adapter: TaskCommandAdapter {
        let arguments: Arguments
        let context: CommandContext

        func makeTask(
            mode: RunningMode, threadCount: Int?, collector: LiveResultCollector<ImageSegmenterResult>?
        ) throws -> ImageSegmenter {
            let options = try segmenterOptions(arguments, context: context, video: mode == .video)
            options.runningMode = mode
            if let threadCount { options.baseOptions.threadCount = threadCount }
            options.imageSegmenterLiveStreamDelegate = collector
            let segmenter = try ImageSegmenter(options: options)
            labels.store(segmenter.labels)
            return segmenter
        }

        /// The labels of the segmenter the adapter made (for the JSON lines).
        let labels = LabelBox()

        func json(_ output: ImageSegmenterResult, file: String, image: MPImage) -> JSONValue {
            SegmentCommand.json(output, file: file, image: image, labels: labels.value)
        }

        func annotate(_ output: ImageSegmenterResult, on image: MPImage) throws -> Annotation {
            try SegmentCommand.annotate(output, on: image)
        }

        func writeFiles(for output: ImageSegmenterResult, file: String, frame: Int?) throws {
            guard let directory = arguments.value("masks") else { return }
            try SegmentCommand.writeMasks(
                output, directory: context.absolute(directory), stem: SegmentCommand.stem(of: file, frame: frame))
        }
    }

    /// The labels the adapter's segmenters report (every segmenter of one command has the same).
    final class LabelBox: @unchecked Sendable {
        // @unchecked: written once per task creation under the lock, read under it.
        private let lock = NSLock()
        private var labels: [String] = []
        var value: [String] { lock.withLock { labels } }
        func store(_ labels: [String]) { lock.withLock { self.labels = labels } }
    }

    /// The file name stem of an input's mask files: the input's name without its extension, and
    /// for a frame of a video, camera or pipe its number.
    static func stem(of file: String, frame: Int?) -> String {
        var name = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        if name.isEmpty || name == "-" { name = "stdin" }
        guard let frame else { return name }
        return name + "." + String(format: "%06d", frame)
    }

    /// Writes `<stem>.category.png` and `<stem>.confidence-<i>.png` into `directory`.
    static func writeMasks(_ result: ImageSegmenterResult, directory: String, stem: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        func write(_ bytes: [UInt8], _ name: String) throws {
            let path = (directory as NSString).appendingPathComponent(name)
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        }
        if let mask = result.categoryMask {
            let values = mask.withUnsafeUInt8Buffer { Array($0) }
            try write(ImageEncoder.grayscalePNG(values, width: mask.width, height: mask.height), "\(stem).category.png")
        }
        for (index, mask) in (result.confidenceMasks ?? []).enumerated() {
            let samples = mask.withUnsafeFloat32Buffer { values in
                values.map { value -> UInt16 in
                    let scaled = (Double(value) * 65535).rounded()
                    return scaled.isNaN ? 0 : UInt16(Swift.min(Swift.max(scaled, 0), 65535))
                }
            }
            try write(
                ImageEncoder.grayscalePNG16(samples, width: mask.width, height: mask.height),
                "\(stem).confidence-\(index).png")
        }
    }

    /// The JSON line of one result: masks summarized by size and mean (confidence) or by the
    /// number of pixels of each value (category).
    static func json(_ result: ImageSegmenterResult, file: String, image: MPImage, labels: [String]) -> JSONValue {
        let size = image.uprightSize
        var fields = TaskJSON.header(
            file: file, width: size.width, height: size.height, timestamp: result.timestampInMilliseconds)
        fields.append(("labels", .array(labels.map { .string($0) })))
        if let masks = result.confidenceMasks {
            let summaries = masks.map { mask -> JSONValue in
                .object([
                    ("width", .int(mask.width)), ("height", .int(mask.height)),
                    ("mean", .double(PoseCommand.mean(of: mask))),
                ])
            }
            fields.append(("confidenceMasks", .array(summaries)))
        }
        if let mask = result.categoryMask {
            var counts = [Int](repeating: 0, count: 256)
            mask.withUnsafeUInt8Buffer { values in
                for value in values { counts[Int(value)] += 1 }
            }
            let present = counts.indices.filter { counts[$0] > 0 }.map { ("\($0)", JSONValue.int(counts[$0])) }
            fields.append(
                (
                    "categoryMask",
                    .object([("width", .int(mask.width)), ("height", .int(mask.height)), ("counts", .object(present))])
                ))
        }
        if let scores = result.qualityScores {
            fields.append(("qualityScores", .array(scores.map { .float($0.floatValue) })))
        }
        return .object(fields)
    }

    /// The upright picture with the masks blended over it: each confidence mask in its own
    /// colour, or without them each category of the category mask (none where it is 255).
    static func annotate(_ result: ImageSegmenterResult, on image: MPImage) throws -> Annotation {
        var annotation = Annotation(image: image)
        let colors: [RGBColor] = [.magenta, .cyan, .orange, .blue, .green, .red]
        let width = annotation.canvas.width
        let height = annotation.canvas.height
        if let masks = result.confidenceMasks {
            for (index, mask) in masks.enumerated() {
                let values = mask.withUnsafeFloat32Buffer {
                    fitted(Array($0), from: mask, width: width, height: height)
                }
                try annotation.canvas.overlayMask(
                    values, width: width, height: height, color: colors[index % colors.count], opacity: 0.45)
            }
        } else if let mask = result.categoryMask {
            let bytes = mask.withUnsafeUInt8Buffer { fitted(Array($0), from: mask, width: width, height: height) }
            for category in Set(bytes) where category != 255 {
                let values = bytes.map { $0 == category ? Float(1) : 0 }
                try annotation.canvas.overlayMask(
                    values, width: width, height: height, color: colors[Int(category) % colors.count], opacity: 0.45)
            }
        }
        return annotation
    }

    /// A mask's values at the picture's size: unchanged when the sizes agree, else sampled at the
    /// nearest pixel (a rotated input's masks keep the stored image's size, as MediaPipe's do).
    private static func fitted<Value>(_ values: [Value], from mask: Mask, width: Int, height: Int) -> [Value] {
        guard mask.width != width || mask.height != height, let first = values.first else { return values }
        var output = [Value](repeating: first, count: width * height)
        for y in 0..<height {
            let sourceRow = Swift.min(mask.height - 1, y * mask.height / height) * mask.width
            for x in 0..<width {
                output[y * width + x] = values[sourceRow + Swift.min(mask.width - 1, x * mask.width / width)]
            }
        }
        return output
    }
}

extension LiveResultCollector: ImageSegmenterLiveStreamDelegate where Output == ImageSegmenterResult {
    /// Forwards a live-stream result to the collector.
    package func imageSegmenter(
        _ imageSegmenter: ImageSegmenter, didFinishSegmentation result: ImageSegmenterResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        receive(result, timestampInMilliseconds: timestampInMilliseconds, error: error)
    }
}

/// `vision-tasks bench segment IMAGE [--model PATH] [--mode image|video] [--iterations N]
/// [--threads N] [--json]`: both masks, the resize to the image included in each call.
package enum SegmentBench: BenchTask {
    package static let name = "segment"

    package static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        try BenchCommand.timeDetections(
            of: name, arguments, context: context,
            makeTask: { parsed, video in
                let options = try SegmentCommand.segmenterOptions(parsed, context: context, video: video)
                return try ImageSegmenter(options: options)
            },
            extra: { image, median in
                // The resize of one confidence mask from the model's 256×256 to the image, alone,
                // on the calling thread: its share of the whole call.
                let width = image.bitmap.width
                let height = image.bitmap.height
                let resize = BenchTimer(iterations: 20).measure { _ in
                    _ = ImageSegmenter.resizeConfidenceMaskForBenchmark(width: width, height: height)
                }
                return [
                    ("maskResizeMs", .double((resize.median * 1000).rounded() / 1000)),
                    ("maskResizeShare", .double((resize.median / median * 1000).rounded() / 1000)),
                ]
            })
    }
}
