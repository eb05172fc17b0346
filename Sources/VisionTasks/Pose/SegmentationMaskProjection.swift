import Foundation

/// Turns the pose landmark model's segmentation logits into a mask over the whole input
/// image (mediapipe/calculators/tensor/tensors_to_segmentation_converter_opencv.cc,
/// mediapipe/calculators/image/affine_transformation_runner_opencv.cc; PIPELINES.md §2.6).
///
/// The logits go through a sigmoid at tensor resolution; then each output pixel (X, Y) maps
/// (X/W, Y/H) through the inverse of the ROI's image-to-tensor matrix to (u, v) and samples the
/// mask bilinearly at (u·w, v·h), with 0 outside the mask and no half-pixel shift. OpenCV
/// quantizes the sample position to 1/32 pixel; this uses the exact position (see
/// docs/DIFFERENCES.md).
enum SegmentationMaskProjection {
    /// The mask of `imageSize`, row-major.
    ///
    /// - Parameters:
    ///   - logits: output 2 of the model, `maskWidth × maskHeight` values (one channel).
    ///   - matrix: the image-to-tensor matrix of the ROI (tensor-normalized → image-normalized).
    static func project(
        logits: UnsafeBufferPointer<Float>, maskWidth: Int, maskHeight: Int, matrix: TransformMatrix,
        imageSize: ImageSize
    ) throws(TasksError) -> [Float] {
        guard maskWidth > 0, maskHeight > 0, logits.count >= maskWidth * maskHeight else {
            throw .invalidModel("segmentation output has \(logits.count) values for \(maskWidth)×\(maskHeight)")
        }
        guard imageSize.width > 0, imageSize.height > 0 else {
            throw .invalidImage("image has no pixels")
        }
        guard let inverse = matrix.inverseAffine() else {
            throw .internalError("segmentation: the ROI matrix cannot be inverted")
        }
        var mask = [Float](repeating: 0, count: maskWidth * maskHeight)
        for index in mask.indices { mask[index] = sigmoid(logits[index]) }

        let width = imageSize.width, height = imageSize.height
        // Mask pixel position as an affine function of the output pixel: p = A·(X, Y) + t.
        let m = inverse.values
        let sx = Float(maskWidth), sy = Float(maskHeight)
        let fx = Float(width), fy = Float(height)
        let ax = m[0] / fx * sx, bx = m[1] / fy * sx, tx = m[3] * sx
        let ay = m[4] / fx * sy, by = m[5] / fy * sy, ty = m[7] * sy
        var output = [Float](repeating: 0, count: width * height)
        mask.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let rowX = bx * Float(y) + tx, rowY = by * Float(y) + ty
                    let rowStart = y * width
                    for x in 0..<width {
                        let px = ax * Float(x) + rowX, py = ay * Float(x) + rowY
                        target[rowStart + x] = sample(source, width: maskWidth, height: maskHeight, x: px, y: py)
                    }
                }
            }
        }
        return output
    }

    /// Bilinear sample at (x, y) with a zero border.
    @inline(__always)
    static func sample(_ mask: UnsafeBufferPointer<Float>, width: Int, height: Int, x: Float, y: Float) -> Float {
        guard x > -1, y > -1, x < Float(width), y < Float(height) else { return 0 }
        let x0f = x.rounded(.down), y0f = y.rounded(.down)
        let x0 = Int(x0f), y0 = Int(y0f)
        let wx = x - x0f, wy = y - y0f
        @inline(__always) func value(_ column: Int, _ row: Int) -> Float {
            column >= 0 && column < width && row >= 0 && row < height ? mask[row * width + column] : 0
        }
        let top = value(x0, y0) * (1 - wx) + value(x0 + 1, y0) * wx
        let bottom = value(x0, y0 + 1) * (1 - wx) + value(x0 + 1, y0 + 1) * wx
        return top * (1 - wy) + bottom * wy
    }
}
