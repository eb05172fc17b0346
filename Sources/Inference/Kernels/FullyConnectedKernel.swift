import ModelFile

/// FULLY_CONNECTED on float32: `out[m] = W · in[m] + b` for every row `m` of the input
/// flattened to `[M, K]`, with the weights packed like a 1×1 convolution.
///
/// Output shape (tensorflow/lite/kernels/fully_connected.cc, `Prepare`): with `keep_num_dims`
/// the input's shape with its last dimension replaced by the output depth, else `[M, N]`.
final class FullyConnectedKernel: Kernel, ParallelJob {
    let input: UnsafeMutablePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let rowCount: Int
    let weights: PackedWeights
    let clamp: ActivationClamp

    static func make(_ ctx: OperatorContext) throws -> Kernel {
        guard case .fullyConnected(let options) = ctx.options else {
            throw ctx.invalid("missing FullyConnectedOptions")
        }
        try ctx.expect(inputs: 2...3, outputs: 1)
        try ctx.requireFloat(inputs: [0])
        guard options.weightsFormat == 0 else {
            throw ctx.unsupported("shuffled weights format \(options.weightsFormat)")
        }
        let inputDescriptor = try ctx.input(0)
        let filter = try ctx.requireConstant(1, "the weights")
        guard filter.descriptor.type == .float32, filter.descriptor.shape.count == 2 else {
            throw ctx.unsupported(
                "weights must be a 2-D FLOAT32 tensor, found \(filter.descriptor.type) \(filter.descriptor.shapeText)")
        }
        let n = filter.descriptor.shape[0]
        let k = filter.descriptor.shape[1]
        guard k > 0, n > 0, inputDescriptor.elementCount % k == 0 else {
            throw ctx.invalid("input \(inputDescriptor.shapeText) does not divide into rows of \(k)")
        }
        let m = inputDescriptor.elementCount / k
        let bias = try ctx.floatBias(2, count: n)
        let expected = options.keepNumDims ? Array(inputDescriptor.shape.dropLast()) + [n] : [m, n]
        try ctx.requireOutputShape(expected)
        return FullyConnectedKernel(
            input: ctx.inputFloats(0), output: ctx.outputFloats(0), rowCount: m,
            weights: PackedWeights(
                weights: filter.floats, bias: bias?.floats, n: n, k: k, instructionSet: ctx.instructionSet),
            clamp: try ctx.clamp(options.activation), tuning: ctx.tuning)
    }

    init(
        input: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>, rowCount: Int,
        weights: PackedWeights, clamp: ActivationClamp, tuning: EngineTuning = .standard
    ) {
        self.input = input
        self.output = output
        self.rowCount = rowCount
        self.weights = weights
        self.clamp = clamp
        tiling = GemmTiling(rowCount: rowCount, weights: weights, tuning: tuning)
    }

    private let tiling: GemmTiling
    /// The task order of the current job (see ``GemmTiling``).
    private var rowMajor = false

    var constantByteCount: Int { weights.byteCount }

    func execute(_ context: ExecutionContext) {
        rowMajor = tiling.rowMajor(threads: context.pool.threadCount)
        context.pool.run(self, taskCount: tiling.taskCount, work: rowCount * weights.k * weights.n)
    }

    func run(tasks range: Range<Int>, thread: Int) {
        for task in range {
            let (rows, panels) = tiling.task(task, rowMajor: rowMajor)
            weights.run(
                a: input, aStride: weights.k, c: output, cStride: weights.n, rows: rows, panels: panels, clamp: clamp)
        }
    }
}
