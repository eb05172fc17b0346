import CVisionKernels
import ModelFile

/// MEAN and SUM over constant axes of a float32 tensor.
///
/// The input is viewed as `[outer, reduced, inner]` when the reduced axes are adjacent (the
/// common NHWC spatial mean), otherwise every output element walks its reduced elements. Sums
/// run in input order from zero, and MEAN multiplies the sum by `1 / count` rounded to float,
/// then adds it to zero — XNNPACK's arithmetic for reductions over non-innermost axes
/// (src/operators/reduce-nd.c: `scale = 1.0f / num_reduction_elements`;
/// src/f32-rdsum/gen/f32-rdsum-7p7x-minmax-avx512f-u64.c: sequential adds, `· scale`, added to
/// the zeroed output), bit for bit for the spatial means of the project's models. Reductions
/// over the innermost axis (contiguous rows) add in the order of XNNPACK's f32-rsum kernels
/// instead (`vk_row_sums`, the same bits in every build).
final class ReduceKernel: Kernel, ParallelJob {
    enum Kind { case mean, sum }

    let kind: Kind
    let input: UnsafeMutablePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let inputShape: [Int]
    /// The build of `vk_row_sums` (innermost-axis reductions; every build gives the same bits).
    let instructionSet: InstructionSet
    let reduced: [Bool]
    let outputCount: Int
    /// `[outer, reduced, inner]` when the reduced axes are adjacent.
    let block: (outer: Int, reduced: Int, inner: Int)?
    let reducedCount: Int
    /// Element strides of the input.
    let strides: [Int]

    static func make(_ ctx: OperatorContext, kind: Kind) throws -> Kernel {
        try ctx.expect(inputs: 2...2, outputs: 1)
        try ctx.requireFloat(inputs: [0])
        var keepDims = false
        if case .reducer(let keep) = ctx.options { keepDims = keep }
        let x = try ctx.input(0)
        let rank = x.shape.count
        var reduced = Array(repeating: false, count: rank)
        for axis in try ctx.constantIntegers(1, "axes") {
            let a = axis < 0 ? axis + rank : axis
            guard a >= 0, a < rank else { throw ctx.invalid("axis \(axis) is out of range for rank \(rank)") }
            reduced[a] = true
        }
        var shape: [Int] = []
        for d in 0..<rank {
            if !reduced[d] { shape.append(x.shape[d]) } else if keepDims { shape.append(1) }
        }
        try ctx.requireOutputShape(shape)
        return ReduceKernel(
            kind: kind, input: ctx.inputFloats(0), output: ctx.outputFloats(0), inputShape: x.shape, reduced: reduced,
            instructionSet: ctx.instructionSet)
    }

    /// Whether reduction `op` (MEAN, SUM) of a rank-`rank` input reduces its last axis alone and
    /// keeps it (a per-pixel statistic such as a layer norm's mean).
    static func reducesLastAxisKeepingIt(_ op: Operator, rank: Int, store: ConstantStore) -> Bool {
        guard case .reducer(keepDims: true) = op.builtinOptions, op.inputs.count > 1, op.inputs[1] >= 0,
            let axes = try? store.value(of: Int(op.inputs[1]))?.integers()
        else { return false }
        return axes.map { $0 < 0 ? $0 + rank : $0 } == [rank - 1]
    }

    init(
        kind: Kind, input: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>, inputShape: [Int],
        reduced: [Bool], instructionSet: InstructionSet = .best
    ) {
        self.kind = kind
        self.instructionSet = instructionSet
        self.input = input
        self.output = output
        self.inputShape = inputShape
        self.reduced = reduced
        outputCount = zip(inputShape, reduced).reduce(1) { $0 * ($1.1 ? 1 : $1.0) }
        reducedCount = zip(inputShape, reduced).reduce(1) { $0 * ($1.1 ? $1.0 : 1) }
        var strides = Array(repeating: 1, count: inputShape.count)
        for d in stride(from: inputShape.count - 2, through: 0, by: -1) {
            strides[d] = strides[d + 1] * inputShape[d + 1]
        }
        self.strides = strides
        // Adjacent reduced axes (ignoring size-1 dimensions) give the blocked form.
        let significant = (0..<inputShape.count).filter { inputShape[$0] != 1 }
        let flags = significant.map { reduced[$0] }
        if let first = flags.firstIndex(of: true), let last = flags.lastIndex(of: true),
            flags[first...last].allSatisfy({ $0 })
        {
            let outer = significant[..<first].reduce(1) { $0 * inputShape[$1] }
            let inner = significant[(last + 1)...].reduce(1) { $0 * inputShape[$1] }
            block = (outer, reducedCount, inner)
        } else if !flags.contains(true) {
            block = (1, 1, outputCount)
        } else {
            block = nil
        }
    }

    func execute(_ context: ExecutionContext) {
        // Work: every input value is read once; small reductions (the blendshapes model's layer
        // norms, 64 × 97 values) stay on the calling thread, where a fork-join cost more than
        // it saved (0.008 ms at one thread, 0.016 ms at two, in a paired profile).
        // Sixteen channels at a time (below) count as one unit of work: the hand landmark model's
        // 7 × 7 × 1152 mean takes 0.004 ms on one thread and 0.008 ms split between two.
        let lanes = (block?.inner ?? 1) >= 16 ? 16 : 1
        context.pool.run(self, taskCount: outputCount, work: outputCount * reducedCount / lanes)
    }

    func run(tasks range: Range<Int>, thread: Int) {
        let scale: Float = kind == .mean ? 1 / Float(reducedCount) : 1
        if let block, block.inner == 1, block.reduced > 1, reduced.last == true {
            // The last axis is reduced: XNNPACK's contiguous kernel and its vector order. (XNNPACK
            // keeps size-1 axes, so [1, 146, 1] over axis 1 is a discontiguous reduction.)
            vk_row_sums(
                instructionSet.isa, input + range.lowerBound * block.reduced, range.count, block.reduced, scale,
                output + range.lowerBound)
            return
        }
        if let block {
            var o = range.lowerBound
            while o < range.upperBound {
                let outer = o / block.inner
                let inner = o % block.inner
                let base = input + outer * block.reduced * block.inner
                // Sixteen neighbouring outputs at a time walk the reduced rows together (each
                // lane still adds its own values in order from zero): one contiguous vector per
                // row instead of one value from a different cache line per add.
                if inner + 16 <= block.inner && o + 16 <= range.upperBound {
                    var sum = SIMD16<Float>(repeating: 0)
                    var p = UnsafeRawPointer(base + inner)
                    let step = block.inner * MemoryLayout<Float>.stride
                    for _ in 0..<block.reduced {
                        sum += p.loadUnaligned(as: SIMD16<Float>.self)
                        p += step
                    }
                    let mean = SIMD16<Float>(repeating: 0) + sum * SIMD16(repeating: scale)
                    UnsafeMutableRawPointer(output + o).storeBytes(of: mean, as: SIMD16<Float>.self)
                    o += 16
                    continue
                }
                var p = base + inner
                var sum: Float = 0
                for _ in 0..<block.reduced {
                    sum += p[0]
                    p += block.inner
                }
                output[o] = 0 + sum * scale
                o += 1
            }
            return
        }
        // General case: walk the reduced sub-space of each output element.
        let rank = inputShape.count
        for o in range {
            var base = 0
            var rest = o
            for d in stride(from: rank - 1, through: 0, by: -1) where !reduced[d] {
                base += (rest % inputShape[d]) * strides[d]
                rest /= inputShape[d]
            }
            var sum: Float = 0
            for r in 0..<reducedCount {
                var offset = base
                var remaining = r
                for d in stride(from: rank - 1, through: 0, by: -1) where reduced[d] {
                    offset += (remaining % inputShape[d]) * strides[d]
                    remaining /= inputShape[d]
                }
                sum += input[offset]
            }
            output[o] = 0 + sum * scale
        }
    }
}
