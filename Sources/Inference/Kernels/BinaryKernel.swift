import CVisionKernels
import ModelFile

/// ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM, PRELU and SQUARED_DIFFERENCE on float32 with
/// NumPy-style broadcasting (``BroadcastShape``) and the fused activation where the operator has
/// one. The arithmetic is the C kernel `vk_binary_rows` (PRELU: `x ≥ 0 ? x : x · alpha`,
/// tensorflow/lite/kernels/activations.cc `PreluEval`; SQUARED_DIFFERENCE: the difference, then its
/// square, as XNNPACK's vsqrdiff): a whole block of rows per call when the shape merges to two
/// dimensions (a channel vector over pixels, per-row values along rows: nearly every model's
/// case), one row per call otherwise. TANH is applied to the results afterwards.
final class BinaryKernel: Kernel, ParallelJob {
    enum Operation { case add, sub, mul, div, maximum, minimum, prelu, squaredDifference }

    /// Elements of the innermost dimension per task.
    static let chunk = 8192

    let operation: Operation
    let a: UnsafeMutablePointer<Float>
    let b: UnsafeMutablePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let shape: BroadcastShape
    let clamp: ActivationClamp
    let chunksPerRow: Int
    let rowCount: Int
    /// Rows per task when rows are shorter than a chunk (a channel vector broadcast over the
    /// pixels of an image: one row per pixel would make a task per pixel).
    let rowsPerTask: Int
    let instructionSet: InstructionSet

    static func make(_ ctx: OperatorContext, operation: Operation) throws -> Kernel {
        try ctx.expect(inputs: 2...2, outputs: 1)
        try ctx.requireFloat(inputs: [0, 1])
        var clamp = ActivationClamp.identity
        switch ctx.options {
        case .elementwise(let activation): clamp = try ctx.clamp(activation)
        case .none, .other: break
        default: throw ctx.invalid("unexpected options \(ctx.options)")
        }
        let x = try ctx.input(0)
        let y = try ctx.input(1)
        guard let shape = BroadcastShape(x.shape, y.shape) else {
            throw ctx.invalid("shapes \(x.shapeText) and \(y.shapeText) do not broadcast")
        }
        if operation == .prelu {
            // The slope broadcasts to the input; the output has the input's shape.
            guard shape.outputShape.reduce(1, *) == x.elementCount else {
                throw ctx.invalid("alpha \(y.shapeText) does not broadcast to the input \(x.shapeText)")
            }
            try ctx.requireOutputShape(x.shape)
        } else {
            try ctx.requireOutputShape(shape.outputShape)
        }
        return BinaryKernel(
            operation: operation, a: ctx.inputFloats(0), b: ctx.inputFloats(1),
            output: ctx.outputFloats(0), shape: shape, clamp: clamp, instructionSet: ctx.instructionSet)
    }

    init(
        operation: Operation, a: UnsafeMutablePointer<Float>, b: UnsafeMutablePointer<Float>,
        output: UnsafeMutablePointer<Float>, shape: BroadcastShape, clamp: ActivationClamp,
        instructionSet: InstructionSet = .best
    ) {
        self.operation = operation
        self.a = a
        self.b = b
        self.output = output
        self.shape = shape
        self.clamp = clamp
        let inner = shape.dims[shape.dims.count - 1]
        chunksPerRow = (inner + BinaryKernel.chunk - 1) / BinaryKernel.chunk
        rowCount = shape.dims.dropLast().reduce(1, *)
        rowsPerTask = Swift.max(1, BinaryKernel.chunk / Swift.max(1, inner))
        self.instructionSet = instructionSet
    }

    private var rowOperation: vk_binary_op {
        switch operation {
        case .add: VK_BINARY_ADD
        case .sub: VK_BINARY_SUB
        case .mul: VK_BINARY_MUL
        case .div: VK_BINARY_DIV
        case .maximum: VK_BINARY_MAXIMUM
        case .minimum: VK_BINARY_MINIMUM
        case .prelu: VK_BINARY_PRELU
        case .squaredDifference: VK_BINARY_SQUARED_DIFFERENCE
        }
    }

    func execute(_ context: ExecutionContext) {
        let blocks = (rowCount + rowsPerTask - 1) / rowsPerTask
        context.pool.run(self, taskCount: blocks * chunksPerRow, work: rowCount * shape.dims[shape.dims.count - 1])
    }

    func run(tasks range: Range<Int>, thread: Int) {
        let last = shape.dims.count - 1
        let inner = shape.dims[last]
        let innerA = Int32(shape.stridesA[last])
        let innerB = Int32(shape.stridesB[last])
        let isa = instructionSet.isa
        let op = rowOperation
        // TANH is not a clamp: the sums unclamped, then TANH over them.
        let (lower, upper) = (clamp.lower, clamp.upper)
        for task in range {
            let block = task / chunksPerRow
            let chunk = task % chunksPerRow
            let rows = (block * rowsPerTask)..<Swift.min(rowCount, (block + 1) * rowsPerTask)
            if last == 1, chunksPerRow == 1 {
                // Two dimensions: the rows' starts step by constant strides, so one call.
                guard let first = rows.first else { continue }
                let (rowA, rowB) = (shape.stridesA[0], shape.stridesB[0])
                let out = output + first * inner
                vk_binary_rows(
                    isa, op, a + first * rowA, rowA, innerA, b + first * rowB, rowB, innerB, out, rows.count, inner,
                    lower, upper)
                if clamp.hasFunction { clamp.apply(to: out, count: rows.count * inner) }
                continue
            }
            for row in rows {
                let span = shape.span(row: row, chunk: chunk, chunkLength: BinaryKernel.chunk)
                let out = output + span.output
                vk_binary_rows(
                    isa, op, a + span.a, 0, innerA, b + span.b, 0, innerB, out, 1, span.count, lower, upper)
                if clamp.hasFunction { clamp.apply(to: out, count: span.count) }
            }
        }
    }
}
