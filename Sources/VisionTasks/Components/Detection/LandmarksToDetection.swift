/// MediaPipe's `LandmarksToDetectionCalculator`: every landmark becomes a keypoint, in order,
/// and the box is their min/max hull (mediapipe/calculators/util/landmarks_to_detection_calculator.cc).
enum LandmarksToDetection {
    static func detection(from landmarks: [NormalizedLandmark]) -> PipelineDetection {
        var xMin = Float.greatestFiniteMagnitude
        var yMin = Float.greatestFiniteMagnitude
        var xMax = -Float.greatestFiniteMagnitude
        var yMax = -Float.greatestFiniteMagnitude
        var keypoints: [SIMD2<Float>] = []
        keypoints.reserveCapacity(landmarks.count)
        for landmark in landmarks {
            xMin = min(xMin, landmark.x)
            yMin = min(yMin, landmark.y)
            xMax = max(xMax, landmark.x)
            yMax = max(yMax, landmark.y)
            keypoints.append(SIMD2(landmark.x, landmark.y))
        }
        if landmarks.isEmpty { (xMin, yMin, xMax, yMax) = (0, 0, 0, 0) }
        return PipelineDetection(
            score: 0, classIndex: 0,
            box: RelativeBox(xMin: xMin, yMin: yMin, width: xMax - xMin, height: yMax - yMin),
            keypoints: keypoints)
    }
}
