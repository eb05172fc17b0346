import Imaging

@testable import VisionTasks

/// Whether `a` and `b` differ by at most `tolerance`.
func close(_ a: Float, _ b: Float, _ tolerance: Float = 1e-5) -> Bool {
    abs(a - b) <= tolerance
}

func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    abs(a - b) <= tolerance
}

func close(_ a: NormalizedRect, _ b: NormalizedRect, _ tolerance: Float = 1e-5) -> Bool {
    close(a.xCenter, b.xCenter, tolerance) && close(a.yCenter, b.yCenter, tolerance)
        && close(a.width, b.width, tolerance) && close(a.height, b.height, tolerance)
        && close(a.rotation, b.rotation, tolerance)
}

func close(_ a: RelativeBox, _ b: RelativeBox, _ tolerance: Float = 1e-5) -> Bool {
    close(a.xMin, b.xMin, tolerance) && close(a.yMin, b.yMin, tolerance)
        && close(a.width, b.width, tolerance) && close(a.height, b.height, tolerance)
}

func close(_ a: SIMD2<Float>, _ b: SIMD2<Float>, _ tolerance: Float = 1e-5) -> Bool {
    close(a.x, b.x, tolerance) && close(a.y, b.y, tolerance)
}

/// A detection with a box and optional keypoints for pipeline tests.
func detection(
    _ xMin: Float, _ yMin: Float, _ width: Float, _ height: Float, score: Float = 1, classIndex: Int = 0,
    keypoints: [SIMD2<Float>] = []
) -> PipelineDetection {
    PipelineDetection(
        score: score, classIndex: classIndex, box: RelativeBox(xMin: xMin, yMin: yMin, width: width, height: height),
        keypoints: keypoints)
}
