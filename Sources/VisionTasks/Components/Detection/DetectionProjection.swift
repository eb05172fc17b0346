import Imaging

/// MediaPipe's `DetectionProjectionCalculator`: maps detections from tensor-normalized to
/// image-normalized coordinates with the image-to-tensor matrix
/// (mediapipe/calculators/util/detection_projection_calculator.cc, ../shared/spec/PIPELINES.md §1.5).
enum DetectionProjection {
    /// Keypoints go through the 2D affine part of `matrix`; the box becomes the axis-aligned
    /// hull of its four mapped corners.
    static func project(_ detection: PipelineDetection, with matrix: CropMatrix) -> PipelineDetection {
        var projected = detection
        projected.keypoints = detection.keypoints.map { point in
            let mapped = matrix.apply(x: point.x, y: point.y)
            return SIMD2(mapped.x, mapped.y)
        }
        projected.box = project(detection.box, with: matrix)
        return projected
    }

    /// The axis-aligned hull of the box's four corners mapped through `matrix`.
    static func project(_ box: RelativeBox, with matrix: CropMatrix) -> RelativeBox {
        let corners = [
            matrix.apply(x: box.xMin, y: box.yMin), matrix.apply(x: box.xMax, y: box.yMin),
            matrix.apply(x: box.xMax, y: box.yMax), matrix.apply(x: box.xMin, y: box.yMax),
        ]
        var xMin = Float.greatestFiniteMagnitude
        var yMin = Float.greatestFiniteMagnitude
        var xMax = -Float.greatestFiniteMagnitude
        var yMax = -Float.greatestFiniteMagnitude
        for corner in corners {
            xMin = min(xMin, corner.x)
            yMin = min(yMin, corner.y)
            xMax = max(xMax, corner.x)
            yMax = max(yMax, corner.y)
        }
        return RelativeBox(xMin: xMin, yMin: yMin, width: xMax - xMin, height: yMax - yMin)
    }
}
