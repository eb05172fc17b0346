import Foundation
import Imaging
import VisionTasks

/// `vision-tasks pose IMAGE... [--model PATH] [--num-poses N] [--min-pose-detection-confidence F]
/// [--min-pose-presence-confidence F] [--min-tracking-confidence F] [--segmentation] [--video]
/// [--fps N | --frame-ms N] [--annotate DIR] [--threads N]`, and on videos, cameras and raw
/// pipes through ``TaskCommandDriver``.
package enum PoseCommand: Command {
    package static let name = "pose"
    package static let summary = "find body landmarks (PoseLandmarker), one JSON line per input"
    package static let usage = """
        vision-tasks pose IMAGE... [--model PATH] [--num-poses N] [--min-pose-detection-confidence F]
                          [--min-pose-presence-confidence F] [--min-tracking-confidence F] [--segmentation]
                          [--video] [--fps N | --frame-ms N] [--annotate DIR] [--threads N] [--output FILE.jsonl]
        vision-tasks pose VIDEO... | --camera [DEVICE] | --raw-stdin WxH[@FPS]  [options as above]
          default model: pose_landmarker_full.task in the models folder
          prints {"file","width","height","timestampInMilliseconds",\
        "landmarks":[[{"x","y","z","visibility","presence"}]],
                  "worldLandmarks":[[...]]} and with --segmentation "segmentationMasks":[{"width","height","mean"}]
          --video: the inputs (files, or one folder of frames in name order) are one video, timestamps from --fps
                   (default 30) or --frame-ms; --annotate DIR: writes each input with skeleton, landmarks and masks
        vision-tasks pose --api mlkit IMAGE... [--accurate] [--single-image] [--model PATH]
          ML Kit's PoseDetector (--api mediapipe, the default, is the above): prints {"file","poses":[{"landmarks":
          [{"type","position":{"x","y","z"},"inFrameLikelihood"}]}]} in pixels; model pose_landmarker_lite.task, with
          --accurate pose_landmarker_full.task; the inputs are one tracked stream (frames 33 ms apart) unless \
          --single-image
        """ + "\n" + TaskCommandDriver.inputUsage

    static let flags: Set<String> = Set(["segmentation", "accurate", "single-image"]).union(TaskCommandDriver.flags)
    static let options: Set<String> = Set([
        "model", "num-poses", "min-pose-detection-confidence", "min-pose-presence-confidence",
        "min-tracking-confidence", "api",
    ]).union(TaskCommandDriver.options)

    /// Landmarker options from the command line.
    static func landmarkerOptions(_ arguments: Arguments, context: CommandContext, video: Bool) throws
        -> PoseLandmarkerOptions
    {
        let options = PoseLandmarkerOptions()
        options.baseOptions.modelAssetPath = try taskModelPath(
            arguments, defaultFile: "pose_landmarker_full.task", context: context)
        options.baseOptions.threadCount = try arguments.integer("threads", in: 1...256)
        options.runningMode = video ? .video : .image
        if let count = try arguments.integer("num-poses", in: 1...100) { options.numPoses = count }
        if let value = try arguments.number("min-pose-detection-confidence", in: 0...1) {
            options.minPoseDetectionConfidence = Float(value)
        }
        if let value = try arguments.number("min-pose-presence-confidence", in: 0...1) {
            options.minPosePresenceConfidence = Float(value)
        }
        if let value = try arguments.number("min-tracking-confidence", in: 0...1) {
            options.minTrackingConfidence = Float(value)
        }
        options.shouldOutputSegmentationMasks = arguments.flag("segmentation")
        return options
    }

    package static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try Arguments(arguments, flags: flags, options: options)
        if try MLKitPoseOutput.isSelected(by: parsed) { return try MLKitPoseOutput.run(parsed, context: context) }
        return try TaskCommandDriver(parsed, context: context).run(Adapter(arguments: parsed, context: context))
    }

    /// The pose landmarker plugged into the shared task driver.
    struct Adapter: TaskCommandAdapter {
        let arguments: Arguments
        let context: CommandContext

        func makeTask(
            mode: RunningMode, threadCount: Int?, collector: LiveResultCollector<PoseLandmarkerResult>?
        ) throws -> PoseLandmarker {
            let options = try landmarkerOptions(arguments, context: context, video: mode == .video)
            options.runningMode = mode
            if let threadCount { options.baseOptions.threadCount = threadCount }
            options.poseLandmarkerLiveStreamDelegate = collector
            return try PoseLandmarker(options: options)
        }

        func json(_ output: PoseLandmarkerResult, file: String, image: MPImage) -> JSONValue {
            PoseCommand.json(output, file: file, image: image, masks: arguments.flag("segmentation"))
        }

        func annotate(_ output: PoseLandmarkerResult, on image: MPImage) throws -> Annotation {
            try PoseCommand.annotate(output, on: image)
        }
    }

    /// The JSON line of one result; masks are summarized by their size and mean.
    static func json(_ result: PoseLandmarkerResult, file: String, image: MPImage, masks: Bool) -> JSONValue {
        let size = image.uprightSize
        var fields = TaskJSON.header(
            file: file, width: size.width, height: size.height, timestamp: result.timestampInMilliseconds)
        fields.append(("landmarks", TaskJSON.landmarks(result.landmarks)))
        fields.append(("worldLandmarks", TaskJSON.worldLandmarks(result.worldLandmarks)))
        if masks {
            fields.append(
                (
                    "segmentationMasks",
                    .array(
                        result.segmentationMasks.map { mask in
                            .object([
                                ("width", .int(mask.width)), ("height", .int(mask.height)),
                                ("mean", .double(mean(of: mask))),
                            ])
                        })
                ))
        }
        return .object(fields)
    }

    /// The mean of a mask's values.
    static func mean(of mask: Mask) -> Double {
        mask.withUnsafeFloat32Buffer { values in
            values.isEmpty ? 0 : values.reduce(0.0) { $0 + Double($1) } / Double(values.count)
        }
    }

    /// The upright picture with each pose's mask, skeleton and landmarks drawn on it.
    static func annotate(_ result: PoseLandmarkerResult, on image: MPImage) throws -> Annotation {
        var annotation = Annotation(image: image)
        let maskColors: [RGBColor] = [.cyan, .magenta, .blue, .orange]
        let lineColors: [RGBColor] = [.yellow, .green, .orange, .white]
        for (index, mask) in result.segmentationMasks.enumerated() {
            try annotation.overlay(mask, color: maskColors[index % maskColors.count])
        }
        for (index, pose) in result.landmarks.enumerated() {
            annotation.drawSkeleton(
                pose, connections: PoseLandmarker.poseLandmarks, lineColor: lineColors[index % lineColors.count],
                pointColor: .red)
        }
        return annotation
    }
}

extension LiveResultCollector: PoseLandmarkerLiveStreamDelegate where Output == PoseLandmarkerResult {
    /// Forwards a live-stream result to the collector.
    package func poseLandmarker(
        _ poseLandmarker: PoseLandmarker, didFinishDetection result: PoseLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        receive(result, timestampInMilliseconds: timestampInMilliseconds, error: error)
    }
}

/// `vision-tasks bench pose IMAGE [--model PATH] [--mode image|video] [--iterations N] [--threads N] [--json]`.
package enum PoseBench: BenchTask {
    package static let name = "pose"

    package static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        try BenchCommand.timeDetections(of: name, arguments, context: context) { parsed, video in
            try PoseLandmarker(options: PoseCommand.landmarkerOptions(parsed, context: context, video: video))
        }
    }
}
