import CVisionKernels
import ModelFile

/// An element-wise operation of two float operands.
protocol BinaryOperation {
    static func apply(_ a: Float, _ b: Float) -> Float
    static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float>
}

enum AddOperation: BinaryOperation {
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { a + b }
    @inline(__always) static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a + b }
}

enum SubOperation: BinaryOperation {
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { a - b }
    @inline(__always) static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a - b }
}

enum MulOperation: BinaryOperation {
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { a * b }
    @inline(__always) static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a * b }
}

enum DivOperation: BinaryOperation {
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { a / b }
    @inline(__always) static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a / b }
}

enum MaximumOperation: BinaryOperation {
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { a > b ? a : b }
    @inline(__always) static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        b.replacing(with: a, where: a .> b)
    }
}

enum MinimumOperation: BinaryOperation {
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { a < b ? a : b }
    @inline(__always) static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        b.replacing(with: a, where: a .< b)
    }
}

/// PRELU: `x ≥ 0 ? x : x · alpha` (tensorflow/lite/kernels/activations.cc, `PreluEval`).
/// `(a − b)²` as XNNPACK's vsqrdiff computes it: the difference, then its square.
enum SquaredDifferenceOperation: BinaryOperation {
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float {
        let d = a - b
        return d * d
    }
    @inline(__always) static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        let d = a - b
        return d * d
    }
}

enum PreluOperation: BinaryOperation {
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { a >= 0 ? a : a * b }
    @inline(__always) static func apply(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        (a * b).replacing(with: a, where: a .>= 0)
    }
}

/// ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM and PRELU on float32 with NumPy-style broadcasting
/// (``BroadcastShape``) and the fused activation where the operator has one.
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
    /// Whether the C kernel (`vk_binary_rows`) runs the operation: shapes that merge to at most
    /// two dimensions, without TANH. Rows of a channel vector over pixels (the selfie
    /// segmenter's 128 × 128 × 16 squeeze-and-excitation MUL: 0.122 → 0.027 ms at one thread)
    /// and the 97 × 64 layer norms of the blendshapes model are where the Swift loop over
    /// eight-lane vectors fell behind.
    let usesRowKernel: Bool
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
        usesRowKernel = !clamp.isTanh && shape.dims.count <= 2
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
        if usesRowKernel {
            runRows(range)
            return
        }
        switch operation {
        case .add: run(AddOperation.self, range)
        case .sub: run(SubOperation.self, range)
        case .mul: run(MulOperation.self, range)
        case .div: run(DivOperation.self, range)
        case .maximum: run(MaximumOperation.self, range)
        case .minimum: run(MinimumOperation.self, range)
        case .prelu: run(PreluOperation.self, range)
        case .squaredDifference: run(SquaredDifferenceOperation.self, range)
        }
    }

    @inline(__always)
    private func run<Op: BinaryOperation>(_ op: Op.Type, _ range: Range<Int>) {
        for task in range {
            let block = task / chunksPerRow
            let chunk = task % chunksPerRow
            for row in (block * rowsPerTask)..<Swift.min(rowCount, (block + 1) * rowsPerTask) {
                runRow(Op.self, row: row, chunk: chunk)
            }
        }
    }

    /// Tasks of a shape merged to one or two dimensions, through `vk_binary_rows`: a block of
    /// whole rows per task, or one chunk of one long row.
    private func runRows(_ range: Range<Int>) {
        let last = shape.dims.count - 1
        let inner = shape.dims[last]
        let innerA = shape.stridesA[last]
        let innerB = shape.stridesB[last]
        let rowA = last == 1 ? shape.stridesA[0] : 0
        let rowB = last == 1 ? shape.stridesB[0] : 0
        let isa = instructionSet.isa
        let op = rowOperation
        for task in range {
            let block = task / chunksPerRow
            let chunk = task % chunksPerRow
            if chunksPerRow == 1 {
                let first = block * rowsPerTask
                let end = Swift.min(rowCount, first + rowsPerTask)
                guard first < end else { continue }
                vk_binary_rows(
                    isa, op, a + first * rowA, rowA, Int32(innerA), b + first * rowB, rowB, Int32(innerB),
                    output + first * inner, end - first, inner, clamp.lower, clamp.upper)
            } else {
                let start = chunk * BinaryKernel.chunk
                let count = Swift.min(BinaryKernel.chunk, inner - start)
                vk_binary_rows(
                    isa, op, a + block * rowA + start * innerA, 0, Int32(innerA), b + block * rowB + start * innerB,
                    0, Int32(innerB), output + block * inner + start, 1, count, clamp.lower, clamp.upper)
            }
        }
    }

    /// Chunk `chunk` of row `row`.
    @inline(__always)
    private func runRow<Op: BinaryOperation>(_ op: Op.Type, row: Int, chunk: Int) {
        let last = shape.dims.count - 1
        let innerA = shape.stridesA[last]
        let innerB = shape.stridesB[last]
        let span = shape.span(row: row, chunk: chunk, chunkLength: BinaryKernel.chunk)
        let out = output + span.output
        let pa = a + span.a
        let pb = b + span.b
        let count = span.count
        switch (innerA, innerB) {
        case (1, 1): loop(Op.self, pa, 1, pb, 1, out, count)
        case (1, 0): loop(Op.self, pa, 1, pb, 0, out, count)
        case (0, 1): loop(Op.self, pa, 0, pb, 1, out, count)
        default: loop(Op.self, pa, 0, pb, 0, out, count)
        }
    }

    @inline(__always)
    private func loop<Op: BinaryOperation>(
        _ op: Op.Type, _ a: UnsafeMutablePointer<Float>, _ sa: Int, _ b: UnsafeMutablePointer<Float>, _ sb: Int,
        _ out: UnsafeMutablePointer<Float>, _ count: Int
    ) {
        var i = 0
        if !clamp.isTanh {
            let lower = SIMD8<Float>(repeating: clamp.lower)
            let upper = SIMD8<Float>(repeating: clamp.upper)
            while i + 8 <= count {
                let x = sa == 1 ? UnsafeRawPointer(a + i).loadUnaligned(as: SIMD8<Float>.self) : SIMD8(repeating: a[0])
                let y = sb == 1 ? UnsafeRawPointer(b + i).loadUnaligned(as: SIMD8<Float>.self) : SIMD8(repeating: b[0])
                let r = clamped(Op.apply(x, y), lower, upper)
                UnsafeMutableRawPointer(out + i).storeBytes(of: r, as: SIMD8<Float>.self)
                i += 8
            }
        }
        while i < count {
            out[i] = clamp.apply(Op.apply(a[i * sa], b[i * sb]))
            i += 1
        }
    }
}
