import ModelFile

/// PAD and PADV2 on float32 tensors of any rank: constant padding (zero, or PADV2's value)
/// before and after each dimension, from a constant `[rank, 2]` paddings tensor.
final class PadKernel: Kernel, ParallelJob {
    let input: UnsafeMutablePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let inputShape: [Int]
    let outputShape: [Int]
    let before: [Int]
    let value: Float
    /// Number of output rows (all dimensions but the last).
    let rowCount: Int

    static func make(_ ctx: OperatorContext) throws -> Kernel {
        try ctx.expect(inputs: 2...3, outputs: 1)
        try ctx.requireFloat(inputs: [0])
        let x = try ctx.input(0)
        let rank = x.shape.count
        let paddings = try ctx.constantIntegers(1, "paddings")
        guard paddings.count == rank * 2 else {
            throw ctx.invalid("paddings has \(paddings.count) values, expected \(rank * 2) for rank \(rank)")
        }
        var value: Float = 0
        if ctx.hasInput(2) {
            let v = try ctx.requireConstant(2, "the padding value")
            guard v.descriptor.type == .float32, v.descriptor.elementCount == 1 else {
                throw ctx.unsupported("the padding value must be one FLOAT32")
            }
            value = v.floats[0]
        }
        var before: [Int] = []
        var shape: [Int] = []
        for d in 0..<rank {
            let lo = paddings[2 * d]
            let hi = paddings[2 * d + 1]
            guard lo >= 0, hi >= 0 else { throw ctx.invalid("negative padding \(lo), \(hi) in dimension \(d)") }
            before.append(lo)
            shape.append(x.shape[d] + lo + hi)
        }
        try ctx.requireOutputShape(shape)
        if rank == 0 {
            return CopyKernel(
                source: ctx.address(ctx.inputIndices[0]), destination: ctx.address(ctx.outputIndices[0]), byteCount: 4)
        }
        return PadKernel(
            input: ctx.inputFloats(0), output: ctx.outputFloats(0), inputShape: x.shape,
            outputShape: shape, before: before, value: value)
    }

    init(
        input: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>, inputShape: [Int],
        outputShape: [Int], before: [Int], value: Float
    ) {
        self.input = input
        self.output = output
        self.inputShape = inputShape
        self.outputShape = outputShape
        self.before = before
        self.value = value
        rowCount = outputShape.dropLast().reduce(1, *)
    }

    func execute(_ context: ExecutionContext) {
        context.pool.run(self, taskCount: rowCount, work: rowCount * (outputShape.last ?? 1))
    }

    func run(tasks range: Range<Int>, thread: Int) {
        let last = outputShape.count - 1
        let width = outputShape[last]
        let inputWidth = inputShape[last]
        let left = before[last]
        for row in range {
            let out = output + row * width
            // Decompose the row index; find the matching input row, if any.
            var rest = row
            var inputRow = 0
            var inside = true
            var scale = 1
            var d = last - 1
            while d >= 0 {
                let index = rest % outputShape[d] - before[d]
                rest /= outputShape[d]
                if index < 0 || index >= inputShape[d] { inside = false }
                inputRow += index * scale
                scale *= inputShape[d]
                d -= 1
            }
            if !inside || inputWidth == 0 {
                out.update(repeating: value, count: width)
                continue
            }
            out.update(repeating: value, count: left)
            (out + left).update(from: input + inputRow * inputWidth, count: inputWidth)
            (out + left + inputWidth).update(repeating: value, count: width - left - inputWidth)
        }
    }
}
