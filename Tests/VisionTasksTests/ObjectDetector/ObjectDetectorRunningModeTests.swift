import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// Running-mode rules of the object detector as MediaPipe enforces them
/// (../shared/reference/errors.json `od_*`), and live-stream delivery.
@Suite("ObjectDetector running modes", .serialized)
struct ObjectDetectorRunningModeTests {
    private final class Receiver: ObjectDetectorLiveStreamDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var received: [(Int, ObjectDetectorResult?, (any Error)?)] = []

        var results: [(Int, ObjectDetectorResult?, (any Error)?)] { lock.withLock { received } }

        func objectDetector(
            _ objectDetector: ObjectDetector, didFinishDetection result: ObjectDetectorResult?,
            timestampInMilliseconds: Int, error: (any Error)?
        ) {
            lock.withLock { received.append((timestampInMilliseconds, result, error)) }
        }
    }

    private static func detector(_ mode: RunningMode, delegate: Receiver? = nil) throws -> ObjectDetector? {
        guard let model = ObjectDetectorTestData.model else { return nil }
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = model
        options.runningMode = mode
        options.objectDetectorLiveStreamDelegate = delegate
        return try ObjectDetector(options: options)
    }

    private static func image() throws -> MPImage? {
        try SharedData.path("images/decoded/od_test_image.png").map { try MPImage(contentsOfFile: $0) }
    }

    @Test func wrongMethodForTheModeIsRejectedAndTheDetectorStaysUsable() throws {
        guard let video = try Self.detector(.video), let still = try Self.detector(.image),
            let image = try Self.image(),
            let cases = try References.errors()
        else { return skipWithoutSharedData("ssd_mobilenet_v1.tflite") }
        try RunningModeChecks.wrongMethodIsRejected(
            video: video, still: still, image: image, cases: cases, prefix: "od")
        #expect(try still.detect(image: image).detections.count == 10)
    }

    @Test func videoTimestampsMustIncrease() throws {
        guard let detector = try Self.detector(.video), let image = try Self.image(),
            let cases = try References.errors()
        else { return skipWithoutSharedData("ssd_mobilenet_v1.tflite") }
        try RunningModeChecks.videoTimestampsMustIncrease(detector, image: image, cases: cases, prefix: "od")
        let later = try detector.detect(videoFrame: image, timestampInMilliseconds: 166)
        #expect(later.timestampInMilliseconds == 166 && later.detections.count == 10)
    }

    /// Live-stream results reach the delegate in order and equal IMAGE mode's for the same picture.
    @Test func liveStreamDeliversTheImageModeResultToTheDelegate() throws {
        let receiver = Receiver()
        guard let stream = try Self.detector(.liveStream, delegate: receiver), let still = try Self.detector(.image),
            let image = try Self.image()
        else { return skipWithoutSharedData("ssd_mobilenet_v1.tflite") }
        try stream.detectAsync(image: image, timestampInMilliseconds: 10)
        #expect(throws: TasksError.nonIncreasingTimestamp(previous: 10, received: 10)) {
            try stream.detectAsync(image: image, timestampInMilliseconds: 10)
        }
        let expected = try still.detect(image: image).detections
        stream.waitUntilIdle()
        let results = receiver.results
        try #require(results.count == 1, "no live-stream result")
        #expect(results[0].0 == 10 && results[0].2 == nil)
        #expect(results[0].1?.detections == expected)
    }

    /// The frame sequence API every task shares: video mode, one result per frame, in order,
    /// equal to detecting each frame alone.
    @Test func resultsForAFrameSequenceEqualVideoModeCalls() async throws {
        guard let sequence = try Self.detector(.video), let single = try Self.detector(.video),
            let image = try Self.image()
        else { return skipWithoutSharedData("ssd_mobilenet_v1.tflite") }
        let frames = AsyncStream<(MPImage, Int)> { continuation in
            for index in 0..<3 { continuation.yield((image, index * 33)) }
            continuation.finish()
        }
        var results: [ObjectDetectorResult] = []
        for try await result in sequence.results(for: frames) { results.append(result) }
        #expect(results.map(\.timestampInMilliseconds) == [0, 33, 66])
        for result in results {
            let alone = try single.detect(videoFrame: image, timestampInMilliseconds: result.timestampInMilliseconds)
            #expect(result.detections == alone.detections)
        }
        let still = try #require(try Self.detector(.image))
        let one = AsyncStream<(MPImage, Int)> { continuation in
            continuation.yield((image, 0))
            continuation.finish()
        }
        await #expect(throws: TasksError.runningModeMismatch(expected: .video, actual: .image)) {
            for try await _ in still.results(for: one) {}
        }
    }
}
