import Foundation
import Imaging

/// A 4×4 row-major matrix mapping tensor-normalized coordinates (u, v) to image-normalized
/// coordinates: MediaPipe's image-to-tensor `MATRIX` output
/// (mediapipe/calculators/tensor/image_to_tensor_utils.cc `GetRotatedSubRectToRectTransformMatrix`).
package struct TransformMatrix: Sendable, Hashable {
    /// The 16 entries, row by row.
    package var values: [Float]

    package init(values: [Float]) {
        self.values = values
    }

    /// The identity.
    package static let identity = TransformMatrix(values: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])

    /// The matrix that maps the tensor made from `roi` (already letterbox-grown) back onto an
    /// image of `imageSize`: x = (e + (u−½)·a·cos r − (v−½)·b·sin r) / W, and likewise for y
    /// (PIPELINES.md §1.3 step 7).
    package init(subRect roi: RotatedRect, imageSize: ImageSize) {
        let a = roi.width, b = roi.height
        let c = CorrectlyRounded.cos(roi.rotation), d = CorrectlyRounded.sin(roi.rotation)
        let e = roi.centerX, f = roi.centerY
        let g = 1 / Float(imageSize.width), h = 1 / Float(imageSize.height)
        values = [
            a * c * g, -b * d * g, 0, (-0.5 * a * c + 0.5 * b * d + e) * g,
            a * d * h, b * c * h, 0, (-0.5 * b * c - 0.5 * a * d + f) * h,
            0, 0, a * g, 0,
            0, 0, 0, 1,
        ]
    }

    /// Maps a point through the 2D affine part (entries 0, 1, 3 and 4, 5, 7).
    package func apply(x: Float, y: Float) -> (x: Float, y: Float) {
        (x * values[0] + y * values[1] + values[3], x * values[4] + y * values[5] + values[7])
    }

    /// The inverse of the 2D affine part as a matrix of the same layout (z row and column
    /// left as identity), or `nil` when the affine part is singular.
    package func inverseAffine() -> TransformMatrix? {
        let m0 = Double(values[0]), m1 = Double(values[1]), m3 = Double(values[3])
        let m4 = Double(values[4]), m5 = Double(values[5]), m7 = Double(values[7])
        let determinant = m0 * m5 - m1 * m4
        guard determinant != 0, determinant.isFinite else { return nil }
        let i0 = m5 / determinant, i1 = -m1 / determinant
        let i4 = -m4 / determinant, i5 = m0 / determinant
        let i3 = -(i0 * m3 + i1 * m7), i7 = -(i4 * m3 + i5 * m7)
        return TransformMatrix(values: [
            Float(i0), Float(i1), 0, Float(i3),
            Float(i4), Float(i5), 0, Float(i7),
            0, 0, 1, 0,
            0, 0, 0, 1,
        ])
    }
}
