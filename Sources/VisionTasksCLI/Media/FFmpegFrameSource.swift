import Foundation

/// Frames decoded by an FFmpeg child process: a video file (timestamps from the stream) or a camera
/// (V4L2 on Linux, AVFoundation on macOS; timestamps from the wall clock).
package final class FFmpegFrameSource: FrameSource, @unchecked Sendable {
    // @unchecked: the frame state is only used by the reading thread; `close()` (any thread)
    // only ends the child process and cancels the reader.
    package let width: Int
    package let height: Int
    /// The stream's average frame rate, when FFmpeg knows it (video files).
    package let framesPerSecond: Double?
    private let process: Process
    private let errors: Pipe
    /// What FFmpeg was asked to read, for messages.
    private let inputName: String
    private let closeLock = NSLock()
    private var closed = false
    private let reader: RawFrameReader
    private var timestamps: [Int]
    private let live: Bool
    private var index = 0
    private let start = Date()
    private var lastTimestamp = -1

    /// Opens a video file: probes its size and frame timestamps with ffprobe, then decodes it.
    /// The tools are looked up in `searchPath` (a `PATH` value; the process's when `nil`).
    package init(videoPath path: String, searchPath: String? = nil) throws {
        guard let ffmpeg = FFmpegFrameSource.tool("ffmpeg", searchPath: searchPath) else {
            throw MediaError.ffmpegMissing(tool: "ffmpeg")
        }
        guard let ffprobe = FFmpegFrameSource.tool("ffprobe", searchPath: searchPath) else {
            throw MediaError.ffmpegMissing(tool: "ffprobe")
        }
        let probe = try FFmpegFrameSource.capture(
            ffprobe,
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height,avg_frame_rate",
                "-of", "default=noprint_wrappers=1", path,
            ])
        var fields: [String: String] = [:]
        for line in probe.split(whereSeparator: \.isNewline) {
            let pair = line.split(separator: "=", maxSplits: 1).map(String.init)
            if pair.count == 2 { fields[pair[0]] = pair[1] }
        }
        guard let width = fields["width"].flatMap({ Int($0) }), let height = fields["height"].flatMap({ Int($0) }),
            width > 0, height > 0, width <= 16384, height <= 16384
        else {
            throw MediaError.probeFailed(path: path, message: "no video stream")
        }
        let rate = (fields["avg_frame_rate"] ?? "").split(separator: "/").compactMap { Double($0) }
        framesPerSecond = rate.count == 2 && rate[1] > 0 && rate[0] > 0 ? rate[0] / rate[1] : nil
        let times = try FFmpegFrameSource.capture(
            ffprobe,
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=best_effort_timestamp_time",
                "-of", "csv=p=0", path,
            ])
        // Presentation times relative to the first frame, in whole milliseconds.
        let seconds = times.split(whereSeparator: \.isNewline).compactMap {
            Double($0.split(separator: ",").first ?? "")
        }
        let origin = seconds.first ?? 0
        timestamps = seconds.map { Int((($0 - origin) * 1000).rounded()) }
        self.width = width
        self.height = height
        live = false
        inputName = path
        (process, reader, errors) = try FFmpegFrameSource.launch(
            ffmpeg, input: ["-i", path], width: width, height: height)
    }

    /// Opens a camera through FFmpeg at `width`×`height`.
    package init(camera device: String, width: Int, height: Int, searchPath: String? = nil) throws {
        guard let ffmpeg = FFmpegFrameSource.tool("ffmpeg", searchPath: searchPath) else {
            throw MediaError.ffmpegMissing(tool: "ffmpeg")
        }
        #if os(macOS)
            let input = ["-f", "avfoundation", "-framerate", "30", "-video_size", "\(width)x\(height)", "-i", device]
        #else
            let input = ["-f", "v4l2", "-video_size", "\(width)x\(height)", "-i", device]
        #endif
        self.width = width
        self.height = height
        framesPerSecond = nil
        timestamps = []
        live = true
        inputName = device
        (process, reader, errors) = try FFmpegFrameSource.launch(ffmpeg, input: input, width: width, height: height)
    }

    deinit { close() }

    package func nextFrame() throws -> VideoFrame? {
        guard let pixels = try reader.read(index: index) else {
            try checkExit()
            return nil
        }
        defer { index += 1 }
        var timestamp: Int
        if live {
            timestamp = Int(Date().timeIntervalSince(start) * 1000)
        } else if index < timestamps.count {
            timestamp = timestamps[index]
        } else {
            timestamp = lastTimestamp + 1
        }
        // Tasks need strictly increasing timestamps; a repeated stream time moves on by 1 ms.
        if timestamp <= lastTimestamp { timestamp = lastTimestamp + 1 }
        lastTimestamp = timestamp
        return VideoFrame(
            index: index, timestampInMilliseconds: timestamp, width: width, height: height, pixels: pixels)
    }

    package func close() {
        closeLock.lock()
        closed = true
        closeLock.unlock()
        reader.cancel()
        if process.isRunning { process.terminate() }
    }

    /// At the end of the stream: an FFmpeg that failed (no camera, a damaged file) is an error
    /// carrying its last message, unless ``close()`` stopped it.
    private func checkExit() throws {
        closeLock.lock()
        let stoppedByUs = closed
        closeLock.unlock()
        guard !stoppedByUs else { return }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message =
                text.split(separator: "\n").last.map(String.init) ?? "exit status \(process.terminationStatus)"
            throw MediaError.ffmpegFailed(input: inputName, message: message)
        }
    }

    private static func launch(
        _ ffmpeg: String, input: [String], width: Int, height: Int
    ) throws -> (Process, RawFrameReader, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments =
            ["-nostdin", "-v", "error"] + input + [
                "-map", "0:v:0", "-vsync", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
            ]
        let pipe = Pipe()
        process.standardOutput = pipe
        // Read at the end of the stream (`-v error` keeps it short).
        let errors = Pipe()
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, RawFrameReader(handle: pipe.fileHandleForReading, width: width, height: height), errors)
    }

    /// Full path of an FFmpeg tool on `searchPath` (the process's PATH when `nil`).
    package static func tool(_ name: String, searchPath: String? = nil) -> String? {
        guard let searchPath else { return ModelFetcher.executable(named: name) }
        for directory in searchPath.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    private static func capture(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw MediaError.probeFailed(
                path: arguments.last ?? "",
                message: errorText.split(separator: "\n").last.map(String.init) ?? "ffprobe failed")
        }
        return text
    }
}
