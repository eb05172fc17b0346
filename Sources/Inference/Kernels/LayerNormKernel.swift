import CVisionKernels
import ModelFile

/// A layer normalisation over the last axis, fused by ``GraphFusion`` from the ten operators a
/// converted model holds. For each pixel (a row of `channels` values `x`):
/// `m = MEAN(x)`, `v = MEAN((x − m)²)`, `r = RSQRT(v + ε)`, `s = r · γ` and
/// `y = x · s + (0 − m) · s`.
///
/// Each operation is computed as its own kernel computes it (`vk_layer_norm`: the means as
/// ``ReduceKernel`` computes them with `vk_row_sums`, `vk_rsqrt`, `0 − m` as NEG, single IEEE
/// multiplications and additions for the rest, none fused), so the bits are those of the ten
/// operators (and LiteRT's), in one pass over each row instead of ten over the tensor.
final class LayerNormKernel: Kernel, ParallelJob {
    let input: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let pixels: Int
    let channels: Int
    let epsilon: Float
    let instructionSet: InstructionSet
    /// γ, one value per channel.
    private let gamma: AlignedBuffer

    /// Builds the kernel of a fused ADD (``OperatorContext/fusedLayerNorm``): inputs `x`, `ε`
    /// (one constant value) and `γ` (a constant per channel).
    static func make(_ ctx: OperatorContext) throws -> Kernel {
        try ctx.expect(inputs: 3...3, outputs: 1)
        try ctx.requireFloat(inputs: [0])
        let x = try ctx.input(0)
        guard let channels = x.shape.last, channels > 0, x.shape.count >= 2 else {
            throw ctx.invalid("a layer normalisation needs an input of rank 2 or more, has \(x.shapeText)")
        }
        let epsilon = try ctx.requireConstant(1, "epsilon")
        let gamma = try ctx.requireConstant(2, "gamma")
        guard epsilon.descriptor.type == .float32, epsilon.descriptor.elementCount == 1,
            gamma.descriptor.type == .float32, gamma.descriptor.elementCount == channels
        else { throw ctx.invalid("epsilon must be one FLOAT32 value and gamma \(channels)") }
        try ctx.requireOutputShape(x.shape)
        return LayerNormKernel(
            input: ctx.inputFloats(0), output: ctx.outputFloats(0), pixels: x.elementCount / channels,
            channels: channels, epsilon: epsilon.floats[0], gamma: gamma.floats, instructionSet: ctx.instructionSet)
    }

    init(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pixels: Int, channels: Int, epsilon: Float,
        gamma: UnsafePointer<Float>, instructionSet: InstructionSet
    ) {
        self.input = input
        self.output = output
        self.pixels = pixels
        self.channels = channels
        self.epsilon = epsilon
        self.instructionSet = instructionSet
        self.gamma = AlignedBuffer(byteCount: channels * MemoryLayout<Float>.stride)
        self.gamma.floats.update(from: gamma, count: channels)
    }

    var constantByteCount: Int { gamma.byteCount }

    /// Pixels per task.
    static let pixelsPerTask = 256

    /// Three floats per pixel of a task: the means, `v + ε` and its reciprocal square root.
    var scratchBytesPerThread: Int { 3 * LayerNormKernel.pixelsPerTask * MemoryLayout<Float>.stride }

    private var context: ExecutionContext?

    func execute(_ context: ExecutionContext) {
        self.context = context
        context.pool.run(
            self, taskCount: (pixels + LayerNormKernel.pixelsPerTask - 1) / LayerNormKernel.pixelsPerTask,
            work: 6 * pixels * channels)
        self.context = nil
    }

    func run(tasks range: Range<Int>, thread: Int) {
        guard let context else { return }
        let scratch = context.scratchFloats(thread: thread)
        for task in range {
            let first = task * LayerNormKernel.pixelsPerTask
            let end = Swift.min(pixels, first + LayerNormKernel.pixelsPerTask)
            vk_layer_norm(instructionSet.isa, input, output, first, end, channels, epsilon, gamma.floats, scratch)
        }
    }
}
