import CVisionKernels
import ModelFile

/// Element-wise float32 operators: LOGISTIC, TANH, RELU, RELU6, RELU_N1_TO_1, HARD_SWISH,
/// LEAKY_RELU, NEG, SQRT, RSQRT. Formulas from tensorflow/lite/kernels/activations.cc (reference paths); LOGISTIC
/// with XNNPACK's AVX-512 approximation bit for bit (`vk_sigmoid`), HARD_SWISH with XNNPACK's
/// formula (`vk_hard_swish`).
final class UnaryKernel: Kernel, ParallelJob {
    enum Operation: Equatable {
        /// `1 / (1 + e^-x)`
        case logistic
        case tanh
        /// Clamp to `[lower, upper]` (RELU, RELU6, RELU_N1_TO_1).
        case clamp(ActivationClamp)
        /// `x · relu6(x + 3) / 6`, as XNNPACK computes it: `x · min(max(x · ⅙ + ½, 0), 1)` with
        /// one fused multiply-add.
        case hardSwish
        /// `x > 0 ? x : alpha · x`
        case leakyRelu(alpha: Float)
        /// `0 − x` (XNNPACK's negation: −0 stays +0 for +0).
        case negate
        /// XNNPACK's square root and reciprocal square root (`vk_sqrt`, `vk_rsqrt`).
        case squareRoot
        case reciprocalSquareRoot
    }

    static let chunk = 8192

    let operation: Operation
    let input: UnsafeMutablePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let count: Int

    static func make(_ ctx: OperatorContext, operation: Operation) throws -> Kernel {
        try ctx.expect(inputs: 1...1, outputs: 1)
        try ctx.requireFloat(inputs: [0])
        let x = try ctx.input(0)
        try ctx.requireOutputShape(x.shape)
        return UnaryKernel(
            operation: operation, input: ctx.inputFloats(0), output: ctx.outputFloats(0), count: x.elementCount,
            instructionSet: ctx.instructionSet)
    }

    let instructionSet: InstructionSet

    init(
        operation: Operation, input: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>, count: Int,
        instructionSet: InstructionSet = .best
    ) {
        self.operation = operation
        self.instructionSet = instructionSet
        self.input = input
        self.output = output
        self.count = count
    }

    func execute(_ context: ExecutionContext) {
        context.pool.run(self, taskCount: (count + UnaryKernel.chunk - 1) / UnaryKernel.chunk, work: 8 * count)
    }

    func run(tasks range: Range<Int>, thread: Int) {
        for task in range {
            let start = task * UnaryKernel.chunk
            let end = Swift.min(count, start + UnaryKernel.chunk)
            switch operation {
            case .logistic:
                vk_sigmoid(instructionSet.isa, input + start, output + start, end - start)
            case .tanh:
                for i in start..<end { output[i] = Float.tanhValue(input[i]) }
            case .clamp(let clamp):
                for i in start..<end { output[i] = clamp.apply(input[i]) }
            case .hardSwish:
                vk_hard_swish(instructionSet.isa, input + start, output + start, end - start)
            case .leakyRelu(let alpha):
                for i in start..<end {
                    let x = input[i]
                    output[i] = x > 0 ? x : alpha * x
                }
            case .negate:
                for i in start..<end { output[i] = 0 - input[i] }
            case .squareRoot:
                vk_sqrt(instructionSet.isa, input + start, output + start, end - start)
            case .reciprocalSquareRoot:
                vk_rsqrt(instructionSet.isa, input + start, output + start, end - start)
            }
        }
    }
}

/// DEQUANTIZE to float32: FLOAT16 (exact widening), INT8 and UINT8 with one scale and zero
/// point or per-channel ones (`(q - zero_point) · scale`, tensorflow/lite/kernels/dequantize.cc).
/// Used at load time to fold constant weights and at run time for computed inputs.
final class DequantizeKernel: Kernel {
    let input: UnsafeMutableRawPointer
    let output: UnsafeMutablePointer<Float>
    let type: TensorType
    let count: Int
    /// Per element group: scale and zero point; `channelStride`/`channels` locate the group.
    let scales: [Float]
    let zeroPoints: [Int]
    let channels: Int
    let channelStride: Int

    static func make(_ ctx: OperatorContext) throws -> Kernel {
        try ctx.expect(inputs: 1...1, outputs: 1)
        let x = try ctx.input(0)
        guard ctx.output(0).type == .float32 else { throw ctx.unsupported("output type \(ctx.output(0).type)") }
        try ctx.requireOutputShape(x.shape)
        var scales: [Float] = [1]
        var zeroPoints: [Int] = [0]
        var channels = 1
        var channelStride = 1
        switch x.type {
        case .float16:
            break
        case .int8, .uint8:
            guard let q = x.quantization, !q.scale.isEmpty else {
                throw ctx.unsupported("\(x.type) input without quantization parameters")
            }
            scales = q.scale
            zeroPoints = q.zeroPoint.isEmpty ? Array(repeating: 0, count: q.scale.count) : q.zeroPoint.map { Int($0) }
            guard zeroPoints.count == scales.count else {
                throw ctx.invalid("\(scales.count) scales but \(zeroPoints.count) zero points")
            }
            if scales.count > 1 {
                let axis = q.quantizedDimension
                guard axis >= 0, axis < x.shape.count, x.shape[axis] == scales.count else {
                    throw ctx.invalid("\(scales.count) scales do not match dimension \(axis) of \(x.shapeText)")
                }
                channels = scales.count
                channelStride = x.shape[(axis + 1)...].reduce(1, *)
            }
        default:
            throw ctx.unsupported("input type \(x.type) is not supported")
        }
        return DequantizeKernel(
            input: ctx.address(ctx.inputIndices[0]), output: ctx.outputFloats(0), type: x.type,
            count: x.elementCount, scales: scales, zeroPoints: zeroPoints,
            channels: channels, channelStride: channelStride)
    }

    init(
        input: UnsafeMutableRawPointer, output: UnsafeMutablePointer<Float>, type: TensorType, count: Int,
        scales: [Float], zeroPoints: [Int], channels: Int, channelStride: Int
    ) {
        self.input = input
        self.output = output
        self.type = type
        self.count = count
        self.scales = scales
        self.zeroPoints = zeroPoints
        self.channels = channels
        self.channelStride = channelStride
    }

    func execute(_ context: ExecutionContext) {
        switch type {
        case .float16:
            let bits = input.assumingMemoryBound(to: UInt16.self)
            for i in 0..<count { output[i] = Float(halfBits: bits[i]) }
        case .int8:
            let q = input.assumingMemoryBound(to: Int8.self)
            for i in 0..<count {
                let g = channels == 1 ? 0 : (i / channelStride) % channels
                output[i] = Float(Int(q[i]) - zeroPoints[g]) * scales[g]
            }
        case .uint8:
            let q = input.assumingMemoryBound(to: UInt8.self)
            for i in 0..<count {
                let g = channels == 1 ? 0 : (i / channelStride) % channels
                output[i] = Float(Int(q[i]) - zeroPoints[g]) * scales[g]
            }
        default:
            break
        }
    }
}

extension Float {
    /// Widens IEEE 754 binary16 bits exactly (no dependence on `Float16` availability).
    init(halfBits h: UInt16) {
        let sign = UInt32(h & 0x8000) << 16
        let exponent = Int((h >> 10) & 0x1F)
        let mantissa = UInt32(h & 0x3FF)
        if exponent == 0x1F {
            self = Float(bitPattern: sign | 0x7F80_0000 | (mantissa << 13))
        } else if exponent != 0 {
            self = Float(bitPattern: sign | UInt32(exponent - 15 + 127) << 23 | (mantissa << 13))
        } else if mantissa == 0 {
            self = Float(bitPattern: sign)
        } else {
            // Subnormal half: mantissa · 2^-24, exact in float.
            let magnitude = Float(mantissa) * Float(sign: .plus, exponent: -24, significand: 1)
            self = sign != 0 ? -magnitude : magnitude
        }
    }
}
