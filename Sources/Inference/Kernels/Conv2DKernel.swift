import ModelFile

/// CONV_2D on float32 NHWC tensors: every output pixel is a row of a matrix product with the
/// filter, packed at load (``PackedWeights``).
///
/// A 1×1 filter whose window never leaves the input reads its rows straight from the input;
/// other filters gather each tile's patches (im2col, zeros for padding) into per-thread
/// scratch memory first. Work is split over tiles of four output pixels.
final class Conv2DKernel: Kernel, ParallelJob {
    let input: UnsafeMutablePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let inputShape: NHWC
    let outputShape: NHWC
    let rows: WindowAxis
    let columns: WindowAxis
    let weights: PackedWeights
    let clamp: ActivationClamp
    /// Whether rows come straight from the input (1×1 filter without padding).
    let isDirect: Bool
    let pixelCount: Int

    static func make(_ ctx: OperatorContext) throws -> Kernel {
        guard case let .conv2D(options) = ctx.options else { throw ctx.invalid("missing Conv2DOptions") }
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
        guard let filterShape = NHWC(filter.descriptor.shape) else {
            throw ctx.invalid("filter must have rank 4, has shape \(filter.descriptor.shapeText)")
        }
        guard filterShape.channels == inputShape.channels else {
            // Grouped convolution (filter depth dividing the input depth) is not implemented.
            throw ctx.unsupported("filter depth \(filterShape.channels) differs from input depth \(inputShape.channels) (grouped convolution)")
        }
        let bias = try ctx.constantInput(2)
        if let bias {
            guard bias.descriptor.type == .float32, bias.descriptor.elementCount == filterShape.batch else {
                throw ctx.invalid("bias must be \(filterShape.batch) FLOAT32 values")
            }
        } else if ctx.hasInput(2) {
            throw ctx.unsupported("the bias must be a constant tensor")
        }
        guard let rows = WindowAxis(input: inputShape.height, filter: filterShape.height, stride: options.strideHeight,
                                    dilation: options.dilationHeight, padding: options.padding),
              let columns = WindowAxis(input: inputShape.width, filter: filterShape.width, stride: options.strideWidth,
                                       dilation: options.dilationWidth, padding: options.padding)
        else { throw ctx.invalid("invalid window: filter \(filter.descriptor.shapeText), strides \(options.strideHeight)x\(options.strideWidth), dilation \(options.dilationHeight)x\(options.dilationWidth) on input \(inputDescriptor.shapeText)") }
        let outputShape = NHWC(batch: inputShape.batch, height: rows.output, width: columns.output, channels: filterShape.batch)
        try ctx.requireOutputShape(outputShape.shape)
        let weights = PackedWeights(
            weights: filter.floats, bias: bias?.floats, n: filterShape.batch,
            k: filterShape.height * filterShape.width * filterShape.channels)
        return Conv2DKernel(
            input: ctx.inputFloats(0), output: ctx.outputFloats(0), inputShape: inputShape, outputShape: outputShape,
            rows: rows, columns: columns, weights: weights, clamp: try ctx.clamp(options.activation))
    }

    init(input: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>, inputShape: NHWC, outputShape: NHWC,
         rows: WindowAxis, columns: WindowAxis, weights: PackedWeights, clamp: ActivationClamp) {
        self.input = input
        self.output = output
        self.inputShape = inputShape
        self.outputShape = outputShape
        self.rows = rows
        self.columns = columns
        self.weights = weights
        self.clamp = clamp
        isDirect = rows.filter == 1 && columns.filter == 1 && rows.padBefore == 0 && columns.padBefore == 0
            && (rows.output - 1) * rows.stride < rows.input && (columns.output - 1) * columns.stride < columns.input
        pixelCount = outputShape.batch * outputShape.height * outputShape.width
    }

    var scratchBytesPerThread: Int {
        isDirect ? 0 : Gemm.tileRows * weights.k * MemoryLayout<Float>.stride
    }

    private var context: ExecutionContext?

    func execute(_ context: ExecutionContext) {
        self.context = context
        let tiles = (pixelCount + Gemm.tileRows - 1) / Gemm.tileRows
        context.pool.run(self, taskCount: tiles)
        self.context = nil
    }

    /// The input pixel that output pixel `m` reads in direct mode.
    @inline(__always)
    private func directRow(_ m: Int) -> UnsafePointer<Float> {
        let perImage = outputShape.height * outputShape.width
        let b = m / perImage, rest = m % perImage
        let oy = rest / outputShape.width, ox = rest % outputShape.width
        let iy = oy * rows.stride, ix = ox * columns.stride
        return UnsafePointer(input + ((b * inputShape.height + iy) * inputShape.width + ix) * inputShape.channels)
    }

    /// Writes output pixel `m`'s patch (kh × kw × cin, zeros outside the input) to `patch`.
    @inline(__always)
    private func gather(_ m: Int, into patch: UnsafeMutablePointer<Float>) {
        let perImage = outputShape.height * outputShape.width
        let b = m / perImage, rest = m % perImage
        let oy = rest / outputShape.width, ox = rest % outputShape.width
        let cin = inputShape.channels
        var p = patch
        for ky in 0..<rows.filter {
            let iy = rows.origin(oy) + ky * rows.dilation
            for kx in 0..<columns.filter {
                let ix = columns.origin(ox) + kx * columns.dilation
                if iy >= 0 && iy < inputShape.height && ix >= 0 && ix < inputShape.width {
                    p.update(from: input + ((b * inputShape.height + iy) * inputShape.width + ix) * cin, count: cin)
                } else {
                    p.update(repeating: 0, count: cin)
                }
                p += cin
            }
        }
    }

    func run(tasks range: Range<Int>, thread: Int) {
        guard let context else { return }
        let n = outputShape.channels
        let k = weights.k
        let scratch = isDirect ? nil : context.scratchFloats(thread: thread)
        for tile in range {
            let first = tile * Gemm.tileRows
            let count = Swift.min(Gemm.tileRows, pixelCount - first)
            let a0, a1, a2, a3: UnsafePointer<Float>
            if let scratch {
                for r in 0..<count { gather(first + r, into: scratch + r * k) }
                let s = UnsafePointer(scratch)
                a0 = s
                a1 = count > 1 ? s + k : s
                a2 = count > 2 ? s + 2 * k : s
                a3 = count > 3 ? s + 3 * k : s
            } else {
                a0 = directRow(first)
                a1 = count > 1 ? directRow(first + 1) : a0
                a2 = count > 2 ? directRow(first + 2) : a0
                a3 = count > 3 ? directRow(first + 3) : a0
            }
            Gemm.tile(a0, a1, a2, a3, rows: count, weights: weights, out: output + first * n, outStride: n, clamp: clamp)
        }
    }
}
