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
    /// For a MUL of pixels by one vector of per-channel scales (a squeeze-and-excitation gate):
    /// which operand holds the pixels. Such rows are as short as the channel count, and the
    /// generic row walk costs more than the multiplications (0.12 ms for the selfie segmenter's
    /// 128 × 128 × 16 MUL at one thread).
    let scaledOperand: ScaledOperand?
    let instructionSet: InstructionSet

    enum ScaledOperand { case a, b }

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
        if operation == .mul, !clamp.isTanh, shape.dims.count == 2, chunksPerRow == 1 {
            // a · b equals b · a bit for bit, so either operand may be the pixels.
            switch (shape.stridesA, shape.stridesB) {
            case ([inner, 1], [0, 1]): scaledOperand = .a
            case ([0, 1], [inner, 1]): scaledOperand = .b
            default: scaledOperand = nil
            }
        } else {
            scaledOperand = nil
        }
    }

    func execute(_ context: ExecutionContext) {
        let blocks = (rowCount + rowsPerTask - 1) / rowsPerTask
        context.pool.run(self, taskCount: blocks * chunksPerRow, work: rowCount * shape.dims[shape.dims.count - 1])
    }

    func run(tasks range: Range<Int>, thread: Int) {
        if let scaledOperand {
            let first = range.lowerBound * rowsPerTask
            let end = Swift.min(rowCount, range.upperBound * rowsPerTask)
            guard first < end else { return }
            let inner = shape.dims[1]
            let (pixels, scales) = scaledOperand == .a ? (a, b) : (b, a)
            vk_scale_pixels(
                instructionSet.isa, pixels + first * inner, scales, output + first * inner, end - first, inner,
                clamp.lower, clamp.upper)
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
