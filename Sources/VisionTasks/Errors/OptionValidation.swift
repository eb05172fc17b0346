/// Checks of task options shared by the tasks, each throwing the error MediaPipe gives for the
/// same mistake.
package enum OptionValidation {
    /// A live-stream delegate must be set in live-stream mode and only there
    /// (mediapipe/tasks/ios/vision/core/sources/MPPVisionTaskRunner.mm).
    package static func checkDelegate(runningMode: RunningMode, hasDelegate: Bool) throws(TasksError) {
        switch runningMode {
        case .image, .video:
            if hasDelegate { throw .delegateNotAllowed(runningMode: runningMode) }
        case .liveStream:
            if !hasDelegate { throw .delegateMissing }
        }
    }

    /// The model path, which must be present and non-empty
    /// (mediapipe/tasks/cc/core/external_file_handler.cc).
    package static func modelPath(_ baseOptions: BaseOptions) throws(TasksError) -> String {
        guard let path = baseOptions.modelAssetPath, !path.isEmpty else { throw .missingModelPath }
        return path
    }

    /// A confidence must lie in 0…1. MediaPipe names the proto field in the message
    /// (e.g. `min_detection_confidence`; pose_landmarks_detector_graph.cc,
    /// hand_landmarks_detector_graph.cc); the Swift name is added.
    package static func checkConfidence(_ value: Float, option: String, protoName: String) throws(TasksError) {
        guard value >= 0, value <= 1 else {
            throw .invalidOption(
                option: option,
                message: "Invalid `\(protoName)` option: value must be in the range [0.0, 1.0] "
                    + "(\(option) is \(value)).")
        }
    }

    /// `maxResults` must not be 0; negative means "all"
    /// (mediapipe/tasks/cc/vision/object_detector/object_detector_graph.cc).
    package static func checkMaxResults(_ value: Int) throws(TasksError) {
        if value == 0 {
            throw .invalidOption(option: "maxResults", message: "Invalid `max_results` option: value must be != 0")
        }
    }

    /// At most one of the allowlist and denylist may be non-empty
    /// (mediapipe/tasks/cc/components/processors/detection_postprocessing_graph.cc).
    package static func checkCategoryLists(allowlist: [String], denylist: [String]) throws(TasksError) {
        if !allowlist.isEmpty, !denylist.isEmpty { throw .mutuallyExclusiveCategoryLists }
    }

    /// `numPoses` / `numHands` must be at least 1; MediaPipe's vector clip fails otherwise
    /// (mediapipe/calculators/core/clip_vector_size_calculator.h).
    package static func checkResultCount(_ value: Int, option: String) throws(TasksError) {
        guard value >= 1 else {
            throw .invalidOption(
                option: option,
                message: "max_vec_size should be greater than or equal to 1. (\(option) is \(value).)")
        }
    }

    /// The hand tracking IoU threshold must lie in (0, 1] in video and live-stream mode.
    /// MediaPipe aborts the process here (a CHECK in hand_association_calculator.cc); this
    /// package throws instead.
    package static func checkHandTrackingConfidence(_ value: Float, runningMode: RunningMode) throws(TasksError) {
        guard runningMode != .image else { return }
        guard value > 0, value <= 1 else {
            throw .invalidOption(
                option: "minTrackingConfidence",
                message: "Invalid `min_tracking_confidence` option: value must be in the range (0.0, 1.0] "
                    + "in video and live stream mode (minTrackingConfidence is \(value)).")
        }
    }
}
