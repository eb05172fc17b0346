import Foundation
import Imaging
import VisionTasks

/// `vision-tasks face-landmarks IMAGE... [--model PATH] [--num-faces N]
/// [--min-face-detection-confidence F] [--min-face-presence-confidence F] [--min-tracking-confidence F]
/// [--blendshapes] [--transformation-matrixes] [--video] [--fps N | --frame-ms N] [--annotate DIR]
/// [--threads N]`, and on folders, videos, cameras and raw pipes through ``TaskCommandDriver``.
package enum FaceLandmarksCommand: Command {
    package static let name = "face-landmarks"
    package static let summary = "find faces and their 478 landmarks (FaceLandmarker), one JSON line per input"
    package static let usage = """
        vision-tasks face-landmarks IMAGE... [--model PATH] [--num-faces N] [--min-face-detection-confidence F]
                           [--min-face-presence-confidence F] [--min-tracking-confidence F]
                           [--blendshapes] [--transformation-matrixes]
                           [--video] [--fps N | --frame-ms N] [--annotate DIR] [--threads N] [--output FILE.jsonl]
        vision-tasks face-landmarks VIDEO... | --camera [DEVICE] | --raw-stdin WxH[@FPS]  [options as above]
          default model: face_landmarker.task in the models folder
          prints {"file","width","height","timestampInMilliseconds","faceLandmarks":[[{"x","y","z"}]],
                  "faceBlendshapes":[[{"index","score","categoryName","displayName"}]] (with --blendshapes),
                  "facialTransformationMatrixes":[[16 numbers, row-major]] (with --transformation-matrixes)}
          --annotate DIR writes DIR/<name>.png with each face's mesh, contours and irises
        """ + "\n" + TaskCommandDriver.inputUsage

    static let flags: Set<String> = Set(["blendshapes", "transformation-matrixes"]).union(TaskCommandDriver.flags)
    static let options: Set<String> = Set([
        "model", "num-faces", "min-face-detection-confidence", "min-face-presence-confidence",
        "min-tracking-confidence",
    ]).union(TaskCommandDriver.options)

    /// Options from the command line (the landmarker checks the values).
    static func landmarkerOptions(_ arguments: Arguments, context: CommandContext, video: Bool) throws
        -> FaceLandmarkerOptions
    {
        let options = FaceLandmarkerOptions()
        options.baseOptions.modelAssetPath = try taskModelPath(
            arguments, defaultFile: "face_landmarker.task", context: context)
        options.baseOptions.threadCount = try arguments.integer("threads", in: 1...256)
        options.runningMode = video ? .video : .image
        if let count = try arguments.integer("num-faces") { options.numFaces = count }
        if let value = try arguments.number("min-face-detection-confidence") {
            options.minFaceDetectionConfidence = Float(value)
        }
        if let value = try arguments.number("min-face-presence-confidence") {
            options.minFacePresenceConfidence = Float(value)
        }
        if let value = try arguments.number("min-tracking-confidence") { options.minTrackingConfidence = Float(value) }
        options.outputFaceBlendshapes = arguments.flag("blendshapes")
        options.outputFacialTransformationMatrixes = arguments.flag("transformation-matrixes")
        return options
    }

    package static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try Arguments(arguments, flags: flags, options: options)
        return try TaskCommandDriver(parsed, context: context).run(Adapter(arguments: parsed, context: context))
    }

    /// The face landmarker plugged into the shared task driver.
    struct Adapter: TaskCommandAdapter {
        let arguments: Arguments
        let context: CommandContext

        func makeTask(
            mode: RunningMode, threadCount: Int?, collector: LiveResultCollector<FaceLandmarkerResult>?
        ) throws -> FaceLandmarker {
            let options = try landmarkerOptions(arguments, context: context, video: mode == .video)
            options.runningMode = mode
            if let threadCount { options.baseOptions.threadCount = threadCount }
            options.faceLandmarkerLiveStreamDelegate = collector
            return try FaceLandmarker(options: options)
        }

        func json(_ output: FaceLandmarkerResult, file: String, image: MPImage) -> JSONValue {
            FaceLandmarksCommand.json(
                output, file: file, image: image, blendshapes: arguments.flag("blendshapes"),
                matrices: arguments.flag("transformation-matrixes"))
        }

        func annotate(_ output: FaceLandmarkerResult, on image: MPImage) throws -> Annotation {
            var annotation = Annotation(image: image)
            FaceLandmarksCommand.annotate(&annotation, with: output)
            return annotation
        }
    }

    /// The JSON line of one result; the blendshapes and matrices only when asked for.
    static func json(
        _ result: FaceLandmarkerResult, file: String, image: MPImage, blendshapes: Bool, matrices: Bool
    ) -> JSONValue {
        let size = image.uprightSize
        var fields = TaskJSON.header(
            file: file, width: size.width, height: size.height, timestamp: result.timestampInMilliseconds)
        fields.append(("faceLandmarks", TaskJSON.landmarks(result.faceLandmarks)))
        if blendshapes {
            fields.append(
                ("faceBlendshapes", .array(result.faceBlendshapes.map { .array($0.categories.map(TaskJSON.category)) }))
            )
        }
        if matrices {
            // Row after row, whatever the matrix stores (MediaPipe's data is column-major).
            let rows = result.facialTransformationMatrixes.map { matrix -> JSONValue in
                .array(
                    (0..<matrix.rows).flatMap { row in
                        (0..<matrix.columns).map { JSONValue.float(matrix.value(atRow: row, column: $0)) }
                    })
            }
            fields.append(("facialTransformationMatrixes", .array(rows)))
        }
        return .object(fields)
    }

    /// Draws each face's tesselation (thin grey lines), its contours (white) and irises (cyan).
    static func annotate(_ annotation: inout Annotation, with result: FaceLandmarkerResult) {
        let grey = RGBColor(red: 176, green: 176, blue: 176)
        for landmarks in result.faceLandmarks {
            annotation.drawSkeleton(
                landmarks, connections: FaceLandmarker.tesselationConnections(), lineColor: grey, pointColor: nil,
                lineScale: 0.25)
            let contours = FaceLandmarker.contoursConnections().filter { $0.start < 468 && $0.end < 468 }
            annotation.drawSkeleton(
                landmarks, connections: contours, lineColor: .white, pointColor: nil, lineScale: 0.5)
            annotation.drawSkeleton(
                landmarks,
                connections: FaceLandmarker.leftIrisConnections() + FaceLandmarker.rightIrisConnections(),
                lineColor: .cyan, pointColor: nil, lineScale: 0.5)
        }
    }
}

extension LiveResultCollector: FaceLandmarkerLiveStreamDelegate where Output == FaceLandmarkerResult {
    /// Forwards a live-stream result to the collector.
    package func faceLandmarker(
        _ faceLandmarker: FaceLandmarker, didFinishDetection result: FaceLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        receive(result, timestampInMilliseconds: timestampInMilliseconds, error: error)
    }
}

/// `vision-tasks bench face-landmarks IMAGE [--model PATH] [--mode image|video] [--blendshapes]
/// [--transformation-matrixes] [--iterations N] [--threads N] [--json]`.
package enum FaceLandmarksBench: BenchTask {
    package static let name = "face-landmarks"

    package static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        try BenchCommand.timeDetections(
            of: name, arguments, context: context, extraFlags: ["blendshapes", "transformation-matrixes"]
        ) { parsed, video in
            try FaceLandmarker(options: FaceLandmarksCommand.landmarkerOptions(parsed, context: context, video: video))
        }
    }
}
