import Dispatch
import Foundation
import Testing

@testable import VisionTasks

@Suite("TaskRunner")
struct TaskRunnerTests {
    @Test func imageModeStampsResultsWithSyntheticTimestamps() throws {
        let runner = try TaskRunner(
            runningMode: .image, taskName: "test", processor: FakeProcessor(), resultHandler: nil)
        #expect(try runner.processImage(7) == "7@0#1")
        #expect(try runner.processImage(8) == "8@1000#2")
        #expect(try runner.processImage(9) == "9@2000#3")
    }

    @Test func videoCallOnImageTaskIsRejectedAndTaskStaysUsable() throws {
        let runner = try TaskRunner(
            runningMode: .image, taskName: "test", processor: FakeProcessor(), resultHandler: nil)
        #expect(throws: TasksError.runningModeMismatch(expected: .video, actual: .image)) {
            try runner.processVideoFrame(1, timestampInMilliseconds: 0)
        }
        #expect(throws: TasksError.runningModeMismatch(expected: .liveStream, actual: .image)) {
            try runner.processLiveStreamFrame(1, timestampInMilliseconds: 0)
        }
        // The rejected calls consumed no synthetic timestamp and no processing.
        #expect(try runner.processImage(1) == "1@0#1")
    }

    @Test func runningModeMismatchMessageMatchesMediaPipe() {
        // mediapipe/tasks/ios/vision/core/sources/MPPVisionTaskRunner.mm
        let error = TasksError.runningModeMismatch(expected: .image, actual: .video)
        #expect(error.message == "The vision task is not initialized with image mode. Current Running Mode: Video")
        let live = TasksError.runningModeMismatch(expected: .liveStream, actual: .image)
        #expect(live.message == "The vision task is not initialized with live stream mode. Current Running Mode: Image")
        #expect(live.code == .invalidArgumentError)
    }

    @Test func videoTimestampsMustIncreaseAndRejectionLeavesTaskUsable() throws {
        // The call sequence of errors.json `*_detect_for_video_non_increasing_timestamp`.
        let runner = try TaskRunner(
            runningMode: .video, taskName: "test", processor: FakeProcessor(), resultHandler: nil)
        #expect(try runner.processVideoFrame(1, timestampInMilliseconds: 100) == "1@100#1")
        #expect(throws: TasksError.nonIncreasingTimestamp(previous: 100, received: 100)) {
            try runner.processVideoFrame(1, timestampInMilliseconds: 100)
        }
        #expect(throws: TasksError.nonIncreasingTimestamp(previous: 100, received: 50)) {
            try runner.processVideoFrame(1, timestampInMilliseconds: 50)
        }
        #expect(try runner.processVideoFrame(2, timestampInMilliseconds: 133) == "2@133#2")
        #expect(throws: TasksError.runningModeMismatch(expected: .image, actual: .video)) {
            try runner.processImage(3)
        }
        #expect(try runner.processVideoFrame(3, timestampInMilliseconds: 166) == "3@166#3")
    }

    @Test func videoFrameThatFailsStillConsumesItsTimestamp() throws {
        let processor = FakeProcessor(failure: { $0 == 10 ? FakeError() : nil })
        let runner = try TaskRunner(runningMode: .video, taskName: "test", processor: processor, resultHandler: nil)
        #expect(throws: TasksError.self) { try runner.processVideoFrame(1, timestampInMilliseconds: 10) }
        #expect(throws: TasksError.nonIncreasingTimestamp(previous: 10, received: 10)) {
            try runner.processVideoFrame(1, timestampInMilliseconds: 10)
        }
        #expect(try runner.processVideoFrame(1, timestampInMilliseconds: 11) == "1@11#2")
    }

    @Test func processorErrorsBecomeTasksErrors() throws {
        let processor = FakeProcessor(failure: { $0 == 0 ? TasksError.invalidImage("bad") as any Error : FakeError() })
        let runner = try TaskRunner(runningMode: .image, taskName: "test", processor: processor, resultHandler: nil)
        #expect(throws: TasksError.invalidImage("bad")) { try runner.processImage(1) }
        do {
            _ = try runner.processImage(1)
            Issue.record("expected an error")
        } catch {
            guard case .internalError(let text) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(text.contains("FakeError"))
        }
    }

    @Test func delegateMustBeSetExactlyInLiveStreamMode() {
        let handler: TaskRunner<FakeProcessor>.ResultHandler = { _, _ in }
        #expect(throws: TasksError.delegateNotAllowed(runningMode: .image)) {
            _ = try TaskRunner(runningMode: .image, taskName: "t", processor: FakeProcessor(), resultHandler: handler)
        }
        #expect(throws: TasksError.delegateNotAllowed(runningMode: .video)) {
            _ = try TaskRunner(runningMode: .video, taskName: "t", processor: FakeProcessor(), resultHandler: handler)
        }
        #expect(throws: TasksError.delegateMissing) {
            _ = try TaskRunner(runningMode: .liveStream, taskName: "t", processor: FakeProcessor(), resultHandler: nil)
        }
    }

    @Test func concurrentImageCallsAreSerializedAndGetDistinctTimestamps() throws {
        let log = ProcessingLog()
        let runner = try TaskRunner(
            runningMode: .image, taskName: "test", processor: FakeProcessor(log: log, sleepMicroseconds: 100),
            resultHandler: nil)
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            _ = try? runner.processImage(index)
        }
        #expect(log.maxConcurrent == 1)
        #expect(Set(log.timestamps) == Set((0..<40).map { $0 * 1000 }))
    }
}
