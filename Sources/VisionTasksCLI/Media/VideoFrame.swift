/// One decoded RGB24 frame from a video, camera or pipe, with its presentation time.
package struct VideoFrame: Sendable {
    package var index: Int
    package var timestampInMilliseconds: Int
    package var width: Int
    package var height: Int
    /// Tightly packed RGB24 pixels, `width * height * 3` bytes.
    package var pixels: [UInt8]
}

/// A source of frames that are read one after the other.
package protocol FrameSource: AnyObject, Sendable {
    /// Frame size in pixels.
    var width: Int { get }
    var height: Int { get }
    /// Reads the next frame; `nil` at the end of the stream.
    func nextFrame() throws -> VideoFrame?
    /// Stops reading and releases the source (ends any child process); may be called from
    /// another thread while ``nextFrame()`` waits, which then returns `nil`.
    func close()
}

/// Errors of the media layer.
package enum MediaError: Error, CustomStringConvertible {
    case ffmpegMissing(tool: String)
    case probeFailed(path: String, message: String)
    case invalidRawFormat(String)
    case truncatedFrame(index: Int, bytes: Int, expected: Int)
    case encodingFailed(path: String, message: String)
    case ffmpegFailed(input: String, message: String)

    package var description: String {
        switch self {
        case .ffmpegMissing(let tool):
            return "\(tool) is not installed; video files and cameras need FFmpeg "
                + "(Debian/Ubuntu: apt-get install ffmpeg; macOS: brew install ffmpeg)"
        case .probeFailed(let path, let message):
            return "cannot read video '\(path)': \(message)"
        case .invalidRawFormat(let text):
            return "invalid --raw-stdin format '\(text)': expected WIDTHxHEIGHT or WIDTHxHEIGHT@FPS, e.g. 640x480@30"
        case .truncatedFrame(let index, let bytes, let expected):
            return "frame \(index) is truncated: \(bytes) of \(expected) bytes"
        case .ffmpegFailed(let input, let message):
            return "ffmpeg could not read '\(input)': \(message)"
        case .encodingFailed(let path, let message):
            return "cannot write video '\(path)': \(message)"
        }
    }
}
