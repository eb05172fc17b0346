import Foundation
import Imaging

/// MediaPipe's conversions from a detection to a normalized rect
/// (mediapipe/calculators/util/detections_to_rects_calculator.cc,
/// mediapipe/calculators/util/alignment_points_to_rects_calculator.cc; ../shared/spec/PIPELINES.md §1.11).
enum DetectionToRect {
    /// `DetectionsToRectsCalculator`: the detection's box as a rect, rotated by `rotation`
    /// when given.
    static func rect(
        for detection: PipelineDetection, rotation: RotationVector?, imageSize: ImageSize
    ) throws(TasksError) -> NormalizedRect {
        let box = detection.box
        var rect = NormalizedRect(
            xCenter: box.xMin + box.width / 2, yCenter: box.yMin + box.height / 2,
            width: box.width, height: box.height)
        if let rotation {
            rect.rotation = try angle(of: detection, rotation, imageSize: imageSize)
        }
        return rect
    }

    /// `DetectionsToRectsCalculator` over a list. With `zeroRectWhenEmpty`
    /// (`output_zero_rect_for_empty_detections`) an empty list gives one all-zero rect.
    static func rects(
        for detections: [PipelineDetection], rotation: RotationVector?, imageSize: ImageSize,
        zeroRectWhenEmpty: Bool
    ) throws(TasksError) -> [NormalizedRect] {
        if detections.isEmpty {
            return zeroRectWhenEmpty ? [NormalizedRect(xCenter: 0, yCenter: 0, width: 0, height: 0)] : []
        }
        var rects: [NormalizedRect] = []
        rects.reserveCapacity(detections.count)
        for detection in detections {
            rects.append(try rect(for: detection, rotation: rotation, imageSize: imageSize))
        }
        return rects
    }

    /// `AlignmentPointsRectsCalculator`: a square (in pixels) centred on keypoint
    /// `alignment.start`, with side twice the pixel distance to keypoint `alignment.end`,
    /// rotated as the vector between them demands.
    static func alignmentPointsRect(
        for detection: PipelineDetection, alignment: RotationVector, imageSize: ImageSize
    ) throws(TasksError) -> NormalizedRect {
        let (start, end) = try keypoints(of: detection, alignment)
        let width = Float(imageSize.width)
        let height = Float(imageSize.height)
        let xCenter = start.x * width
        let yCenter = start.y * height
        let xScale = end.x * width
        let yScale = end.y * height
        let dx = xScale - xCenter
        let dy = yScale - yCenter
        let boxSize = Float(Double((dx * dx + dy * dy).squareRoot()) * 2.0)
        return NormalizedRect(
            xCenter: xCenter / width, yCenter: yCenter / height,
            width: boxSize / width, height: boxSize / height,
            rotation: try angle(of: detection, alignment, imageSize: imageSize))
    }

    /// `NormalizeRadians(target − atan2(−(y1 − y0), x1 − x0))` on the keypoints in pixels.
    static func angle(
        of detection: PipelineDetection, _ rotation: RotationVector, imageSize: ImageSize
    ) throws(TasksError) -> Float {
        let (start, end) = try keypoints(of: detection, rotation)
        let width = Float(imageSize.width)
        let height = Float(imageSize.height)
        let x0 = start.x * width
        let y0 = start.y * height
        let x1 = end.x * width
        let y1 = end.y * height
        return Radians.normalized(rotation.targetAngle - CorrectlyRounded.atan2(-(y1 - y0), x1 - x0))
    }

    private static func keypoints(
        of detection: PipelineDetection, _ rotation: RotationVector
    ) throws(TasksError) -> (SIMD2<Float>, SIMD2<Float>) {
        let points = detection.keypoints
        guard points.indices.contains(rotation.start), points.indices.contains(rotation.end) else {
            throw .internalError(
                "detection has \(points.count) keypoints; need keypoints \(rotation.start) and \(rotation.end)")
        }
        return (points[rotation.start], points[rotation.end])
    }
}
