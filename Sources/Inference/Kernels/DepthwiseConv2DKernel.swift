import ModelFile

/// DEPTHWISE_CONV_2D on float32 NHWC tensors, any depth multiplier.
///
/// Output channel `oc` reads input channel `oc / multiplier` (TFLite's layout, filter
/// `[1, kh, kw, cin · multiplier]`). Weights are repacked at load as `[tap][channel]` with the
/// channel count rounded up to 8, so the multiplier-1 path runs on 8-channel vectors; taps
/// outside the input are skipped (they would add zero). Work is split over output rows.
final class DepthwiseConv2DKernel: Kernel, ParallelJob {
    let input: UnsafeMutablePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let inputShape: NHWC
    let outputShape: NHWC
    let rows: WindowAxis
    let columns: WindowAxis
    let multiplier: Int
    let clamp: ActivationClamp
    /// `taps × paddedChannels` weights, then the bias in the last row.
    let packed: AlignedBuffer
    let paddedChannels: Int

    static func make(_ ctx: OperatorContext) throws -> Kernel {
        guard case let .depthwiseConv2D(options) = ctx.options else { throw ctx.invalid("missing DepthwiseConv2DOptions") }
        try ctx.expect(inputs: 2...3, outputs: 1)
        try ctx.requireFloat(inputs: [0])
        let inputDescriptor = try ctx.input(0)
        guard let inputShape = NHWC(inputDescriptor.shape) else {
            throw ctx.unsupported("input must have rank 4, has shape \(inputDescriptor.shapeText)")
        }
        let filter = try ctx.requireConstant(1, "the filter")
        guard filter.descriptor.type == .float32 else {
            throw ctx.unsupported("filter type \(filter.descriptor.type) is not supported")
        }
        guard let filterShape = NHWC(filter.descriptor.shape), filterShape.batch == 1 else {
            throw ctx.invalid("filter must have shape [1, kh, kw, channels], has \(filter.descriptor.shapeText)")
        }
        let outputChannels = filterShape.channels
        guard inputShape.channels > 0, outputChannels % inputShape.channels == 0 else {
            throw ctx.invalid("filter depth \(outputChannels) is not a multiple of input depth \(inputShape.channels)")
        }
        // The stored depth_multiplier is informational: TFLite derives it from the shapes
        // (tensorflow/lite/kernels/depthwise_conv.cc, `Prepare`), and so does this kernel.
        let multiplier = outputChannels / inputShape.channels
        let bias = try ctx.constantInput(2)
        if let bias {
            guard bias.descriptor.type == .float32, bias.descriptor.elementCount == outputChannels else {
                throw ctx.invalid("bias must be \(outputChannels) FLOAT32 values")
            }
        } else if ctx.hasInput(2) {
            throw ctx.unsupported("the bias must be a constant tensor")
        }
        guard let rows = WindowAxis(input: inputShape.height, filter: filterShape.height, stride: options.strideHeight,
                                    dilation: options.dilationHeight, padding: options.padding),
              let columns = WindowAxis(input: inputShape.width, filter: filterShape.width, stride: options.strideWidth,
                                       dilation: options.dilationWidth, padding: options.padding)
        else { throw ctx.invalid("invalid window: filter \(filter.descriptor.shapeText), strides \(options.strideHeight)x\(options.strideWidth) on input \(inputDescriptor.shapeText)") }
        let outputShape = NHWC(batch: inputShape.batch, height: rows.output, width: columns.output, channels: outputChannels)
        try ctx.requireOutputShape(outputShape.shape)

        let padded = (outputChannels + 7) / 8 * 8
        let taps = filterShape.height * filterShape.width
        let packed = AlignedBuffer(byteCount: (taps + 1) * padded * MemoryLayout<Float>.stride)
        let p = packed.floats
        for tap in 0..<taps {
            (p + tap * padded).update(from: filter.floats + tap * outputChannels, count: outputChannels)
        }
        if let bias { (p + taps * padded).update(from: bias.floats, count: outputChannels) }
        return DepthwiseConv2DKernel(
            input: ctx.inputFloats(0), output: ctx.outputFloats(0), inputShape: inputShape, outputShape: outputShape,
            rows: rows, columns: columns, multiplier: multiplier, clamp: try ctx.clamp(options.activation),
            packed: packed, paddedChannels: padded)
    }

    init(input: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>, inputShape: NHWC, outputShape: NHWC,
         rows: WindowAxis, columns: WindowAxis, multiplier: Int, clamp: ActivationClamp,
         packed: AlignedBuffer, paddedChannels: Int) {
        self.input = input
        self.output = output
        self.inputShape = inputShape
        self.outputShape = outputShape
        self.rows = rows
        self.columns = columns
        self.multiplier = multiplier
        self.clamp = clamp
        self.packed = packed
        self.paddedChannels = paddedChannels
    }

    func execute(_ context: ExecutionContext) {
        context.pool.run(self, taskCount: outputShape.batch * outputShape.height)
    }

    func run(tasks range: Range<Int>, thread: Int) {
        for task in range {
            let b = task / outputShape.height, oy = task % outputShape.height
            if multiplier == 1 { row(b: b, oy: oy) } else { rowWithMultiplier(b: b, oy: oy) }
        }
    }

    private func row(b: Int, oy: Int) {
        // Locals, so the compiler keeps them in registers across the stores below.
        let channels = outputShape.channels
        let fullBlocks = channels / 8
        let weights = UnsafeRawPointer(packed.raw)
        let w = packed.floats
        let padded = paddedChannels
        let rows = self.rows, columns = self.columns, clamp = self.clamp
        let inputWidth = inputShape.width, outputWidth = outputShape.width
        let biasRow = rows.filter * columns.filter * padded
        let ys = rows.validTaps(oy)
        let iy0 = rows.origin(oy)
        let imageBase = input + b * inputShape.height * inputWidth * channels
        var out = output + ((b * outputShape.height + oy) * outputWidth) * channels
        let lower = SIMD8<Float>(repeating: clamp.lower), upper = SIMD8<Float>(repeating: clamp.upper)
        let rowStride = inputWidth * channels
        let tapStride = columns.dilation * channels
        for ox in 0..<outputWidth {
            let xs = columns.validTaps(ox)
            let ix0 = columns.origin(ox)
            for block in 0..<fullBlocks {
                let c = block * 8
                var acc = weights.load(fromByteOffset: (biasRow + c) * 4, as: SIMD8<Float>.self)
                for ky in ys {
                    var x = UnsafeRawPointer(imageBase + (iy0 + ky * rows.dilation) * rowStride + (ix0 + xs.lowerBound * columns.dilation) * channels + c)
                    var wp = weights + ((ky * columns.filter + xs.lowerBound) * padded + c) * 4
                    for _ in xs {
                        acc += x.loadUnaligned(as: SIMD8<Float>.self) * wp.load(as: SIMD8<Float>.self)
                        x += tapStride * 4
                        wp += padded * 4
                    }
                }
                let result = clamp.isTanh ? clamp.apply(acc) : clamped(acc, lower, upper)
                UnsafeMutableRawPointer(out + c).storeBytes(of: result, as: SIMD8<Float>.self)
            }
            for c in (fullBlocks * 8)..<channels {
                var acc = w[biasRow + c]
                for ky in ys {
                    let rowBase = imageBase + (iy0 + ky * rows.dilation) * rowStride + c
                    let tapBase = ky * columns.filter
                    for kx in xs {
                        acc += rowBase[(ix0 + kx * columns.dilation) * channels] * w[(tapBase + kx) * padded + c]
                    }
                }
                out[c] = clamp.apply(acc)
            }
            out += channels
        }
    }

    private func rowWithMultiplier(b: Int, oy: Int) {
        let channels = outputShape.channels, inputChannels = inputShape.channels
        let w = packed.floats
        let biasRow = rows.filter * columns.filter * paddedChannels
        let ys = rows.validTaps(oy)
        let imageBase = input + b * inputShape.height * inputShape.width * inputChannels
        var out = output + ((b * outputShape.height + oy) * outputShape.width) * channels
        for ox in 0..<outputShape.width {
            let xs = columns.validTaps(ox)
            let iy0 = rows.origin(oy), ix0 = columns.origin(ox)
            for c in 0..<channels {
                let ic = c / multiplier
                var acc = w[biasRow + c]
                for ky in ys {
                    let rowBase = imageBase + (iy0 + ky * rows.dilation) * inputShape.width * inputChannels + ic
                    let tapBase = ky * columns.filter
                    for kx in xs {
                        acc += rowBase[(ix0 + kx * columns.dilation) * inputChannels] * w[(tapBase + kx) * paddedChannels + c]
                    }
                }
                out[c] = clamp.apply(acc)
            }
            out += channels
        }
    }
}
