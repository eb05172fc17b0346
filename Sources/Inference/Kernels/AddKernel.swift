import CVisionKernels
import ModelFile

/// ADD of two equal-shaped float32 tensors (CVisionKernels' `vk_add_pixels`), with the fused
/// activation, and what ``GraphFusion`` folds into it: a channel PAD of the second operand
/// (it then has fewer channels, zero beyond them), a per-channel PRELU of the result, or a MUL
/// of the first operand by one value per channel (`vk_scale_add_pixels`: each product rounded,
/// then added, as the two operators compute them).
/// Work is split over blocks of pixels (positions of the last dimension).
final class AddKernel: Kernel, ParallelJob {
    /// Pixels per task: about 16 tasks, at least 64 pixels each.
    private let pixelsPerTask: Int

    let a: UnsafeMutablePointer<Float>
    let b: UnsafeMutablePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let pixelCount: Int
    let channels: Int
    let bChannels: Int
    let clamp: ActivationClamp
    let instructionSet: InstructionSet
    /// The fused PRELU's slopes (`channels` floats), if any.
    private let slopes: AlignedBuffer?
    /// The channel vector that multiplies `a` first (a fused MUL), if any.
    let scale: UnsafeMutablePointer<Float>?

    var constantByteCount: Int { slopes?.byteCount ?? 0 }

    static func make(_ ctx: OperatorContext) throws -> Kernel {
        try ctx.expect(inputs: ctx.scaledFirstInput ? 3...3 : 2...2, outputs: 1)
        try ctx.requireFloat(inputs: ctx.scaledFirstInput ? [0, 1, 2] : [0, 1])
        var clamp = ActivationClamp.identity
        switch ctx.options {
        case .elementwise(let activation): clamp = try ctx.clamp(activation)
        case .none, .other: break
        default: throw ctx.invalid("unexpected options \(ctx.options)")
        }
        let x = try ctx.input(0)
        let y = try ctx.input(1)
        guard let channels = x.shape.last, channels > 0, let bChannels = y.shape.last else {
            throw ctx.unsupported("operands must have rank 1 or more, have \(x.shapeText) and \(y.shapeText)")
        }
        if ctx.channelPaddedInput {
            guard x.shape.count == y.shape.count, x.shape.dropLast() == y.shape.dropLast(), bChannels <= channels else {
                throw ctx.invalid("\(y.shapeText) is not \(x.shapeText) with fewer channels")
            }
        } else if x.shape != y.shape {
            throw ctx.invalid("operands \(x.shapeText) and \(y.shapeText) differ in shape")
        }
        try ctx.requireOutputShape(x.shape)
        if ctx.scaledFirstInput {
            guard !ctx.channelPaddedInput, ctx.preluAlpha == nil else {
                throw ctx.invalid("a fused channel scale takes no channel PAD or PRELU")
            }
            let vector = try ctx.input(2)
            guard vector.elementCount == channels, vector.shape.last == channels else {
                throw ctx.invalid("the fused scale \(vector.shapeText) is not one value per channel of \(x.shapeText)")
            }
        }
        var slopes: AlignedBuffer?
        if let alpha = ctx.preluAlpha {
            guard let value = try ctx.constants.value(of: alpha), value.descriptor.type == .float32,
                value.descriptor.elementCount == channels
            else {
                throw ctx.invalid("the fused PRELU needs \(channels) constant FLOAT32 slopes")
            }
            slopes = AlignedBuffer(copying: UnsafeBufferPointer(start: value.floats, count: channels))
        }
        return AddKernel(
            a: ctx.inputFloats(0), b: ctx.inputFloats(1), output: ctx.outputFloats(0),
            pixelCount: x.elementCount / channels, channels: channels, bChannels: bChannels, clamp: clamp,
            slopes: slopes, scale: ctx.scaledFirstInput ? ctx.inputFloats(2) : nil, instructionSet: ctx.instructionSet)
    }

    init(
        a: UnsafeMutablePointer<Float>, b: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>,
        pixelCount: Int,
        channels: Int, bChannels: Int, clamp: ActivationClamp, slopes: AlignedBuffer?,
        scale: UnsafeMutablePointer<Float>? = nil, instructionSet: InstructionSet
    ) {
        self.a = a
        self.b = b
        self.output = output
        self.pixelCount = pixelCount
        self.channels = channels
        self.bChannels = bChannels
        self.clamp = clamp
        self.slopes = slopes
        self.scale = scale
        self.instructionSet = instructionSet
        pixelsPerTask = Swift.max(64, (pixelCount + 15) / 16)
    }

    func execute(_ context: ExecutionContext) {
        context.pool.run(
            self, taskCount: (pixelCount + pixelsPerTask - 1) / pixelsPerTask,
            work: pixelCount * channels)
    }

    func run(tasks range: Range<Int>, thread: Int) {
        let first = range.lowerBound * pixelsPerTask
        let count = Swift.min(pixelCount, range.upperBound * pixelsPerTask) - first
        let (lower, upper) = (clamp.lower, clamp.upper)
        let out = output + first * channels
        if let scale {
            // (No channel PAD or PRELU with a scale: `make` refuses them.)
            vk_scale_add_pixels(
                instructionSet.isa, a + first * channels, scale, b + first * channels, out, count, channels, lower,
                upper)
            if clamp.hasFunction { clamp.apply(to: out, count: count * channels) }
            return
        }
        if clamp.hasFunction {
            // Rare: tanh between the sum and the PRELU.
            vk_add_pixels(
                instructionSet.isa, a + first * channels, b + first * bChannels, bChannels, out, count, channels,
                lower, upper, nil)
            clamp.apply(to: out, count: count * channels)
            if let slopes { vk_prelu_pixels(instructionSet.isa, out, out, count, channels, slopes.floats) }
            return
        }
        vk_add_pixels(
            instructionSet.isa, a + first * channels, b + first * bChannels, bChannels, out, count, channels,
            lower, upper, slopes?.floats)
    }
}
