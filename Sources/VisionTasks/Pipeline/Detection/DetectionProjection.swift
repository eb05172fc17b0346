/// MediaPipe's `DetectionProjectionCalculator`: maps detections from tensor-normalized to
/// image-normalized coordinates with the image-to-tensor matrix
/// (mediapipe/calculators/util/detection_projection_calculator.cc, PIPELINES.md §1.5).
enum DetectionProjection {
    /// Keypoints go through the 2D affine part of `matrix`; the box becomes the axis-aligned
    /// hull of its four mapped corners.
    static func project(_ detection: PipelineDetection, with matrix: TransformMatrix) -> PipelineDetection {
        var projected = detection
        projected.keypoints = detection.keypoints.map { point in
            let mapped = matrix.apply(x: point.x, y: point.y)
            return SIMD2(mapped.x, mapped.y)
        }
        let box = detection.box
        let corners = [
            matrix.apply(x: box.xMin, y: box.yMin), matrix.apply(x: box.xMax, y: box.yMin),
            matrix.apply(x: box.xMax, y: box.yMax), matrix.apply(x: box.xMin, y: box.yMax),
        ]
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let xMin = xs.min() ?? 0, xMax = xs.max() ?? 0, yMin = ys.min() ?? 0, yMax = ys.max() ?? 0
        projected.box = RelativeBox(xMin: xMin, yMin: yMin, width: xMax - xMin, height: yMax - yMin)
        return projected
    }
}
