import CVisionKernels

/// A 1×1 CONV_2D (stride 1, no padding) whose weights are mostly zero — the pose detector's
/// pruned layers are 25 % dense — computed from the non-zero weights only (CVisionKernels'
/// `vk_sparse_run`), as XNNPACK does for such models.
///
/// Tiles of pixels are transposed so that each non-zero weight multiplies a vector of pixels;
/// output channels run in groups of four with similar non-zero counts. Every output is the
/// bias plus the non-zero terms in increasing input channel — the dense product's sum without
/// its zero terms, hence the same value. Work is split over pixel tiles (and channel groups
/// when there are few tiles).
final class SparseConvKernel: Kernel, ParallelJob {
    /// Weights denser than this run as a dense matrix product.
    static let maximumDensity = 0.4
    /// With fewer input channels the transposes cost more than the skipped zeros save.
    static let minimumInputChannels = 32

    let input: UnsafeMutablePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let pixelCount: Int
    let n: Int
    let k: Int
    let clamp: ActivationClamp
    let instructionSet: InstructionSet
    let packed: AlignedBuffer
    /// Most pixels a tile holds (the C kernel's tile), and pixels per vector of it.
    private let tilePixels: Int
    private let vectorPixels: Int
    /// The current job's tiles.
    private var tiling: Tiling
    private let groupCount: Int
    /// Whether the channel groups may be split between tasks (the epilogue allows it).
    private let splittable: Bool
    /// How the current job cuts the work (see ``Split``).
    private var split = Split(tiles: 0, groups: 0, threads: 1, splittable: false)
    /// A fused residual ADD and PRELU, applied to each finished tile.
    private let epilogue: ConvEpilogue
    /// The same for the C kernel, when it can apply it.
    private let fusedEpilogue: vk_epilogue?

    /// How a job's tasks map to tiles of pixels and slices of the channel groups.
    ///
    /// With one thread, or when the tiles divide evenly between the threads, a task is a whole
    /// tile (transposed back in one piece, much faster than the per-channel stores of a slice).
    /// Otherwise (``Tiling`` makes the tile count a multiple of the threads wherever the pixels
    /// fill enough vectors, so this is left for the smallest layers) the last `tiles % threads`
    /// tiles are cut into `threads` slices of about equal work, so that every thread gets the
    /// same share (measured: slicing every tile was slower than one thread). Thread `t`'s range
    /// of tasks (the pool's contiguous split, `vk_pool_share`) holds its whole tiles, then its slice of each cut
    /// tile.
    struct Split: Equatable {
        /// Tiles computed whole.
        let wholeTiles: Int
        /// Tiles after those, each cut into `slices` slices.
        let slicedTiles: Int
        let slices: Int
        var taskCount: Int { wholeTiles + slicedTiles * slices }

        init(tiles: Int, groups: Int, threads: Int, splittable: Bool) {
            let remainder = threads > 1 ? tiles % threads : 0
            if splittable && remainder > 0 && groups >= threads {
                wholeTiles = tiles - remainder
                slicedTiles = remainder
                slices = threads
            } else {
                wholeTiles = tiles
                slicedTiles = 0
                slices = 1
            }
        }

        /// Task `task`'s tile and slice (slice 0 of 1 for a whole tile).
        func task(_ task: Int) -> (tile: Int, slice: Int, of: Int) {
            if slicedTiles == 0 { return (task, 0, 1) }
            // `slices` equal segments (one per thread): whole tiles first, then one slice of
            // each cut tile.
            let wholePerSegment = wholeTiles / slices
            let segmentLength = wholePerSegment + slicedTiles
            let segment = task / segmentLength
            let offset = task % segmentLength
            if offset < wholePerSegment { return (segment * wholePerSegment + offset, 0, 1) }
            return (wholeTiles + offset - wholePerSegment, segment, slices)
        }
    }

    /// How a job cuts its pixels into tiles of at most the kernel's tile: ``RowBands`` of the
    /// tile's vectors of pixels (a partial tile computes whole vectors), so the tiles compute no
    /// more vectors than the kernel's own tiles would, and with several threads their count is
    /// a multiple of the thread count where the vectors allow, each thread getting equal work
    /// in whole tiles. AVX2's 56-pixel tiles would cut a 14×14 layer into 56 + 56 + 56 + 28
    /// pixels (112 for one thread, 84 for the other) and a 7×7 layer into one tile whose channel
    /// groups ``Split`` would share out, each thread transposing all of its inputs and storing
    /// its results channel by channel; now 48 + 48 + 48 + 52 and 24 + 25 pixels.
    struct Tiling: Equatable {
        let pixels: Int
        /// Pixels per vector of the kernel's tiles.
        let vector: Int
        /// Vectors (the last one perhaps partial).
        let vectors: Int
        let count: Int

        init(pixels: Int, most: Int, vector: Int, threads: Int) {
            self.pixels = pixels
            self.vector = vector
            vectors = (pixels + vector - 1) / vector
            let capacity = Swift.max(1, most / vector)
            count = RowBands.count(
                height: vectors, wanted: (vectors + capacity - 1) / capacity, capacity: capacity, threads: threads)
        }

        /// The pixels of tile `tile`.
        func range(_ tile: Int) -> Range<Int> {
            let band = RowBands.rows(tile, of: count, height: vectors)
            return band.lowerBound * vector..<Swift.min(pixels, band.upperBound * vector)
        }
    }

    /// Whether `n` rows of `k` weights run as a sparse product.
    static func prefersSparse(_ filter: UnsafePointer<Float>, n: Int, k: Int) -> Bool {
        n > 0 && k >= minimumInputChannels && Double(vk_sparse_nonzeros(n, k, filter)) <= maximumDensity * Double(n * k)
    }

    /// `nil` when the weights are too dense to gain from sparsity (or memory runs out).
    init?(
        input: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>, pixelCount: Int,
        filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?, n: Int, k: Int, clamp: ActivationClamp,
        instructionSet: InstructionSet, epilogue: ConvEpilogue = ConvEpilogue()
    ) {
        guard SparseConvKernel.prefersSparse(filter, n: n, k: k) else { return nil }
        let words = vk_sparse_packed_count(instructionSet.isa, n, k, filter)
        guard words > 0 else { return nil }
        packed = AlignedBuffer(byteCount: words * MemoryLayout<Float>.stride)
        guard vk_sparse_pack(instructionSet.isa, n, k, filter, bias, packed.floats) != 0 else { return nil }
        self.input = input
        self.output = output
        self.pixelCount = pixelCount
        self.n = n
        self.k = k
        self.clamp = clamp
        self.instructionSet = instructionSet
        self.epilogue = epilogue
        tilePixels = vk_sparse_tile_pixels(instructionSet.isa)
        vectorPixels = vk_sparse_vector_pixels(instructionSet.isa)
        tiling = Tiling(pixels: pixelCount, most: tilePixels, vector: vectorPixels, threads: 1)
        groupCount = vk_sparse_group_count(packed.floats)
        // The C kernel applies a residual epilogue channel by channel; other epilogues need whole
        // pixels.
        splittable = epilogue.isEmpty || epilogue.residualEpilogue != nil
        fusedEpilogue = epilogue.residualEpilogue
        scratchBytesPerThread =
            vk_sparse_scratch_count(instructionSet.isa, packed.floats, n) * MemoryLayout<Float>.stride
    }

    var constantByteCount: Int { packed.byteCount + epilogue.byteCount }

    let scratchBytesPerThread: Int

    private var context: ExecutionContext?

    /// Computes `pixels` rows read from `a` (row stride `k`) into `output` (row stride `n`), with
    /// this kernel's bias and clamp (not its epilogue); `scratch` holds ``scratchBytesPerThread``.
    func multiply(
        _ a: UnsafePointer<Float>, pixels: Int, output: UnsafeMutablePointer<Float>,
        scratch: UnsafeMutablePointer<Float>
    ) {
        vk_sparse_run(
            instructionSet.isa, packed.floats, n, k, a, k, output, n, 0, pixels, 0, groupCount,
            clamp.lower, clamp.upper, nil, scratch)
    }

    func execute(_ context: ExecutionContext) {
        self.context = context
        let threads = context.pool.threadCount
        tiling = Tiling(pixels: pixelCount, most: tilePixels, vector: vectorPixels, threads: threads)
        split = Split(tiles: tiling.count, groups: groupCount, threads: threads, splittable: splittable)
        context.pool.run(self, taskCount: split.taskCount, work: pixelCount * n * k / 4)
        self.context = nil
    }

    func run(tasks range: Range<Int>, thread: Int) {
        guard let context else { return }
        let scratch = context.scratchFloats(thread: thread)
        for task in range {
            let (tile, slice, slices) = split.task(task)
            let pixels = tiling.range(tile)
            let (first, end) = (pixels.lowerBound, pixels.upperBound)
            let groups =
                slices == 1
                ? 0..<groupCount
                : vk_sparse_group_split(
                    packed.floats, slices, slice)..<vk_sparse_group_split(packed.floats, slices, slice + 1)
            if groups.isEmpty { continue }
            if var fused = fusedEpilogue {
                withUnsafePointer(to: &fused) {
                    vk_sparse_run(
                        instructionSet.isa, packed.floats, n, k, input, k, output, n, first, end,
                        groups.lowerBound, groups.upperBound, clamp.lower, clamp.upper, $0, scratch)
                }
            } else {
                vk_sparse_run(
                    instructionSet.isa, packed.floats, n, k, input, k, output, n, first, end,
                    groups.lowerBound, groups.upperBound, clamp.lower, clamp.upper, nil, scratch)
                if slices == 1 {
                    epilogue.apply(instructionSet, output: output, channels: n, rows: first..<end, columns: 0..<n)
                }
            }
        }
    }
}
