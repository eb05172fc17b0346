import Foundation
import Imaging
import VisionTasks

/// `vision-tasks faces IMAGE... [--model PATH] [--min-detection-confidence F]
/// [--min-suppression-threshold F] [--video] [--fps N | --frame-ms N] [--annotate DIR] [--threads N]`,
/// and on folders, videos, cameras and raw pipes through ``TaskCommandDriver``.
package enum FacesCommand: Command {
    package static let name = "faces"
    package static let summary = "detect faces (FaceDetector), one JSON line per input"
    package static let usage = """
        vision-tasks faces IMAGE... [--model PATH] [--min-detection-confidence F] [--min-suppression-threshold F]
                           [--video] [--fps N | --frame-ms N] [--annotate DIR] [--threads N] [--output FILE.jsonl]
        vision-tasks faces VIDEO... | --camera [DEVICE] | --raw-stdin WxH[@FPS]  [options as above]
          default model: blaze_face_short_range.tflite in the models folder
          prints {"file","width","height","timestampInMilliseconds",\
        "detections":[{"boundingBox":{"x","y","width","height"},
                  "categories":[{"index","score","categoryName","displayName"}],\
        "keypoints":[{"x","y","label","score"}]}]}
          boxes in pixels of the upright image, keypoints normalized; label and score null where MediaPipe gives none
        """ + "\n" + TaskCommandDriver.inputUsage

    static let flags: Set<String> = TaskCommandDriver.flags
    static let options: Set<String> = Set(["model", "min-detection-confidence", "min-suppression-threshold"])
        .union(TaskCommandDriver.options)

    /// Options from the command line.
    static func detectorOptions(_ arguments: Arguments, context: CommandContext, video: Bool) throws
        -> FaceDetectorOptions
    {
        let options = FaceDetectorOptions()
        options.baseOptions.modelAssetPath = try taskModelPath(
            arguments, defaultFile: "blaze_face_short_range.tflite", context: context)
        options.baseOptions.threadCount = try arguments.integer("threads", in: 1...256)
        options.runningMode = video ? .video : .image
        if let value = try arguments.number("min-detection-confidence") {
            options.minDetectionConfidence = Float(value)
        }
        if let value = try arguments.number("min-suppression-threshold") {
            options.minSuppressionThreshold = Float(value)
        }
        return options
    }

    package static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try Arguments(arguments, flags: flags, options: options)
        return try TaskCommandDriver(parsed, context: context).run(Adapter(arguments: parsed, context: context))
    }

    /// The face detector plugged into the shared task driver.
    struct Adapter: TaskCommandAdapter {
        let arguments: Arguments
        let context: CommandContext

        func makeTask(
            mode: RunningMode, threadCount: Int?, collector: LiveResultCollector<FaceDetectorResult>?
        ) throws -> FaceDetector {
            let options = try detectorOptions(arguments, context: context, video: mode == .video)
            options.runningMode = mode
            if let threadCount { options.baseOptions.threadCount = threadCount }
            options.faceDetectorLiveStreamDelegate = collector
            return try FaceDetector(options: options)
        }

        func json(_ output: FaceDetectorResult, file: String, image: MPImage) -> JSONValue {
            FacesCommand.json(output, file: file, image: image)
        }

        func annotate(_ output: FaceDetectorResult, on image: MPImage) throws -> Annotation {
            FacesCommand.annotate(output, on: image)
        }
    }

    /// The upright picture with each face's box, score and keypoints drawn on it.
    static func annotate(_ result: FaceDetectorResult, on image: MPImage) -> Annotation {
        var annotation = Annotation(image: image)
        let size = image.uprightSize
        for detection in result.detections {
            annotation.drawBox(
                detection.boundingBox,
                label: detection.categories.first.map { "face \(Int(($0.score * 100).rounded()))%" })
            let radius = max(3, Float(min(size.width, size.height)) / 150)
            for keypoint in detection.keypoints ?? [] {
                annotation.canvas.fillCircle(
                    centerX: Float(keypoint.location.x) * Float(size.width),
                    centerY: Float(keypoint.location.y) * Float(size.height), radius: radius, color: .red)
            }
        }
        return annotation
    }

    /// The JSON line of one result.
    static func json(_ result: FaceDetectorResult, file: String, image: MPImage) -> JSONValue {
        let size = image.uprightSize
        var fields = TaskJSON.header(
            file: file, width: size.width, height: size.height, timestamp: result.timestampInMilliseconds)
        let detections = result.detections.map { detection -> JSONValue in
            // The face detector sets no keypoint label or score (MediaPipe's proto leaves both
            // unset; its Python API reports the score as 0): both are null here.
            let keypoints = (detection.keypoints ?? []).map { keypoint -> JSONValue in
                .object([
                    ("x", .double(Double(keypoint.location.x))), ("y", .double(Double(keypoint.location.y))),
                    ("label", keypoint.label.map(JSONValue.string) ?? .null), ("score", .null),
                ])
            }
            return .object([
                ("boundingBox", TaskJSON.boundingBox(detection.boundingBox)),
                ("categories", .array(detection.categories.map(TaskJSON.category))),
                ("keypoints", .array(keypoints)),
            ])
        }
        fields.append(("detections", .array(detections)))
        return .object(fields)
    }
}

extension LiveResultCollector: FaceDetectorLiveStreamDelegate where Output == FaceDetectorResult {
    /// Forwards a live-stream result to the collector.
    package func faceDetector(
        _ faceDetector: FaceDetector, didFinishDetection result: FaceDetectorResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        receive(result, timestampInMilliseconds: timestampInMilliseconds, error: error)
    }
}

/// `vision-tasks bench faces IMAGE [--model PATH] [--mode image|video] [--iterations N] [--threads N] [--json]`.
package enum FacesBench: BenchTask {
    package static let name = "faces"

    package static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        try BenchCommand.timeDetections(of: name, arguments, context: context) { parsed, video in
            try FaceDetector(options: FacesCommand.detectorOptions(parsed, context: context, video: video))
        }
    }
}
