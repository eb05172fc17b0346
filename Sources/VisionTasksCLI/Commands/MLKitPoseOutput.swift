import Foundation
import PoseDetection
import VisionTasks

/// `vision-tasks pose --api mlkit IMAGE... [--accurate] [--single-image] [--model PATH]`: the
/// pose command run through the ML Kit-style API (PoseDetection), one line per input:
/// `{"file","poses":[{"landmarks":[{"type","position":{"x","y","z"},"inFrameLikelihood"}]}]}`,
/// positions in pixels of the upright image, landmarks in ML Kit's `PoseLandmarkType` order.
package enum MLKitPoseOutput {
    /// The APIs `--api` selects.
    package enum API: String, CaseIterable {
        case mediapipe
        case mlkit
    }

    /// Flags and options of the pose command that belong to the MediaPipe API only.
    static let mediaPipeFlags = ["segmentation", "video", "camera"]
    static let mediaPipeOptions = [
        "num-poses", "min-pose-detection-confidence", "min-pose-presence-confidence", "min-tracking-confidence",
        "fps", "frame-ms", "annotate", "threads", "raw-stdin", "camera-size", "output",
    ]
    /// Flags that belong to the ML Kit API only.
    static let mlKitFlags = ["accurate", "single-image"]

    /// Whether the command line selects the ML Kit API.
    ///
    /// - Throws: ``CLIError/usage(_:)`` for an unknown `--api`, an ML Kit flag without
    ///   `--api mlkit`, or a MediaPipe-only option with it.
    package static func isSelected(by arguments: Arguments) throws -> Bool {
        var api = API.mediapipe
        if let name = arguments.value("api") {
            guard let selected = API(rawValue: name) else {
                throw CLIError.usage(
                    "--api must be \(API.allCases.map(\.rawValue).joined(separator: " or ")), not '\(name)'")
            }
            api = selected
        }
        switch api {
        case .mediapipe:
            if let flag = mlKitFlags.first(where: arguments.flag) {
                throw CLIError.usage("--\(flag) needs --api mlkit")
            }
            return false
        case .mlkit:
            if let flag = mediaPipeFlags.first(where: arguments.flag) {
                throw CLIError.usage("--\(flag) is not available with --api mlkit")
            }
            if let option = mediaPipeOptions.first(where: { arguments.value($0) != nil }) {
                throw CLIError.usage("--\(option) is not available with --api mlkit")
            }
            return true
        }
    }

    /// Runs a `PoseDetector` over the inputs, in stream mode (the inputs are successive frames
    /// of one person) unless `--single-image`.
    package static func run(_ arguments: Arguments, context: CommandContext) throws -> Int32 {
        let inputs = try TaskInputs(arguments.positionals, context: context)
        let accurate = arguments.flag("accurate")
        let options: CommonPoseDetectorOptions = accurate ? AccuratePoseDetectorOptions() : PoseDetectorOptions()
        options.detectorMode = arguments.flag("single-image") ? .singleImage : .stream
        options.modelPath = try taskModelPath(
            arguments, defaultFile: accurate ? "pose_landmarker_full.task" : "pose_landmarker_lite.task",
            context: context)
        // Stream frames 33 ms apart (the references' frame step), not by wall-clock time, so
        // that the smoothed output does not depend on how fast the inputs were processed.
        let frames = FrameClock(step: 33)
        let detector = PoseDetector.poseDetector(options: options, clock: { frames.next() })
        try detector.loadModel()
        var report = BatchReport()
        for input in inputs.paths {
            report.run(input, console: context.console) {
                let image = VisionImage(image: try MPImage(contentsOfFile: context.absolute(input)))
                context.console.print(json: json(try detector.results(in: image), file: input))
            }
        }
        return report.exitStatus
    }

    /// The JSON line of one input's poses.
    static func json(_ poses: [Pose], file: String) -> JSONValue {
        .object([
            ("file", .string(file)),
            (
                "poses",
                .array(
                    poses.map { pose in
                        .object([("landmarks", .array(pose.landmarks.map(json)))])
                    })
            ),
        ])
    }

    /// One landmark: its ML Kit type name, pixel position and likelihood.
    static func json(_ landmark: PoseLandmark) -> JSONValue {
        let position = landmark.position
        return .object([
            ("type", .string(landmark.type.rawValue)),
            (
                "position",
                .object([
                    ("x", .double(Double(position.x))), ("y", .double(Double(position.y))),
                    ("z", .double(Double(position.z))),
                ])
            ),
            ("inFrameLikelihood", .float(landmark.inFrameLikelihood)),
        ])
    }
}

/// Frame stamps 0, `step`, 2 × `step`, … ms, one per reading.
private final class FrameClock: @unchecked Sendable {
    // @unchecked: `count` is touched only under `lock`.
    private let lock = NSLock()
    private var count = 0
    private let step: Int

    init(step: Int) { self.step = step }

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return (count - 1) * step
    }
}
