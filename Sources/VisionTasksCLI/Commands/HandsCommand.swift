import Foundation
import Imaging
import VisionTasks

/// `vision-tasks hands IMAGE... [--model PATH] [--num-hands N] [--min-hand-detection-confidence F]
/// [--min-hand-presence-confidence F] [--min-tracking-confidence F] [--video] [--fps N | --frame-ms N]
/// [--annotate DIR] [--threads N]`, and on videos, cameras and raw pipes through ``TaskCommandDriver``.
package enum HandsCommand: Command {
    package static let name = "hands"
    package static let summary = "find hands and their landmarks (HandLandmarker), one JSON line per input"
    package static let usage = """
        vision-tasks hands IMAGE... [--model PATH] [--num-hands N] [--min-hand-detection-confidence F]
                           [--min-hand-presence-confidence F] [--min-tracking-confidence F]
                           [--video] [--fps N | --frame-ms N] [--annotate DIR] [--threads N] [--output FILE.jsonl]
        vision-tasks hands VIDEO... | --camera [DEVICE] | --raw-stdin WxH[@FPS]  [options as above]
          default model: hand_landmarker.task in the models folder
          IMAGE...: image files, or one folder of images taken in name order (video frames with --video)
          prints {"file","width","height","timestampInMilliseconds","handedness":[[{"index","score","categoryName",
                  "displayName"}]],"landmarks":[[{"x","y","z"}]],"worldLandmarks":[[{"x","y","z"}]]}
          --annotate DIR writes DIR/<name>.png with each hand's skeleton (left hands orange, right hands cyan)
        """ + "\n" + TaskCommandDriver.inputUsage

    static let flags: Set<String> = TaskCommandDriver.flags
    static let options: Set<String> = Set([
        "model", "num-hands", "min-hand-detection-confidence", "min-hand-presence-confidence",
        "min-tracking-confidence",
    ]).union(TaskCommandDriver.options)

    /// Options from the command line (the landmarker checks the values).
    static func landmarkerOptions(_ arguments: Arguments, context: CommandContext, video: Bool) throws
        -> HandLandmarkerOptions
    {
        let options = HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = try taskModelPath(
            arguments, defaultFile: "hand_landmarker.task", context: context)
        options.baseOptions.threadCount = try arguments.integer("threads", in: 1...256)
        options.runningMode = video ? .video : .image
        if let count = try arguments.integer("num-hands") { options.numHands = count }
        if let value = try arguments.number("min-hand-detection-confidence") {
            options.minHandDetectionConfidence = Float(value)
        }
        if let value = try arguments.number("min-hand-presence-confidence") {
            options.minHandPresenceConfidence = Float(value)
        }
        if let value = try arguments.number("min-tracking-confidence") { options.minTrackingConfidence = Float(value) }
        return options
    }

    package static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try Arguments(arguments, flags: flags, options: options)
        return try TaskCommandDriver(parsed, context: context).run(Adapter(arguments: parsed, context: context))
    }

    /// The hand landmarker plugged into the shared task driver.
    struct Adapter: TaskCommandAdapter {
        let arguments: Arguments
        let context: CommandContext

        func makeTask(
            mode: RunningMode, threadCount: Int?, collector: LiveResultCollector<HandLandmarkerResult>?
        ) throws -> HandLandmarker {
            let options = try landmarkerOptions(arguments, context: context, video: mode == .video)
            options.runningMode = mode
            if let threadCount { options.baseOptions.threadCount = threadCount }
            options.handLandmarkerLiveStreamDelegate = collector
            return try HandLandmarker(options: options)
        }

        func json(_ output: HandLandmarkerResult, file: String, image: MPImage) -> JSONValue {
            HandsCommand.json(output, file: file, image: image)
        }

        func annotate(_ output: HandLandmarkerResult, on image: MPImage) throws -> Annotation {
            var annotation = Annotation(image: image)
            HandsCommand.annotate(&annotation, with: output)
            return annotation
        }
    }

    /// The JSON line of one result.
    static func json(_ result: HandLandmarkerResult, file: String, image: MPImage) -> JSONValue {
        let size = image.uprightSize
        var fields = TaskJSON.header(
            file: file, width: size.width, height: size.height, timestamp: result.timestampInMilliseconds)
        fields.append(("handedness", .array(result.handedness.map { .array($0.map(TaskJSON.category)) })))
        fields.append(("landmarks", TaskJSON.landmarks(result.landmarks)))
        fields.append(("worldLandmarks", TaskJSON.worldLandmarks(result.worldLandmarks)))
        return .object(fields)
    }

    /// The colours of a hand's skeleton by its reported side: (lines, points).
    static func colors(side: String?) -> (RGBColor, RGBColor) {
        side == "Left" ? (.orange, .yellow) : (.cyan, .blue)
    }

    /// Draws each hand's skeleton and its side with the score at the wrist.
    static func annotate(_ annotation: inout Annotation, with result: HandLandmarkerResult) {
        for (landmarks, categories) in zip(result.landmarks, result.handedness) {
            let side = categories.first
            let (line, point) = colors(side: side?.categoryName)
            annotation.drawSkeleton(
                landmarks, connections: HandLandmarker.handConnections, lineColor: line, pointColor: point)
            if let side, let wrist = landmarks.first {
                let label = "\(side.categoryName ?? "?") \(Int((side.score * 100).rounded()))%"
                let x = Int((wrist.x * Float(annotation.canvas.width)).rounded())
                let y = Int((wrist.y * Float(annotation.canvas.height)).rounded()) + 8
                annotation.canvas.drawText(label, x: max(0, x), y: max(0, y), color: .black, background: line)
            }
        }
    }
}

extension LiveResultCollector: HandLandmarkerLiveStreamDelegate where Output == HandLandmarkerResult {
    /// Forwards a live-stream result to the collector.
    package func handLandmarker(
        _ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        receive(result, timestampInMilliseconds: timestampInMilliseconds, error: error)
    }
}

/// `vision-tasks bench hands IMAGE [--model PATH] [--mode image|video] [--iterations N] [--threads N] [--json]`.
package enum HandsBench: BenchTask {
    package static let name = "hands"

    package static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        try BenchCommand.timeDetections(of: name, arguments, context: context) { parsed, video in
            try HandLandmarker(options: HandsCommand.landmarkerOptions(parsed, context: context, video: video))
        }
    }
}
