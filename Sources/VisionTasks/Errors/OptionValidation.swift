/// One check of a task's options; a task lists its own in ``VisionTaskOptions/optionRules``.
package enum OptionRule: Sendable {
    /// A confidence in 0…1 (``OptionValidation/checkConfidence(_:option:protoName:)``).
    case confidence(Float, option: String, protoName: String)
    /// A result count of at least 1 (``OptionValidation/checkResultCount(_:option:)``).
    case resultCount(Int, option: String)
    /// `maxResults` other than 0 (``OptionValidation/checkMaxResults(_:)``).
    case maxResults(Int)
    /// At most one non-empty category list (``OptionValidation/checkCategoryLists(allowlist:denylist:)``).
    case exclusiveCategoryLists(allowlist: [String], denylist: [String])
    /// The hand tracking IoU threshold in (0, 1] outside image mode
    /// (``OptionValidation/checkHandTrackingConfidence(_:runningMode:)``).
    case handTrackingConfidence(Float)
    /// At least one of the image segmenter's masks (``OptionValidation/checkSomeMaskRequested(confidence:category:)``).
    case someMaskRequested(confidence: Bool, category: Bool)
}

/// Checks of task options shared by the tasks, each throwing the error MediaPipe gives for the
/// same mistake.
package enum OptionValidation {
    /// Every check of `options`, the same way for every task: the live-stream delegate against
    /// the running mode first, then the task's rules in their order.
    package static func check(_ options: some VisionTaskOptions) throws(TasksError) {
        try checkDelegate(runningMode: options.runningMode, hasDelegate: options.liveStreamDelegate != nil)
        for rule in options.optionRules {
            switch rule {
            case .confidence(let value, let option, let protoName):
                try checkConfidence(value, option: option, protoName: protoName)
            case .resultCount(let value, let option):
                try checkResultCount(value, option: option)
            case .maxResults(let value):
                try checkMaxResults(value)
            case .exclusiveCategoryLists(let allowlist, let denylist):
                try checkCategoryLists(allowlist: allowlist, denylist: denylist)
            case .handTrackingConfidence(let value):
                try checkHandTrackingConfidence(value, runningMode: options.runningMode)
            case .someMaskRequested(let confidence, let category):
                try checkSomeMaskRequested(confidence: confidence, category: category)
            }
        }
    }

    /// An image segmenter must output at least one kind of mask; MediaPipe's graph refuses to
    /// start otherwise (image_segmenter_graph.cc: "At least one of CONFIDENCE_MASK,
    /// CONFIDENCE_MASKS and CATEGORY_MASK must be connected.").
    package static func checkSomeMaskRequested(confidence: Bool, category: Bool) throws(TasksError) {
        guard confidence || category else {
            throw .invalidOption(
                option: "shouldOutputConfidenceMasks",
                message:
                    "At least one of CONFIDENCE_MASK, CONFIDENCE_MASKS and CATEGORY_MASK must be connected: "
                    + "shouldOutputConfidenceMasks and shouldOutputCategoryMask are both false.")
        }
    }

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
