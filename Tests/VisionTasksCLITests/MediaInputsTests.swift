import Foundation
import TestSupport
import Testing
import VisionTasks

@testable import VisionTasksCLI

/// The task commands on video files, raw pipes and folders (issue #10). Videos are made with
/// FFmpeg from the shared frames with a lossless codec, so that their pixels are the PNGs'.
@Suite("media inputs", .serialized)
struct MediaInputsTests {
    static let frameCount = 4

    /// JSON lines of a run's output.
    static func lines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// A line without the fields that name where it came from.
    static func content(_ line: [String: Any]) -> NSDictionary {
        var fields = line
        fields["file"] = nil
        fields["frame"] = nil
        return fields as NSDictionary
    }

    /// The first frames of a shared video (the hand video by default) as PNG files in a fresh folder.
    static func frameFolder(count: Int = frameCount, sequence: String = "hand_test_video") throws -> String? {
        guard let frames = SharedData.path("images/frames/\(sequence)") else { return nil }
        let folder = try temporaryDirectory("media-frames")
        for index in 0..<count {
            let name = String(format: "%03d.png", index)
            try FileManager.default.copyItem(atPath: frames + "/" + name, toPath: folder + "/" + name)
        }
        return folder
    }

    /// Runs a program to completion; its exit status.
    @discardableResult
    static func execute(_ program: String, _ arguments: [String], output: Pipe? = nil) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The frames of `folder` encoded losslessly (FFV1, RGB) at `fps` into a Matroska file.
    static func losslessVideo(of folder: String, fps: Int) throws -> String? {
        guard let ffmpeg = FFmpegFrameSource.tool("ffmpeg") else { return nil }
        let video = folder + "/clip.mkv"
        let status = try execute(
            ffmpeg,
            [
                "-v", "error", "-framerate", String(fps), "-i", folder + "/%03d.png", "-c:v", "ffv1", "-pix_fmt",
                "bgr0", video,
            ])
        return status == 0 ? video : nil
    }

    /// Hands on the hand video; pose and face landmarks on the gesture video (the hand video shows
    /// no body or face).
    @Test(arguments: [
        ("hands", "models/hand_landmarker.task", "hand_test_video"),
        ("pose", "models/pose_landmarker_lite.task", "gesture_test_video"),
        ("face-landmarks", "models/face_landmarker.task", "gesture_test_video"),
    ])
    func videoFileGivesTheSameResultsAsItsFramesInVideoMode(command: String, modelPath: String, sequence: String) throws
    {
        guard let model = SharedData.path(modelPath), let folder = try Self.frameFolder(sequence: sequence),
            let video = try Self.losslessVideo(of: folder, fps: 25)
        else { return print("skipping: ../shared or ffmpeg not found") }
        let fromVideo = runCLI([command, video, "--model", model, "--threads", "1"])
        #expect(fromVideo.status == 0, "\(fromVideo.errors)")
        let fromFrames = runCLI([command, folder, "--video", "--fps", "25", "--model", model, "--threads", "1"])
        #expect(fromFrames.status == 0, "\(fromFrames.errors)")
        let videoLines = try Self.lines(fromVideo.output)
        let frameLines = try Self.lines(fromFrames.output)
        #expect(videoLines.count == Self.frameCount && frameLines.count == Self.frameCount)
        // Timestamps come from the stream (25 fps → 40 ms steps), frames are numbered.
        #expect(videoLines.map { $0["timestampInMilliseconds"] as? Int } == [0, 40, 80, 120])
        #expect(videoLines.map { $0["frame"] as? Int } == [0, 1, 2, 3])
        #expect(videoLines.allSatisfy { $0["file"] as? String == video })
        let key = command == "face-landmarks" ? "faceLandmarks" : "landmarks"
        let found = videoLines.filter { ($0[key] as? [Any])?.isEmpty == false }.count
        #expect(found == Self.frameCount, "every frame shows the \(command == "hands" ? "hand" : "person")")
        for (ours, theirs) in zip(videoLines, frameLines) {
            #expect(Self.content(ours) == Self.content(theirs))
        }
    }

    @Test func annotatedVideoIsWrittenAndReadableByFFprobe() throws {
        guard let model = SharedData.path("models/hand_landmarker.task"), let folder = try Self.frameFolder(count: 2),
            let video = try Self.losslessVideo(of: folder, fps: 25), let ffprobe = FFmpegFrameSource.tool("ffprobe")
        else { return print("skipping: ../shared or ffmpeg not found") }
        let output = folder + "/annotated/out.mp4"
        let run = runCLI(["hands", video, "--model", model, "--annotate", output])
        #expect(run.status == 0, "\(run.errors)")
        let pipe = Pipe()
        let status = try Self.execute(
            ffprobe,
            [
                "-v", "error", "-count_frames", "-select_streams", "v:0",
                "-show_entries", "stream=codec_type,width,height,nb_read_frames", "-of", "default=noprint_wrappers=1",
                output,
            ], output: pipe)
        let probe = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(status == 0)
        for field in ["codec_type=video", "width=640", "height=360", "nb_read_frames=2"] {
            #expect(probe.contains(field), "\(probe)")
        }
        // The skeleton is drawn: the first decoded frame differs from the input around the wrist.
        let line = try #require(try Self.lines(run.output).first)
        let wrist = try #require((line["landmarks"] as? [[[String: Double]]])?.first?.first)
        let original = try FFmpegFrameSource(videoPath: video)
        let annotated = try FFmpegFrameSource(videoPath: output)
        defer {
            original.close()
            annotated.close()
        }
        let before = try #require(try original.nextFrame())
        let after = try #require(try annotated.nextFrame())
        let x = Int((wrist["x"] ?? 0) * 640)
        let y = Int((wrist["y"] ?? 0) * 360)
        let offset = (min(359, max(0, y)) * 640 + min(639, max(0, x))) * 3
        let change = (0..<3).map { abs(Int(before.pixels[offset + $0]) - Int(after.pixels[offset + $0])) }.max() ?? 0
        #expect(change > 40, "the wrist dot should be visible in the annotated video")
    }

    @Test func missingFFmpegSaysHowToInstallIt() throws {
        let run = runCLI(
            ["hands", "/nonexistent/clip.mp4", "--model", "/nonexistent/hand.task"],
            environment: ["PATH": "/nonexistent"])
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("error: ffmpeg is not installed"))
        #expect(run.errors.contains("apt-get install ffmpeg") && run.errors.contains("brew install ffmpeg"))
    }

    /// Raw RGB24 frames of the lossless video, decoded by FFmpeg.
    static func rawFrames(of video: String) throws -> [[UInt8]] {
        let source = try FFmpegFrameSource(videoPath: video)
        defer { source.close() }
        var frames: [[UInt8]] = []
        while let frame = try source.nextFrame() { frames.append(frame.pixels) }
        return frames
    }

    /// The numbers of the live summary line: frames in, results out, failed results, dropped.
    static func summary(_ errors: String) throws -> (framesIn: Int, results: Int, failed: Int, dropped: Int) {
        let line = try #require(errors.split(separator: "\n").last { $0.hasPrefix("live: ") }.map(String.init))
        let pattern = try NSRegularExpression(
            pattern: #"^live: (\d+) frames in, (\d+) results out \((\d+) failed\), (\d+) frames dropped$"#)
        let match = try #require(pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)))
        let numbers = try (1...4).map { group in
            try #require(Range(match.range(at: group), in: line).flatMap { Int(line[$0]) })
        }
        return (numbers[0], numbers[1], numbers[2], numbers[3])
    }

    @Test func rawStdinDeliversEveryFramesResultOrCountsItDropped() throws {
        guard let model = SharedData.path("models/hand_landmarker.task"), let folder = try Self.frameFolder(),
            let video = try Self.losslessVideo(of: folder, fps: 25)
        else { return print("skipping: ../shared or ffmpeg not found") }
        let frames = try Self.rawFrames(of: video)
        #expect(frames.count == Self.frameCount)
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        let feeding = Thread {
            for frame in frames { writer.write(Data(frame)) }
            try? writer.close()
        }
        feeding.start()
        let run = runCLI(
            ["hands", "--raw-stdin", "640x360@25", "--model", model, "--threads", "1"],
            standardInput: pipe.fileHandleForReading)
        #expect(run.status == 0, "\(run.errors)")
        let lines = try Self.lines(run.output)
        let summary = try Self.summary(run.errors)
        #expect(summary.framesIn == Self.frameCount, "\(run.errors)")
        #expect(summary.results == lines.count && summary.failed == 0)
        #expect(summary.results + summary.dropped == Self.frameCount)
        // Results arrive in frame order with the pipe's timestamps; the first frame is never dropped.
        let indices = lines.compactMap { $0["frame"] as? Int }
        #expect(indices.first == 0 && indices == indices.sorted() && Set(indices).count == indices.count)
        #expect(lines.allSatisfy { ($0["timestampInMilliseconds"] as? Int) == ($0["frame"] as? Int).map { $0 * 40 } })
        #expect(lines.allSatisfy { $0["file"] as? String == "-" })
        // Frame 0 is detected from scratch as in video mode: the same landmarks.
        let videoMode = try Self.lines(runCLI(["hands", video, "--model", model, "--threads", "1"]).output)
        let first = try #require(lines.first)
        let expected = try #require(videoMode.first)
        #expect(Self.content(first) == Self.content(expected))
    }

    /// The `vision-tasks` executable built next to the test bundle, when there is one.
    static var executable: String? {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("vision-tasks").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    @Test func interruptStopsALiveRunCleanlyWithItsSummary() throws {
        guard let model = SharedData.path("models/hand_landmarker.task"), let folder = try Self.frameFolder(count: 2),
            let video = try Self.losslessVideo(of: folder, fps: 25), let binary = Self.executable
        else { return print("skipping: ../shared, ffmpeg or the vision-tasks executable not found") }
        let frames = try Self.rawFrames(of: video)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["hands", "--raw-stdin", "640x360", "--model", model, "--threads", "1"]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        for frame in frames { input.fileHandleForWriting.write(Data(frame)) }
        // The stream stays open: only Ctrl-C ends the run, once the first result is out.
        let firstLine = output.fileHandleForReading.availableData
        process.interrupt()
        let deadline = Date(timeIntervalSinceNow: 60)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try? input.fileHandleForWriting.close()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(log)")
        let lines = try Self.lines(String(decoding: firstLine + rest, as: UTF8.self))
        #expect(!lines.isEmpty)
        let summary = try Self.summary(log)
        #expect(summary.framesIn == frames.count, "\(log)")
        #expect(summary.results == lines.count && summary.results + summary.dropped == frames.count)
    }

    @Test func folderModeEqualsPerFileResultsInInputOrder() throws {
        guard let model = SharedData.path("models/hand_landmarker.task"),
            let thumb = SharedData.path("images/decoded/hand_thumb_up.png"),
            let hand = SharedData.path("images/decoded/hand_test_image.png"),
            let empty = SharedData.path("images/decoded/business-person.png")
        else { return print("skipping: ../shared not found") }
        let folder = try temporaryDirectory("media-folder")
        let names = ["a_thumb.png", "b_person.png", "c_hand.png"]
        for (name, source) in zip(names, [thumb, empty, hand]) {
            try FileManager.default.copyItem(atPath: source, toPath: folder + "/" + name)
        }
        let jsonl = folder + "/../" + UUID().uuidString + ".jsonl"
        let run = runCLI(["hands", folder, "--model", model, "--num-hands", "2", "--output", jsonl])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.isEmpty)
        #expect(run.errors.contains("3 images: 3 ok, 0 failed"))
        let lines = try Self.lines(try String(contentsOfFile: jsonl, encoding: .utf8))
        #expect(lines.map { $0["file"] as? String } == names.map { folder + "/" + $0 })
        #expect(lines.map { $0["timestampInMilliseconds"] as? Int } == [0, 1000, 2000])
        for (line, name) in zip(lines, names) {
            let single = try #require(
                try Self.lines(runCLI(["hands", folder + "/" + name, "--model", model, "--num-hands", "2"]).output)
                    .first)
            var ours = line
            var theirs = single
            ours["timestampInMilliseconds"] = nil
            theirs["timestampInMilliseconds"] = nil
            #expect(ours as NSDictionary == theirs as NSDictionary, "\(name)")
        }
        #expect((lines[0]["landmarks"] as? [Any])?.count == 1)
    }

    @Test func aCorruptFileInAFolderIsSkippedReportedAndFailsTheRun() throws {
        guard let model = SharedData.path("models/hand_landmarker.task"),
            let thumb = SharedData.path("images/decoded/hand_thumb_up.png")
        else { return print("skipping: ../shared not found") }
        let folder = try temporaryDirectory("media-corrupt")
        try FileManager.default.copyItem(atPath: thumb, toPath: folder + "/a.png")
        // A PNG cut off after its header and first bytes of data.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: thumb))
        try bytes.prefix(200).write(to: URL(fileURLWithPath: folder + "/b.png"))
        try FileManager.default.copyItem(atPath: thumb, toPath: folder + "/c.png")
        let run = runCLI(["hands", folder, "--model", model])
        #expect(run.status == 1)
        let lines = try Self.lines(run.output)
        #expect(lines.map { $0["file"] as? String } == [folder + "/a.png", folder + "/c.png"])
        #expect(lines.map { $0["timestampInMilliseconds"] as? Int } == [0, 2000])
        #expect(run.errors.hasPrefix("error: \(folder)/b.png: "))
        #expect(run.errors.contains("3 images: 2 ok, 1 failed"))
    }

    @Test func inputKindsFollowTheArguments() throws {
        let folder = try temporaryDirectory("media-kinds")
        try Data([0x1A, 0x45, 0xDF, 0xA3, 0, 0, 0, 0]).write(to: URL(fileURLWithPath: folder + "/recording"))
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: URL(fileURLWithPath: folder + "/picture"))
        let context = CommandContext(console: RecordingConsole().console, environment: [:], currentDirectory: folder)
        func kind(_ arguments: [String]) throws -> TaskInputKind {
            try TaskInputKind(
                Arguments(arguments, flags: TaskCommandDriver.flags, options: TaskCommandDriver.options),
                context: context)
        }
        #expect(try kind(["--raw-stdin", "64x48@10"]) == .rawStandardInput(format: "64x48@10"))
        #expect(try kind(["--camera"]) == .camera(device: TaskInputKind.defaultCamera))
        #expect(try kind(["--camera", "/dev/video2"]) == .camera(device: "/dev/video2"))
        #expect(try kind(["a.MP4", "b.webm"]) == .videoFiles(["a.MP4", "b.webm"]))
        #expect(try kind(["recording"]) == .videoFiles(["recording"]))
        #expect(try kind(["picture", "missing"]) == .images(["picture", "missing"], fromFolder: false))
        #expect(try kind(["x.png", "--video"]) == .frames(["x.png"]))
        for wrong in [
            ["--camera", "--video"], ["--raw-stdin", "4x4", "x.png"], ["x.png", "clip.mp4"], ["--camera", "a", "b"],
        ] {
            #expect(throws: CLIError.self) { try kind(wrong) }
        }
        #expect(ImageBatchRunner<HandsCommand.Adapter>.workerCount(inputs: 10, cores: 8, threadCount: nil) == 8)
        #expect(ImageBatchRunner<HandsCommand.Adapter>.workerCount(inputs: 3, cores: 8, threadCount: nil) == 3)
        #expect(ImageBatchRunner<HandsCommand.Adapter>.workerCount(inputs: 10, cores: 8, threadCount: 4) == 2)
        #expect(ProgressBar.line(done: 5, total: 20, seconds: 2, width: 8) == "[##------] 5/20  2.5/s  ETA 6s")
    }
}
