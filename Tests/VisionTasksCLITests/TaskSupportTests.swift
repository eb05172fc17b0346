import Foundation
import TestSupport
import Testing
import VisionTasks

@testable import VisionTasksCLI

@Suite struct TaskSupportTests {
    private func context(_ directory: String) -> CommandContext {
        CommandContext(console: RecordingConsole().console, environment: [:], currentDirectory: directory)
    }

    @Test func aFolderExpandsToItsImagesInNameOrder() throws {
        let folder = try temporaryDirectory("inputs")
        for name in ["010.png", "002.PNG", "001.jpg", "notes.txt", "003.jpeg"] {
            try Data([0]).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        let inputs = try TaskInputs([folder], context: context("/"))
        #expect(
            inputs.paths.map { ($0 as NSString).lastPathComponent } == ["001.jpg", "002.PNG", "003.jpeg", "010.png"])
        let files = try TaskInputs(["b.png", "a.png"], context: context(folder))
        #expect(files.paths == ["b.png", "a.png"])
        #expect(throws: CLIError.self) { try TaskInputs([], context: self.context(folder)) }
        let empty = try temporaryDirectory("empty")
        #expect(throws: CLIError.self) { try TaskInputs([empty], context: self.context("/")) }
    }

    @Test func videoTimestampsFollowTheContract() throws {
        let fps30 = try VideoClock(Arguments([], flags: [], options: ["fps", "frame-ms"]))
        #expect((0..<4).map(fps30.timestamp(ofFrame:)) == [0, 33, 67, 100])
        let fps = try VideoClock(Arguments(["--fps", "12.5"], flags: [], options: ["fps", "frame-ms"]))
        #expect(fps.timestamp(ofFrame: 3) == 240)
        let fixed = try VideoClock(Arguments(["--frame-ms", "33"], flags: [], options: ["fps", "frame-ms"]))
        #expect((0..<4).map(fixed.timestamp(ofFrame:)) == [0, 33, 66, 99])
        #expect(throws: CLIError.self) {
            try VideoClock(Arguments(["--fps", "30", "--frame-ms", "33"], flags: [], options: ["fps", "frame-ms"]))
        }
        #expect(throws: CLIError.self) {
            try VideoClock(Arguments(["--fps", "0"], flags: [], options: ["fps", "frame-ms"]))
        }
    }

    @Test func batchReportCountsFailuresAndKeepsGoing() {
        let recorder = RecordingConsole()
        var report = BatchReport()
        report.run("a.png", console: recorder.console) {}
        report.run("b.png", console: recorder.console) { throw CLIError.failed("cannot decode") }
        report.run("c.png", console: recorder.console) {}
        #expect(report.succeeded == 2 && report.failed == 1)
        #expect(report.exitStatus == 1)
        #expect(recorder.standardError == "error: b.png: cannot decode\n")
    }

    @Test func benchTimerWarmsUpAndOrdersSamples() {
        var calls: [Int] = []
        let timing = BenchTimer(warmUp: 2, iterations: 5).measure { calls.append($0) }
        #expect(calls == Array(0..<7))
        #expect(timing.min <= timing.median && timing.median <= timing.max)
        let recorder = RecordingConsole()
        BenchTimer.report((1.23456, 1, 2), label: "pose", json: true, console: recorder.console)
        #expect(recorder.standardOutput == "{\"medianMs\":1.235,\"minMs\":1,\"maxMs\":2}\n")
    }

    @Test func benchRejectsUnknownTasks() {
        #expect(runCLI(["bench"]).status == 2)
        #expect(runCLI(["bench", "gestures", "x.png"]).status == 2)  // no such task
    }

    @Test func annotationDrawsOnTheUprightPictureAndWritesPNG() throws {
        // A 4×2 picture stored sideways (.right): upright it is 2×4.
        let pixels = [UInt8](repeating: 0, count: 4 * 2 * 3)
        let image = try MPImage(
            pixels: pixels, width: 4, height: 2, bytesPerRow: 12, format: .rgb8, orientation: .right)
        var annotation = Annotation(image: image)
        #expect(annotation.canvas.width == 2 && annotation.canvas.height == 4)
        annotation.drawSkeleton(
            [NormalizedLandmark(x: 0.25, y: 0.1, z: 0), NormalizedLandmark(x: 0.75, y: 0.9, z: 0)],
            connections: [Connection(start: 0, end: 1)], lineColor: .green, pointColor: .red)
        #expect(annotation.canvas.bitmap.rgb(x: 0, y: 0).map { $0.red > 0 || $0.green > 0 } == true)
        let path = try temporaryDirectory("annotate") + "/out/picture.png"
        try annotation.write(to: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        #expect(annotationPath(for: "frames/001.jpg", directory: "/tmp/x", context: context("/")) == "/tmp/x/001.png")
    }
}
