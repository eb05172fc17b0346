import Foundation

/// Frames decoded by an FFmpeg child process: a video file (timestamps from the stream) or a camera
/// (V4L2 on Linux, AVFoundation on macOS; timestamps from the wall clock).
package final class FFmpegFrameSource: FrameSource {
    package let width: Int
    package let height: Int
    private let process: Process
    private let reader: RawFrameReader
    private var timestamps: [Int]
    private let live: Bool
    private var index = 0
    private let start = Date()
    private var lastTimestamp = -1

    /// Opens a video file: probes its size and frame timestamps with ffprobe, then decodes it.
    package init(videoPath path: String) throws {
        guard let ffmpeg = FFmpegFrameSource.tool("ffmpeg") else { throw MediaError.ffmpegMissing(tool: "ffmpeg") }
        guard let ffprobe = FFmpegFrameSource.tool("ffprobe") else { throw MediaError.ffmpegMissing(tool: "ffprobe") }
        let probe = try FFmpegFrameSource.capture(ffprobe, [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
            "-of", "csv=p=0", path,
        ])
        let size = probe.split(whereSeparator: { $0 == "," || $0.isNewline }).compactMap { Int($0) }
        guard size.count >= 2, size[0] > 0, size[1] > 0 else {
            throw MediaError.probeFailed(path: path, message: "no video stream")
        }
        let times = try FFmpegFrameSource.capture(ffprobe, [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=best_effort_timestamp_time",
            "-of", "csv=p=0", path,
        ])
        // Presentation times relative to the first frame, in whole milliseconds.
        let seconds = times.split(whereSeparator: \.isNewline).compactMap { Double($0.split(separator: ",").first ?? "") }
        let origin = seconds.first ?? 0
        timestamps = seconds.map { Int((($0 - origin) * 1000).rounded()) }
        width = size[0]
        height = size[1]
        live = false
        (process, reader) = try FFmpegFrameSource.launch(ffmpeg, input: ["-i", path], width: size[0], height: size[1])
    }

    /// Opens a camera through FFmpeg at `width`×`height`.
    package init(camera device: String, width: Int, height: Int) throws {
        guard let ffmpeg = FFmpegFrameSource.tool("ffmpeg") else { throw MediaError.ffmpegMissing(tool: "ffmpeg") }
        #if os(macOS)
        let input = ["-f", "avfoundation", "-framerate", "30", "-video_size", "\(width)x\(height)", "-i", device]
        #else
        let input = ["-f", "v4l2", "-video_size", "\(width)x\(height)", "-i", device]
        #endif
        self.width = width
        self.height = height
        timestamps = []
        live = true
        (process, reader) = try FFmpegFrameSource.launch(ffmpeg, input: input, width: width, height: height)
    }

    deinit { close() }

    package func nextFrame() throws -> VideoFrame? {
        guard let pixels = try reader.read(index: index) else { return nil }
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
        return VideoFrame(index: index, timestampInMilliseconds: timestamp, width: width, height: height, pixels: pixels)
    }

    package func close() {
        if process.isRunning { process.terminate() }
    }

    private static func launch(_ ffmpeg: String, input: [String], width: Int, height: Int) throws -> (Process, RawFrameReader) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-nostdin", "-v", "error"] + input + [
            "-map", "0:v:0", "-vsync", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, RawFrameReader(handle: pipe.fileHandleForReading, width: width, height: height))
    }

    /// Full path of an FFmpeg tool on PATH.
    package static func tool(_ name: String) -> String? {
        ModelFetcher.executable(named: name)
    }

    private static func capture(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw MediaError.probeFailed(path: arguments.last ?? "", message: errorText.split(separator: "\n").last.map(String.init) ?? "ffprobe failed")
        }
        return text
    }
}
