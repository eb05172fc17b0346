import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// The running-mode cases of ../shared/reference/errors.json that every task has
/// (`<prefix>_detect_on_video_mode_task`, `<prefix>_detect_for_video_on_image_mode_task`,
/// `<prefix>_detect_for_video_non_increasing_timestamp`; `segment` instead of `detect` for the
/// segmenter), checked the same way for each task.
enum RunningModeChecks {
    /// A call of the other mode is rejected with MediaPipe's code, and the task stays usable.
    static func wrongMethodIsRejected<Task: DetectingTask>(
        video: Task, still: Task, image: MPImage, cases: [String: ErrorCase], prefix: String, verb: String = "detect"
    ) throws {
        let onVideo = try #require(cases["\(prefix)_\(verb)_on_video_mode_task"])
        let first = try #require(throws: TasksError.self) { try video.detect(image: image) }
        #expect(first == .runningModeMismatch(expected: .image, actual: .video))
        #expect(first.code == .invalidArgumentError && onVideo.abslStatus == "INVALID_ARGUMENT")
        // Upstream: "Task is not initialized with the image mode. Current running mode:video mode";
        // ours carries the same two modes.
        let upstreamFirst = try #require(onVideo.message)
        #expect(upstreamFirst.contains("image mode") && upstreamFirst.contains("video mode"))
        #expect(first.message.contains("image mode") && first.message.lowercased().contains("video"))
        #expect(onVideo.instanceUsableAfterwards == true)
        _ = try video.detect(videoFrame: image, timestampInMilliseconds: 0)

        let onImage = try #require(cases["\(prefix)_\(verb)_for_video_on_image_mode_task"])
        let second = try #require(throws: TasksError.self) {
            try still.detect(videoFrame: image, timestampInMilliseconds: 0)
        }
        #expect(second == .runningModeMismatch(expected: .video, actual: .image))
        #expect(second.code == .invalidArgumentError && onImage.abslStatus == "INVALID_ARGUMENT")
        let upstreamSecond = try #require(onImage.message)
        #expect(upstreamSecond.contains("video mode") && upstreamSecond.contains("image mode"))
        #expect(second.message.contains("video mode") && second.message.lowercased().contains("image"))
        #expect(onImage.instanceUsableAfterwards == true)
        _ = try still.detect(image: image)
        #expect(throws: TasksError.runningModeMismatch(expected: .liveStream, actual: .image)) {
            try still.detectAsync(image: image, timestampInMilliseconds: 0)
        }
    }

    /// An equal and a smaller video timestamp are rejected with MediaPipe's message, and a later
    /// frame is then accepted (errors.json: instance_usable_afterwards_with_ts_133).
    static func videoTimestampsMustIncrease<Task: DetectingTask>(
        _ task: Task, image: MPImage, cases: [String: ErrorCase], prefix: String, verb: String = "detect"
    ) throws {
        let reference = try #require(cases["\(prefix)_\(verb)_for_video_non_increasing_timestamp"])
        _ = try task.detect(videoFrame: image, timestampInMilliseconds: 100)
        for (attempt, timestamp) in [(reference.equalTimestamp, 100), (reference.smallerTimestamp, 50)] {
            let expected = try #require(attempt)
            let error = try #require(throws: TasksError.self) {
                try task.detect(videoFrame: image, timestampInMilliseconds: timestamp)
            }
            #expect(error == .nonIncreasingTimestamp(previous: 100, received: timestamp))
            #expect(error.message.hasPrefix(try #require(expected.message)))
            #expect(error.code == .invalidArgumentError && expected.abslStatus == "INVALID_ARGUMENT")
            #expect(error.message.contains("\(timestamp) ms") && error.message.contains("100 ms"))
        }
        #expect(reference.instanceUsableAfterwardsWithTs133 == true)
        _ = try task.detect(videoFrame: image, timestampInMilliseconds: 133)
    }
}
