import ModelFile

/// CONCATENATION of float32 tensors along one axis (negative axes count from the end), with
/// the fused activation applied to the result.
final class ConcatenationKernel: Kernel, ParallelJob {
    let inputs: [UnsafeMutablePointer<Float>]
    /// Contiguous elements each input contributes per outer index.
    let chunks: [Int]
    let output: UnsafeMutablePointer<Float>
    let outerCount: Int
    let rowLength: Int
    let clamp: ActivationClamp

    static func make(_ ctx: OperatorContext) throws -> Kernel {
        guard case .concatenation(let options) = ctx.options else { throw ctx.invalid("missing ConcatenationOptions") }
        guard ctx.inputCount >= 1, ctx.outputCount == 1 else {
            throw ctx.invalid("needs at least one input and one output")
        }
        try ctx.requireFloat(inputs: Array(0..<ctx.inputCount))
        let first = try ctx.input(0)
        let rank = first.shape.count
        let axis = options.axis < 0 ? options.axis + rank : options.axis
        guard axis >= 0, axis < rank else { throw ctx.invalid("axis \(options.axis) is out of range for rank \(rank)") }
        var shape = first.shape
        shape[axis] = 0
        var chunks: [Int] = []
        for i in 0..<ctx.inputCount {
            let d = try ctx.input(i)
            guard d.shape.count == rank else {
                throw ctx.invalid("input \(i) has rank \(d.shape.count), expected \(rank)")
            }
            for j in 0..<rank where j != axis && d.shape[j] != first.shape[j] {
                throw ctx.invalid(
                    "input \(i) has shape \(d.shapeText), incompatible with \(first.shapeText) on axis \(axis)")
            }
            shape[axis] += d.shape[axis]
            chunks.append(d.shape[axis...].reduce(1, *))
        }
        try ctx.requireOutputShape(shape)
        return ConcatenationKernel(
            inputs: (0..<ctx.inputCount).map { ctx.inputFloats($0) }, chunks: chunks, output: ctx.outputFloats(0),
            outerCount: shape[..<axis].reduce(1, *), clamp: try ctx.clamp(options.activation))
    }

    init(
        inputs: [UnsafeMutablePointer<Float>], chunks: [Int], output: UnsafeMutablePointer<Float>,
        outerCount: Int, clamp: ActivationClamp
    ) {
        self.inputs = inputs
        self.chunks = chunks
        self.output = output
        self.outerCount = outerCount
        rowLength = chunks.reduce(0, +)
        self.clamp = clamp
    }

    func execute(_ context: ExecutionContext) {
        context.pool.run(self, taskCount: outerCount, work: outerCount * rowLength)
    }

    func run(tasks range: Range<Int>, thread: Int) {
        for outer in range {
            var out = output + outer * rowLength
            for (input, chunk) in zip(inputs, chunks) {
                out.update(from: input + outer * chunk, count: chunk)
                clamp.apply(to: out, count: chunk)
                out += chunk
            }
        }
    }
}

/// DEPTH_TO_SPACE on float32 NHWC: output pixel `(y, x)` channel `c` comes from input pixel
/// `(y / b, x / b)` channel `((y % b) · b + x % b) · C_out + c` (TFLite's DCR order,
/// tensorflow/lite/kernels/internal/reference/reference_ops.h, `DepthToSpace`).
final class DepthToSpaceKernel: Kernel, ParallelJob {
    let input: UnsafeMutablePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let inputShape: NHWC
    let block: Int

    static func make(_ ctx: OperatorContext) throws -> Kernel {
        guard case .depthToSpace(let block) = ctx.options else { throw ctx.invalid("missing DepthToSpaceOptions") }
        try ctx.expect(inputs: 1...1, outputs: 1)
        try ctx.requireFloat(inputs: [0])
        let x = try ctx.input(0)
        guard let shape = NHWC(x.shape) else { throw ctx.unsupported("input must have rank 4, has \(x.shapeText)") }
        guard block >= 1, shape.channels % (block * block) == 0 else {
            throw ctx.invalid("block size \(block) does not divide depth \(shape.channels)")
        }
        try ctx.requireOutputShape([
            shape.batch, shape.height * block, shape.width * block, shape.channels / (block * block),
        ])
        return DepthToSpaceKernel(
            input: ctx.inputFloats(0), output: ctx.outputFloats(0), inputShape: shape, block: block)
    }

    init(input: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>, inputShape: NHWC, block: Int) {
        self.input = input
        self.output = output
        self.inputShape = inputShape
        self.block = block
    }

    func execute(_ context: ExecutionContext) {
        context.pool.run(self, taskCount: inputShape.batch * inputShape.height * block)
    }

    func run(tasks range: Range<Int>, thread: Int) {
        let outDepth = inputShape.channels / (block * block)
        let outWidth = inputShape.width * block
        for task in range {
            // task = one output row: (batch, y)
            let b = task / (inputShape.height * block)
            let y = task % (inputShape.height * block)
            let iy = y / block
            let dy = y % block
            var out = output + task * outWidth * outDepth
            for x in 0..<outWidth {
                let ix = x / block
                let dx = x % block
                let source =
                    input + ((b * inputShape.height + iy) * inputShape.width + ix) * inputShape.channels
                    + (dy * block + dx) * outDepth
                out.update(from: source, count: outDepth)
                out += outDepth
            }
        }
    }
}
