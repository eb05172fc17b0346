import Dispatch
import Foundation
import Testing

@testable import VisionTasks

@Suite("TaskRunner live stream")
struct LiveStreamRunnerTests {
    @Test func waitingFrameIsReplacedByNewerOneAndCounted() throws {
        let gate = Gate()
        let deliveries = DeliveryLog<String>()
        let runner = try TaskRunner(
            runningMode: .liveStream, taskName: "test", processor: FakeProcessor(gate: gate),
            resultHandler: deliveries.handler)
        try runner.processLiveStreamFrame(1, timestampInMilliseconds: 10)
        gate.waitUntilEntered()  // frame 10 is in flight
        try runner.processLiveStreamFrame(2, timestampInMilliseconds: 20)  // waits
        try runner.processLiveStreamFrame(3, timestampInMilliseconds: 30)  // replaces 20
        try runner.processLiveStreamFrame(4, timestampInMilliseconds: 40)  // replaces 30
        #expect(runner.droppedFrameCount == 2)
        gate.open(times: 2)
        runner.waitUntilIdle()
        #expect(deliveries.timestamps == [10, 40])
        let outputs = deliveries.results.map { try? $0.0.get() }
        #expect(outputs == ["1@10#1", "4@40#2"])
        #expect(runner.droppedFrameCount == 2)
    }

    @Test func processAsyncReturnsBeforeProcessingFinishes() throws {
        let gate = Gate()
        let deliveries = DeliveryLog<String>()
        let runner = try TaskRunner(
            runningMode: .liveStream, taskName: "test", processor: FakeProcessor(gate: gate),
            resultHandler: deliveries.handler)
        try runner.processLiveStreamFrame(1, timestampInMilliseconds: 1)
        gate.waitUntilEntered()
        #expect(deliveries.results.isEmpty)  // the call returned while the frame is still blocked
        gate.open()
        runner.waitUntilIdle()
        #expect(deliveries.timestamps == [1])
    }

    @Test func burstOfFramesIsDeliveredInOrderOneAtATime() throws {
        let log = ProcessingLog()
        let deliveries = DeliveryLog<String>()
        let runner = try TaskRunner(
            runningMode: .liveStream, taskName: "test", processor: FakeProcessor(log: log, sleepMicroseconds: 3_000),
            resultHandler: deliveries.handler)
        // Bursts of 5 frames arrive far faster than one 3 ms frame is processed.
        let frameCount = 60
        for index in 0..<frameCount {
            try runner.processLiveStreamFrame(index, timestampInMilliseconds: index * 33)
            if index % 5 == 4 { usleep(4_000) }
        }
        runner.waitUntilIdle()
        let delivered = deliveries.timestamps
        #expect(delivered == log.timestamps)  // every processed frame is delivered, nothing else
        #expect(delivered == delivered.sorted())
        #expect(Set(delivered).count == delivered.count)
        #expect(delivered.first == 0)
        #expect(delivered.last == (frameCount - 1) * 33)  // the latest frame always wins
        #expect(delivered.count + runner.droppedFrameCount == frameCount)
        #expect(runner.droppedFrameCount > 0)
        #expect(log.maxConcurrent == 1)
        #expect(!deliveries.overlapped)
    }

    @Test func concurrentProducersNeverRunTwoFramesAtOnce() throws {
        let log = ProcessingLog()
        let deliveries = DeliveryLog<String>()
        let runner = try TaskRunner(
            runningMode: .liveStream, taskName: "test", processor: FakeProcessor(log: log, sleepMicroseconds: 200),
            resultHandler: deliveries.handler)
        let clock = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 200) { _ in
            // Timestamps come from a shared counter so they increase in submission order.
            clock.withLock { (value: inout Int) -> Void in
                value += 1
                try? runner.processLiveStreamFrame(value, timestampInMilliseconds: value)
            }
        }
        runner.waitUntilIdle()
        #expect(log.maxConcurrent == 1)
        #expect(deliveries.timestamps == deliveries.timestamps.sorted())
        #expect(deliveries.timestamps.count + runner.droppedFrameCount == 200)
        #expect(!deliveries.overlapped)
    }

    @Test func errorsAreDeliveredWithTheFrameTimestamp() throws {
        let deliveries = DeliveryLog<String>()
        let processor = FakeProcessor(failure: { $0 == 2 ? TasksError.invalidImage("broken frame") : nil })
        let runner = try TaskRunner(
            runningMode: .liveStream, taskName: "test", processor: processor, resultHandler: deliveries.handler)
        for timestamp in 1...3 {
            try runner.processLiveStreamFrame(timestamp, timestampInMilliseconds: timestamp)
            runner.waitUntilIdle()
        }
        let results = deliveries.results
        #expect(results.map(\.1) == [1, 2, 3])
        #expect((try? results[0].0.get()) == "1@1#1")
        #expect(throws: TasksError.invalidImage("broken frame")) { try results[1].0.get() }
        #expect((try? results[2].0.get()) == "3@3#3")
    }

    @Test func nonIncreasingTimestampIsRejectedImmediatelyAndTaskStaysUsable() throws {
        let deliveries = DeliveryLog<String>()
        let runner = try TaskRunner(
            runningMode: .liveStream, taskName: "test", processor: FakeProcessor(), resultHandler: deliveries.handler)
        try runner.processLiveStreamFrame(1, timestampInMilliseconds: 100)
        #expect(throws: TasksError.nonIncreasingTimestamp(previous: 100, received: 100)) {
            try runner.processLiveStreamFrame(1, timestampInMilliseconds: 100)
        }
        #expect(throws: TasksError.nonIncreasingTimestamp(previous: 100, received: 50)) {
            try runner.processLiveStreamFrame(1, timestampInMilliseconds: 50)
        }
        #expect(throws: TasksError.runningModeMismatch(expected: .video, actual: .liveStream)) {
            try runner.processVideoFrame(1, timestampInMilliseconds: 200)
        }
        try runner.processLiveStreamFrame(2, timestampInMilliseconds: 133)
        runner.waitUntilIdle()
        #expect(deliveries.timestamps == [100, 133])
    }

    @Test func releasingRunnerWithPendingFramesNeitherCrashesNorLeaks() throws {
        let gate = Gate()
        let released = Locked(false)
        let deliveries = DeliveryLog<String>()
        var runner: TaskRunner<FakeProcessor>? = try TaskRunner(
            runningMode: .liveStream, taskName: "test",
            processor: FakeProcessor(gate: gate, token: LifetimeToken { released.withLock { $0 = true } }),
            resultHandler: deliveries.handler)
        weak let weakRunner = runner
        try runner?.processLiveStreamFrame(1, timestampInMilliseconds: 1)
        gate.waitUntilEntered()
        try runner?.processLiveStreamFrame(2, timestampInMilliseconds: 2)  // waiting
        runner = nil
        #expect(weakRunner == nil)
        #expect(released.withLock { $0 } == false)  // the frame in flight still holds the processor
        gate.open(times: 2)
        // The processing queue lets go of the processor once the frame in flight is done.
        let deadline = Date().addingTimeInterval(30)  // returns as soon as it is released
        while !released.withLock({ $0 }), Date() < deadline { usleep(1_000) }
        #expect(released.withLock { $0 })
        usleep(20_000)
        #expect(deliveries.results.isEmpty)  // nothing is delivered after the runner is gone
    }
}

@Suite("WeakReference")
struct WeakReferenceTests {
    final class Listener {
        var received: [Int] = []
    }

    @Test func deliversToALiveDelegateAndDoesNotKeepItAlive() throws {
        var listener: Listener? = Listener()
        let reference = WeakReference(listener)
        let runner = try TaskRunner(
            runningMode: .liveStream, taskName: "test", processor: FakeProcessor(),
            resultHandler: { _, timestamp in reference.object?.received.append(timestamp) })
        try runner.processLiveStreamFrame(1, timestampInMilliseconds: 5)
        runner.waitUntilIdle()
        #expect(listener?.received == [5])
        listener = nil
        #expect(reference.object == nil)
        try runner.processLiveStreamFrame(1, timestampInMilliseconds: 6)  // delivered to nobody
        runner.waitUntilIdle()
    }
}
