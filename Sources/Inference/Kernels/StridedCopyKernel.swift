import CVisionKernels
import ModelFile

/// TRANSPOSE and STRIDED_SLICE on float32 tensors: each output element is one input element,
/// found through per-axis input strides (permuted for TRANSPOSE; `stride × step` from `begin`
/// for STRIDED_SLICE). Pure data movement, so any order of the copies gives the same result.
final class StridedCopyKernel: Kernel, ParallelJob {
    let input: UnsafeMutablePointer<Float>
    let output: UnsafeMutablePointer<Float>
    /// Output shape, and per output axis the input element step.
    let shape: [Int]
    let steps: [Int]
    /// The input element of output element 0.
    let base: Int
    let count: Int
    /// About this many elements per task.
    static let chunk = 4096

    /// TRANSPOSE with a constant permutation (input 1).
    static func makeTranspose(_ ctx: OperatorContext) throws -> Kernel {
        try ctx.expect(inputs: 2...2, outputs: 1)
        try ctx.requireFloat(inputs: [0])
        let x = try ctx.input(0)
        let permutation = try ctx.constantIntegers(1, "the permutation")
        let rank = x.shape.count
        guard permutation.count == rank, Set(permutation) == Set(0..<rank) else {
            throw ctx.invalid("permutation \(permutation) does not permute \(rank) axes")
        }
        let strides = StridedCopyKernel.strides(x.shape)
        let shape = permutation.map { x.shape[$0] }
        try ctx.requireOutputShape(shape)
        return StridedCopyKernel(
            input: ctx.inputFloats(0), output: ctx.outputFloats(0), shape: shape,
            steps: permutation.map { strides[$0] }, base: 0, instructionSet: ctx.instructionSet)
    }

    /// Whether TRANSPOSE `op` of an input of `shape` swaps its last two axes while every other
    /// axis has size 1: a matrix of pixels × channels becomes channels × pixels (its permutation,
    /// input 1, a constant).
    static func swapsLastTwoAxes(_ op: Operator, inputShape shape: [Int], store: ConstantStore) -> Bool {
        let rank = shape.count
        guard rank >= 2, shape.dropLast(2).allSatisfy({ $0 == 1 }), op.inputs.count > 1,
            let permutation = try? store.value(of: Int(op.inputs[1]))?.integers()
        else { return false }
        return permutation == Array(0..<(rank - 2)) + [rank - 1, rank - 2]
    }

    /// STRIDED_SLICE with constant begin, end and strides (inputs 1–3) and TFLite's begin and end
    /// masks (tensorflow/lite/kernels/strided_slice.cc); a shrunk axis takes the one element at
    /// its begin and leaves the output's shape. The ellipsis and new-axis masks are not
    /// implemented.
    static func makeStridedSlice(_ ctx: OperatorContext) throws -> Kernel {
        try ctx.expect(inputs: 4...4, outputs: 1)
        try ctx.requireFloat(inputs: [0])
        guard case .stridedSlice(let options) = ctx.options else { throw ctx.invalid("missing StridedSliceOptions") }
        guard options.ellipsisMask == 0, options.newAxisMask == 0 else {
            throw ctx.unsupported("ellipsis and new-axis masks")
        }
        let x = try ctx.input(0)
        let layout: SliceLayout
        do {
            layout = try sliceLayout(
                input: x.shape, begins: try ctx.constantIntegers(1, "begin"), ends: try ctx.constantIntegers(2, "end"),
                steps: try ctx.constantIntegers(3, "strides"), options: options)
        } catch let error as InvalidSlice {
            throw ctx.invalid(error.detail)
        }
        try ctx.requireOutputShape(layout.shape)
        return StridedCopyKernel(
            input: ctx.inputFloats(0), output: ctx.outputFloats(0), shape: layout.shape, steps: layout.steps,
            base: layout.base)
    }

    /// Where a STRIDED_SLICE reads: its output shape, per output axis the input element step,
    /// and the input element of output element 0.
    struct SliceLayout {
        let shape: [Int]
        let steps: [Int]
        let base: Int

        /// The input element that output element `index` (in memory order) copies.
        func inputElement(_ index: Int) -> Int {
            var rest = index
            var element = base
            for axis in stride(from: shape.count - 1, through: 0, by: -1) where shape[axis] > 0 {
                element += rest % shape[axis] * steps[axis]
                rest /= shape[axis]
            }
            return element
        }

        /// The first and last input elements read (`nil` for an empty output).
        var elementBounds: ClosedRange<Int>? {
            guard !shape.contains(0) else { return nil }
            var lowest = base
            var highest = base
            for (count, step) in zip(shape, steps) {
                let reach = (count - 1) * step
                if reach < 0 { lowest += reach } else { highest += reach }
            }
            return lowest...highest
        }
    }

    /// Begin, end or strides that TFLite rejects.
    struct InvalidSlice: Error {
        let detail: String
    }

    /// The layout of a STRIDED_SLICE of a tensor of shape `input` (no ellipsis or new-axis mask).
    ///
    /// - Throws: ``InvalidSlice`` when begin, end or strides do not fit the rank, a stride is
    ///   zero, or a shrunk axis's index is outside the axis.
    static func sliceLayout(
        input: [Int], begins: [Int], ends: [Int], steps: [Int], options: StridedSliceOptions
    ) throws -> SliceLayout {
        let rank = input.count
        guard begins.count == rank, ends.count == rank, steps.count == rank, steps.allSatisfy({ $0 != 0 }) else {
            throw InvalidSlice(detail: "begin, end and strides must have \(rank) non-zero-stride entries")
        }
        let strides = StridedCopyKernel.strides(input)
        var shape: [Int] = []
        var outputSteps: [Int] = []
        var base = 0
        for axis in 0..<rank {
            let size = input[axis]
            let step = steps[axis]
            if options.shrinkAxisMask & (1 << axis) != 0 {
                let index = begins[axis] < 0 ? begins[axis] + size : begins[axis]
                guard index >= 0, index < size else {
                    throw InvalidSlice(detail: "shrunk axis \(axis) index \(begins[axis]) is outside 0..<\(size)")
                }
                base += index * strides[axis]
                continue
            }
            // Negative indices count from the end; positions are clamped as TFLite does.
            func clamp(_ value: Int, forward: Bool) -> Int {
                let index = value < 0 ? value + size : value
                return forward ? Swift.min(Swift.max(index, 0), size) : Swift.min(Swift.max(index, -1), size - 1)
            }
            let forward = step > 0
            var begin =
                options.beginMask & (1 << axis) != 0 ? (forward ? 0 : size - 1) : clamp(begins[axis], forward: forward)
            var end =
                options.endMask & (1 << axis) != 0
                ? (forward ? size : -1)
                : (options.offset
                    ? clamp(begins[axis] + ends[axis], forward: forward) : clamp(ends[axis], forward: forward))
            if forward { end = Swift.max(end, begin) } else { begin = Swift.max(begin, end) }
            let length = forward ? (end - begin + step - 1) / step : (begin - end - step - 1) / -step
            shape.append(Swift.max(0, length))
            outputSteps.append(strides[axis] * step)
            base += begin * strides[axis]
        }
        return SliceLayout(shape: shape, steps: outputSteps, base: base)
    }

    private static func strides(_ shape: [Int]) -> [Int] {
        var strides = Array(repeating: 1, count: shape.count)
        for axis in stride(from: shape.count - 2, through: 0, by: -1) {
            strides[axis] = strides[axis + 1] * shape[axis + 1]
        }
        return strides
    }

    init(
        input: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>, shape: [Int], steps: [Int], base: Int,
        instructionSet: InstructionSet = .best
    ) {
        self.input = input
        self.output = output
        self.instructionSet = instructionSet
        (self.shape, self.steps) = StridedCopyKernel.collapsed(shape: shape, steps: steps)
        self.base = base
        count = shape.reduce(1, *)
        rowLength = self.shape.last ?? 1
        rowStep = self.steps.last ?? 1
        rowCount = rowLength == 0 ? 0 : count / rowLength
        rowsPerTask = Swift.max(1, StridedCopyKernel.chunk / Swift.max(rowLength, 1))
        // Output [a, b] from input [b, a]: the output's rows step by one input element, its
        // columns by a whole input row.
        isMatrixTranspose = base == 0 && self.shape.count == 2 && self.steps == [1, self.shape[0]]
    }

    let instructionSet: InstructionSet
    /// Whether the copy is the transpose of a matrix (the token-mixing layers of the face
    /// blendshapes model): 8 × 8 blocks through registers (`vk_transpose`) instead of one
    /// strided read per element (97 × 64 floats: 3–4 µs → 0.65 µs).
    let isMatrixTranspose: Bool

    /// The same copy over fewer axes: axes of length 1 dropped, and an axis merged into the next
    /// one when stepping over it equals stepping over the whole next axis (e.g. a TRANSPOSE of
    /// [1, 1, 97, 64] becomes a 2-D one). At least one axis remains.
    static func collapsed(shape: [Int], steps: [Int]) -> (shape: [Int], steps: [Int]) {
        var newShape: [Int] = []
        var newSteps: [Int] = []
        for (length, step) in zip(shape, steps) where length != 1 {
            if let last = newShape.last, let lastStep = newSteps.last, lastStep == step * length {
                newShape[newShape.count - 1] = last * length
                newSteps[newSteps.count - 1] = step
            } else {
                newShape.append(length)
                newSteps.append(step)
            }
        }
        return newShape.isEmpty ? ([1], [1]) : (newShape, newSteps)
    }

    /// The innermost axis: its length and input step; the rows (one per index of the outer
    /// axes) and how many of them one task copies.
    let rowLength: Int
    let rowStep: Int
    let rowCount: Int
    let rowsPerTask: Int

    func execute(_ context: ExecutionContext) {
        context.pool.run(self, taskCount: (rowCount + rowsPerTask - 1) / rowsPerTask, work: count)
    }

    func run(tasks range: Range<Int>, thread: Int) {
        if isMatrixTranspose {
            // Rows of the output are columns of the [shape[1], shape[0]] input.
            let first = range.lowerBound * rowsPerTask
            let end = Swift.min(rowCount, range.upperBound * rowsPerTask)
            if first < end { vk_transpose(instructionSet.isa, input, shape[1], shape[0], output, first, end) }
            return
        }
        let outer = shape.count - 1
        for task in range {
            let first = task * rowsPerTask
            for row in first..<Swift.min(rowCount, first + rowsPerTask) {
                // The input offset of the row's first element, from its index on the outer axes.
                var rest = row
                var offset = base
                var axis = outer - 1
                while axis >= 0 {
                    offset += (rest % shape[axis]) * steps[axis]
                    rest /= shape[axis]
                    axis -= 1
                }
                let source = input + offset
                let target = output + row * rowLength
                if rowStep == 1 {
                    target.update(from: source, count: rowLength)
                } else {
                    for index in 0..<rowLength { target[index] = source[index * rowStep] }
                }
            }
        }
    }
}
