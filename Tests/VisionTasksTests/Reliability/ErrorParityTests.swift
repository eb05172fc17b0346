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
        "face_landmarker_num_faces_0": "FaceLandmarkerErrorTests.numFacesBelowOneIsRejected",
        "face_landmarker_num_faces_-1": "FaceLandmarkerErrorTests.numFacesBelowOneIsRejected",
        "face_landmarker_min_face_detection_confidence_1.5":
            "FaceLandmarkerErrorTests.confidencesOutsideZeroToOneAreRejectedUnderTheirOwnNames",
        "face_landmarker_min_face_detection_confidence_-0.1":
            "FaceLandmarkerErrorTests.confidencesOutsideZeroToOneAreRejectedUnderTheirOwnNames",
        "face_landmarker_min_face_presence_confidence_1.5":
            "FaceLandmarkerErrorTests.confidencesOutsideZeroToOneAreRejectedUnderTheirOwnNames",
        "face_landmarker_min_face_presence_confidence_-0.1":
            "FaceLandmarkerErrorTests.confidencesOutsideZeroToOneAreRejectedUnderTheirOwnNames",
        "face_landmarker_min_tracking_confidence_1.5":
            "FaceLandmarkerErrorTests.confidencesOutsideZeroToOneAreRejectedUnderTheirOwnNames",
        "face_landmarker_min_tracking_confidence_-0.1":
            "FaceLandmarkerErrorTests.confidencesOutsideZeroToOneAreRejectedUnderTheirOwnNames",
        "face_landmarker_bundle_without_face_detector":
            "FaceLandmarkerErrorTests.aBundleWithoutAModelNamesTheMissingMember",
        "face_landmarker_bundle_without_face_landmarks_detector":
            "FaceLandmarkerErrorTests.aBundleWithoutAModelNamesTheMissingMember",
        "face_landmarker_bundle_without_face_blendshapes":
            "FaceLandmarkerErrorTests.blendshapesNeedTheirModelOnlyWhenAskedFor",
        "face_landmarker_bundle_without_face_blendshapes_output_face_blendshapes":
            "FaceLandmarkerErrorTests.blendshapesNeedTheirModelOnlyWhenAskedFor",
        "face_landmarker_bundle_without_geometry_pipeline_metadata_landmarks":
            "FaceLandmarkerErrorTests.matricesNeedTheGeometryFileOnlyWhenAskedFor",
        "face_landmarker_bundle_without_geometry_pipeline_metadata_landmarks_output_facial_transformation_matrixes":
            "FaceLandmarkerErrorTests.matricesNeedTheGeometryFileOnlyWhenAskedFor",
        "face_landmarker_given_face_detector_tflite": "FaceLandmarkerErrorTests.aPlainModelFileIsNotABundle",
        "face_landmarker_detect_for_video_non_increasing_timestamp":
            "FaceLandmarkerErrorTests.videoTimestampsMustIncrease",
        "face_landmarker_detect_on_video_mode_task":
            "FaceLandmarkerErrorTests.wrongMethodForTheModeIsRejectedAndTheLandmarkerStaysUsable",
        "face_landmarker_detect_for_video_on_image_mode_task":
            "FaceLandmarkerErrorTests.wrongMethodForTheModeIsRejectedAndTheLandmarkerStaysUsable",
        "image_segmenter_no_mask_requested": "ImageSegmenterErrorTests.neitherMaskIsAnErrorAtCreation",
        "image_segmenter_given_face_detector_model": "ImageSegmenterErrorTests.aModelWithoutMaskOutputIsRefused",
        "image_segmenter_segment_for_video_non_increasing_timestamp":
            "ImageSegmenterErrorTests.videoTimestampsMustIncrease",
        "image_segmenter_segment_on_video_mode_task":
            "ImageSegmenterErrorTests.wrongMethodForTheModeIsRejectedAndTheSegmenterStaysUsable",
        "image_segmenter_segment_for_video_on_image_mode_task":
            "ImageSegmenterErrorTests.wrongMethodForTheModeIsRejectedAndTheSegmenterStaysUsable",
    ]
    /// Cases MediaPipe accepts without an error. This package rejects the out-of-range options
    /// among them (docs/DIFFERENCES.md); their tests say which.
    static let acceptedByMediaPipe: Set<String> = [
        "face_detector_min_detection_confidence_1.5", "face_detector_min_detection_confidence_-0.1",
        "face_detector_min_suppression_threshold_1.5", "face_detector_min_suppression_threshold_-0.1",
        "image_segmenter_given_face_detector_model", "face_landmarker_min_face_detection_confidence_1.5",
        "face_landmarker_min_face_detection_confidence_-0.1", "face_landmarker_min_tracking_confidence_1.5",
        "face_landmarker_min_tracking_confidence_-0.1", "face_landmarker_bundle_without_face_blendshapes",
        "face_landmarker_bundle_without_geometry_pipeline_metadata_landmarks",
    ]

    /// The cases MediaPipe raises with another status than INVALID_ARGUMENT (ValueError in
    /// Python): a missing bundle member, and a graph validation failure whose status Python
    /// does not report.
    static let otherStatus: [String: String] = [
        "face_landmarker_bundle_without_face_detector": "NOT_FOUND",
        "face_landmarker_bundle_without_face_landmarks_detector": "NOT_FOUND",
        "face_landmarker_bundle_without_geometry_pipeline_metadata_landmarks_output_facial_transformation_matrixes":
            "NOT_FOUND",
        "face_landmarker_given_face_detector_tflite": "NOT_FOUND",
        "face_landmarker_num_faces_0": "UNKNOWN/FAILED_PRECONDITION/INTERNAL/...",
        "face_landmarker_num_faces_-1": "UNKNOWN/FAILED_PRECONDITION/INTERNAL/...",
    ]

    @Test func everyReferenceCaseHasATest() throws {
        guard let cases = try References.errors() else { return skipWithoutSharedData("errors.json") }
        let covered = Set(Self.coveredElsewhere.keys)
        let built = Set(cases.keys)
        #expect(
            built.subtracting(covered).isEmpty,
            "errors.json cases without a test: \(built.subtracting(covered).sorted())")
        #expect(
            covered.isSubset(of: built),
            "tests of cases errors.json no longer has: \(covered.subtracting(built).sorted())")
        // Every other case raises in MediaPipe, with INVALID_ARGUMENT (ValueError in Python)
        // unless `otherStatus` says otherwise.
        for name in built.sorted() {
            guard let entry = cases[name] else { continue }
            if Self.acceptedByMediaPipe.contains(name) {
                #expect(entry.raised == false, "\(name): MediaPipe now raises; drop it from acceptedByMediaPipe")
                continue
            }
            for attempt in [entry.equalTimestamp, entry.smallerTimestamp].compactMap({ $0 }) {
                #expect(attempt.raised == true && attempt.abslStatus == "INVALID_ARGUMENT", "\(name)")
            }
            if entry.equalTimestamp == nil {
                let status = Self.otherStatus[name] ?? "INVALID_ARGUMENT"
                #expect(entry.raised == true && entry.abslStatus == status, "\(name): \(entry.abslStatus ?? "-")")
            }
        }
    }
}
