import ModelFile

/// QUANTIZE from FLOAT32 to UINT8 or INT8 with one scale and zero point
/// (tflite/kernels/quantize.cc).
///
/// * ``QuantizedArithmetic/xnnpack`` (also TFLite's optimized kernel, which LiteRT's builtin
///   resolver uses): `clamp(round_to_nearest_even(min(x · (1 / scale), 32767)) + zero_point)`, NaN giving
///   the highest value (XNNPACK src/f32-qs8-vcvt, `xnn_init_f32_qs8_cvt_scalar_params`).
/// * ``QuantizedArithmetic/reference``: `clamp(round_half_away(x / scale) + zero_point)`
///   (tflite/kernels/internal/reference/quantize.h, `AffineQuantize`), with the x86 result of
///   the C++ float-to-int cast for values beyond the int32 range.
final class QuantizeKernel: Kernel, ParallelJob {
    static let chunk = 8192

    let input: UnsafeMutablePointer<Float>
    let output: UnsafeMutableRawPointer
    let isSigned: Bool
    let count: Int
    let arithmetic: QuantizedArithmetic
    let scale: Float
    let inverseScale: Float
    let zeroPoint: Int32

    static func make(_ ctx: OperatorContext) throws -> Kernel {
        try ctx.expect(inputs: 1...1, outputs: 1)
        let x = try ctx.input(0)
        let y = ctx.output(0)
        if x.type.isQuantized8Bit { return try LookupTableKernel.makeRequantize(ctx) }
        guard x.type == .float32, y.type.isQuantized8Bit else {
            throw ctx.unsupported("QUANTIZE from \(x.type) to \(y.type)")
        }
        try ctx.requireOutputShape(x.shape)
        let q = try ctx.affineQuantization(of: y, "the output")
        return QuantizeKernel(
            input: ctx.inputFloats(0), output: ctx.outputAddress(0), isSigned: y.type == .int8,
            count: x.elementCount, arithmetic: ctx.arithmetic, quantization: q)
    }

    init(
        input: UnsafeMutablePointer<Float>, output: UnsafeMutableRawPointer, isSigned: Bool, count: Int,
        arithmetic: QuantizedArithmetic, quantization: AffineQuantization
    ) {
        self.input = input
        self.output = output
        self.isSigned = isSigned
        self.count = count
        self.arithmetic = arithmetic
        scale = quantization.scale
        inverseScale = 1 / quantization.scale
        zeroPoint = quantization.zeroPoint
    }

    /// The quantized value of `x` (before the cast to the element type).
    @inline(__always)
    func quantize(_ x: Float, range: QuantizedRange) -> Int32 {
        let rounded: Float
        switch arithmetic {
        case .xnnpack:
            // XNNPACK clamps the scaled value with `min(v, 32767)` before converting; SSE's minps
            // returns its second operand for a NaN, so NaN saturates to the highest value.
            let v = x * inverseScale
            guard !v.isNaN else { return range.upper }
            rounded = Swift.min(v, 32767).rounded(.toNearestOrEven)
        case .reference:
            // TFLite converts with a plain C++ cast; on x86 an out-of-range or NaN value becomes
            // INT32_MIN (cvttss2si), to which the zero point is added with wrap-around.
            let v = (x / scale).rounded(.toNearestOrAwayFromZero)
            let integer = v.isNaN || v >= 2_147_483_648 || v < -2_147_483_648 ? Int32.min : Int32(v)
            return range.clamp(integer &+ zeroPoint)
        }
        let integer = Int32(Swift.max(Swift.min(rounded, 1e9), -1e9))
        return range.clamp(integer + zeroPoint)
    }

    func execute(_ context: ExecutionContext) {
        context.pool.run(self, taskCount: (count + QuantizeKernel.chunk - 1) / QuantizeKernel.chunk)
    }

    func run(tasks range: Range<Int>, thread: Int) {
        if isSigned { run(Int8.self, range) } else { run(UInt8.self, range) }
    }

    @inline(__always)
    private func run<T: QuantizedElement>(_: T.Type, _ range: Range<Int>) {
        let out = output.assumingMemoryBound(to: T.self)
        for task in range {
            let start = task * QuantizeKernel.chunk
            let end = Swift.min(start + QuantizeKernel.chunk, count)
            for i in start..<end { out[i] = T(truncatingIfNeeded: quantize(input[i], range: T.range)) }
        }
    }
}
