import Foundation
import Imaging

/// Turns the pose landmark model's segmentation logits into a mask over the whole input
/// image (mediapipe/calculators/tensor/tensors_to_segmentation_converter_opencv.cc,
/// mediapipe/calculators/image/affine_transformation_runner_opencv.cc; ../shared/spec/PIPELINES.md §2.6).
///
/// The logits go through a sigmoid at tensor resolution; then each output pixel (X, Y) maps
/// (X/W, Y/H) through the inverse of the ROI's image-to-tensor matrix to (u, v) and samples the
/// mask bilinearly at (u·w, v·h), with 0 outside the mask and no half-pixel shift — OpenCV's
/// `warpAffine` as MediaPipe calls it, including its fixed-point positions (1/32 pixel) and
/// weight table, so the mask agrees with MediaPipe's to float rounding.
enum SegmentationMaskProjection {
    /// The mask of `imageSize`, row-major.
    ///
    /// - Parameters:
    ///   - logits: output 2 of the model, `maskWidth × maskHeight` values (one channel).
    ///   - matrix: the image-to-tensor matrix of the ROI (tensor-normalized → image-normalized).
    static func project(
        logits: UnsafeBufferPointer<Float>, maskWidth: Int, maskHeight: Int, matrix: CropMatrix,
        imageSize: ImageSize
    ) throws(TasksError) -> [Float] {
        try checkSizes(logits: logits, maskWidth: maskWidth, maskHeight: maskHeight, imageSize: imageSize)
        var output = [Float](repeating: 0, count: imageSize.width * imageSize.height)
        try output.withUnsafeMutableBufferPointer { (target) throws(TasksError) in
            try project(
                logits: logits, maskWidth: maskWidth, maskHeight: maskHeight, matrix: matrix, imageSize: imageSize,
                into: target)
        }
        return output
    }

    /// The mask as a ``Mask`` of `imageSize`, filled in place, its rows shared out to `threads`.
    static func mask(
        logits: UnsafeBufferPointer<Float>, maskWidth: Int, maskHeight: Int, matrix: CropMatrix,
        imageSize: ImageSize, threads: TaskThreads = .calling
    ) throws(TasksError) -> Mask {
        try checkSizes(logits: logits, maskWidth: maskWidth, maskHeight: maskHeight, imageSize: imageSize)
        let inverse = try invert(matrix)
        let mask = Mask(float32Width: imageSize.width, height: imageSize.height, zeroed: true) { target in
            warp(
                logits: logits, maskWidth: maskWidth, maskHeight: maskHeight, inverse: inverse, imageSize: imageSize,
                into: target, threads: threads)
        }
        guard let mask else {
            throw .internalError("segmentation mask of \(imageSize.width)×\(imageSize.height) pixels")
        }
        return mask
    }

    /// Writes the mask into `target` (`imageSize` pixels, all zero on entry).
    static func project(
        logits: UnsafeBufferPointer<Float>, maskWidth: Int, maskHeight: Int, matrix: CropMatrix,
        imageSize: ImageSize, into target: UnsafeMutableBufferPointer<Float>
    ) throws(TasksError) {
        try checkSizes(logits: logits, maskWidth: maskWidth, maskHeight: maskHeight, imageSize: imageSize)
        guard target.count >= imageSize.width * imageSize.height else {
            throw .internalError("segmentation mask buffer of \(target.count) values is too small")
        }
        warp(
            logits: logits, maskWidth: maskWidth, maskHeight: maskHeight, inverse: try invert(matrix),
            imageSize: imageSize, into: target, threads: .calling)
    }

    private static func invert(_ matrix: CropMatrix) throws(TasksError) -> CropMatrix {
        guard let inverse = matrix.inverseAffine() else {
            throw .internalError("segmentation: the ROI matrix cannot be inverted")
        }
        return inverse
    }

    /// The warp itself; sizes are checked and `target` holds the image's pixels, all zero. Each
    /// thread fills its own contiguous band of rows.
    private static func warp(
        logits: UnsafeBufferPointer<Float>, maskWidth: Int, maskHeight: Int, inverse: CropMatrix,
        imageSize: ImageSize, into target: UnsafeMutableBufferPointer<Float>, threads: TaskThreads
    ) {
        guard let output = target.baseAddress else { return }
        // The sigmoid mask with a one-pixel zero border, so that every bilinear sample whose
        // position lies in (-1, w) × (-1, h) reads four stored values.
        let paddedWidth = maskWidth + 2
        withUnsafeTemporaryAllocation(of: Float.self, capacity: paddedWidth * (maskHeight + 2)) { padded in
            guard let source = padded.baseAddress, let logitsBase = logits.baseAddress else { return }
            source.initialize(repeating: 0, count: padded.count)
            for row in 0..<maskHeight {
                let from = logitsBase + row * maskWidth
                let to = source + (row + 1) * paddedWidth + 1
                for column in 0..<maskWidth { to[column] = sigmoid(from[column]) }
            }
            let width = imageSize.width
            let height = imageSize.height
            // OpenCV's matrix: mask pixels from output pixels, built in float as
            // affine_transformation_runner_opencv.cc does (scale to the mask · inverse · normalize
            // the output), then used in double.
            let m = inverse.values
            let sx = Float(maskWidth)
            let sy = Float(maskHeight)
            let fx = 1 / Float(width)
            let fy = 1 / Float(height)
            let a = Double(sx * m[0] * fx)
            let b = Double(sx * m[1] * fy)
            let c = Double(sx * m[3])
            let d = Double(sy * m[4] * fx)
            let e = Double(sy * m[5] * fy)
            let f = Double(sy * m[7])
            // imgwarp.cpp (WarpAffineInvoker, warpAffineBlockline): positions in 1/1024 pixel,
            // per column `round(a·x·1024)`, per row `round((b·y + c)·1024) + 16`; shifted down
            // to 1/32 pixel (INTER_BITS = 5), whose integer part picks the pixel and whose
            // fraction picks the weights.
            let table = Self.weights
            withUnsafeTemporaryAllocation(of: (Int32, Int32).self, capacity: width) { deltas in
                guard let columnDelta = deltas.baseAddress else { return }
                for x in 0..<width {
                    columnDelta[x] = (
                        Self.saturatingInt32((a * Double(x) * 1024).rounded(.toNearestOrEven)),
                        Self.saturatingInt32((d * Double(x) * 1024).rounded(.toNearestOrEven))
                    )
                }
                let threadCount = max(1, threads.count)
                table.withUnsafeBufferPointer { weightTable in
                    threads.run { thread in
                        let band = (height + threadCount - 1) / threadCount
                        let rows = min(height, thread * band)..<min(height, (thread + 1) * band)
                        for y in rows {
                            let rowX =
                                Self.saturatingInt32(((b * Double(y) + c) * 1024).rounded(.toNearestOrEven)) &+ 16
                            let rowY =
                                Self.saturatingInt32(((e * Double(y) + f) * 1024).rounded(.toNearestOrEven)) &+ 16
                            guard
                                let columns = insideColumns(
                                    startX: Float(b * Double(y) + c), stepX: Float(a), limitX: sx,
                                    startY: Float(e * Double(y) + f), stepY: Float(d), limitY: sy, width: width)
                            else { continue }
                            let rowStart = output + y * width
                            for x in columns {
                                let fixedX = (rowX &+ columnDelta[x].0) >> 5
                                let fixedY = (rowY &+ columnDelta[x].1) >> 5
                                let column = Int(fixedX >> 5)
                                let row = Int(fixedY >> 5)
                                // remapBilinear with BORDER_CONSTANT 0: a sample with no neighbour inside is 0.
                                guard column >= -1, row >= -1, column < maskWidth, row < maskHeight else { continue }
                                let weights = weightTable[Int(fixedY & 31) &* 32 &+ Int(fixedX & 31)]
                                let top = source + (row + 1) * paddedWidth + (column + 1)
                                let bottom = top + paddedWidth
                                rowStart[x] =
                                    top[0] * weights.x + top[1] * weights.y + bottom[0] * weights.z
                                    + bottom[1] * weights.w
                            }
                        }
                    }
                }
            }
        }
    }

    /// OpenCV's bilinear weight table for 1/32-pixel fractions (imgwarp.cpp `initInterTab2D`):
    /// entry `fy·32 + fx` holds (1−u)(1−v), u(1−v), (1−u)v, uv with u = fx/32, v = fy/32, in float.
    private static let weights: [SIMD4<Float>] = (0..<(32 * 32)).map { index in
        let u = Float(index % 32) * (1 / Float(32))
        let v = Float(index / 32) * (1 / Float(32))
        return SIMD4((1 - v) * (1 - u), (1 - v) * u, v * (1 - u), v * u)
    }

    /// OpenCV's `saturate_cast<int>` of an already rounded double.
    private static func saturatingInt32(_ value: Double) -> Int32 {
        if value.isNaN { return 0 }
        return Int32(max(Double(Int32.min), min(Double(Int32.max), value)))
    }

    /// The output columns whose sample position start + step·x can lie inside (-1, limit) on
    /// both axes, widened by one column on each side against rounding; `nil` when none can.
    private static func insideColumns(
        startX: Float, stepX: Float, limitX: Float, startY: Float, stepY: Float, limitY: Float, width: Int
    ) -> ClosedRange<Int>? {
        var low: Float = 0
        var high = Float(width - 1)
        func narrow(start: Float, step: Float, limit: Float) -> Bool {
            if step == 0 { return start > -1 && start < limit }
            let a = (-1 - start) / step
            let b = (limit - start) / step
            low = max(low, min(a, b) - 1)
            high = min(high, max(a, b) + 1)
            return true
        }
        guard narrow(start: startX, step: stepX, limit: limitX), narrow(start: startY, step: stepY, limit: limitY)
        else { return nil }
        guard low.isFinite, high.isFinite, low <= high else { return nil }
        return Int(low.rounded(.down))...Int(high.rounded(.up))
    }

    private static func checkSizes(
        logits: UnsafeBufferPointer<Float>, maskWidth: Int, maskHeight: Int, imageSize: ImageSize
    ) throws(TasksError) {
        guard maskWidth > 0, maskHeight > 0, logits.count >= maskWidth * maskHeight else {
            throw .invalidModel("segmentation output has \(logits.count) values for \(maskWidth)×\(maskHeight)")
        }
        guard imageSize.width > 0, imageSize.height > 0 else {
            throw .invalidImage("image has no pixels")
        }
    }
}
