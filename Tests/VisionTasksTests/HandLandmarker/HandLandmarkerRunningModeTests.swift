import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// Running modes, timestamps, live stream and the frame sequence API on the real models.
@Suite("HandLandmarker running modes", .serialized)
struct HandLandmarkerRunningModeTests {
    /// Collects live-stream callbacks; `wait` blocks until `count` have arrived.
    final class Receiver: HandLandmarkerLiveStreamDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private let arrived = DispatchSemaphore(value: 0)
        private var _calls: [(result: HandLandmarkerResult?, timestamp: Int, error: (any Error)?)] = []

        var calls: [(result: HandLandmarkerResult?, timestamp: Int, error: (any Error)?)] { lock.withLock { _calls } }

        func handLandmarker(
            _ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?,
            timestampInMilliseconds: Int, error: (any Error)?
        ) {
            lock.withLock { _calls.append((result, timestampInMilliseconds, error)) }
            arrived.signal()
        }

        /// Waits for one more callback; false after 30 s.
        func waitForCall() -> Bool { arrived.wait(timeout: .now() + 30) == .success }
    }

    static func frames(_ count: Int = 30) throws -> [MPImage]? {
        guard SharedData.path("models/hand_landmarker.task") != nil,
            let reference = try References.video(task: "hand_landmarker", sequence: "hand_test_video")
        else {
            skipWithoutSharedData("video/hand_landmarker/hand_test_video")
            return nil
        }
        let frames = reference.runs["default"]?.frames ?? []
        return try frames.prefix(count).map { try HandLandmarkerFidelityTests.frameImage(reference, $0) }
    }

    static func landmarker(_ mode: RunningMode, delegate: Receiver? = nil) throws -> HandLandmarker {
        let options = HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = SharedData.path("models/hand_landmarker.task")
        options.runningMode = mode
        options.handLandmarkerLiveStreamDelegate = delegate
        return try HandLandmarker(options: options)
    }

    @Test func imageModeTimestampsCountUpInSeconds() throws {
        guard let frames = try Self.frames(1) else { return }
        let landmarker = try Self.landmarker(.image)
        let timestamps = try (0..<3).map { _ in try landmarker.detect(image: frames[0]).timestampInMilliseconds }
        #expect(timestamps == [0, 1000, 2000])
    }

    @Test func callsOfAnotherModeAreRejectedAndTheTaskStaysUsable() throws {
        guard let frames = try Self.frames(1), let errors = try References.errors() else { return }
        // errors.json: MediaPipe rejects these with INVALID_ARGUMENT and stays usable.
        for name in ["hand_detect_on_video_mode_task", "hand_detect_for_video_on_image_mode_task"] {
            #expect(errors[name]?.abslStatus == "INVALID_ARGUMENT" && errors[name]?.instanceUsableAfterwards == true)
        }
        let image = try Self.landmarker(.image)
        #expect(throws: TasksError.runningModeMismatch(expected: .video, actual: .image)) {
            try image.detect(videoFrame: frames[0], timestampInMilliseconds: 0)
        }
        #expect(throws: TasksError.runningModeMismatch(expected: .liveStream, actual: .image)) {
            try image.detectAsync(image: frames[0], timestampInMilliseconds: 0)
        }
        #expect(try image.detect(image: frames[0]).landmarks.count == 1)
        let video = try Self.landmarker(.video)
        #expect { try video.detect(image: frames[0]) } throws: { error in
            (error as? TasksError) == .runningModeMismatch(expected: .image, actual: .video)
                && (error as? TasksError)?.code == .invalidArgumentError
        }
        #expect(try video.detect(videoFrame: frames[0], timestampInMilliseconds: 0).landmarks.count == 1)
    }

    @Test func videoTimestampsMustIncreaseAsInMediaPipe() throws {
        guard let frames = try Self.frames(1),
            let expected = try References.errors()?["hand_detect_for_video_non_increasing_timestamp"]
        else { return }
        let landmarker = try Self.landmarker(.video)
        _ = try landmarker.detect(videoFrame: frames[0], timestampInMilliseconds: 100)
        for (timestamp, attempt) in [(100, expected.equalTimestamp), (50, expected.smallerTimestamp)] {
            #expect(attempt?.raised == true)
            #expect { try landmarker.detect(videoFrame: frames[0], timestampInMilliseconds: timestamp) } throws: {
                error in
                guard let error = error as? TasksError, let message = attempt?.message else { return false }
                return error == .nonIncreasingTimestamp(previous: 100, received: timestamp)
                    && error.message.hasPrefix(message) && error.code == .invalidArgumentError
            }
        }
        #expect(
            try landmarker.detect(videoFrame: frames[0], timestampInMilliseconds: 101).timestampInMilliseconds == 101)
    }

    @Test func pacedLiveStreamDeliversTheVideoResultsInOrder() throws {
        guard let frames = try Self.frames(10) else { return }
        let video = try Self.landmarker(.video)
        let expected = try frames.enumerated().map {
            try video.detect(videoFrame: $1, timestampInMilliseconds: $0 * 33)
        }
        let receiver = Receiver()
        let live = try Self.landmarker(.liveStream, delegate: receiver)
        for (index, frame) in frames.enumerated() {
            try live.detectAsync(image: frame, timestampInMilliseconds: index * 33)
            #expect(receiver.waitForCall())
        }
        let calls = receiver.calls
        #expect(calls.map(\.timestamp) == Array(stride(from: 0, to: frames.count * 33, by: 33)))
        #expect(calls.allSatisfy { $0.error == nil })
        for (call, result) in zip(calls, expected) {
            #expect(call.result?.landmarks == result.landmarks)
            #expect(call.result?.handedness == result.handedness)
            #expect(call.result?.timestampInMilliseconds == call.timestamp)
        }
        #expect(live.droppedFrameCount == 0)
    }

    @Test func liveStreamUnderLoadDropsWaitingFramesAndDeliversTheLatest() throws {
        guard let frames = try Self.frames(30) else { return }
        let receiver = Receiver()
        let live = try Self.landmarker(.liveStream, delegate: receiver)
        for (index, frame) in frames.enumerated() {
            try live.detectAsync(image: frame, timestampInMilliseconds: index * 33)
        }
        // Every frame is either delivered or dropped; the last one is always delivered.
        live.waitUntilIdle()
        let timestamps = receiver.calls.map(\.timestamp)
        #expect(timestamps.count + live.droppedFrameCount == frames.count)
        #expect(live.droppedFrameCount > 0)
        #expect(timestamps == timestamps.sorted() && Set(timestamps).count == timestamps.count)
        #expect(timestamps.first == 0 && timestamps.last == (frames.count - 1) * 33)
        #expect(receiver.calls.allSatisfy { $0.result?.landmarks.count == 1 })
    }

    @Test func liveStreamRejectsNonIncreasingTimestampsAtOnce() throws {
        guard let frames = try Self.frames(1) else { return }
        let receiver = Receiver()
        let live = try Self.landmarker(.liveStream, delegate: receiver)
        try live.detectAsync(image: frames[0], timestampInMilliseconds: 10)
        #expect(throws: TasksError.nonIncreasingTimestamp(previous: 10, received: 10)) {
            try live.detectAsync(image: frames[0], timestampInMilliseconds: 10)
        }
        #expect(receiver.waitForCall())
        #expect(receiver.calls.map(\.timestamp) == [10])
    }

    @Test func theDelegateIsHeldWeakly() throws {
        guard let frames = try Self.frames(1) else { return }
        var receiver: Receiver? = Receiver()
        weak let released = receiver
        let options = HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = SharedData.path("models/hand_landmarker.task")
        options.runningMode = .liveStream
        options.handLandmarkerLiveStreamDelegate = receiver
        let live = try HandLandmarker(options: options)
        receiver = nil
        #expect(released == nil)
        #expect(options.handLandmarkerLiveStreamDelegate == nil)
        try live.detectAsync(image: frames[0], timestampInMilliseconds: 0)  // processed, delivered to no one
    }

    @Test func videoFramesFromAnAsyncSequenceGiveTheVideoResults() async throws {
        guard let frames = try Self.frames(5) else { return }
        let video = try Self.landmarker(.video)
        let expected = try frames.enumerated().map {
            try video.detect(videoFrame: $1, timestampInMilliseconds: $0 * 33)
        }
        let stream = AsyncStream<(MPImage, Int)> { continuation in
            for (index, frame) in frames.enumerated() { continuation.yield((frame, index * 33)) }
            continuation.finish()
        }
        var results: [HandLandmarkerResult] = []
        for try await result in try Self.landmarker(.video).results(for: stream) {
            results.append(result)
        }
        #expect(results.map(\.timestampInMilliseconds) == expected.map(\.timestampInMilliseconds))
        #expect(results.map(\.landmarks) == expected.map(\.landmarks))
    }
}
