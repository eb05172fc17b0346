import Foundation

/// The tensor-pixel → image-pixel mapping of MediaPipe's CPU image-to-tensor converter,
/// computed with the same float and double operations, in the same order, as the OpenCV code
/// it calls, so that sample positions land on the same 1/32-pixel grid points.
///
/// Steps (MP:mediapipe/calculators/tensor/image_to_tensor_converter_opencv.cc):
/// 1. `cv::RotatedRect(center, size, rotation·180/π)` and its four corners
///    (OpenCV core/src/types.cpp `RotatedRect::points`, float arithmetic);
/// 2. `cv::getPerspectiveTransform` from those corners to the tensor corners (an 8×8 linear
///    system solved by LU with partial pivoting);
/// 3. `cv::warpPerspective` inverts it (core/src/lapack.cpp `invert`, closed form for 3×3).
struct PerspectiveMatrix: Sendable, Equatable {
    /// Row-major 3×3 coefficients.
    var m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    /// The inverse map (tensor pixel → image pixel) for `region` and a tensor of
    /// `tensorWidth` × `tensorHeight`, or `nil` when the system is singular.
    static func inverseWarp(region: RotatedPixelRect, tensorWidth: Int, tensorHeight: Int) -> PerspectiveMatrix? {
        let corners = boxPoints(region)
        let width = Float(tensorWidth)
        let height = Float(tensorHeight)
        // Tensor corners matching boxPoints' order: bottom-left, top-left, top-right, bottom-right.
        let targets = Quad((0, height), (0, 0), (width, 0), (width, height))
        guard let forward = perspectiveTransform(from: corners, to: targets) else { return nil }
        return forward.inverted()
    }

    /// Four points, without heap storage.
    struct Quad {
        var points: ((x: Float, y: Float), (x: Float, y: Float), (x: Float, y: Float), (x: Float, y: Float))

        init(
            _ p0: (x: Float, y: Float), _ p1: (x: Float, y: Float), _ p2: (x: Float, y: Float),
            _ p3: (x: Float, y: Float)
        ) {
            points = (p0, p1, p2, p3)
        }

        subscript(index: Int) -> (x: Float, y: Float) {
            switch index {
            case 0: return points.0
            case 1: return points.1
            case 2: return points.2
            default: return points.3
            }
        }
    }

    /// The corners of `region` in OpenCV's order (bottom-left, top-left, top-right,
    /// bottom-right for an unrotated rectangle), in float.
    ///
    /// OpenCV 5's `RotatedRect::points` computes every corner from the center
    /// (center ± a·height ± b·width with a = sin·½, b = cos·½), which differs in the last bit
    /// from the older `2·center − opposite corner`; checked against `cv2.boxPoints` of the
    /// OpenCV 5.1 that MediaPipe 1.2.3 ships with.
    static func boxPoints(_ region: RotatedPixelRect) -> Quad {
        // MediaPipe passes the angle in degrees: float rotation · 180.f / M_PI, stored as float.
        let degrees = Float(Double(region.rotation * 180) / Double.pi)
        let radians = Double(degrees) * Double.pi / 180
        let b = Float(Foundation.cos(radians)) * 0.5
        let a = Float(Foundation.sin(radians)) * 0.5
        let cx = region.centerX
        let cy = region.centerY
        let w = region.width
        let h = region.height
        return Quad(
            (cx - a * h - b * w, cy + b * h - a * w),
            (cx + a * h - b * w, cy - b * h - a * w),
            (cx + a * h + b * w, cy - b * h + a * w),
            (cx - a * h + b * w, cy + b * h + a * w))
    }

    /// `cv::getPerspectiveTransform` with `DECOMP_LU`: the matrix with c22 = 1 mapping each
    /// source point to its target.
    static func perspectiveTransform(from source: Quad, to target: Quad) -> PerspectiveMatrix? {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 72) { storage in
            storage.initialize(repeating: 0)
            let a = UnsafeMutableBufferPointer(rebasing: storage[0..<64])
            let b = UnsafeMutableBufferPointer(rebasing: storage[64..<72])
            for i in 0..<4 {
                let s = source[i]
                let t = target[i]
                a[i * 8 + 0] = Double(s.x)
                a[i * 8 + 1] = Double(s.y)
                a[i * 8 + 2] = 1
                a[(i + 4) * 8 + 3] = Double(s.x)
                a[(i + 4) * 8 + 4] = Double(s.y)
                a[(i + 4) * 8 + 5] = 1
                // The products are float products in OpenCV (Point2f members), widened afterwards.
                a[i * 8 + 6] = Double(-s.x * t.x)
                a[i * 8 + 7] = Double(-s.y * t.x)
                a[(i + 4) * 8 + 6] = Double(-s.x * t.y)
                a[(i + 4) * 8 + 7] = Double(-s.y * t.y)
                b[i] = Double(t.x)
                b[i + 4] = Double(t.y)
            }
            guard solveLU(a, b, size: 8) else { return nil }
            return PerspectiveMatrix(m: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], 1))
        }
    }

    /// Gaussian elimination with partial pivoting, in place, as OpenCV 5 solves the 8×8
    /// system: multipliers from the pivot's reciprocal, row updates `a −= l·pivot row`, then
    /// row-wise back substitution ending with a division by the pivot. (This order reproduces
    /// `cv2.getPerspectiveTransform` bit for bit on thousands of random rectangles.) On
    /// success `b` holds the solution.
    static func solveLU(_ a: UnsafeMutableBufferPointer<Double>, _ b: UnsafeMutableBufferPointer<Double>, size m: Int)
        -> Bool
    {
        let epsilon = Double.ulpOfOne * 100
        for i in 0..<m {
            var pivot = i
            for j in (i + 1)..<max(i + 1, m) where abs(a[j * m + i]) > abs(a[pivot * m + i]) {
                pivot = j
            }
            if abs(a[pivot * m + i]) < epsilon { return false }
            if pivot != i {
                for j in 0..<m { a.swapAt(i * m + j, pivot * m + j) }
                b.swapAt(i, pivot)
            }
            let reciprocal = 1 / a[i * m + i]
            for j in (i + 1)..<max(i + 1, m) {
                let factor = a[j * m + i] * reciprocal
                for k in (i + 1)..<m {
                    a[j * m + k] -= factor * a[i * m + k]
                }
                b[j] -= factor * b[i]
            }
        }
        for i in stride(from: m - 1, through: 0, by: -1) {
            var s = b[i]
            for k in (i + 1)..<max(i + 1, m) {
                s -= a[i * m + k] * b[k]
            }
            b[i] = s / a[i * m + i]
        }
        return true
    }

    /// The inverse by cofactors (`cv::invert` for a 3×3 double matrix), or `nil` when the
    /// determinant is 0.
    func inverted() -> PerspectiveMatrix? {
        let (m00, m01, m02, m10, m11, m12, m20, m21, m22) = m
        let determinant =
            m00 * (m11 * m22 - m12 * m21) - m01 * (m10 * m22 - m12 * m20)
            + m02 * (m10 * m21 - m11 * m20)
        guard determinant != 0, determinant.isFinite else { return nil }
        let d = 1 / determinant
        return PerspectiveMatrix(
            m: (
                (m11 * m22 - m12 * m21) * d,
                (m02 * m21 - m01 * m22) * d,
                (m01 * m12 - m02 * m11) * d,
                (m12 * m20 - m10 * m22) * d,
                (m00 * m22 - m02 * m20) * d,
                (m02 * m10 - m00 * m12) * d,
                (m10 * m21 - m11 * m20) * d,
                (m01 * m20 - m00 * m21) * d,
                (m00 * m11 - m01 * m10) * d
            ))
    }

    static func == (lhs: PerspectiveMatrix, rhs: PerspectiveMatrix) -> Bool {
        lhs.m.0 == rhs.m.0 && lhs.m.1 == rhs.m.1 && lhs.m.2 == rhs.m.2 && lhs.m.3 == rhs.m.3
            && lhs.m.4 == rhs.m.4 && lhs.m.5 == rhs.m.5 && lhs.m.6 == rhs.m.6 && lhs.m.7 == rhs.m.7
            && lhs.m.8 == rhs.m.8
    }
}
