/// MediaPipe's letterbox removal for landmarks and detections: maps tensor-normalized
/// coordinates of a letterboxed tensor back to the ROI
/// (mediapipe/calculators/util/landmark_letterbox_removal_calculator.cc,
/// mediapipe/calculators/util/detection_letterbox_removal_calculator.cc; PIPELINES.md §1.4).
enum LetterboxRemoval {
    /// x' = (x − l)/(1 − l − r), y' = (y − t)/(1 − t − b), z' = z/(1 − l − r).
    static func remove(_ padding: LetterboxPadding, from landmarks: [NormalizedLandmark]) -> [NormalizedLandmark] {
        let horizontal = padding.left + padding.right, vertical = padding.top + padding.bottom
        return landmarks.map { landmark in
            var result = landmark
            result.x = (landmark.x - padding.left) / (1 - horizontal)
            result.y = (landmark.y - padding.top) / (1 - vertical)
            result.z = landmark.z / (1 - horizontal)
            return result
        }
    }

    /// The same mapping for a detection's box corner, size and keypoints.
    static func remove(_ padding: LetterboxPadding, from detection: PipelineDetection) -> PipelineDetection {
        let horizontal = padding.left + padding.right, vertical = padding.top + padding.bottom
        var result = detection
        result.box = RelativeBox(
            xMin: (detection.box.xMin - padding.left) / (1 - horizontal),
            yMin: (detection.box.yMin - padding.top) / (1 - vertical),
            width: detection.box.width / (1 - horizontal),
            height: detection.box.height / (1 - vertical))
        result.keypoints = detection.keypoints.map { point in
            SIMD2((point.x - padding.left) / (1 - horizontal), (point.y - padding.top) / (1 - vertical))
        }
        return result
    }
}
