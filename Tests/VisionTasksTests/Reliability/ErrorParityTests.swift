import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// Every case of ../shared/reference/errors.json against the equivalent call of our tasks: the
/// same kind (a `TasksError` with MediaPipe's absl status code) and a message with the same facts.
/// Cases also checked elsewhere are listed in `coveredElsewhere` with the test that checks them.
@Suite("Error parity with errors.json", .serialized)
struct ErrorParityTests {
    /// Cases checked by other suites (name → test), so that a new case in errors.json without a
    /// test fails `everyReferenceCaseHasATest`.
    static let coveredElsewhere: [String: String] = [
        "object_detector_model_without_metadata":
            "ObjectDetectorModelInfoTests.aModelWithoutMetadataIsRejectedLikeUpstream",
        "object_detector_allowlist_and_denylist": "ObjectDetectorModelInfoTests.optionErrorsMatchErrorsJSON",
        "object_detector_max_results_0": "ObjectDetectorModelInfoTests.optionErrorsMatchErrorsJSON",
        "pose_detect_for_video_non_increasing_timestamp":
            "PoseLandmarkerErrorTests.timestampsMustIncreaseAndTheMessageNamesBoth",
        "pose_detect_on_video_mode_task":
            "PoseLandmarkerErrorTests.wrongMethodForTheModeIsRejectedAndTheTaskStaysUsable",
        "pose_detect_for_video_on_image_mode_task":
            "PoseLandmarkerErrorTests.wrongMethodForTheModeIsRejectedAndTheTaskStaysUsable",
        "hand_detect_for_video_non_increasing_timestamp":
            "HandLandmarkerRunningModeTests.videoTimestampsMustIncreaseAsInMediaPipe",
        "hand_detect_on_video_mode_task":
            "HandLandmarkerRunningModeTests.callsOfAnotherModeAreRejectedAndTheTaskStaysUsable",
        "hand_detect_for_video_on_image_mode_task":
            "HandLandmarkerRunningModeTests.callsOfAnotherModeAreRejectedAndTheTaskStaysUsable",
        "od_detect_for_video_non_increasing_timestamp": "ObjectDetectorRunningModeTests.videoTimestampsMustIncrease",
        "od_detect_on_video_mode_task":
            "ObjectDetectorRunningModeTests.wrongMethodForTheModeIsRejectedAndTheDetectorStaysUsable",
        "od_detect_for_video_on_image_mode_task":
            "ObjectDetectorRunningModeTests.wrongMethodForTheModeIsRejectedAndTheDetectorStaysUsable",
        "face_detector_min_detection_confidence_1.5": "FaceDetectorErrorTests.thresholdsOutsideZeroToOneAreRejected",
        "face_detector_min_detection_confidence_-0.1": "FaceDetectorErrorTests.thresholdsOutsideZeroToOneAreRejected",
        "face_detector_min_suppression_threshold_1.5": "FaceDetectorErrorTests.thresholdsOutsideZeroToOneAreRejected",
        "face_detector_min_suppression_threshold_-0.1": "FaceDetectorErrorTests.thresholdsOutsideZeroToOneAreRejected",
        "face_detector_given_face_landmarker_task": "FaceDetectorErrorTests.aBundleIsNotAFaceDetectorModel",
        "face_detector_detect_for_video_non_increasing_timestamp": "FaceDetectorErrorTests.videoTimestampsMustIncrease",
        "face_detector_detect_on_video_mode_task":
            "FaceDetectorErrorTests.wrongMethodForTheModeIsRejectedAndTheDetectorStaysUsable",
        "face_detector_detect_for_video_on_image_mode_task":
            "FaceDetectorErrorTests.wrongMethodForTheModeIsRejectedAndTheDetectorStaysUsable",
        "image_segmenter_no_mask_requested": "ImageSegmenterErrorTests.neitherMaskIsAnErrorAtCreation",
        "image_segmenter_given_face_detector_model": "ImageSegmenterErrorTests.aModelWithoutMaskOutputIsRefused",
        "image_segmenter_segment_for_video_non_increasing_timestamp":
            "ImageSegmenterErrorTests.videoTimestampsMustIncrease",
        "image_segmenter_segment_on_video_mode_task":
            "ImageSegmenterErrorTests.wrongMethodForTheModeIsRejectedAndTheSegmenterStaysUsable",
        "image_segmenter_segment_for_video_on_image_mode_task":
            "ImageSegmenterErrorTests.wrongMethodForTheModeIsRejectedAndTheSegmenterStaysUsable",
    ]
    /// Cases MediaPipe accepts without an error and this package rejects (docs/DIFFERENCES.md).
    static let rejectedHereOnly: Set<String> = [
        "face_detector_min_detection_confidence_1.5", "face_detector_min_detection_confidence_-0.1",
        "face_detector_min_suppression_threshold_1.5", "face_detector_min_suppression_threshold_-0.1",
        "image_segmenter_given_face_detector_model",
    ]

    /// Tasks whose cases errors.json already holds but which are not built yet (name prefix →
    /// the issue that adds the task, and with it the tests of these cases). A case of any other
    /// task without a test fails `everyReferenceCaseHasATest`.
    static let pendingTasks: [String: String] = [
        "face_landmarker_": "#21 FaceLandmarker"
    ]

    @Test func everyReferenceCaseHasATest() throws {
        guard let cases = try References.errors() else { return skipWithoutSharedData("errors.json") }
        let pending = cases.keys.filter { name in Self.pendingTasks.keys.contains { name.hasPrefix($0) } }
        if !pending.isEmpty {
            print(
                "errors.json: \(pending.count) cases of tasks not built yet "
                    + "(\(Self.pendingTasks.values.sorted().joined(separator: ", "))) are not checked"
            )
        }
        let covered = Set(Self.coveredElsewhere.keys)
        let built = Set(cases.keys).subtracting(pending)
        #expect(
            built.subtracting(covered).isEmpty,
            "errors.json cases without a test: \(built.subtracting(covered).sorted())")
        #expect(
            covered.isSubset(of: built),
            "tests of cases errors.json no longer has: \(covered.subtracting(built).sorted())")
        // Every case of the tasks built so far raises in MediaPipe with INVALID_ARGUMENT
        // (ValueError in Python).
        for name in built.sorted() {
            guard let entry = cases[name] else { continue }
            if Self.rejectedHereOnly.contains(name) {
                #expect(entry.raised == false, "\(name): MediaPipe now raises; drop it from rejectedHereOnly")
                continue
            }
            for attempt in [entry.equalTimestamp, entry.smallerTimestamp].compactMap({ $0 }) {
                #expect(attempt.raised == true && attempt.abslStatus == "INVALID_ARGUMENT", "\(name)")
            }
            if entry.equalTimestamp == nil {
                #expect(entry.raised == true && entry.abslStatus == "INVALID_ARGUMENT", "\(name)")
            }
        }
    }
}
