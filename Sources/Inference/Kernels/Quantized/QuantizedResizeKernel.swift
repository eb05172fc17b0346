import ModelFile

/// RESIZE_NEAREST_NEIGHBOR and RESIZE_BILINEAR on UINT8 or INT8 NHWC tensors whose input and
/// output share one quantization (tflite/kernels/resize_nearest_neighbor.cc,
/// resize_bilinear.cc).
///
/// Nearest neighbour copies the pixel ``ResizeKernel/axis(_:_:_:_:_:)`` selects (no
/// arithmetic). Bilinear:
/// * ``QuantizedArithmetic/xnnpack``: XNNPACK's Q11 weights and Q22 accumulation
///   (XNNPACK src/indirection.c, `xnn_indirection_init_resize_bilinear2d_hwc_q11`; src/s8-ibilinear
///   and src/u8-ibilinear micro-kernels): source `v = o · scale` (aligned corners or TF legacy
///   mode) or `clamp(o · scale + (scale/2 - 1/2), 0, in - 1)` (half-pixel centres) in float,
///   `α = lrintf((v - ⌊v⌋) · 2048)`, then `t = (tl << 11) + (tr - tl)·α_x`, likewise `b`,
///   `y = ((t << 11) + (b - t)·α_y + 2^21) >> 22`.
/// * ``QuantizedArithmetic/reference``: UINT8 interpolates in float as the float kernel and
///   truncates `value + 0.5` (tflite/kernels/internal/reference/resize_bilinear.h,
///   `ResizeBilinear`); INT8 uses TFLite's 10-bit fixed point (`ResizeBilinearInteger`,
///   double rounding variant).
final class QuantizedResizeKernel: Kernel, ParallelJob {
    enum Mode {
        case nearest
        case xnnpack
        case referenceFloat
        case referenceInteger
    }

    /// Per output row / column: lower index, upper index and the weight of the upper one in
    /// the mode's units (Q11 for xnnpack, Q10 source position for the integer reference).
    struct Tap {
        let lower: Int
        let upper: Int
        let weight: Int32
        let floatWeight: Float
    }

    let mode: Mode
    let input: UnsafeMutableRawPointer
    let output: UnsafeMutableRawPointer
    let isSigned: Bool
    let inputShape: NHWC
    let outputShape: NHWC
    let ys: [Tap]
    let xs: [Tap]

    static func make(_ ctx: OperatorContext, bilinear: Bool) throws -> Kernel {
        var alignCorners = false
        var halfPixelCenters = false
        switch ctx.options {
        case .resizeBilinear(let o) where bilinear:
            (alignCorners, halfPixelCenters) = (o.alignCorners, o.halfPixelCenters)
        case .resizeNearestNeighbor(let o) where !bilinear:
            (alignCorners, halfPixelCenters) = (o.alignCorners, o.halfPixelCenters)
        case .none: break
        default: throw ctx.invalid("missing resize options")
        }
        try ctx.expect(inputs: 2...2, outputs: 1)
        let (type, x, y) = try ctx.quantizedInputOutput()
        guard x == y else { throw ctx.unsupported("input quantization \(x) differs from the output's \(y)") }
        let d = try ctx.input(0)
        guard let shape = NHWC(d.shape) else { throw ctx.unsupported("input must have rank 4, has \(d.shapeText)") }
        let size = try ctx.constantIntegers(1, "the output size")
        guard size.count == 2, size[0] > 0, size[1] > 0 else {
            throw ctx.invalid("output size \(size) must be two positive values")
        }
        let outputShape = NHWC(batch: shape.batch, height: size[0], width: size[1], channels: shape.channels)
        try ctx.requireOutputShape(outputShape.shape)
        if alignCorners && halfPixelCenters { throw ctx.unsupported("align_corners together with half_pixel_centers") }
        let mode: Mode =
            !bilinear
            ? .nearest
            : ctx.arithmetic == .xnnpack ? .xnnpack : type == .uint8 ? .referenceFloat : .referenceInteger
        func taps(_ input: Int, _ output: Int) -> [Tap] {
            switch mode {
            case .nearest:
                return ResizeKernel.axis(input, output, alignCorners, halfPixelCenters, false).map {
                    Tap(lower: $0.0, upper: $0.1, weight: 0, floatWeight: 0)
                }
            case .referenceFloat:
                return ResizeKernel.axis(input, output, alignCorners, halfPixelCenters, true).map {
                    Tap(lower: $0.0, upper: $0.1, weight: 0, floatWeight: $0.2)
                }
            case .xnnpack:
                return xnnpackAxis(input, output, alignCorners: alignCorners, halfPixelCenters: halfPixelCenters)
            case .referenceInteger:
                return integerAxis(input, output, alignCorners: alignCorners, halfPixelCenters: halfPixelCenters)
            }
        }
        return QuantizedResizeKernel(
            mode: mode, input: ctx.inputAddress(0), output: ctx.outputAddress(0), isSigned: type == .int8,
            inputShape: shape, outputShape: outputShape,
            ys: taps(shape.height, size[0]), xs: taps(shape.width, size[1]))
    }

    /// XNNPACK's source positions and Q11 weights along one axis.
    static func xnnpackAxis(_ input: Int, _ output: Int, alignCorners: Bool, halfPixelCenters: Bool) -> [Tap] {
        let adjustment = alignCorners && output != 1 ? 1 : 0
        let scale = Float(input - adjustment) / Float(output - adjustment)
        let maximum = Float(input - 1)
        let offset = 0.5 * scale - 0.5
        return (0..<output).map { o in
            var v: Float
            if alignCorners || !halfPixelCenters {
                v = Swift.min(Float(o) * scale, maximum)
            } else {
                v = Swift.min(Swift.max(Float(o) * scale + offset, 0), maximum)
            }
            let lower = Int(v)
            let alpha = v - Float(lower)
            return Tap(
                lower: lower, upper: Swift.min(lower + 1, input - 1),
                weight: Int32((alpha * 2048).rounded(.toNearestOrEven)), floatWeight: alpha)
        }
    }

    /// TFLite's 10-bit source positions along one axis (`ComputeInterpolationValuesInteger`);
    /// `weight` holds the scaled position.
    static func integerAxis(_ input: Int, _ output: Int, alignCorners: Bool, halfPixelCenters: Bool) -> [Tap] {
        var scale = ((1 << 10) * input + output / 2) / output
        if alignCorners && output > 1 { scale = ((1 << 10) * (input - 1) + (output - 1) / 2) / (output - 1) }
        return (0..<output).map { o in
            let position = halfPixelCenters ? o * scale + scale / 2 - (1 << 9) : o * scale
            // C division truncates towards zero (Swift's `/` does too).
            let lower = Swift.max(position / (1 << 10), 0)
            let upper = Swift.min((position + (1 << 10) - 1) / (1 << 10), input - 1)
            return Tap(lower: lower, upper: upper, weight: Int32(position), floatWeight: 0)
        }
    }

    init(
        mode: Mode, input: UnsafeMutableRawPointer, output: UnsafeMutableRawPointer, isSigned: Bool, inputShape: NHWC,
        outputShape: NHWC, ys: [Tap], xs: [Tap]
    ) {
        self.mode = mode
        self.input = input
        self.output = output
        self.isSigned = isSigned
        self.inputShape = inputShape
        self.outputShape = outputShape
        self.ys = ys
        self.xs = xs
    }

    func execute(_ context: ExecutionContext) {
        context.pool.run(self, taskCount: outputShape.batch * outputShape.height)
    }

    func run(tasks range: Range<Int>, thread: Int) {
        if isSigned { run(Int8.self, range) } else { run(UInt8.self, range) }
    }

    @inline(__always)
    private func run<T: QuantizedElement>(_: T.Type, _ range: Range<Int>) {
        let channels = inputShape.channels
        let rowStride = inputShape.width * channels
        for task in range {
            let b = task / outputShape.height
            let oy = task % outputShape.height
            let ty = ys[oy]
            let image = input.assumingMemoryBound(to: T.self) + b * inputShape.height * rowStride
            let top = image + ty.lower * rowStride
            let bottom = image + ty.upper * rowStride
            var out = output.assumingMemoryBound(to: T.self) + task * outputShape.width * channels
            for ox in 0..<outputShape.width {
                let tx = xs[ox]
                let p00 = top + tx.lower * channels
                let p01 = top + tx.upper * channels
                let p10 = bottom + tx.lower * channels
                let p11 = bottom + tx.upper * channels
                switch mode {
                case .nearest:
                    out.update(from: p00, count: channels)
                case .xnnpack:
                    let ax = tx.weight
                    let ay = ty.weight
                    for c in 0..<channels {
                        let tl = Int32(p00[c])
                        let tr = Int32(p01[c])
                        let bl = Int32(p10[c])
                        let br = Int32(p11[c])
                        let t = (tl << 11) &+ (tr &- tl) &* ax
                        let bb = (bl << 11) &+ (br &- bl) &* ax
                        let acc = (t << 11) &+ (bb &- t) &* ay
                        out[c] = T(truncatingIfNeeded: (acc &+ (1 << 21)) >> 22)
                    }
                case .referenceFloat:
                    let dy = ty.floatWeight
                    let dx = tx.floatWeight
                    for c in 0..<channels {
                        // The reference's expression order: corners weighted by (1 - d) and d products.
                        let v =
                            Float(p00[c]) * (1 - dy) * (1 - dx) + Float(p10[c]) * dy * (1 - dx)
                            + Float(p01[c]) * (1 - dy) * dx + Float(p11[c]) * dy * dx + 0.5
                        out[c] = T(truncatingIfNeeded: Int32(Swift.min(Swift.max(v, -1e6), 1e6)))
                    }
                case .referenceInteger:
                    let wy = Int64(ty.weight) - Int64(1 << 10) * Int64(ty.lower)
                    let wx = Int64(tx.weight) - Int64(1 << 10) * Int64(tx.lower)
                    for c in 0..<channels {
                        let sum =
                            Int64(p00[c]) * ((1 << 10) - wy) * ((1 << 10) - wx)
                            + Int64(p10[c]) * wy * ((1 << 10) - wx)
                            + Int64(p01[c]) * ((1 << 10) - wy) * wx
                            + Int64(p11[c]) * wy * wx
                        let rounding: Int64 = sum > 0 ? 1 << 19 : -(1 << 19)
                        out[c] = T(truncatingIfNeeded: (sum + rounding) / (1 << 20))
                    }
                }
                out += channels
            }
        }
    }
}
