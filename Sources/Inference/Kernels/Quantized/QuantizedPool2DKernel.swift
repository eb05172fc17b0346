import ModelFile

/// MAX_POOL_2D and AVERAGE_POOL_2D on UINT8 or INT8 NHWC tensors whose input and output share
/// one quantization (tflite/kernels/pooling.cc).
///
/// Windows are clipped to the input as in the float kernels. The maximum is exact; the average
/// is TFLite's integer rounding of the clipped window's sum `s` over `n` taps: `(s + n/2) / n` for
/// UINT8, and for INT8 `(s ± n/2) / n` with the sign of `s` (C division truncating towards zero;
/// tflite/kernels/internal/reference/pooling.h and reference/integer_ops/pooling.h). XNNPACK
/// takes no quantized average pooling, and its max pooling is exact, so both arithmetics
/// agree; only the fused activation range follows the arithmetic for MAX_POOL_2D.
final class QuantizedPool2DKernel: Kernel, ParallelJob {
    let kind: Pool2DKernel.Kind
    let input: UnsafeMutableRawPointer
    let output: UnsafeMutableRawPointer
    let isSigned: Bool
    let inputShape: NHWC
    let outputShape: NHWC
    let rows: WindowAxis
    let columns: WindowAxis
    let range: QuantizedRange

    static func make(_ ctx: OperatorContext, kind: Pool2DKernel.Kind) throws -> Kernel {
        guard case .pool2D(let options) = ctx.options else { throw ctx.invalid("missing Pool2DOptions") }
        try ctx.expect(inputs: 1...1, outputs: 1)
        let (type, x, y) = try ctx.quantizedInputOutput()
        guard x == y else { throw ctx.unsupported("input quantization \(x) differs from the output's \(y)") }
        let d = try ctx.input(0)
        guard let shape = NHWC(d.shape) else { throw ctx.unsupported("input must have rank 4, has \(d.shapeText)") }
        guard
            let rows = WindowAxis(
                input: shape.height, filter: options.filterHeight, stride: options.strideHeight,
                dilation: 1, padding: options.padding),
            let columns = WindowAxis(
                input: shape.width, filter: options.filterWidth, stride: options.strideWidth,
                dilation: 1, padding: options.padding)
        else {
            throw ctx.invalid(
                "invalid window \(options.filterHeight)x\(options.filterWidth) stride "
                    + "\(options.strideHeight)x\(options.strideWidth) on \(d.shapeText)"
            )
        }
        let outputShape = NHWC(batch: shape.batch, height: rows.output, width: columns.output, channels: shape.channels)
        try ctx.requireOutputShape(outputShape.shape)
        // XNNPACK runs quantized max pooling only; TFLite runs the average pooling.
        var rangeContext = ctx
        if kind == .average { rangeContext.arithmetic = .reference }
        let range = try rangeContext.quantizedActivationRange(options.activation, output: y, type: type)
        return QuantizedPool2DKernel(
            kind: kind, input: ctx.inputAddress(0), output: ctx.outputAddress(0), isSigned: type == .int8,
            inputShape: shape, outputShape: outputShape, rows: rows, columns: columns, range: range)
    }

    init(
        kind: Pool2DKernel.Kind, input: UnsafeMutableRawPointer, output: UnsafeMutableRawPointer, isSigned: Bool,
        inputShape: NHWC, outputShape: NHWC, rows: WindowAxis, columns: WindowAxis, range: QuantizedRange
    ) {
        self.kind = kind
        self.input = input
        self.output = output
        self.isSigned = isSigned
        self.inputShape = inputShape
        self.outputShape = outputShape
        self.rows = rows
        self.columns = columns
        self.range = range
    }

    func execute(_ context: ExecutionContext) {
        context.pool.run(self, taskCount: outputShape.batch * outputShape.height)
    }

    func run(tasks range: Range<Int>, thread: Int) {
        if isSigned { run(Int8.self, range) } else { run(UInt8.self, range) }
    }

    @inline(__always)
    private func run<T: QuantizedElement>(_: T.Type, _ tasks: Range<Int>) {
        let channels = inputShape.channels
        let source = input.assumingMemoryBound(to: T.self)
        for task in tasks {
            let b = task / outputShape.height
            let oy = task % outputShape.height
            let ys = rows.validTaps(oy)
            var out = output.assumingMemoryBound(to: T.self) + task * outputShape.width * channels
            for ox in 0..<outputShape.width {
                let xs = columns.validTaps(ox)
                let taps = Int32(ys.count * xs.count)
                for c in 0..<channels {
                    var maximum = Int32.min
                    var sum: Int32 = 0
                    for ky in ys {
                        let iy = rows.origin(oy) + ky
                        for kx in xs {
                            let ix = columns.origin(ox) + kx
                            let v = Int32(source[((b * inputShape.height + iy) * inputShape.width + ix) * channels + c])
                            maximum = Swift.max(maximum, v)
                            sum &+= v
                        }
                    }
                    let value: Int32
                    if kind == .max {
                        value = maximum
                    } else if taps == 0 {
                        value = 0
                    } else if T.isSigned {
                        value = sum > 0 ? (sum + taps / 2) / taps : (sum - taps / 2) / taps
                    } else {
                        value = (sum + taps / 2) / taps
                    }
                    out[c] = T(truncatingIfNeeded: range.clamp(value))
                }
                out += channels
            }
        }
    }
}
