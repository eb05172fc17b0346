import CVisionKernels

/// Weights of a matrix product `out[m][n] = bias[n] + Σ_k a[m][k] · w[n][k]`, packed once at
/// load time for one instruction set (CVisionKernels' `vk_gemm_pack`): output columns in
/// panels of 8, 16 or 32, each panel holding its bias and then, for every `k`, its columns
/// side by side, so the micro-kernel reads whole vectors.
///
/// CONV_2D filters (`[n, kh, kw, cin]`, TFLite's OHWI) and FULLY_CONNECTED weights (`[n, k]`)
/// are both `n` rows of `k` contiguous values, so both pack the same way.
final class PackedWeights {
    let k: Int
    let n: Int
    let shape: vk_gemm_shape
    let panelCount: Int
    /// Rows per micro-kernel call: tasks are made of whole tiles of this many rows.
    let tileRows: Int
    let data: AlignedBuffer
    /// Whether products leave out the steps at which every row of a tile reads ±0
    /// (`vk_gemm_run_skipping_zeros`): asked for where the input comes out of a RELU, and only
    /// when that gives the same bits (``skippingZerosIsExact(weights:bias:n:k:)``).
    let skipsZeroSteps: Bool

    init(
        weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?, n: Int, k: Int,
        instructionSet: InstructionSet = .best, skippingZeroSteps: Bool = false
    ) {
        self.k = k
        self.n = n
        shape = vk_gemm_shape(isa: instructionSet.isa, n: n, k: k)
        panelCount = vk_gemm_panel_count(shape)
        tileRows = vk_gemm_tile_rows(instructionSet.isa)
        data = AlignedBuffer(byteCount: vk_gemm_packed_count(shape) * MemoryLayout<Float>.stride)
        vk_gemm_pack(shape, weights, bias, data.floats)
        skipsZeroSteps =
            skippingZeroSteps && PackedWeights.skippingZerosIsExact(weights: weights, bias: bias, n: n, k: k)
    }

    /// Whether a 1×1 convolution of `n` output columns is worth running with
    /// `vk_gemm_run_skipping_zeros`: when its input is clamped below at 0 (a RELU's output,
    /// often zero on whole columns of a tile) and its product is wide enough
    /// (``EngineTuning/skippingColumns``).
    static func worthSkippingZeroSteps(inputClampedAtZero: Bool, n: Int, tuning: EngineTuning) -> Bool {
        inputClampedAtZero && n >= tuning.skippingColumns
    }

    /// Whether a product that leaves out steps multiplying ±0 gives the bits of the full one:
    /// when every weight is finite (0 · ∞ is NaN) and no bias is -0. Each sum starts from its
    /// bias; a sum that starts other than -0 is never -0 (an exact cancellation rounds to +0),
    /// and adding ±0 to anything but -0 leaves it unchanged.
    static func skippingZerosIsExact(weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?, n: Int, k: Int)
        -> Bool
    {
        for i in 0..<(n * k) where !weights[i].isFinite { return false }
        if let bias {
            for i in 0..<n where bias[i] == 0 && bias[i].sign == .minus { return false }
        }
        return true
    }

    /// Bytes of packed weights.
    var byteCount: Int { data.byteCount }

    /// Computes output rows `rows` for panels `panels`: row `m` reads `a + m * aStride` and
    /// writes `c + m * cStride`. Each output is `bias + a[0]·w[0] + a[1]·w[1] + …` in this
    /// order (fused multiply-adds where the instruction set has them), whatever the tiling.
    @inline(__always)
    func run(
        a: UnsafePointer<Float>, aStride: Int, c: UnsafeMutablePointer<Float>, cStride: Int,
        rows: Range<Int>, panels: Range<Int>, clamp: ActivationClamp
    ) {
        if skipsZeroSteps {
            vk_gemm_run_skipping_zeros(
                shape, data.floats, a, aStride, c, cStride, rows.lowerBound, rows.upperBound,
                panels.lowerBound, panels.upperBound, clamp.lower, clamp.upper)
        } else {
            vk_gemm_run(
                shape, data.floats, a, aStride, c, cStride, rows.lowerBound, rows.upperBound,
                panels.lowerBound, panels.upperBound, clamp.lower, clamp.upper)
        }
        applyFunction(of: clamp, to: c, cStride: cStride, rows: rows, panels: panels)
    }

    /// The output columns of panels `panels`.
    func columns(of panels: Range<Int>) -> Range<Int> {
        var first = 0
        var end = 0
        vk_gemm_panel_columns(shape, panels.lowerBound, panels.upperBound, &first, &end)
        return first..<end
    }

    /// A fused TANH or HARD_SWISH (nothing for a clamp, which the product applied): to rows
    /// `rows` of `c`, columns of `panels`, after the product.
    @inline(__always)
    func applyFunction(
        of clamp: ActivationClamp, to c: UnsafeMutablePointer<Float>, cStride: Int, rows: Range<Int>,
        panels: Range<Int>
    ) {
        guard clamp.hasFunction else { return }
        clamp.apply(
            to: c, rows: rows, stride: cStride, columns: columns(of: panels),
            instructionSet: InstructionSet(isa: shape.isa))
    }
}

/// How a matrix product of `rowCount` rows is cut into tasks: blocks of whole row tiles times
/// groups of column panels.
///
/// A group's packed weights are sized to stay in the per-core cache (~128 KB) while its row
/// blocks stream past, and a block holds enough rows that a task is worth handing out (tiny
/// layers such as 8 → 8 channels get hundreds of rows per task). With one thread, tasks run
/// group by group, each group's weights reused over all row blocks. With several threads they
/// run block by block (`rowMajor`), so that each thread computes whole output rows: the pixels
/// that the next kernel's task on the same thread (the same half of the rows: depthwise rows,
/// bands, pixel tiles) reads from its own cache. Splitting the weights instead hands each thread
/// half the channels of every pixel, half of which the next kernel then fetches from the other
/// core (measured, alternating invokes in one process, 2 threads: row blocks also where the
/// weights outweigh the rows made the palm detector 3.4 % faster — its 12×12 layers' 1×1
/// convolutions 13 % and the depthwise layers after them 25 % — hand landmarks 1.8 %, pose
/// landmarks 1.2 %, the pose detector unchanged).
struct GemmTiling {
    let rowCount: Int
    let tileRows: Int
    let rowsPerBlock: Int
    let blockCount: Int
    let panelCount: Int
    let groupCount: Int
    var taskCount: Int { blockCount * groupCount }

    /// Group and task sizes: ``EngineTuning/gemmGroupBytes``, ``EngineTuning/gemmTaskWork``,
    /// ``EngineTuning/gemmMinimumTasks``.
    init(rowCount: Int, weights: PackedWeights, tuning: EngineTuning = .standard) {
        self.rowCount = rowCount
        tileRows = weights.tileRows
        panelCount = weights.panelCount
        let panelBytes = Swift.max(1, weights.data.byteCount / Swift.max(1, weights.panelCount))
        let panelsPerGroup = Swift.max(1, tuning.gemmGroupBytes / panelBytes)
        var groups = (panelCount + panelsPerGroup - 1) / panelsPerGroup
        let tiles = (rowCount + tileRows - 1) / tileRows
        let workPerTile = Swift.max(1, tileRows * weights.k * weights.n / groups)
        var tilesPerBlock = Swift.max(1, tuning.gemmTaskWork / workPerTile)
        // Keep a few tasks when the layer allows it, so two or more threads share evenly.
        let fewest = tuning.gemmMinimumTasks
        while tilesPerBlock > 1 && groups * ((tiles + tilesPerBlock - 1) / tilesPerBlock) < fewest {
            tilesPerBlock /= 2
        }
        if tiles < fewest { groups = Swift.max(groups, Swift.min(panelCount, (fewest + tiles - 1) / tiles)) }
        groupCount = Swift.max(1, groups)
        rowsPerBlock = tilesPerBlock * tileRows
        blockCount = Swift.max(1, (rowCount + rowsPerBlock - 1) / rowsPerBlock)
    }

    /// Whether tasks go block by block with `threads` threads (always with more than one).
    func rowMajor(threads: Int) -> Bool { threads > 1 }

    /// The rows and panels of task `task`.
    @inline(__always)
    func task(_ task: Int, rowMajor: Bool) -> (rows: Range<Int>, panels: Range<Int>) {
        let block = rowMajor ? task / groupCount : task % blockCount
        let group = rowMajor ? task % groupCount : task / blockCount
        let first = block * rowsPerBlock
        return (
            first..<Swift.min(rowCount, first + rowsPerBlock),
            (panelCount * group / groupCount)..<(panelCount * (group + 1) / groupCount)
        )
    }
}
