import Imaging

/// MediaPipe's letterbox removal for landmarks and detections: maps tensor-normalized
/// coordinates of a letterboxed tensor back to the ROI
/// (mediapipe/calculators/util/landmark_letterbox_removal_calculator.cc,
/// mediapipe/calculators/util/detection_letterbox_removal_calculator.cc; ../shared/spec/PIPELINES.md §1.4).
enum LetterboxRemoval {
    /// x' = (x − l)/(1 − (l + r)), y' = (y − t)/(1 − (t + b)), z' = z/(1 − (l + r))
    /// (``LetterboxPadding/removing(x:y:)`` and ``LetterboxPadding/scale``).
    static func remove(_ padding: LetterboxPadding, from landmarks: [NormalizedLandmark]) -> [NormalizedLandmark] {
        let scale = padding.scale
        return landmarks.map { landmark in
            var result = landmark
            (result.x, result.y) = padding.removing(x: landmark.x, y: landmark.y)
            result.z = landmark.z / scale.x
            return result
        }
    }

    /// The same mapping for a detection's box corner, size and keypoints.
    static func remove(_ padding: LetterboxPadding, from detection: PipelineDetection) -> PipelineDetection {
        let scale = padding.scale
        var result = detection
        let corner = padding.removing(x: detection.box.xMin, y: detection.box.yMin)
        result.box = RelativeBox(
            xMin: corner.x, yMin: corner.y, width: detection.box.width / scale.x, height: detection.box.height / scale.y
        )
        result.keypoints = detection.keypoints.map { point in
            let moved = padding.removing(x: point.x, y: point.y)
            return SIMD2(moved.x, moved.y)
        }
        return result
    }
}
