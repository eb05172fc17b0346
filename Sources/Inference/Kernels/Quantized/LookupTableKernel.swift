import ModelFile

/// An element-wise UINT8 → UINT8 or INT8 → INT8 function evaluated through a 256-entry table
/// built at load: LOGISTIC, and QUANTIZE between two 8-bit quantizations.
final class LookupTableKernel: Kernel, ParallelJob {
    static let chunk = 16384

    let input: UnsafeMutablePointer<UInt8>
    let output: UnsafeMutablePointer<UInt8>
    let count: Int
    /// Indexed by the input's bit pattern.
    let table: [UInt8]

    /// LOGISTIC: TFLite's table (tflite/kernels/activations.cc, `SigmoidPrepare`, and
    /// tflite/kernels/internal/common.h, `LUTPopulateInt8`): for every input value `q`,
    /// `x = x_scale · (q - x_zp)`, `σ = 1 / (1 + expf(-x))`,
    /// `y = clamp(round_half_away(σ · (1 / y_scale)) + y_zp)`. The output must have scale
    /// 1/256 and zero point 0 (UINT8) or -128 (INT8). XNNPACK's sigmoid table gives the same
    /// values (checked against LiteRT for both types).
    static func makeLogistic(_ ctx: OperatorContext) throws -> Kernel {
        try ctx.expect(inputs: 1...1, outputs: 1)
        let (type, x, y) = try ctx.quantizedInputOutput()
        try ctx.requireOutputShape(try ctx.input(0).shape)
        guard y.scale == 1 / 256, y.zeroPoint == (type == .uint8 ? 0 : -128) else {
            throw ctx.unsupported("LOGISTIC output must have scale 1/256 and zero point \(type == .uint8 ? 0 : -128), has \(y.scale), \(y.zeroPoint)")
        }
        let inverse = 1 / y.scale
        let table = makeTable(type: type) { q in
            let dequantized = x.scale * Float(q - x.zeroPoint)
            let sigmoid = 1 / (1 + Float.expValue(-dequantized))
            let rescaled = (sigmoid * inverse).rounded(.toNearestOrAwayFromZero)
            return Int32(rescaled + Float(y.zeroPoint))
        }
        return LookupTableKernel(ctx, table: table)
    }

    /// QUANTIZE from one 8-bit quantization to another (tflite/kernels/quantize.cc, the
    /// requantize case). Reference, and XNNPACK when it does not take the operator (different
    /// types, or a scale ratio outside [1/256, 128]): `MultiplyByQuantizedMultiplier(q - x_zp, m) +
    /// y_zp` with `m` from `x_scale / y_scale` in double (tflite/kernels/internal/reference/
    /// requantize.h). XNNPACK (same type): a Q8 multiplier `M = lrintf(256 · x_scale / y_scale)`
    /// and `(q · M - x_zp · M + y_zp · 256 + 128) >> 8` (XNNPACK src/microparams-init.c,
    /// `xnn_init_qs8_cvt_scalar_params`; src/qs8-vcvt/scalar.c.in; conditions in
    /// tflite/delegates/xnnpack/xnnpack_delegate.cc, `VisitUnaryNode` QUANTIZE).
    static func makeRequantize(_ ctx: OperatorContext) throws -> Kernel {
        try ctx.expect(inputs: 1...1, outputs: 1)
        let xd = try ctx.input(0), yd = ctx.output(0)
        guard let outputRange = yd.type.quantizedRange, xd.type.isQuantized8Bit else {
            throw ctx.unsupported("QUANTIZE from \(xd.type) to \(yd.type)")
        }
        try ctx.requireOutputShape(xd.shape)
        let x = try ctx.affineQuantization(of: xd, "the input"), y = try ctx.affineQuantization(of: yd, "the output")
        let ratio = x.scale / y.scale
        let table: [UInt8]
        if ctx.arithmetic == .xnnpack, xd.type == yd.type, ratio >= 1.0 / 256, ratio <= 128 {
            let multiplier = Int32((256 * ratio).rounded(.toNearestOrEven))
            let bias = (y.zeroPoint << 8) - multiplier * x.zeroPoint + 0x80
            table = makeTable(type: xd.type, outputRange: outputRange) { q in (bias + q * multiplier) >> 8 }
        } else {
            let multiplier = FixedPointMultiplier(Double(x.scale) / Double(y.scale))
            table = makeTable(type: xd.type, outputRange: outputRange) { q in multiplier.apply(q - x.zeroPoint) &+ y.zeroPoint }
        }
        return LookupTableKernel(ctx, table: table)
    }

    /// The table of `function` over every value of `type`, clamped to `outputRange` (the input
    /// type's range when `nil`) and stored as bit patterns.
    static func makeTable(type: TensorType, outputRange: QuantizedRange? = nil, _ function: (Int32) -> Int32) -> [UInt8] {
        (0..<256).map { (bits: Int) -> UInt8 in
            let q = type == .int8 ? Int32(Int8(bitPattern: UInt8(bits))) : Int32(bits)
            let range = outputRange ?? (type == .int8 ? .int8 : .uint8)
            return UInt8(truncatingIfNeeded: range.clamp(function(q)))
        }
    }

    private convenience init(_ ctx: OperatorContext, table: [UInt8]) {
        let count = (try? ctx.input(0).elementCount) ?? 0
        self.init(input: ctx.inputAddress(0).assumingMemoryBound(to: UInt8.self),
                  output: ctx.outputAddress(0).assumingMemoryBound(to: UInt8.self), count: count, table: table)
    }

    init(input: UnsafeMutablePointer<UInt8>, output: UnsafeMutablePointer<UInt8>, count: Int, table: [UInt8]) {
        self.input = input
        self.output = output
        self.count = count
        self.table = table
    }

    func execute(_ context: ExecutionContext) {
        context.pool.run(self, taskCount: (count + LookupTableKernel.chunk - 1) / LookupTableKernel.chunk)
    }

    func run(tasks range: Range<Int>, thread: Int) {
        table.withUnsafeBufferPointer { table in
            for task in range {
                let start = task * LookupTableKernel.chunk, end = Swift.min(start + LookupTableKernel.chunk, count)
                for i in start..<end { output[i] = table[Int(input[i])] }
            }
        }
    }
}
