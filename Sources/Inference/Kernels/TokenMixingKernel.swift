import CVisionKernels
import ModelFile

/// A token mixing computed transposed: the `TRANSPOSE`, two 1×1 `CONV_2D`s and `TRANSPOSE` back
/// that ``GraphFusion`` fuses (the face blendshapes model's MLP-Mixer), as one kernel.
///
/// With `X` the input, `tokens` rows of `channels` values, the four operators compute, for every
/// channel `c` and token `t`,
/// `H[c][h] = f₁(b₁[h] + Σₜ X[t][c] · W₁[h][t])` and `Y[t][c] = f₂(b₂[t] + Σₕ H[c][h] · W₂[t][h])`,
/// each sum from its bias through the terms in order, with the channels as the convolutions'
/// pixels. This kernel computes `Hᵀ` and `Y` directly: the filters, `[b | W]`, are the rows of
/// two matrix products (`vk_gemm_run`) and the activations their packed operand, whose panels of
/// channels begin with a bias of −0 and then a row of ones before `X` (or `Hᵀ`). Each sum then
/// starts `fma(b, 1, −0) = b` (for every `b`, −0 included) and adds the same products in the same
/// order: the bits of the four operators, without the transposes, and with the channels across
/// the vector lanes where the second convolution had the tokens (97 of them filled a 104-wide
/// set of panels).
///
/// A task is one panel of channels through both products, in the running thread's scratch: the
/// first product writes its rows of `Hᵀ` straight into the second one's packed panel, and each
/// thread reads back only what it wrote. With more threads than panels (64 channels are two
/// panels with AVX-512), the channels go in narrower panels, 16 or 8 wide, so that each thread
/// has one. The rows of `Y` that nothing reads
/// (``DemandAnalysis``: the model's last block needs token 0 only) are not computed.
final class TokenMixingKernel: Kernel, ParallelJob {
    /// One of the two convolutions as the row operand of its product: `rows` rows of its bias and
    /// then its `k` weights, and its activation.
    struct Product {
        let rows: Int
        let k: Int
        /// `rows` rows of `k + 1` floats.
        let weights: AlignedBuffer
        let clamp: ActivationClamp

        /// The 1×1 convolution of `ctx`: filter `[rows, 1, 1, k]`, an optional bias, a clamp.
        init(_ ctx: OperatorContext) throws {
            guard case .conv2D(let options) = ctx.options else { throw ctx.invalid("missing Conv2DOptions") }
            try ctx.expect(inputs: 2...3, outputs: 1)
            let filter = try ctx.requireConstant(1, "the filter")
            let shape = filter.descriptor.shape
            guard filter.descriptor.type == .float32, shape.count == 4, shape[1] == 1, shape[2] == 1 else {
                throw ctx.unsupported("a token mixing needs 1×1 FLOAT32 filters, has \(filter.descriptor.shapeText)")
            }
            let clamp = try ctx.outputActivation(options.activation)
            guard !clamp.hasFunction else { throw ctx.unsupported("a token mixing's activations must be clamps") }
            let bias = try ctx.floatBias(2, count: shape[0])
            self.init(filter: filter.floats, bias: bias?.floats, rows: shape[0], k: shape[3], clamp: clamp)
        }

        /// `rows` filter rows of `k` values, their biases (zeros when `nil`) and a clamp.
        init(filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?, rows: Int, k: Int, clamp: ActivationClamp) {
            self.rows = rows
            self.k = k
            weights = AlignedBuffer(byteCount: rows * (k + 1) * MemoryLayout<Float>.stride)
            for row in 0..<rows {
                let destination = weights.floats + row * (k + 1)
                destination[0] = bias?[row] ?? 0
                (destination + 1).update(from: filter + row * k, count: k)
            }
            self.clamp = clamp
        }
    }

    /// A panel of channels: the columns it holds and its packed width (8, 16, 24 or 32).
    private struct Panel {
        let columns: Range<Int>
        let width: Int
    }

    let input: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let tokens: Int
    let channels: Int
    let first: Product
    let second: Product
    /// The tokens (rows of the output) computed.
    let rows: Range<Int>
    let instructionSet: InstructionSet
    /// Ways to cut the channels into panels, fewest first: the product's own panels, then
    /// narrower ones (16, 8 wide) for more threads than those (each task is one panel).
    private let cuts: [[Panel]]
    /// The widest panel of any cut (one of the product's own).
    private let widestPanel: Int
    /// The cut of the current job.
    private var panels: [Panel]
    private var context: ExecutionContext?

    /// Builds the kernel of a closing `TRANSPOSE` (``OperatorContext/fusedTokenMixing``), whose
    /// one input is the opening `TRANSPOSE`'s.
    static func make(_ ctx: OperatorContext) throws -> Kernel {
        guard let products = ctx.fusedTokenMixing else { throw ctx.invalid("no token mixing to run") }
        try ctx.expect(inputs: 1...1, outputs: 1)
        try ctx.requireFloat(inputs: [0])
        let x = try ctx.input(0)
        let shape = x.shape
        guard shape.count >= 2, shape.dropLast(2).allSatisfy({ $0 == 1 }) else {
            throw ctx.invalid("a token mixing needs tokens × channels, has \(x.shapeText)")
        }
        let tokens = shape[shape.count - 2]
        let channels = shape[shape.count - 1]
        guard tokens > 0, channels > 0, products.first.k == tokens, products.second.k == products.first.rows,
            products.second.rows == tokens
        else {
            throw ctx.invalid(
                "filters of \(products.first.rows)×\(products.first.k) and \(products.second.rows)×"
                    + "\(products.second.k) do not mix \(tokens) tokens")
        }
        try ctx.requireOutputShape(shape)
        var rows = 0..<tokens
        if case .pixels(let range) = ctx.outputDemand, !range.isEmpty, range.lowerBound >= 0,
            range.upperBound <= tokens
        {
            rows = range
        }
        return TokenMixingKernel(
            input: ctx.inputFloats(0), output: ctx.outputFloats(0), tokens: tokens, channels: channels,
            first: products.first, second: products.second, rows: rows, instructionSet: ctx.instructionSet)
    }

    init(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, tokens: Int, channels: Int,
        first: Product, second: Product, rows: Range<Int>, instructionSet: InstructionSet
    ) {
        self.input = input
        self.output = output
        self.tokens = tokens
        self.channels = channels
        self.first = first
        self.second = second
        self.rows = rows
        self.instructionSet = instructionSet
        // The panels `vk_gemm_pack` would cut the channels into; a panel alone is a product of
        // its own columns, whose packed width the packed size gives.
        let isa = instructionSet.isa
        func panel(_ columns: Range<Int>) -> Panel {
            Panel(columns: columns, width: vk_gemm_packed_count(vk_gemm_shape(isa: isa, n: columns.count, k: 1)) / 2)
        }
        let whole = vk_gemm_shape(isa: isa, n: channels, k: 1)
        var cuts = [
            (0..<vk_gemm_panel_count(whole)).map { index in
                var begin = 0
                var end = 0
                vk_gemm_panel_columns(whole, index, index + 1, &begin, &end)
                return panel(begin..<end)
            }
        ]
        widestPanel = cuts[0].map(\.width).max() ?? 8
        for width in [16, 8] where width < widestPanel {
            cuts.append(stride(from: 0, to: channels, by: width).map { panel($0..<Swift.min(channels, $0 + width)) })
        }
        self.cuts = cuts
        panels = cuts[0]
    }

    var constantByteCount: Int { first.weights.byteCount + second.weights.byteCount }

    /// Floats from a thread's scratch to its second packed panel (64-byte aligned).
    private func secondOffset(width: Int) -> Int { ((tokens + 2) * width + 15) / 16 * 16 }

    var scratchBytesPerThread: Int {
        (secondOffset(width: widestPanel) + (first.rows + 2) * widestPanel) * MemoryLayout<Float>.stride
    }

    func execute(_ context: ExecutionContext) {
        self.context = context
        // The widest panels that give every thread a task, else the narrowest.
        let threads = context.pool.threadCount
        panels = cuts.first { $0.count >= threads } ?? cuts[cuts.count - 1]
        context.pool.run(
            self, taskCount: panels.count, work: channels * (first.rows * first.k + rows.count * second.k))
        self.context = nil
    }

    func run(tasks range: Range<Int>, thread: Int) {
        guard let context else { return }
        let scratch = context.scratchFloats(thread: thread)
        let isa = instructionSet.isa
        for index in range {
            let panel = panels[index]
            let width = panel.width
            let count = panel.columns.count
            let packedX = scratch
            let packedH = scratch + secondOffset(width: width)
            // Both packed operands: the panel's bias (−0), a row of ones, then the rows.
            packedX.update(repeating: -0.0, count: width)
            (packedX + width).update(repeating: 1, count: width)
            packedH.update(repeating: -0.0, count: width)
            (packedH + width).update(repeating: 1, count: width)
            for t in 0..<tokens {
                let row = packedX + (2 + t) * width
                row.update(from: input + t * channels + panel.columns.lowerBound, count: count)
                if count < width { (row + count).update(repeating: 0, count: width - count) }
            }
            // A narrow last panel's unused lanes hold zeros rather than an earlier kernel's
            // scratch (their results are not stored either way).
            if count < width {
                for h in 0..<first.rows {
                    (packedH + (2 + h) * width + count).update(repeating: 0, count: width - count)
                }
            }
            // Hᵀ's rows go straight into the second product's panel.
            vk_gemm_run(
                vk_gemm_shape(isa: isa, n: count, k: tokens + 1), packedX, first.weights.floats, tokens + 1,
                packedH + 2 * width, width, 0, first.rows, 0, 1, first.clamp.lower, first.clamp.upper)
            vk_gemm_run(
                vk_gemm_shape(isa: isa, n: count, k: first.rows + 1), packedH, second.weights.floats, first.rows + 1,
                output + panel.columns.lowerBound, channels, rows.lowerBound, rows.upperBound, 0, 1,
                second.clamp.lower, second.clamp.upper)
        }
    }
}
