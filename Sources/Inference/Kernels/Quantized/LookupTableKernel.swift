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
    /// The table of elements `tailStart...` (TFLite's optimized requantization treats the
    /// elements after its last 16-element block differently).
    let tailTable: [UInt8]
    let tailStart: Int

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
            throw ctx.unsupported(
                "LOGISTIC output must have scale 1/256 and zero point \(type == .uint8 ? 0 : -128), has \(y.scale), "
                    + "\(y.zeroPoint)"
            )
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
    /// requantize case), `q - x_zp` scaled by the multiplier of `x_scale / y_scale` (double),
    /// plus `y_zp`, clamped:
    /// * reference: `MultiplyByQuantizedMultiplier` (tflite/kernels/internal/reference/requantize.h);
    /// * xnnpack, same type and a scale ratio in [1/256, 128] (XNNPACK takes it:
    ///   tflite/delegates/xnnpack/xnnpack_delegate.cc, `VisitUnaryNode`): a Q8 multiplier
    ///   `M = lrintf(256 · x_scale / y_scale)` and `(q · M - x_zp · M + y_zp · 256 + 128) >> 8`
    ///   (XNNPACK src/microparams-init.c, `xnn_init_qs8_cvt_scalar_params`; src/qs8-vcvt);
    /// * xnnpack otherwise: TFLite's optimized `Requantize` (optimized_ops.h), whose 16-element
    ///   blocks round ties up (``FixedPointMultiplier/applyRoundingUp(_:)``) and whose last
    ///   `count % 16` elements use `MultiplyByQuantizedMultiplier`.
    static func makeRequantize(_ ctx: OperatorContext) throws -> Kernel {
        try ctx.expect(inputs: 1...1, outputs: 1)
        let xd = try ctx.input(0)
        let yd = ctx.output(0)
        guard let outputRange = yd.type.quantizedRange, xd.type.isQuantized8Bit else {
            throw ctx.unsupported("QUANTIZE from \(xd.type) to \(yd.type)")
        }
        try ctx.requireOutputShape(xd.shape)
        let x = try ctx.affineQuantization(of: xd, "the input")
        let y = try ctx.affineQuantization(of: yd, "the output")
        let ratio = x.scale / y.scale
        let multiplier = FixedPointMultiplier(Double(x.scale) / Double(y.scale))
        let gemmlowp = makeTable(type: xd.type, outputRange: outputRange) { q in
            multiplier.apply(q - x.zeroPoint) &+ y.zeroPoint
        }
        guard ctx.arithmetic == .xnnpack else { return LookupTableKernel(ctx, table: gemmlowp) }
        if xd.type == yd.type, ratio >= 1.0 / 256, ratio <= 128 {
            let q8 = Int32((256 * ratio).rounded(.toNearestOrEven))
            let bias = (y.zeroPoint << 8) - q8 * x.zeroPoint + 0x80
            return LookupTableKernel(
                ctx, table: makeTable(type: xd.type, outputRange: outputRange) { q in (bias + q * q8) >> 8 })
        }
        let roundingUp = makeTable(type: xd.type, outputRange: outputRange) { q in
            multiplier.applyRoundingUp(q - x.zeroPoint) &+ y.zeroPoint
        }
        let count = xd.elementCount
        return LookupTableKernel(ctx, table: roundingUp, tailTable: gemmlowp, tailStart: count - count % 16)
    }

    /// The table of `function` over every value of `type`, clamped to `outputRange` (the input
    /// type's range when `nil`) and stored as bit patterns.
    static func makeTable(type: TensorType, outputRange: QuantizedRange? = nil, _ function: (Int32) -> Int32) -> [UInt8]
    {
        (0..<256).map { (bits: Int) -> UInt8 in
            let q = type == .int8 ? Int32(Int8(bitPattern: UInt8(bits))) : Int32(bits)
            let range = outputRange ?? (type == .int8 ? .int8 : .uint8)
            return UInt8(truncatingIfNeeded: range.clamp(function(q)))
        }
    }

    private convenience init(_ ctx: OperatorContext, table: [UInt8], tailTable: [UInt8]? = nil, tailStart: Int? = nil) {
        let count = (try? ctx.input(0).elementCount) ?? 0
        self.init(
            input: ctx.inputAddress(0).assumingMemoryBound(to: UInt8.self),
            output: ctx.outputAddress(0).assumingMemoryBound(to: UInt8.self), count: count, table: table,
            tailTable: tailTable ?? table, tailStart: tailStart ?? count)
    }

    /// Elements from `tailStart` on use `tailTable`.
    init(
        input: UnsafeMutablePointer<UInt8>, output: UnsafeMutablePointer<UInt8>, count: Int, table: [UInt8],
        tailTable: [UInt8], tailStart: Int
    ) {
        self.input = input
        self.output = output
        self.count = count
        self.table = table
        self.tailTable = tailTable
        self.tailStart = tailStart
    }

    func execute(_ context: ExecutionContext) {
        context.pool.run(self, taskCount: (count + LookupTableKernel.chunk - 1) / LookupTableKernel.chunk)
    }

    func run(tasks range: Range<Int>, thread: Int) {
        table.withUnsafeBufferPointer { table in
            tailTable.withUnsafeBufferPointer { tail in
                for task in range {
                    let start = task * LookupTableKernel.chunk
                    let end = Swift.min(start + LookupTableKernel.chunk, count)
                    let split = Swift.min(Swift.max(tailStart, start), end)
                    for i in start..<split { output[i] = table[Int(input[i])] }
                    for i in split..<end { output[i] = tail[Int(input[i])] }
                }
            }
        }
    }
}
