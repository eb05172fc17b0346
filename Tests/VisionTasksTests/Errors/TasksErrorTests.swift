import Foundation
import ModelFile
import TestSupport
import Testing

@testable import VisionTasks

@Suite("TasksError")
struct TasksErrorTests {
    @Test func bridgesToNSErrorWithMediaPipeDomainAndCode() {
        let error = TasksError.nonIncreasingTimestamp(previous: 100, received: 50) as NSError
        #expect(error.domain == "com.google.mediapipe.tasks")
        #expect(error.code == 3)
        #expect(
            error.localizedDescription
                == "INVALID_ARGUMENT: Input timestamp must be monotonically increasing. Received 50 ms after 100 ms.")
        let notFound = TasksError.bundleMemberNotFound(name: "pose_detector.tflite", members: ["a.tflite"]) as NSError
        #expect(notFound.code == TasksErrorCode.notFoundError.rawValue)
        #expect(notFound.localizedDescription.hasPrefix("NOT_FOUND: No file with name: pose_detector.tflite."))
    }

    @Test func swiftLayerErrorsCarryTheBareMessage() {
        // MediaPipe's iOS layer creates these without a status prefix (MPPVisionTaskRunner.mm).
        let error = TasksError.delegateMissing as NSError
        #expect(
            error.localizedDescription == "The vision task is in live stream mode. An object must be set as the "
                + "delegate of the task in its options to ensure asynchronous delivery of results.")
        #expect(
            TasksError.delegateNotAllowed(runningMode: .video).errorDescription
                == "The vision task is in image or video mode. The delegate must not be set in the task's options.")
    }

    @Test func codesFollowMediaPipe() {
        #expect(TasksError.missingModelPath.code == .invalidArgumentError)
        #expect(TasksError.modelFileNotFound(path: "/x", reason: nil).code == .notFoundError)
        #expect(TasksError.compressedBundleMember(name: "m").code == .unknownError)
        #expect(TasksError.unsupportedModel("op").code == .unimplementedError)
        #expect(TasksError.internalError("bug").code == .internalError)
        #expect(TasksErrorCode.allCases.map(\.rawValue) == Array(1...20))
    }

    @Test func modelFileErrorsMapToMediaPipeCodes() {
        #expect(
            TasksError(ModelFileError.memberNotFound(name: "hand_detector.tflite", available: ["x"]))
                == .bundleMemberNotFound(name: "hand_detector.tflite", members: ["x"]))
        #expect(TasksError(ModelFileError.compressedMember(name: "x")) == .compressedBundleMember(name: "x"))
        #expect(TasksError(ModelFileError.cannotOpen(path: "/nope", reason: "No such file")).code == .notFoundError)
        #expect(TasksError(ModelFileError.malformed("bad vtable")).code == .invalidArgumentError)
        #expect(TasksError.wrapping(TasksError.delegateMissing) == .delegateMissing)
    }

    @Test func messagesCarryTheFactsOfTheReferenceErrors() throws {
        guard let cases = try References.errors() else {
            skipWithoutSharedData("errors.json")
            return
        }
        func message(_ name: String) throws -> String { try #require(cases[name]?.message) }
        do {
            try OptionValidation.checkMaxResults(0)
            Issue.record("maxResults 0 accepted")
        } catch {
            #expect(error.message == (try message("object_detector_max_results_0")))
        }
        do {
            try OptionValidation.checkCategoryLists(allowlist: ["person"], denylist: ["dog"])
            Issue.record("both lists accepted")
        } catch {
            #expect(error.message == (try message("object_detector_allowlist_and_denylist")))
        }
        for task in ["od", "pose", "hand"] {
            let entry = try #require(cases["\(task)_detect_for_video_non_increasing_timestamp"])
            for attempt in [entry.equalTimestamp, entry.smallerTimestamp] {
                let upstream = try #require(attempt?.message)
                #expect(TasksError.nonIncreasingTimestamp(previous: 100, received: 50).message.hasPrefix(upstream))
                #expect(attempt?.abslStatus == "INVALID_ARGUMENT")
            }
        }
        // The C++ wording differs from iOS's; the facts (expected and actual mode) are the same.
        let wrongMode = try message("pose_detect_on_video_mode_task")
        #expect(wrongMode.contains("image mode") && wrongMode.contains("video mode"))
        let ours = TasksError.runningModeMismatch(expected: .image, actual: .video).message
        #expect(ours.contains("image mode") && ours.contains("Video"))
        let noMetadata = try message("object_detector_model_without_metadata")
        #expect(TasksError.missingMetadata(noMetadata).message == noMetadata)
        #expect(TasksError.missingMetadata(noMetadata).code == .invalidArgumentError)
    }

    @Test func optionChecksRejectBadValues() {
        #expect(throws: TasksError.self) {
            try OptionValidation.checkConfidence(
                1.5, option: "minPosePresenceConfidence", protoName: "min_detection_confidence")
        }
        #expect(throws: Never.self) {
            try OptionValidation.checkConfidence(0, option: "x", protoName: "y")
            try OptionValidation.checkConfidence(1, option: "x", protoName: "y")
            try OptionValidation.checkMaxResults(-1)
            try OptionValidation.checkResultCount(1, option: "numPoses")
            try OptionValidation.checkHandTrackingConfidence(0, runningMode: .image)
        }
        #expect(throws: TasksError.self) { try OptionValidation.checkResultCount(0, option: "numHands") }
        #expect(throws: TasksError.self) { try OptionValidation.checkHandTrackingConfidence(0, runningMode: .video) }
        #expect(throws: TasksError.missingModelPath) { try OptionValidation.modelPath(BaseOptions()) }
        #expect(throws: TasksError.missingModelPath) {
            try OptionValidation.modelPath(BaseOptions(modelAssetPath: ""))
        }
        do {
            try OptionValidation.checkConfidence(
                -0.5, option: "minHandPresenceConfidence", protoName: "min_detection_confidence")
        } catch {
            #expect(
                error.message.hasPrefix(
                    "Invalid `min_detection_confidence` option: value must be in the range [0.0, 1.0]"))
            #expect(error.message.contains("minHandPresenceConfidence"))
        }
    }
}
