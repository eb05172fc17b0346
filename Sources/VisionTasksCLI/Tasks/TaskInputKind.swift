import Foundation

/// What a task command runs on, decided from its arguments.
package enum TaskInputKind: Equatable {
    /// Image files (or folders of them), IMAGE mode; `fromFolder` when a folder was expanded.
    case images([String], fromFolder: Bool)
    /// Image files (or one folder) that are the frames of one video: `--video`.
    case frames([String])
    /// Video files decoded by FFmpeg, each one a VIDEO-mode sequence.
    case videoFiles([String])
    /// A camera through FFmpeg: `--camera [DEVICE]`, LIVE_STREAM mode.
    case camera(device: String)
    /// Raw RGB24 frames on standard input: `--raw-stdin WxH[@FPS]`, LIVE_STREAM mode.
    case rawStandardInput(format: String)

    /// File extensions taken as videos without looking inside.
    package static let videoExtensions: Set<String> = [
        "mp4", "m4v", "mov", "mkv", "webm", "avi", "mpg", "mpeg", "ts", "mts", "m2ts", "flv", "wmv", "ogv", "3gp",
        "gif",
    ]

    /// The camera FFmpeg opens when `--camera` names none.
    package static var defaultCamera: String {
        #if os(macOS)
            return "0"
        #else
            return "/dev/video0"
        #endif
    }

    /// Classifies the positionals of a parsed task command.
    package init(_ arguments: Arguments, context: CommandContext) throws {
        let live = [arguments.flag("camera"), arguments.value("raw-stdin") != nil, arguments.flag("video")]
        guard live.filter({ $0 }).count <= 1 else {
            throw CLIError.usage("--camera, --raw-stdin and --video are mutually exclusive")
        }
        if let format = arguments.value("raw-stdin") {
            guard arguments.positionals.isEmpty else {
                throw CLIError.usage("--raw-stdin reads standard input and takes no IMAGE")
            }
            self = .rawStandardInput(format: format)
            return
        }
        if arguments.flag("camera") {
            guard arguments.positionals.count <= 1 else { throw CLIError.usage("--camera takes at most one DEVICE") }
            self = .camera(device: arguments.positionals.first ?? TaskInputKind.defaultCamera)
            return
        }
        let inputs = try TaskInputs(arguments.positionals, context: context)
        let videos = inputs.paths.filter { TaskInputKind.isVideo(context.absolute($0)) }
        if !videos.isEmpty {
            guard videos.count == inputs.paths.count else {
                throw CLIError.usage("give either images or video files, not both")
            }
            self = .videoFiles(videos)
        } else if arguments.flag("video") {
            self = .frames(inputs.paths)
        } else {
            self = .images(inputs.paths, fromFolder: inputs.expandedFolder)
        }
    }

    /// Whether `path` is a video: a video extension, or an existing file that is neither PNG
    /// nor JPEG by its first bytes (what FFmpeg may still read). Missing files are not videos,
    /// so that they are reported like any unreadable image.
    package static func isVideo(_ path: String) -> Bool {
        let fileExtension = (path as NSString).pathExtension.lowercased()
        if videoExtensions.contains(fileExtension) { return true }
        if TaskInputs.imageExtensions.contains(fileExtension) { return false }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 8), head.count >= 4 else { return false }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47]
        let isPNG = Array(head.prefix(4)) == png
        let isJPEG = head[head.startIndex] == 0xFF && head[head.startIndex + 1] == 0xD8
        return !isPNG && !isJPEG
    }
}
