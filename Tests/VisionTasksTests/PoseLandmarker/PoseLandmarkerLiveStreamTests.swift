import Foundation
import TestSupport
import Testing

@testable import VisionTasks

@Suite("PoseLandmarker live stream", .serialized)
struct PoseLandmarkerLiveStreamTests {
    /// Records deliveries and checks they never overlap.
    private final class Receiver: PoseLandmarkerLiveStreamDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var active = 0
        private(set) var overlapped = false
        private(set) var timestamps: [Int] = []
        private(set) var poseCounts: [Int] = []
        private(set) var errors: [any Error] = []
        private(set) var sameTask = true
        weak var expectedTask: PoseLandmarker?

        func poseLandmarker(
            _ poseLandmarker: PoseLandmarker, didFinishDetection result: PoseLandmarkerResult?,
            timestampInMilliseconds: Int, error: (any Error)?
        ) {
            lock.withLock {
                active += 1
                if active > 1 { overlapped = true }
            }
            usleep(500)
            lock.withLock {
                if poseLandmarker !== expectedTask { sameTask = false }
                timestamps.append(timestampInMilliseconds)
                if let result {
                    poseCounts.append(result.landmarks.count)
                    if result.timestampInMilliseconds != timestampInMilliseconds { sameTask = false }
                }
                if let error { errors.append(error) }
                active -= 1
            }
        }
    }

    @Test func resultsArriveInOrderAndDroppedFramesAreCounted() throws {
        guard let model = PoseTestData.liteModel, let image = try PoseTestData.image("astronaut") else {
            return skipWithoutSharedData("pose model")
        }
        let receiver = Receiver()
        let options = PoseTestData.options(model, .liveStream)
        options.poseLandmarkerLiveStreamDelegate = receiver
        let landmarker = try PoseLandmarker(options: options)
        receiver.expectedTask = landmarker
        let frameCount = 12
        for index in 0..<frameCount {
            try landmarker.detectAsync(image: image, timestampInMilliseconds: index * 33)
        }
        landmarker.waitUntilIdle()
        // A burst far faster than one frame is processed: the first frame runs, the newest one
        // waits and replaces every frame before it.
        #expect(receiver.timestamps.first == 0)
        #expect(receiver.timestamps.last == (frameCount - 1) * 33)
        #expect(
            receiver.timestamps == receiver.timestamps.sorted()
                && Set(receiver.timestamps).count == receiver.timestamps.count)
        #expect(receiver.timestamps.count + landmarker.droppedFrameCount == frameCount)
        #expect(landmarker.droppedFrameCount > 0)
        #expect(receiver.poseCounts.allSatisfy { $0 == 1 } && receiver.poseCounts.count == receiver.timestamps.count)
        #expect(receiver.errors.isEmpty)
        #expect(!receiver.overlapped && receiver.sameTask)
        // That detectAsync only queues (returns while its frame is still being processed) is
        // checked without a clock, with a blocked processor: LiveStreamRunnerTests.
    }

    @Test func paceOfTheCameraLosesNoFrame() throws {
        guard let model = PoseTestData.liteModel, let image = try PoseTestData.image("astronaut") else {
            return skipWithoutSharedData("pose model")
        }
        let receiver = Receiver()
        let options = PoseTestData.options(model, .liveStream)
        options.poseLandmarkerLiveStreamDelegate = receiver
        let landmarker = try PoseLandmarker(options: options)
        receiver.expectedTask = landmarker
        for index in 0..<3 {
            try landmarker.detectAsync(image: image, timestampInMilliseconds: index * 1000)
            landmarker.waitUntilIdle()
        }
        #expect(receiver.timestamps == [0, 1000, 2000])
        #expect(landmarker.droppedFrameCount == 0)
    }

    @Test func releasedDelegateReceivesNothingAndNothingBreaks() throws {
        guard let model = PoseTestData.liteModel, let image = try PoseTestData.image("astronaut") else {
            return skipWithoutSharedData("pose model")
        }
        let options = PoseTestData.options(model, .liveStream)
        var receiver: Receiver? = Receiver()
        options.poseLandmarkerLiveStreamDelegate = receiver
        let landmarker = try PoseLandmarker(options: options)
        weak let released = receiver
        receiver = nil
        #expect(released == nil)  // held weakly, as upstream
        try landmarker.detectAsync(image: image, timestampInMilliseconds: 1)
        landmarker.waitUntilIdle()
        #expect(landmarker.droppedFrameCount == 0)
    }
}
