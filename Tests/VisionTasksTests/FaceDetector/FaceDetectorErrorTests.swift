import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// Options, running modes and errors of FaceDetector against ../shared/reference/errors.json
/// (the `face_detector_*` cases).
@Suite("FaceDetector options and errors", .serialized)
struct FaceDetectorErrorTests {
    final class Receiver: FaceDetectorLiveStreamDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var received: [(Int, FaceDetectorResult?, (any Error)?)] = []
        var results: [(Int, FaceDetectorResult?, (any Error)?)] { lock.withLock { received } }

        func faceDetector(
            _ faceDetector: FaceDetector, didFinishDetection result: FaceDetectorResult?,
            timestampInMilliseconds: Int, error: (any Error)?
        ) {
            lock.withLock { received.append((timestampInMilliseconds, result, error)) }
        }
    }

    private static func image() throws -> MPImage? {
        try SharedData.path("images/decoded/astronaut.png").map { try MPImage(contentsOfFile: $0) }
    }

    @Test func defaultsAreMediaPipesAndCopyIsIndependent() {
        let options = FaceDetectorOptions()
        #expect(options.runningMode == .image && options.faceDetectorLiveStreamDelegate == nil)
        #expect(options.minDetectionConfidence == 0.5 && options.minSuppressionThreshold == 0.3)
        let receiver = Receiver()
        options.baseOptions.modelAssetPath = "a.tflite"
        options.runningMode = .liveStream
        options.faceDetectorLiveStreamDelegate = receiver
        options.minDetectionConfidence = 0.25
        options.minSuppressionThreshold = 0.75
        let copy = options.copy()
        options.baseOptions.modelAssetPath = "b.tflite"
        options.minDetectionConfidence = 0.9
        #expect(copy.baseOptions.modelAssetPath == "a.tflite" && copy.runningMode == .liveStream)
        #expect(copy.faceDetectorLiveStreamDelegate === receiver)
        #expect(copy.minDetectionConfidence == 0.25 && copy.minSuppressionThreshold == 0.75)
    }

    /// errors.json `face_detector_min_*`: MediaPipe accepts these values (−0.1 finds 84 faces on
    /// astronaut); they are rejected here, before the model is opened (docs/DIFFERENCES.md).
    @Test(arguments: [Float(1.5), -0.1, .nan])
    func thresholdsOutsideZeroToOneAreRejected(_ value: Float) throws {
        for option in ["minDetectionConfidence", "minSuppressionThreshold"] {
            let options = FaceDetectorOptions()
            options.baseOptions.modelAssetPath = "/nonexistent/blaze_face_short_range.tflite"
            if option == "minDetectionConfidence" {
                options.minDetectionConfidence = value
            } else {
                options.minSuppressionThreshold = value
            }
            let error = try #require(throws: TasksError.self) { try FaceDetector(options: options) }
            guard case .invalidOption(let name, let message) = error else {
                Issue.record("\(option) \(value): \(error)")
                continue
            }
            #expect(name == option && error.code == .invalidArgumentError)
            #expect(message.contains("must be in the range [0.0, 1.0]") && message.contains("\(option) is"))
        }
        if let cases = try References.errors() {
            #expect(cases["face_detector_min_detection_confidence_1.5"]?.raised == false)
            #expect(cases["face_detector_min_suppression_threshold_-0.1"]?.raised == false)
        }
    }

    @Test func aBundleIsNotAFaceDetectorModel() throws {
        guard let bundle = SharedData.path("models/face_landmarker.task"), let cases = try References.errors()
        else { return skipWithoutSharedData("face_landmarker.task") }
        let upstream = try #require(cases["face_detector_given_face_landmarker_task"])
        let error = try #require(throws: TasksError.self) { try FaceDetector(modelPath: bundle) }
        #expect(error.code == .invalidArgumentError && upstream.abslStatus == "INVALID_ARGUMENT")
        #expect(upstream.message == "The model is not a valid Flatbuffer buffer")
        #expect(error.message.lowercased().contains("model"), "\(error.message)")
    }

    @Test func wrongMethodForTheModeIsRejectedAndTheDetectorStaysUsable() throws {
        guard let video = try FaceDetectorFidelityTests.detector(.video),
            let still = try FaceDetectorFidelityTests.detector(.image), let image = try Self.image(),
            let cases = try References.errors()
        else { return skipWithoutSharedData("blaze_face_short_range.tflite") }
        try RunningModeChecks.wrongMethodIsRejected(
            video: video, still: still, image: image, cases: cases, prefix: "face_detector")
        #expect(try still.detect(image: image).detections.count == 1)
    }

    @Test func videoTimestampsMustIncrease() throws {
        guard let detector = try FaceDetectorFidelityTests.detector(.video), let image = try Self.image(),
            let cases = try References.errors()
        else { return skipWithoutSharedData("blaze_face_short_range.tflite") }
        try RunningModeChecks.videoTimestampsMustIncrease(detector, image: image, cases: cases, prefix: "face_detector")
    }

    @Test func liveStreamDeliversTheImageModeResultToTheDelegate() throws {
        let receiver = Receiver()
        let options = FaceDetectorOptions()
        guard let path = FaceDetectorFidelityTests.modelPath, let image = try Self.image(),
            let still = try FaceDetectorFidelityTests.detector(.image)
        else { return skipWithoutSharedData("blaze_face_short_range.tflite") }
        options.baseOptions.modelAssetPath = path
        options.runningMode = .liveStream
        options.faceDetectorLiveStreamDelegate = receiver
        let stream = try FaceDetector(options: options)
        try stream.detectAsync(image: image, timestampInMilliseconds: 10)
        #expect(throws: TasksError.nonIncreasingTimestamp(previous: 10, received: 10)) {
            try stream.detectAsync(image: image, timestampInMilliseconds: 10)
        }
        stream.waitUntilIdle()
        let results = receiver.results
        try #require(results.count == 1)
        #expect(results[0].0 == 10 && results[0].2 == nil)
        #expect(results[0].1?.detections == (try still.detect(image: image)).detections)
        #expect(stream.droppedFrameCount == 0)
    }
}
