/// MediaPipe's image-to-tensor `MATRIX`: a row-major 4×4 matrix that maps tensor-normalized
/// (u, v) in [0, 1] (letterbox included) to image-normalized coordinates; the z row scales z by
/// crop width / image width.
///
/// Built by ``CropGeometry/matrix`` for every conversion; the task pipelines project detections,
/// landmarks and masks with it.
package struct CropMatrix: Sendable, Hashable {
    /// The 16 entries, row by row.
    package var values: SIMD16<Float>

    /// A matrix with these entries.
    package init(values: SIMD16<Float>) {
        self.values = values
    }

    /// The identity.
    package static let identity = CropMatrix(values: SIMD16(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))

    /// The matrix of a crop `region` (already grown by the letterbox) of an image
    /// `imageWidth` × `imageHeight`: x = (e + (u − ½)·a·cos r − (v − ½)·b·sin r) / W, and likewise
    /// for y, computed in float exactly as
    /// MP:mediapipe/calculators/tensor/image_to_tensor_utils.cc
    /// `GetRotatedSubRectToRectTransformMatrix` (no horizontal flip).
    package init(region: RotatedPixelRect, imageWidth: Int, imageHeight: Int) {
        let a = region.width
        let b = region.height
        let c = CorrectlyRounded.cos(region.rotation)
        let d = CorrectlyRounded.sin(region.rotation)
        let e = region.centerX
        let f = region.centerY
        let g = 1 / Float(imageWidth)
        let h = 1 / Float(imageHeight)
        var m = SIMD16<Float>(repeating: 0)
        m[0] = a * c * g
        m[1] = -b * d * g
        m[3] = (-0.5 * a * c + 0.5 * b * d + e) * g
        m[4] = a * d * h
        m[5] = b * c * h
        m[7] = (-0.5 * b * c - 0.5 * a * d + f) * h
        m[10] = a * g
        m[15] = 1
        values = m
    }

    /// Entry `index` (0…15, row by row).
    package subscript(index: Int) -> Float { values[index] }

    /// Maps a point through the 2D affine part (entries 0, 1, 3 and 4, 5, 7): what MediaPipe's
    /// DetectionProjectionCalculator does to keypoints and box corners.
    package func apply(x: Float, y: Float) -> (x: Float, y: Float) {
        (x * values[0] + y * values[1] + values[3], x * values[4] + y * values[5] + values[7])
    }

    /// The inverse of the 2D affine part as a matrix of the same layout (z row and column left as
    /// identity), computed in double; `nil` when the affine part is singular.
    package func inverseAffine() -> CropMatrix? {
        let m0 = Double(values[0])
        let m1 = Double(values[1])
        let m3 = Double(values[3])
        let m4 = Double(values[4])
        let m5 = Double(values[5])
        let m7 = Double(values[7])
        let determinant = m0 * m5 - m1 * m4
        guard determinant != 0, determinant.isFinite else { return nil }
        let i0 = m5 / determinant
        let i1 = -m1 / determinant
        let i4 = -m4 / determinant
        let i5 = m0 / determinant
        let i3 = -(i0 * m3 + i1 * m7)
        let i7 = -(i4 * m3 + i5 * m7)
        return CropMatrix(
            values: SIMD16(
                Float(i0), Float(i1), 0, Float(i3),
                Float(i4), Float(i5), 0, Float(i7),
                0, 0, 1, 0,
                0, 0, 0, 1))
    }
}
