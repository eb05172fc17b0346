import Foundation
import Imaging
import VisionTasks

/// One query parameter of a task endpoint: a flag of the task's command, with its type and range
/// (the OpenAPI document is made from these).
package struct ServerParameter: Sendable {
    package enum Kind: Sendable {
        case integer(minimum: Int?, maximum: Int?)
        case number(minimum: Double?, maximum: Double?)
        case boolean
        case string
    }

    package var name: String
    package var kind: Kind
    package var summary: String

    /// The server's own option (no command flag): the masks as PNG images in the answer.
    static let maskImages = ServerParameter(
        name: "mask-images", kind: .boolean,
        summary: "add maskImages: each mask as a base64 8-bit PNG (a server option, for drawing the masks)")

    static func confidence(_ name: String, _ summary: String) -> ServerParameter {
        ServerParameter(name: name, kind: .number(minimum: 0, maximum: 1), summary: summary)
    }
}

/// Runs one image or video frame through a task and encodes the result as its command does.
package protocol FrameRunner: AnyObject {
    /// IMAGE mode when `timestamp` is `nil`, else VIDEO mode at that time.
    func run(_ image: MPImage, timestamp: Int?) throws -> JSONValue
}

/// A task made by a command's adapter, with that adapter's JSON.
final class AdapterRunner<Adapter: TaskCommandAdapter>: FrameRunner {
    let adapter: Adapter
    let task: Adapter.Task
    /// When set, the result's masks, added to the JSON as `maskImages` (the `mask-images` option).
    let masks: ((Adapter.Output) -> [MaskImage])?

    init(adapter: Adapter, mode: RunningMode, threads: Int, masks: ((Adapter.Output) -> [MaskImage])? = nil) throws {
        self.adapter = adapter
        self.masks = masks
        task = try adapter.makeTask(mode: mode, threadCount: threads, collector: nil)
    }

    func run(_ image: MPImage, timestamp: Int?) throws -> JSONValue {
        var json: JSONValue
        let output: Adapter.Output
        if let timestamp {
            output = try adapter.detect(task, videoFrame: image, timestampInMilliseconds: timestamp)
            json = adapter.json(output, file: "-", image: image)
        } else {
            // A pooled instance has answered earlier images, and IMAGE mode numbers its calls;
            // each request stands alone, so it gets what a fresh task (and the command) gives: 0.
            output = try adapter.detect(task, image: image)
            json = TaskJSON.setting(
                "timestampInMilliseconds", to: .int(0), in: adapter.json(output, file: "-", image: image))
        }
        if let masks {
            json = TaskJSON.setting("maskImages", to: .array(try masks(output).map { try $0.json() }), in: json)
        }
        return json
    }
}

/// One mask as the `mask-images` option adds it: an 8-bit grayscale PNG, base64 in the JSON.
/// Confidence masks hold round(value × 255); a category mask holds MediaPipe's category values
/// (255 where no category applies).
struct MaskImage {
    enum Kind: String {
        case confidence, category, segmentation
    }

    var kind: Kind
    var width: Int
    var height: Int
    var samples: [UInt8]

    init(kind: Kind, _ mask: Mask) {
        self.kind = kind
        width = mask.width
        height = mask.height
        if kind == .category {
            samples = mask.withUnsafeUInt8Buffer { Array($0) }
        } else {
            samples = mask.withUnsafeFloat32Buffer { values in
                values.map { UInt8((min(max($0.isNaN ? 0 : $0, 0), 1) * 255).rounded()) }
            }
        }
    }

    func json() throws -> JSONValue {
        let png = try ImageEncoder.grayscalePNG(samples, width: width, height: height)
        return .object([
            ("kind", .string(kind.rawValue)), ("width", .int(width)), ("height", .int(height)),
            ("png", .string(Data(png).base64EncodedString())),
        ])
    }
}

/// One task the server offers: `POST /v1/{name}` and sessions of it. Options are the task
/// command's flags, given as query parameters (docs/SERVER.md).
package struct TaskEndpoint: Sendable {
    package var name: String
    package var summary: String
    /// The model file the task uses in the models folder.
    package var modelFiles: [String]
    package var parameters: [ServerParameter]
    /// The command's flags and options, for parsing the command line the parameters make.
    var commandFlags: Set<String>
    var commandOptions: Set<String>
    /// Makes a runner from parsed arguments.
    var makeRunner: @Sendable (Arguments, CommandContext, RunningMode, Int, Bool) throws -> any FrameRunner

    /// A runner maker for a command's adapter; `masks` (pose, segment) turns `mask-images` on.
    private static func runs<Adapter: TaskCommandAdapter>(
        _ adapter: @escaping @Sendable (Arguments, CommandContext) -> Adapter,
        masks: (@Sendable (Adapter.Output) -> [MaskImage])? = nil
    ) -> @Sendable (Arguments, CommandContext, RunningMode, Int, Bool) throws -> any FrameRunner {
        @Sendable func make(
            _ arguments: Arguments, _ context: CommandContext, _ mode: RunningMode, _ threads: Int, _ maskImages: Bool
        ) throws -> any FrameRunner {
            var chosen: ((Adapter.Output) -> [MaskImage])?
            if maskImages, let masks { chosen = { masks($0) } }
            return try AdapterRunner(adapter: adapter(arguments, context), mode: mode, threads: threads, masks: chosen)
        }
        return make
    }

    /// The six tasks, with the flags their commands take that make sense per request.
    package static let all: [TaskEndpoint] = [
        TaskEndpoint(
            name: "pose", summary: "PoseLandmarker: 33 landmarks per person", modelFiles: ["pose_landmarker_full.task"],
            parameters: [
                ServerParameter(name: "num-poses", kind: .integer(minimum: 1, maximum: 100), summary: "poses at most"),
                .confidence("min-pose-detection-confidence", "detector score threshold"),
                .confidence("min-pose-presence-confidence", "landmark presence threshold"),
                .confidence("min-tracking-confidence", "tracking threshold (sessions)"),
                ServerParameter(name: "segmentation", kind: .boolean, summary: "add segmentation mask summaries"),
                .maskImages,
            ],
            commandFlags: PoseCommand.flags, commandOptions: PoseCommand.options,
            makeRunner: runs(
                PoseCommand.Adapter.init,
                masks: { $0.segmentationMasks.map { MaskImage(kind: .segmentation, $0) } })),
        TaskEndpoint(
            name: "hands", summary: "HandLandmarker: 21 landmarks and handedness per hand",
            modelFiles: ["hand_landmarker.task"],
            parameters: [
                ServerParameter(name: "num-hands", kind: .integer(minimum: 1, maximum: nil), summary: "hands at most"),
                .confidence("min-hand-detection-confidence", "palm detector score threshold"),
                .confidence("min-hand-presence-confidence", "landmark presence threshold"),
                .confidence("min-tracking-confidence", "tracking threshold (sessions)"),
            ],
            commandFlags: HandsCommand.flags, commandOptions: HandsCommand.options,
            makeRunner: runs(HandsCommand.Adapter.init)),
        TaskEndpoint(
            name: "objects", summary: "ObjectDetector: boxes and categories",
            modelFiles: ["efficientdet_lite0.tflite", "ssd_mobilenet_v1.tflite"],
            parameters: [
                ServerParameter(
                    name: "max-results", kind: .integer(minimum: -1, maximum: nil),
                    summary: "detections at most (-1: all; 0 is refused)"),
                ServerParameter(
                    name: "score-threshold", kind: .number(minimum: nil, maximum: nil), summary: "lowest score kept"),
                ServerParameter(name: "allow", kind: .string, summary: "comma-separated category names to keep"),
                ServerParameter(name: "deny", kind: .string, summary: "comma-separated category names to drop"),
                ServerParameter(name: "locale", kind: .string, summary: "locale of the display names"),
            ],
            commandFlags: ObjectsCommand.flags, commandOptions: ObjectsCommand.options,
            makeRunner: runs(ObjectsCommand.Adapter.init)),
        TaskEndpoint(
            name: "faces", summary: "FaceDetector: boxes and six keypoints per face",
            modelFiles: ["blaze_face_short_range.tflite"],
            parameters: [
                .confidence("min-detection-confidence", "detector score threshold"),
                .confidence("min-suppression-threshold", "non-max suppression overlap"),
            ],
            commandFlags: FacesCommand.flags, commandOptions: FacesCommand.options,
            makeRunner: runs(FacesCommand.Adapter.init)),
        TaskEndpoint(
            name: "face-landmarks", summary: "FaceLandmarker: 478 landmarks, blendshapes and matrices per face",
            modelFiles: ["face_landmarker.task"],
            parameters: [
                ServerParameter(name: "num-faces", kind: .integer(minimum: 1, maximum: nil), summary: "faces at most"),
                .confidence("min-face-detection-confidence", "detector score threshold"),
                .confidence("min-face-presence-confidence", "landmark presence threshold"),
                .confidence("min-tracking-confidence", "tracking threshold (sessions)"),
                ServerParameter(name: "blendshapes", kind: .boolean, summary: "add the 52 blendshape scores"),
                ServerParameter(
                    name: "transformation-matrixes", kind: .boolean, summary: "add the facial transformation matrices"),
            ],
            commandFlags: FaceLandmarksCommand.flags, commandOptions: FaceLandmarksCommand.options,
            makeRunner: runs(FaceLandmarksCommand.Adapter.init)),
        TaskEndpoint(
            name: "segment", summary: "ImageSegmenter: mask summaries", modelFiles: ["selfie_segmenter.tflite"],
            parameters: [
                ServerParameter(name: "category-mask", kind: .boolean, summary: "add the category mask summary"),
                ServerParameter(
                    name: "no-confidence-masks", kind: .boolean, summary: "leave out the confidence mask summaries"),
                .maskImages,
            ],
            commandFlags: SegmentCommand.flags, commandOptions: SegmentCommand.options,
            makeRunner: runs(
                SegmentCommand.Adapter.init,
                masks: { result in
                    (result.confidenceMasks ?? []).map { MaskImage(kind: .confidence, $0) }
                        + (result.categoryMask.map { [MaskImage(kind: .category, $0)] } ?? [])
                })),
    ]

    /// The endpoint named `name`.
    package static func named(_ name: String) -> TaskEndpoint? { all.first { $0.name == name } }

    /// " from A to B", " of at least A" or " of at most B" for an error message.
    private static func range<Bound>(_ minimum: Bound?, _ maximum: Bound?) -> String {
        switch (minimum, maximum) {
        case (let low?, let high?): return " from \(low) to \(high)"
        case (let low?, nil): return " of at least \(low)"
        case (nil, let high?): return " of at most \(high)"
        case (nil, nil): return ""
        }
    }

    /// `true`, `1` or empty (present) is on; `false` or `0` is off; anything else is refused.
    private static func flag(_ name: String, _ value: String) throws -> Bool {
        switch value.lowercased() {
        case "true", "1", "": return true
        case "false", "0": return false
        default: throw ServerError.invalidOption("option '\(name)' takes true or false, not '\(value)'")
        }
    }

    /// Checks `options` (parameter name → text) against the parameters and makes the command
    /// line they stand for, and whether they ask for the masks as images (the server's own
    /// `mask-images`). Unknown names and malformed or out-of-range values are refused.
    func parse(_ options: [(name: String, value: String)]) throws -> (arguments: Arguments, maskImages: Bool) {
        var line: [String] = []
        var maskImages = false
        for (name, value) in options {
            guard let parameter = parameters.first(where: { $0.name == name }) else {
                throw ServerError.invalidOption(
                    "unknown option '\(name)' for \(self.name); known: "
                        + parameters.map(\.name).joined(separator: ", "))
            }
            switch parameter.kind {
            case .boolean where name == ServerParameter.maskImages.name:
                maskImages = try Self.flag(name, value)
            case .boolean:
                if try Self.flag(name, value) { line.append("--\(name)") }
            case .integer(let minimum, let maximum):
                guard let number = Int(value), number >= (minimum ?? .min), number <= (maximum ?? .max) else {
                    throw ServerError.invalidOption(
                        "option '\(name)' takes a whole number\(Self.range(minimum, maximum)), not '\(value)'")
                }
                line.append("--\(name)=\(number)")
            case .number(let minimum, let maximum):
                guard let number = Double(value), number.isFinite, number >= (minimum ?? -.infinity),
                    number <= (maximum ?? .infinity)
                else {
                    throw ServerError.invalidOption(
                        "option '\(name)' takes a finite number\(Self.range(minimum, maximum)), not '\(value)'")
                }
                line.append("--\(name)=\(value)")
            case .string:
                line.append("--\(name)=\(value)")
            }
        }
        do {
            return (try Arguments(line, flags: commandFlags, options: commandOptions), maskImages)
        } catch let error as CLIError {
            throw ServerError.invalidOption(error.description)
        }
    }
}
