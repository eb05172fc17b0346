import ModelFile

/// CONCATENATION of UINT8 or INT8 tensors along one axis (tflite/kernels/concatenation.cc).
///
/// An input with the output's scale and zero point is copied; any other is requantized as
/// TFLite's `ConcatenationWithScaling` does (tflite/kernels/internal/reference/concatenation.h):
/// `round_half_away(q · s + b) + y_zp` clamped, with `s = x_scale · (1 / y_scale)` and
/// `b = -x_zp · s` in float. XNNPACK takes this operator only when every input shares the
/// output's quantization (tflite/delegates/xnnpack/xnnpack_delegate.cc,
/// `VisitConcatenationNode`), which is the copy, so both arithmetics agree.
final class QuantizedConcatenationKernel: Kernel, ParallelJob {
    struct Part {
        let input: UnsafeMutableRawPointer
        /// Contiguous elements per outer index.
        let chunk: Int
        /// `nil` for a plain copy.
        let scale: Float?
        let bias: Float
    }

    let parts: [Part]
    let output: UnsafeMutableRawPointer
    let isSigned: Bool
    let outputZeroPoint: Int32
    let outerCount: Int
    let rowLength: Int
    /// For each part, the 256 output bytes of its 256 possible input bytes (the rescaling
    /// below, computed once: each output depends on its input byte alone).
    let tables: AlignedBuffer

    static func make(_ ctx: OperatorContext) throws -> Kernel {
        guard case .concatenation(let options) = ctx.options else { throw ctx.invalid("missing ConcatenationOptions") }
        guard ctx.inputCount >= 1, ctx.outputCount == 1 else {
            throw ctx.invalid("needs at least one input and one output")
        }
        guard options.activation == .none else {
            throw ctx.unsupported("fused activation \(options.activation.name) on a quantized concatenation")
        }
        let y = ctx.output(0)
        guard y.type.isQuantized8Bit else { throw ctx.unsupported("output type \(y.type)") }
        let outputQuantization = try ctx.affineQuantization(of: y, "the output")
        let first = try ctx.input(0)
        let rank = first.shape.count
        let axis = options.axis < 0 ? options.axis + rank : options.axis
        guard axis >= 0, axis < rank else { throw ctx.invalid("axis \(options.axis) is out of range for rank \(rank)") }
        var shape = first.shape
        shape[axis] = 0
        var parts: [Part] = []
        let inverse = 1 / outputQuantization.scale
        for i in 0..<ctx.inputCount {
            let d = try ctx.input(i)
            guard d.type == y.type else { throw ctx.unsupported("input \(i) is \(d.type), the output \(y.type)") }
            guard d.shape.count == rank else {
                throw ctx.invalid("input \(i) has rank \(d.shape.count), expected \(rank)")
            }
            for j in 0..<rank where j != axis && d.shape[j] != first.shape[j] {
                throw ctx.invalid(
                    "input \(i) has shape \(d.shapeText), incompatible with \(first.shapeText) on axis \(axis)")
            }
            shape[axis] += d.shape[axis]
            let q = try ctx.affineQuantization(of: d, "input \(i)")
            let same = q == outputQuantization
            let scale = q.scale * inverse
            parts.append(
                Part(
                    input: ctx.inputAddress(i), chunk: d.shape[axis...].reduce(1, *),
                    scale: same ? nil : scale, bias: Float(-q.zeroPoint) * scale))
        }
        try ctx.requireOutputShape(shape)
        return QuantizedConcatenationKernel(
            parts: parts, output: ctx.outputAddress(0), isSigned: y.type == .int8,
            outputZeroPoint: outputQuantization.zeroPoint,
            outerCount: shape[..<axis].reduce(1, *))
    }

    init(parts: [Part], output: UnsafeMutableRawPointer, isSigned: Bool, outputZeroPoint: Int32, outerCount: Int) {
        self.parts = parts
        self.output = output
        self.isSigned = isSigned
        self.outputZeroPoint = outputZeroPoint
        self.outerCount = outerCount
        rowLength = parts.reduce(0) { $0 + $1.chunk }
        tables = AlignedBuffer(byteCount: Swift.max(1, parts.count * 256))
        let table = tables.bound(to: UInt8.self)
        for (index, part) in parts.enumerated() {
            guard let scale = part.scale else { continue }
            for byte in 0..<256 {
                let source = isSigned ? Float(Int8(truncatingIfNeeded: byte)) : Float(byte)
                let range = isSigned ? Int8.range : UInt8.range
                let value = (source * scale + part.bias).rounded(.toNearestOrAwayFromZero)
                let clamped = Swift.min(Swift.max(value, -65536), 65536)
                table[index * 256 + byte] = UInt8(truncatingIfNeeded: range.clamp(Int32(clamped) + outputZeroPoint))
            }
        }
    }

    var constantByteCount: Int { tables.byteCount }

    func execute(_ context: ExecutionContext) {
        context.pool.run(self, taskCount: outerCount)
    }

    func run(tasks range: Range<Int>, thread: Int) {
        if isSigned { run(Int8.self, range) } else { run(UInt8.self, range) }
    }

    @inline(__always)
    private func run<T: QuantizedElement>(_: T.Type, _ range: Range<Int>) {
        let table = tables.bound(to: UInt8.self)
        for outer in range {
            var out = output.assumingMemoryBound(to: UInt8.self) + outer * rowLength
            for (index, part) in parts.enumerated() {
                let source = part.input.assumingMemoryBound(to: UInt8.self) + outer * part.chunk
                if part.scale != nil {
                    let map = table + index * 256
                    for j in 0..<part.chunk { out[j] = map[Int(source[j])] }
                } else {
                    out.update(from: source, count: part.chunk)
                }
                out += part.chunk
            }
        }
    }
}
