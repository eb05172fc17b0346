import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// Errors as MediaPipe raises them (API.md §9–10, ../shared/reference/errors.json `pose_*`).
@Suite("PoseLandmarker errors", .serialized)
struct PoseLandmarkerErrorTests {
    private final class Receiver: PoseLandmarkerLiveStreamDelegate {
        func poseLandmarker(
            _ poseLandmarker: PoseLandmarker, didFinishDetection result: PoseLandmarkerResult?,
            timestampInMilliseconds: Int, error: (any Error)?
        ) {}
    }

    /// The error creating a landmarker throws (a ``TasksError``: the initializer's typed throws).
    private func creationError(_ options: PoseLandmarkerOptions) -> TasksError? {
        do {
            _ = try PoseLandmarker(options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test func wrongMethodForTheModeIsRejectedAndTheTaskStaysUsable() throws {
        guard let model = PoseTestData.liteModel, let image = try PoseTestData.image("astronaut"),
            let cases = try References.errors()
        else { return skipWithoutSharedData("pose model") }
        let onVideo = try #require(cases["pose_detect_on_video_mode_task"])
        let video = try PoseLandmarker(options: PoseTestData.options(model, .video))
        let error = try #require(throws: TasksError.self) { try video.detect(image: image) }
        #expect(error == .runningModeMismatch(expected: .image, actual: .video))
        #expect(error.code == .invalidArgumentError && onVideo.abslStatus == "INVALID_ARGUMENT")
        #expect(error.message.contains("image mode") && error.message.contains("Video"))
        #expect(onVideo.instanceUsableAfterwards == true)
        #expect(try video.detect(videoFrame: image, timestampInMilliseconds: 0).landmarks.count == 1)

        let onImage = try #require(cases["pose_detect_for_video_on_image_mode_task"])
        let still = try PoseLandmarker(options: PoseTestData.options(model))
        let second = try #require(throws: TasksError.self) {
            try still.detect(videoFrame: image, timestampInMilliseconds: 0)
        }
        #expect(second == .runningModeMismatch(expected: .video, actual: .image))
        #expect(second.code == .invalidArgumentError && onImage.abslStatus == "INVALID_ARGUMENT")
        #expect(onImage.instanceUsableAfterwards == true)
        #expect(try still.detect(image: image).landmarks.count == 1)
        #expect(throws: TasksError.runningModeMismatch(expected: .liveStream, actual: .image)) {
            try still.detectAsync(image: image, timestampInMilliseconds: 0)
        }
    }

    @Test func timestampsMustIncreaseAndTheMessageNamesBoth() throws {
        guard let model = PoseTestData.liteModel, let image = try PoseTestData.image("astronaut"),
            let cases = try References.errors()
        else { return skipWithoutSharedData("pose model") }
        let reference = try #require(cases["pose_detect_for_video_non_increasing_timestamp"])
        let landmarker = try PoseLandmarker(options: PoseTestData.options(model, .video))
        _ = try landmarker.detect(videoFrame: image, timestampInMilliseconds: 100)
        for (attempt, timestamp) in [(reference.equalTimestamp, 100), (reference.smallerTimestamp, 50)] {
            let expected = try #require(attempt)
            let error = try #require(throws: TasksError.self) {
                try landmarker.detect(videoFrame: image, timestampInMilliseconds: timestamp)
            }
            #expect(error == .nonIncreasingTimestamp(previous: 100, received: timestamp))
            #expect(error.code == .invalidArgumentError && expected.abslStatus == "INVALID_ARGUMENT")
            #expect(error.message.hasPrefix(try #require(expected.message)))
            #expect(error.message.contains("100") && error.message.contains("\(timestamp)"))
            #expect(error.localizedDescription.hasPrefix("INVALID_ARGUMENT: "))
        }
        // Usable afterwards with a later timestamp (errors.json: instance_usable_afterwards_with_ts_133).
        #expect(try landmarker.detect(videoFrame: image, timestampInMilliseconds: 133).timestampInMilliseconds == 133)
    }

    @Test func liveStreamRejectsNonIncreasingTimestampsAtOnce() throws {
        guard let model = PoseTestData.liteModel, let image = try PoseTestData.image("astronaut") else {
            return skipWithoutSharedData("pose model")
        }
        let receiver = Receiver()
        let options = PoseTestData.options(model, .liveStream)
        options.poseLandmarkerLiveStreamDelegate = receiver
        let landmarker = try PoseLandmarker(options: options)
        try landmarker.detectAsync(image: image, timestampInMilliseconds: 10)
        #expect(throws: TasksError.nonIncreasingTimestamp(previous: 10, received: 10)) {
            try landmarker.detectAsync(image: image, timestampInMilliseconds: 10)
        }
        #expect(throws: TasksError.runningModeMismatch(expected: .video, actual: .liveStream)) {
            try landmarker.detect(videoFrame: image, timestampInMilliseconds: 20)
        }
        landmarker.waitUntilIdle()
    }

    @Test func delegateMustMatchTheRunningMode() throws {
        let receiver = Receiver()
        for mode in [RunningMode.image, .video] {
            let options = PoseTestData.options("unused.task", mode)
            options.poseLandmarkerLiveStreamDelegate = receiver
            let error = creationError(options)
            #expect(error == .delegateNotAllowed(runningMode: mode))
            #expect(error?.code == .invalidArgumentError)
        }
        let error = creationError(PoseTestData.options("unused.task", .liveStream))
        #expect(error == .delegateMissing)
        #expect(error?.message.contains("live stream mode") == true)
    }

    @Test func invalidOptionsAreRejectedWithTheOptionsName() {
        let cases: [(String, (PoseLandmarkerOptions) -> Void)] = [
            ("numPoses", { $0.numPoses = 0 }),
            ("numPoses", { $0.numPoses = -3 }),
            ("minPoseDetectionConfidence", { $0.minPoseDetectionConfidence = -0.1 }),
            ("minPoseDetectionConfidence", { $0.minPoseDetectionConfidence = .nan }),
            ("minPosePresenceConfidence", { $0.minPosePresenceConfidence = 1.5 }),
            ("minTrackingConfidence", { $0.minTrackingConfidence = -1 }),
        ]
        for (name, change) in cases {
            let options = PoseTestData.options("unused.task")
            change(options)
            guard case .invalidOption(let option, let message)? = creationError(options) else {
                Issue.record("\(name): no invalid-option error")
                continue
            }
            #expect(option == name)
            #expect(message.contains(name))
        }
        // MediaPipe's own wording for the presence threshold (pose_landmarks_detector_graph.cc).
        let options = PoseTestData.options("unused.task")
        options.minPosePresenceConfidence = 2
        #expect(
            creationError(options)?.message.hasPrefix(
                "Invalid `min_detection_confidence` option: value must be in the range [0.0, 1.0]") == true)
        options.minPosePresenceConfidence = 0.5
        options.numPoses = 0
        #expect(creationError(options)?.message.hasPrefix("max_vec_size should be greater than or equal to 1.") == true)
    }

    @Test func missingOrUnreadableModelsAreReported() throws {
        let options = PoseLandmarkerOptions()
        #expect(creationError(options) == .missingModelPath)
        options.baseOptions.modelAssetPath = ""
        #expect(creationError(options) == .missingModelPath)

        options.baseOptions.modelAssetPath = "/nonexistent/pose_landmarker.task"
        let missing = creationError(options)
        #expect(missing?.code == .notFoundError)
        guard case .modelFileNotFound? = missing else {
            Issue.record("expected modelFileNotFound, got \(String(describing: missing))")
            return
        }

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pose-errors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let garbage = directory.appendingPathComponent("garbage.task")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }).write(to: garbage)
        options.baseOptions.modelAssetPath = garbage.path
        #expect(creationError(options)?.code == .invalidArgumentError)

        guard let model = PoseTestData.fullModel else { return skipWithoutSharedData("pose model") }
        let truncated = directory.appendingPathComponent("truncated.task")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: model))
        try bytes.prefix(bytes.count / 2).write(to: truncated)
        options.baseOptions.modelAssetPath = truncated.path
        let error = creationError(options)
        #expect(error != nil && error?.code != .notFoundError)
    }

    @Test func bundleWithoutThePoseModelsNamesTheMissingMember() throws {
        guard let hands = SharedData.path("models/hand_landmarker.task") else {
            return skipWithoutSharedData("hand_landmarker.task")
        }
        let error = creationError(PoseTestData.options(hands))
        #expect(error?.code == .notFoundError)
        guard case .bundleMemberNotFound(let name, let members)? = error else {
            Issue.record("expected bundleMemberNotFound, got \(String(describing: error))")
            return
        }
        #expect(name == "pose_detector.tflite")
        #expect(members.contains("hand_detector.tflite"))
        #expect(error?.message.contains("pose_detector.tflite") == true)
    }
}
