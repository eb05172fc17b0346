import Foundation
import Imaging
import VisionTasks

/// `vision-tasks objects IMAGE... [--model PATH] [--max-results N] [--score-threshold F]
/// [--allow a,b] [--deny c] [--locale L] [--video] [--fps N] [--frame-ms N] [--annotate DIR] [--threads N]`,
/// and on videos, cameras and raw pipes through ``TaskCommandDriver``.
package enum ObjectsCommand: Command {
    package static let name = "objects"
    package static let summary = "detect objects in images (ObjectDetector), one JSON line per input"
    package static let usage = """
        vision-tasks objects IMAGE... [--model PATH] [--max-results N] [--score-threshold F] [--allow a,b] [--deny c]
                             [--locale L] [--video] [--fps N | --frame-ms N] [--annotate DIR] [--threads N]
                             [--output FILE.jsonl]
        vision-tasks objects VIDEO... | --camera [DEVICE] | --raw-stdin WxH[@FPS]  [options as above]
          default model: efficientdet_lite0.tflite in the models folder, else ssd_mobilenet_v1.tflite
          (standard error names the model that ran and whether it is checked against MediaPipe here)
          prints {"file","width","height","timestampInMilliseconds",\
        "detections":[{"boundingBox":{"x","y","width","height"},
                  "categories":[{"index","score","categoryName","displayName"}]}]}
        """ + "\n" + TaskCommandDriver.inputUsage

    static let flags: Set<String> = TaskCommandDriver.flags
    static let options: Set<String> = Set([
        "model", "max-results", "score-threshold", "allow", "deny", "locale",
    ]).union(TaskCommandDriver.options)

    /// The default model: EfficientDet-Lite0 when present, else the SSD.
    static func defaultModel(_ arguments: Arguments, context: CommandContext) throws -> String {
        if arguments.value("model") == nil {
            let store = ModelStore(explicit: nil, context: context)
            if FileManager.default.fileExists(atPath: store.directory + "/efficientdet_lite0.tflite") {
                return store.directory + "/efficientdet_lite0.tflite"
            }
        }
        return try taskModelPath(arguments, defaultFile: "ssd_mobilenet_v1.tflite", context: context)
    }

    /// Options from the command line.
    static func detectorOptions(_ arguments: Arguments, context: CommandContext, video: Bool) throws
        -> ObjectDetectorOptions
    {
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = try defaultModel(arguments, context: context)
        options.baseOptions.threadCount = try arguments.integer("threads", in: 1...256)
        options.runningMode = video ? .video : .image
        if let maxResults = try arguments.integer("max-results") { options.maxResults = maxResults }
        if let threshold = try arguments.number("score-threshold") { options.scoreThreshold = Float(threshold) }
        func list(_ name: String) -> [String] {
            arguments.values(name).flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
                .filter { !$0.isEmpty }
        }
        options.categoryAllowlist = list("allow")
        options.categoryDenylist = list("deny")
        if let locale = arguments.value("locale") { options.displayNamesLocale = locale }
        return options
    }

    package static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try Arguments(arguments, flags: flags, options: options)
        if let model = try? defaultModel(parsed, context: context) {
            context.console.log("objects: model \(model) (\(ModelCatalog.provenance(ofModelAt: model)))")
        }
        return try TaskCommandDriver(parsed, context: context).run(Adapter(arguments: parsed, context: context))
    }

    /// The object detector plugged into the shared task driver.
    struct Adapter: TaskCommandAdapter {
        let arguments: Arguments
        let context: CommandContext

        func makeTask(
            mode: RunningMode, threadCount: Int?, collector: LiveResultCollector<ObjectDetectorResult>?
        ) throws -> ObjectDetector {
            let options = try detectorOptions(arguments, context: context, video: mode == .video)
            options.runningMode = mode
            if let threadCount { options.baseOptions.threadCount = threadCount }
            options.objectDetectorLiveStreamDelegate = collector
            return try ObjectDetector(options: options)
        }

        func json(_ output: ObjectDetectorResult, file: String, image: MPImage) -> JSONValue {
            ObjectsCommand.json(output, file: file, image: image)
        }

        func annotate(_ output: ObjectDetectorResult, on image: MPImage) throws -> Annotation {
            ObjectsCommand.annotate(output, on: image)
        }
    }

    /// The upright picture with each detection's box and best label drawn on it.
    static func annotate(_ result: ObjectDetectorResult, on image: MPImage) -> Annotation {
        var annotation = Annotation(image: image)
        for detection in result.detections {
            let label = detection.categories.first.map { best in
                "\(best.displayName ?? best.categoryName ?? "#\(best.index)") \(Int((best.score * 100).rounded()))%"
            }
            annotation.drawBox(detection.boundingBox, label: label)
        }
        return annotation
    }

    /// The JSON line of one result.
    static func json(_ result: ObjectDetectorResult, file: String, image: MPImage) -> JSONValue {
        let size = image.uprightSize
        var fields = TaskJSON.header(
            file: file, width: size.width, height: size.height, timestamp: result.timestampInMilliseconds)
        fields.append(
            (
                "detections",
                .array(
                    result.detections.map { detection in
                        return .object([
                            ("boundingBox", TaskJSON.boundingBox(detection.boundingBox)),
                            ("categories", .array(detection.categories.map(TaskJSON.category))),
                        ])
                    })
            ))
        return .object(fields)
    }
}

extension LiveResultCollector: ObjectDetectorLiveStreamDelegate where Output == ObjectDetectorResult {
    /// Forwards a live-stream result to the collector.
    package func objectDetector(
        _ objectDetector: ObjectDetector, didFinishDetection result: ObjectDetectorResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        receive(result, timestampInMilliseconds: timestampInMilliseconds, error: error)
    }
}

/// `vision-tasks bench objects IMAGE [--model PATH] [--mode image|video] [--iterations N] [--threads N] [--json]`.
package enum ObjectsBench: BenchTask {
    package static let name = "objects"

    package static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        try BenchCommand.timeDetections(of: name, arguments, context: context) { parsed, video in
            try ObjectDetector(options: ObjectsCommand.detectorOptions(parsed, context: context, video: video))
        }
    }
}
