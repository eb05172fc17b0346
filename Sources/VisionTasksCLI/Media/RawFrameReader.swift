import Foundation

/// Reads fixed-size raw RGB24 frames from a file handle (a pipe from FFmpeg or standard input).
/// Another thread may ``cancel()`` a read that waits for data.
package final class RawFrameReader: @unchecked Sendable {
    // @unchecked: `buffer` is only used by the reading thread; `cancelled` is under `lock`.
    private let handle: FileHandle
    package let width: Int
    package let height: Int
    private var buffer: [UInt8]
    private let lock = NSLock()
    private var cancelled = false

    package init(handle: FileHandle, width: Int, height: Int) {
        self.handle = handle
        self.width = width
        self.height = height
        buffer = [UInt8](repeating: 0, count: width * height * 3)
    }

    /// Makes a waiting or later ``read(index:)`` return `nil` (within about 50 ms).
    package func cancel() {
        lock.lock()
        defer { lock.unlock() }
        cancelled = true
    }

    private var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    /// The next frame's pixels; `nil` at a clean end of stream or after ``cancel()``; an error
    /// for a partial frame.
    package func read(index: Int) throws -> [UInt8]? {
        let expected = buffer.count
        var filled = 0
        let descriptor = handle.fileDescriptor
        var stopped = false
        try buffer.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            while filled < expected {
                // Waits in slices so that a cancel from another thread is noticed.
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, 50)
                if isCancelled {
                    stopped = true
                    return
                }
                if ready == 0 || (ready < 0 && errno == EINTR) { continue }
                let count = Foundation.read(descriptor, base + filled, expected - filled)
                if count > 0 {
                    filled += count
                } else if count == 0 {
                    break
                } else if errno != EINTR {
                    throw MediaError.truncatedFrame(index: index, bytes: filled, expected: expected)
                }
            }
        }
        if filled == 0 || stopped { return nil }
        guard filled == expected else {
            throw MediaError.truncatedFrame(index: index, bytes: filled, expected: expected)
        }
        return buffer
    }
}

/// Frames from standard input: `--raw-stdin WxH[@FPS]`.
package final class StandardInputFrameSource: FrameSource, @unchecked Sendable {
    // @unchecked: `index` is only used by the reading thread; `close()` only cancels the reader.
    package let width: Int
    package let height: Int
    private let frameMilliseconds: Double
    private let reader: RawFrameReader
    private var index = 0

    /// Parses `WxH` or `WxH@FPS` (FPS defaults to 30).
    package init(format: String, handle: FileHandle = .standardInput) throws {
        let parts = format.split(separator: "@", omittingEmptySubsequences: false)
        let size = parts[0].split(separator: "x")
        guard parts.count <= 2, size.count == 2, let width = Int(size[0]), let height = Int(size[1]),
            width > 0, height > 0, width <= 16384, height <= 16384
        else { throw MediaError.invalidRawFormat(format) }
        var fps = 30.0
        if parts.count == 2 {
            guard let value = Double(parts[1]), value > 0, value.isFinite else {
                throw MediaError.invalidRawFormat(format)
            }
            fps = value
        }
        self.width = width
        self.height = height
        frameMilliseconds = 1000 / fps
        reader = RawFrameReader(handle: handle, width: width, height: height)
    }

    package func nextFrame() throws -> VideoFrame? {
        guard let pixels = try reader.read(index: index) else { return nil }
        defer { index += 1 }
        return VideoFrame(
            index: index, timestampInMilliseconds: Int((Double(index) * frameMilliseconds).rounded()),
            width: width, height: height, pixels: pixels)
    }

    /// Stops a read that waits for data (Ctrl-C in a live run).
    package func close() {
        reader.cancel()
    }
}
