import ModelFile

/// ADD and MUL of UINT8 or INT8 tensors (same type for both inputs and the output) with
/// NumPy-style broadcasting (``BroadcastShape``) and the fused activation.
///
/// ADD, ``QuantizedArithmetic/xnnpack``: XNNPACK's fixed-point form
/// (XNNPACK src/microparams-init.c, `xnn_init_qu8_add_minmax_scalar_params`): with
/// `r_a = a_scale / y_scale`, `r_b` likewise, and `e` the binary exponent of `max(r_a, r_b)`,
/// `shift = 20 - e`, `M_a = lrintf(r_a · 2^shift)`, `M_b` likewise, and
/// `y = clamp(((2^(shift-1) - M_a·a_zp - M_b·b_zp + M_a·a + M_b·b) >> shift) + y_zp)`.
/// ADD, ``QuantizedArithmetic/reference``: TFLite's 20-bit left shift with input and output
/// multipliers (tflite/kernels/add.cc, `Prepare`; tflite/kernels/internal/reference/add.h,
/// `AddElementwise`).
/// MUL, xnnpack: `y = clamp(round_to_nearest_even(float((a - a_zp)(b - b_zp)) · s) + y_zp)`,
/// `s = a_scale · b_scale / y_scale` in float (`xnn_init_qu8_mul_minmax_scalar_params`, fp32
/// vmul micro-kernels). MUL, reference: `MultiplyByQuantizedMultiplier((a - a_zp)(b - b_zp), m)
/// + y_zp` (tflite/kernels/mul.cc, reference/mul.h). Where XNNPACK would not take the operator
/// (tflite/delegates/xnnpack/xnnpack_delegate.cc, `VisitBinaryNode`: ADD input/output scale
/// ratios outside [1/1024, 256), MUL product ratio outside [1/65536, 256)) the reference form
/// is used.
final class QuantizedBinaryKernel: Kernel, ParallelJob {
    enum Operation { case add, mul }

    /// The per-element arithmetic, chosen at load.
    enum Form: Equatable {
        case xnnpackAdd(multiplierA: Int32, multiplierB: Int32, bias: Int32, shift: Int32)
        case referenceAdd(
            multiplierA: FixedPointMultiplier, multiplierB: FixedPointMultiplier, output: FixedPointMultiplier)
        case xnnpackMul(scale: Float)
        case referenceMul(FixedPointMultiplier)
    }

    static let chunk = 8192

    let form: Form
    let a: UnsafeMutableRawPointer
    let b: UnsafeMutableRawPointer
    let output: UnsafeMutableRawPointer
    let isSigned: Bool
    let shape: BroadcastShape
    let zeroPointA: Int32
    let zeroPointB: Int32
    let zeroPointY: Int32
    let range: QuantizedRange
    let chunksPerRow: Int
    let rowCount: Int

    static func make(_ ctx: OperatorContext, operation: Operation) throws -> Kernel {
        try ctx.expect(inputs: 2...2, outputs: 1)
        var activation = FusedActivation.none
        switch ctx.options {
        case .elementwise(let fused): activation = fused
        case .none, .other: break
        default: throw ctx.invalid("unexpected options \(ctx.options)")
        }
        let x = try ctx.input(0)
        let z = try ctx.input(1)
        let y = ctx.output(0)
        guard x.type.isQuantized8Bit, z.type == x.type, y.type == x.type else {
            throw ctx.unsupported(
                "input types \(x.type), \(z.type) and output type \(y.type); expected all UINT8 or all INT8")
        }
        guard let shape = BroadcastShape(x.shape, z.shape) else {
            throw ctx.invalid("shapes \(x.shapeText) and \(z.shapeText) do not broadcast")
        }
        try ctx.requireOutputShape(shape.outputShape)
        let qa = try ctx.affineQuantization(of: x, "input 0")
        let qb = try ctx.affineQuantization(of: z, "input 1")
        let qy = try ctx.affineQuantization(of: y, "the output")
        let range = try ctx.quantizedActivationRange(activation, output: qy, type: y.type)
        let form = QuantizedBinaryKernel.form(operation, a: qa, b: qb, output: qy, arithmetic: ctx.arithmetic)
        return QuantizedBinaryKernel(
            form: form, a: ctx.inputAddress(0), b: ctx.inputAddress(1), output: ctx.outputAddress(0),
            isSigned: y.type == .int8, shape: shape, zeroPoints: (qa.zeroPoint, qb.zeroPoint, qy.zeroPoint),
            range: range)
    }

    /// The per-element arithmetic of `operation` for these quantizations.
    static func form(
        _ operation: Operation, a qa: AffineQuantization, b qb: AffineQuantization, output qy: AffineQuantization,
        arithmetic: QuantizedArithmetic
    ) -> Form {
        switch operation {
        case .add:
            let ra = qa.scale / qy.scale
            let rb = qb.scale / qy.scale
            let delegated = ra >= 1.0 / 1024 && ra < 256 && rb >= 1.0 / 1024 && rb < 256
            if arithmetic == .xnnpack && delegated {
                let exponent = Int32(Swift.max(ra, rb).exponent)
                let shift = 20 - exponent
                // lrintf of the ratio scaled by 2^shift (exact scaling: add to the exponent bits).
                let ma = Int32(
                    (ra * Float(sign: .plus, exponent: Int(shift), significand: 1)).rounded(.toNearestOrEven))
                let mb = Int32(
                    (rb * Float(sign: .plus, exponent: Int(shift), significand: 1)).rounded(.toNearestOrEven))
                let bias = (Int32(1) << (shift - 1)) &- ma &* qa.zeroPoint &- mb &* qb.zeroPoint
                return .xnnpackAdd(multiplierA: ma, multiplierB: mb, bias: bias, shift: shift)
            }
            let twiceMaximum = Double(2 * Swift.max(qa.scale, qb.scale))
            return .referenceAdd(
                multiplierA: FixedPointMultiplier(Double(qa.scale) / twiceMaximum),
                multiplierB: FixedPointMultiplier(Double(qb.scale) / twiceMaximum),
                output: FixedPointMultiplier(twiceMaximum / Double(Float(1 << 20) * qy.scale)))
        case .mul:
            let scale = qa.scale * qb.scale / qy.scale
            if arithmetic == .xnnpack && scale >= 1.0 / 65536 && scale < 256 { return .xnnpackMul(scale: scale) }
            return .referenceMul(FixedPointMultiplier(Double(scale)))
        }
    }

    init(
        form: Form, a: UnsafeMutableRawPointer, b: UnsafeMutableRawPointer, output: UnsafeMutableRawPointer,
        isSigned: Bool,
        shape: BroadcastShape, zeroPoints: (Int32, Int32, Int32), range: QuantizedRange
    ) {
        self.form = form
        self.a = a
        self.b = b
        self.output = output
        self.isSigned = isSigned
        self.shape = shape
        (zeroPointA, zeroPointB, zeroPointY) = zeroPoints
        self.range = range
        let inner = shape.dims[shape.dims.count - 1]
        chunksPerRow = (inner + QuantizedBinaryKernel.chunk - 1) / QuantizedBinaryKernel.chunk
        rowCount = shape.dims.dropLast().reduce(1, *)
    }

    /// The output value for raw inputs `x` and `z`.
    @inline(__always)
    func combine(_ x: Int32, _ z: Int32) -> Int32 {
        switch form {
        case .xnnpackAdd(let ma, let mb, let bias, let shift):
            return range.clamp(((bias &+ x &* ma &+ z &* mb) >> shift) &+ zeroPointY)
        case .referenceAdd(let ma, let mb, let mo):
            let sa = ma.applySmallerThanOne((x - zeroPointA) &* (1 << 20))
            let sb = mb.applySmallerThanOne((z - zeroPointB) &* (1 << 20))
            return range.clamp(mo.applySmallerThanOne(sa &+ sb) &+ zeroPointY)
        case .xnnpackMul(let scale):
            let v = Float((x - zeroPointA) * (z - zeroPointB)) * scale
            let clamped = Swift.min(Swift.max(v, Float(range.lower - zeroPointY)), Float(range.upper - zeroPointY))
            return Int32(clamped.rounded(.toNearestOrEven)) + zeroPointY
        case .referenceMul(let m):
            return range.clamp(m.apply((x - zeroPointA) * (z - zeroPointB)) &+ zeroPointY)
        }
    }

    func execute(_ context: ExecutionContext) {
        context.pool.run(self, taskCount: rowCount * chunksPerRow)
    }

    func run(tasks range: Range<Int>, thread: Int) {
        if isSigned { run(Int8.self, range) } else { run(UInt8.self, range) }
    }

    @inline(__always)
    private func run<T: QuantizedElement>(_: T.Type, _ range: Range<Int>) {
        let last = shape.dims.count - 1
        let innerA = shape.stridesA[last]
        let innerB = shape.stridesB[last]
        let pa = a.assumingMemoryBound(to: T.self)
        let pb = b.assumingMemoryBound(to: T.self)
        let py = output.assumingMemoryBound(to: T.self)
        for task in range {
            let row = task / chunksPerRow
            let chunk = task % chunksPerRow
            let span = shape.span(row: row, chunk: chunk, chunkLength: QuantizedBinaryKernel.chunk)
            let out = py + span.output
            let x = pa + span.a
            let z = pb + span.b
            for i in 0..<span.count {
                out[i] = T(truncatingIfNeeded: combine(Int32(x[i * innerA]), Int32(z[i * innerB])))
            }
        }
    }
}
