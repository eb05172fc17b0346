import Foundation
import Imaging

/// Encodes RGB24 frames into a video file through an FFmpeg child process that reads raw
/// frames from a pipe (`--annotate out.mp4` on a video input). The codec is FFmpeg's default
/// for the file's container.
package final class FFmpegVideoWriter {
    package let width: Int
    package let height: Int
    package let path: String
    private let process: Process
    private let input: FileHandle
    private let errors: Pipe
    private var finished = false

    /// Starts FFmpeg writing `path` (overwritten) at `framesPerSecond`.
    package init(path: String, width: Int, height: Int, framesPerSecond: Double, searchPath: String? = nil) throws {
        guard let ffmpeg = FFmpegFrameSource.tool("ffmpeg", searchPath: searchPath) else {
            throw MediaError.ffmpegMissing(tool: "ffmpeg")
        }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        // A reader that goes away must show up as EPIPE from write(2), not end the process.
        signal(SIGPIPE, SIG_IGN)
        self.width = width
        self.height = height
        self.path = path
        process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        // 4:2:0 output (what players expect from H.264/MPEG-4) needs even sizes: pad by a pixel.
        process.arguments = [
            "-nostdin", "-v", "error", "-y",
            "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "\(width)x\(height)",
            "-framerate", String(format: "%.6g", framesPerSecond), "-i", "-",
            "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-pix_fmt", "yuv420p", path,
        ]
        let pipe = Pipe()
        errors = Pipe()
        process.standardInput = pipe
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        input = pipe.fileHandleForWriting
    }

    deinit {
        if !finished {
            try? input.close()
            if process.isRunning { process.terminate() }
        }
    }

    /// Appends one frame (RGB, this writer's size).
    package func write(_ bitmap: Bitmap) throws {
        let rgb = bitmap.layout == .rgb8 ? bitmap : bitmap.convertedToRGB()
        guard rgb.width == width, rgb.height == height else {
            throw MediaError.encodingFailed(
                path: path, message: "frame is \(rgb.width)x\(rgb.height), not \(width)x\(height)")
        }
        let descriptor = input.fileDescriptor
        try rgb.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            var written = 0
            while written < bytes.count {
                let count = Foundation.write(descriptor, base + written, bytes.count - written)
                if count > 0 {
                    written += count
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    throw MediaError.encodingFailed(path: path, message: "ffmpeg stopped reading frames\(lastError())")
                }
            }
        }
    }

    /// Ends the stream and waits for FFmpeg to finish the file.
    package func finish() throws {
        guard !finished else { return }
        finished = true
        try? input.close()
        let message = lastError()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw MediaError.encodingFailed(
                path: path, message: "ffmpeg exited with status \(process.terminationStatus)\(message)")
        }
    }

    /// FFmpeg's last error line, as `: <line>`, once its standard error is closed.
    private func lastError() -> String {
        guard !process.isRunning || finished else { return "" }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.split(separator: "\n").last.map { ": " + $0 } ?? ""
    }
}
