import Foundation

/// The images a task command runs on: the files as given, or every image in one folder in name
/// order (a folder of video frames with `--video`).
package struct TaskInputs {
    /// File extensions treated as images when a folder is expanded.
    package static let imageExtensions: Set<String> = ["png", "jpg", "jpeg"]

    /// Paths as the user should see them (relative ones stay relative).
    package let paths: [String]
    /// Whether an argument was a folder that was expanded to its images.
    package let expandedFolder: Bool

    /// Expands `arguments`: one folder becomes its images sorted by name; files stay in order.
    package init(_ arguments: [String], context: CommandContext) throws {
        guard !arguments.isEmpty else { throw CLIError.usage("give at least one IMAGE (or one folder of images)") }
        var paths: [String] = []
        var expandedFolder = false
        for argument in arguments {
            var isDirectory: ObjCBool = false
            let absolute = context.absolute(argument)
            if FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory), isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: absolute)) ?? []
                let images = names.filter {
                    TaskInputs.imageExtensions.contains(($0 as NSString).pathExtension.lowercased())
                }
                .sorted()
                guard !images.isEmpty else { throw CLIError.failed("folder '\(argument)' holds no PNG or JPEG images") }
                paths += images.map { (argument as NSString).appendingPathComponent($0) }
                expandedFolder = true
            } else {
                paths.append(argument)
            }
        }
        self.paths = paths
        self.expandedFolder = expandedFolder
    }
}

/// Timestamps of frames in `--video` mode (../shared/spec/CONTRACT.md): frame i gets
/// `round(i × 1000 / fps)` ms, or exactly `i × frameMilliseconds` with `--frame-ms`.
package struct VideoClock: Equatable {
    package var framesPerSecond: Double = 30
    package var frameMilliseconds: Int?

    /// Reads `--fps` and `--frame-ms` (mutually exclusive).
    package init(_ arguments: Arguments) throws {
        if arguments.value("fps") != nil, arguments.value("frame-ms") != nil {
            throw CLIError.usage("--fps and --frame-ms are mutually exclusive")
        }
        if let fps = try arguments.number("fps", in: 0.001...100_000) { framesPerSecond = fps }
        frameMilliseconds = try arguments.integer("frame-ms", in: 1...3_600_000)
    }

    /// The timestamp of frame `index`.
    package func timestamp(ofFrame index: Int) -> Int {
        if let frameMilliseconds { return index * frameMilliseconds }
        return Int((Double(index) * 1000 / framesPerSecond).rounded())
    }
}

/// Where `--annotate DIR` writes the annotated copy of `input`: `DIR/<name>.png`.
package func annotationPath(for input: String, directory: String, context: CommandContext) -> String {
    let name = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
    return context.absolute((directory as NSString).appendingPathComponent(name + ".png"))
}

/// The model file a task command uses: `--model PATH`, else `fileName` in the models folder.
package func taskModelPath(_ arguments: Arguments, defaultFile fileName: String, context: CommandContext) throws
    -> String
{
    if let explicit = arguments.value("model") { return context.absolute(explicit) }
    let store = ModelStore(explicit: nil, context: context)
    let path = store.directory + "/" + fileName
    guard FileManager.default.fileExists(atPath: path) else {
        throw CLIError.failed(
            "model \(fileName) not found in \(store.directory); run 'vision-tasks models fetch \(fileName)' or pass "
                + "--model PATH"
        )
    }
    return path
}
