import Foundation
import Testing

@testable import VisionTasks

@Suite("TaskResultSequence")
struct TaskResultSequenceTests {
    @Test func resultsFollowFrameOrder() async throws {
        let runner = try TaskRunner(
            runningMode: .video, taskName: "test", processor: FakeProcessor(), resultHandler: nil)
        let frames = AsyncStream<(Int, Int)> { continuation in
            for index in 0..<5 { continuation.yield((index, index * 33)) }
            continuation.finish()
        }
        var outputs: [String] = []
        for try await output in runner.videoResults(for: frames, split: { $0 }) {
            outputs.append(output)
        }
        #expect(outputs == ["0@0#1", "1@33#2", "2@66#3", "3@99#4", "4@132#5"])
    }

    @Test func errorEndsTheSequenceButNotTheRunner() async throws {
        let runner = try TaskRunner(
            runningMode: .video, taskName: "test", processor: FakeProcessor(), resultHandler: nil)
        let frames = AsyncStream<(Int, Int)> { continuation in
            for timestamp in [10, 20, 20, 30] { continuation.yield((timestamp, timestamp)) }
            continuation.finish()
        }
        var outputs: [String] = []
        await #expect(throws: TasksError.nonIncreasingTimestamp(previous: 20, received: 20)) {
            for try await output in runner.videoResults(for: frames, split: { $0 }) {
                outputs.append(output)
            }
        }
        #expect(outputs == ["10@10#1", "20@20#2"])
        #expect(try runner.processVideoFrame(1, timestampInMilliseconds: 30) == "1@30#3")
    }

    @Test func sequenceOnNonVideoTaskFailsWithModeMismatch() async throws {
        let runner = try TaskRunner(
            runningMode: .image, taskName: "test", processor: FakeProcessor(), resultHandler: nil)
        let frames = AsyncStream<(Int, Int)> { continuation in
            continuation.yield((1, 1))
            continuation.finish()
        }
        await #expect(throws: TasksError.runningModeMismatch(expected: .video, actual: .image)) {
            for try await _ in runner.videoResults(for: frames, split: { $0 }) {}
        }
    }

    @Test func newestBufferingDropsFramesWhileTheConsumerIsBusy() async throws {
        let log = ProcessingLog()
        let runner = try TaskRunner(
            runningMode: .video, taskName: "test", processor: FakeProcessor(log: log, sleepMicroseconds: 5_000),
            resultHandler: nil)
        let (frames, continuation) = AsyncStream<(Int, Int)>.makeStream(bufferingPolicy: .bufferingNewest(1))
        // Bursts of frames arrive while one 5 ms frame is processed.
        let producer = Task {
            for index in 0..<40 {
                continuation.yield((index, index))
                if index % 10 == 9 { try? await Task.sleep(nanoseconds: 3_000_000) }
            }
            continuation.finish()
        }
        var timestamps: [Int] = []
        for try await output in runner.videoResults(for: frames, split: { $0 }) {
            timestamps.append(Int(output.split(separator: "@")[1].split(separator: "#")[0])!)
        }
        await producer.value
        #expect(timestamps == timestamps.sorted())
        #expect(timestamps.count < 40)
        #expect(timestamps.last == 39)
        #expect(log.maxConcurrent == 1)
    }
}
