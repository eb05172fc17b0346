import CVisionKernels

/// A DEPTHWISE_CONV_2D and the 1×1 CONV_2D that reads its output, run together (fused by
/// ``GraphFusion``): each task computes a band of depthwise output rows into per-thread scratch
/// and multiplies them by the 1×1 weights (dense or sparse) while they are in cache, so the
/// depthwise output never goes through memory. Each value is computed exactly as the two
/// kernels compute it separately. Where rows do not share out evenly between the threads, bands
/// are ranges of pixels instead (see ``splitsByPixels(height:width:count:bandRows:threads:)``).
///
/// With an `expansion` (the 1×1 convolution that writes the depthwise input, fused too), each
/// band first computes the rows of the depthwise input that its windows reach into scratch as
/// well, so a whole inverted-residual block runs band by band. A task is then a strip of
/// consecutive bands (four strips per thread): a band keeps the rows it shares with the one
/// before, moved to the front of the buffer, and computes only the new rows; the first band of
/// a strip computes its shared rows again, exactly alike.
final class DepthwisePointwiseKernel: Kernel, ParallelJob {
    /// Fewer pixels per band leave the 1×1 stage too few rows to multiply efficiently.
    static let minimumBandPixels = 48

    /// Whether a depthwise output of `shape` (NHWC) is worth computing band by band with the
    /// band budget of `tuning`.
    static func worthFusing(_ shape: [Int], tuning: EngineTuning = .standard) -> Bool {
        guard shape.count == 4, shape[1] > 0, shape[2] > 0, shape[3] > 0 else { return false }
        return bandRows(height: shape[1], width: shape[2], channels: shape[3], tuning: tuning) * shape[2]
            >= minimumBandPixels
    }

    /// Rows of a band of depthwise output: as many as fit ``EngineTuning/depthwiseBandBytes``,
    /// or up to twice that when fewer would leave the 1×1 stage under ``minimumBandPixels``.
    static func bandRows(height: Int, width: Int, channels: Int, tuning: EngineTuning = .standard) -> Int {
        let bandBytes = tuning.depthwiseBandBytes
        let rowBytes = Swift.max(1, width * channels * MemoryLayout<Float>.stride)
        let fitting = bandBytes / rowBytes
        let wanted = (minimumBandPixels + width - 1) / Swift.max(1, width)
        return Swift.max(1, Swift.min(height, Swift.max(fitting, Swift.min(wanted, 2 * bandBytes / rowBytes))))
    }

    /// The 1×1 convolution that computes the depthwise input, when fused.
    let expansion: PointwiseDepthwiseKernel.Stage?
    /// Fewest pixels per band when a job cuts its bands for several threads
    /// (``EngineTuning/minimumTaskPixels``; the band budgets are used up at init).
    let minimumTaskPixels: Int
    let depthwise: DepthwiseConv2DKernel
    let pointwise: PointwiseWeights
    let output: UnsafeMutablePointer<Float>
    let outputChannels: Int
    let epilogue: ConvEpilogue
    /// The depthwise output (= the 1×1 input) sizes.
    let middle: NHWC
    /// Most rows per band (the band buffer's size).
    let bandRows: Int
    private let bandFloats: Int
    /// Floats of the buffer of expanded rows (the depthwise input of a band; 0 without expansion).
    private let expandedFloats: Int
    /// Tasks per image in the current job: bands (see ``bandCount(height:width:bandRows:threads:minimumTaskPixels:)``),
    /// or strips of bands with an expansion.
    private var bandCount = 1
    /// Whether the current job's bands are ranges of pixels rather than of rows (see
    /// ``splitsByPixels(height:width:count:bandRows:threads:)``).
    private var pixelBands = false

    init(
        expansion: PointwiseDepthwiseKernel.Stage? = nil, depthwise: DepthwiseConv2DKernel,
        pointwise: PointwiseWeights, output: UnsafeMutablePointer<Float>, outputChannels: Int,
        epilogue: ConvEpilogue, tuning: EngineTuning = .standard
    ) {
        self.expansion = expansion
        minimumTaskPixels = tuning.minimumTaskPixels
        self.depthwise = depthwise
        self.pointwise = pointwise
        self.output = output
        self.outputChannels = outputChannels
        self.epilogue = epilogue
        middle = depthwise.outputShape
        var rows = Self.bandRows(height: middle.height, width: middle.width, channels: middle.channels, tuning: tuning)
        if let expansion {
            // Few enough rows that the expanded rows they reach fit their own budget.
            let axis = depthwise.rows
            let expandedRowBytes = Swift.max(
                1, expansion.outputShape.width * expansion.channels * MemoryLayout<Float>.stride)
            let fitting = tuning.expansionBandBytes / expandedRowBytes
            func expandedRows(_ rows: Int) -> Int { PointwiseDepthwiseKernel.inputRows(forOutputRows: rows, axis) }
            while rows > 1 && expandedRows(rows) > fitting { rows -= 1 }
            expandedFloats = (expandedRows(rows) * expansion.outputShape.width * expansion.channels + 15) / 16 * 16
        } else {
            expandedFloats = 0
        }
        bandRows = rows
        // Keep the band buffer 64-byte aligned for the stage after it.
        bandFloats = (bandRows * middle.width * middle.channels + 15) / 16 * 16
    }

    /// Scratch after the two buffers, for whichever 1×1 stage runs (they run one at a time).
    private var stageScratchFloats: Int {
        Swift.max(pointwise.scratchFloats, expansion?.pointwise.scratchFloats ?? 0)
    }

    var scratchBytesPerThread: Int {
        (bandFloats + expandedFloats + stageScratchFloats) * MemoryLayout<Float>.stride
    }

    var constantByteCount: Int {
        (expansion?.constantByteCount ?? 0) + depthwise.constantByteCount + pointwise.constantByteCount
            + epilogue.byteCount
    }

    private var context: ExecutionContext?

    /// The bands (``RowBands``) that a job cuts `height` depthwise output rows of `width` pixels
    /// into: with one thread, as few as fit `bandRows`; with several, about 8 per thread, so that
    /// the pool can balance the threads within a band, but none under `minimumTaskPixels`
    /// (``EngineTuning/minimumTaskPixels``); made a multiple of the thread count.
    static func bandCount(
        height: Int, width: Int, bandRows: Int, threads: Int,
        minimumTaskPixels: Int = EngineTuning.standard.minimumTaskPixels
    ) -> Int {
        guard threads > 1 else { return RowBands.count(height: height, wanted: 1, capacity: bandRows, threads: 1) }
        let rowsForPixels = (minimumTaskPixels + width - 1) / Swift.max(1, width)
        let rowsForBands = (height + 8 * threads - 1) / (8 * threads)
        let rows = Swift.max(1, Swift.min(bandRows, Swift.max(rowsForPixels, rowsForBands)))
        return RowBands.count(height: height, wanted: (height + rows - 1) / rows, capacity: bandRows, threads: threads)
    }

    /// Whether `count` bands over `height` rows of `width` pixels are better cut as equal ranges of
    /// pixels (``RowBands/rows(_:of:height:)`` over `height × width` pixels) than of rows. Row
    /// bands can leave the threads' equal shares of bands unequal in rows (the hand landmark
    /// model's 7×7 blocks at two threads: 3 rows against 4, one thread waiting for the other a
    /// seventh of the job). Ranges of pixels share out evenly, but a row that two ranges share has
    /// its depthwise part computed by both (each multiplies only its own pixels), so they are
    /// chosen only when the rows computed twice are no more than the rows by which the threads'
    /// shares differ, and when every range's rows fit `bandRows`.
    static func splitsByPixels(height: Int, width: Int, count: Int, bandRows: Int, threads: Int) -> Bool {
        guard threads > 1, count > 1, width > 1, height > 0 else { return false }
        // The rows of the tasks the pool starts each thread on (`vk_pool_share`).
        var most = 0
        var fewest = Int.max
        for t in 0..<threads {
            var first = 0
            var end = 0
            vk_pool_share(count, t, threads, &first, &end)
            var rows = 0
            if first < end {
                rows =
                    RowBands.rows(end - 1, of: count, height: height).upperBound
                    - RowBands.rows(first, of: count, height: height).lowerBound
            }
            most = Swift.max(most, rows)
            fewest = Swift.min(fewest, rows)
        }
        guard most > fewest else { return false }
        let pixels = height * width
        var computed = 0
        for index in 0..<count {
            let range = RowBands.rows(index, of: count, height: pixels)
            guard !range.isEmpty else { continue }
            let rows = (range.upperBound - 1) / width - range.lowerBound / width + 1
            guard rows <= bandRows else { return false }
            computed += rows
        }
        return computed - height <= most - fewest
    }

    func execute(_ context: ExecutionContext) {
        self.context = context
        let threads = context.pool.threadCount
        if expansion != nil {
            // Strips of consecutive bands, four per thread: the bands of a strip share their
            // expanded rows, so only the first band of a strip computes its overlap again.
            bandCount =
                threads == 1
                ? 1
                : RowBands.count(height: middle.height, wanted: 4 * threads, capacity: middle.height, threads: threads)
        } else {
            bandCount = Self.bandCount(
                height: middle.height, width: middle.width, bandRows: bandRows, threads: threads,
                minimumTaskPixels: minimumTaskPixels)
        }
        pixelBands =
            expansion == nil
            && Self.splitsByPixels(
                height: middle.height, width: middle.width, count: bandCount, bandRows: bandRows, threads: threads)
        let expansionWork = expansion.map { $0.inputShape.channels * $0.channels / Swift.max(1, middle.channels) } ?? 0
        context.pool.run(
            self, taskCount: middle.batch * bandCount,
            work: middle.batch * middle.height * middle.width * middle.channels * (outputChannels + 9 + expansionWork))
        self.context = nil
    }

    func run(tasks range: Range<Int>, thread: Int) {
        guard let context else { return }
        let band = context.scratchFloats(thread: thread)
        let expanded = band + bandFloats
        let scratch = expanded + expandedFloats
        let depthwiseInput = depthwise.inputShape
        let imageIn = depthwiseInput.height * depthwiseInput.width * depthwiseInput.channels
        for task in range {
            let b = task / bandCount
            guard let expansion else {
                var conv = depthwise.convolution
                conv.input = UnsafePointer(depthwise.input + b * imageIn)
                let width = middle.width
                let pixels =
                    pixelBands
                    ? RowBands.rows(task % bandCount, of: bandCount, height: middle.height * width)
                    : RowBands.rows(task % bandCount, of: bandCount, height: middle.height).scaled(by: width)
                compute(b, pixels, conv, band: band, scratch: scratch)
                continue
            }
            let span = RowBands.rows(task % bandCount, of: bandCount, height: middle.height)
            // A strip: bands of at most `bandRows` rows, in order, each keeping the expanded
            // rows it shares with the one before.
            let parts = (span.count + bandRows - 1) / bandRows
            var held = 0..<0
            for part in 0..<parts {
                let rows = RowBands.rows(part, of: parts, height: span.count)
                let first = span.lowerBound + rows.lowerBound
                let end = span.lowerBound + rows.upperBound
                held = expandedRows(expansion, b, first, end, held: held, into: expanded)
                var conv = depthwise.convolution
                conv.input = UnsafePointer(expanded)
                conv.input_row_offset = held.lowerBound
                compute(b, (first..<end).scaled(by: middle.width), conv, band: band, scratch: scratch)
            }
        }
    }

    /// The depthwise output rows that `pixels` (a range of image `b`'s pixels) reach, through
    /// `conv` (its input set) into `band`, then the 1×1 product of those pixels alone into the
    /// output.
    @inline(__always)
    private func compute(
        _ b: Int, _ pixels: Range<Int>, _ conv: vk_dwconv, band: UnsafeMutablePointer<Float>,
        scratch: UnsafeMutablePointer<Float>
    ) {
        guard !pixels.isEmpty else { return }
        let rows = (pixels.lowerBound / middle.width)..<((pixels.upperBound - 1) / middle.width + 1)
        var conv = conv
        conv.output = band
        conv.output_row_offset = rows.lowerBound
        withUnsafePointer(to: conv) { vk_dwconv_run($0, rows.lowerBound, rows.upperBound) }
        let values = band + (pixels.lowerBound - rows.lowerBound * middle.width) * middle.channels
        if depthwise.clamp.hasFunction {
            depthwise.clamp.apply(
                to: values, count: pixels.count * middle.channels, instructionSet: depthwise.instructionSet)
        }
        // Output pixels of this band, counted over the batch.
        let firstPixel = b * middle.height * middle.width + pixels.lowerBound
        let n = outputChannels
        pointwise.multiply(values, pixels: pixels.count, output: output + firstPixel * n, scratch: scratch)
        epilogue.apply(
            InstructionSet(isa: depthwise.convolution.isa), output: output, channels: n,
            rows: firstPixel..<(firstPixel + pixels.count), columns: 0..<n)
    }

    /// Puts the expanded rows (inside the image) that depthwise output rows `[first, end)` of image
    /// `b` reach into `buffer`, keeping those of `held` (rows of the same image already there)
    /// that it still needs, and returns the rows it holds.
    @inline(__always)
    private func expandedRows(
        _ expansion: PointwiseDepthwiseKernel.Stage, _ b: Int, _ first: Int, _ end: Int, held: Range<Int>,
        into buffer: UnsafeMutablePointer<Float>
    ) -> Range<Int> {
        let axis = depthwise.rows
        let height = expansion.outputShape.height
        let low = Swift.max(0, axis.origin(first))
        let high = Swift.min(height, axis.origin(end - 1) + (axis.filter - 1) * axis.dilation + 1)
        // (None when the band's windows lie wholly in the padding: its rows are bias alone.)
        guard low < high else { return low..<low }
        let width = expansion.outputShape.width
        let rowFloats = width * expansion.channels
        var start = low
        if held.lowerBound <= low && low < held.upperBound {
            // The rows this band shares with the last one move to the front.
            let kept = Swift.min(high, held.upperBound) - low
            UnsafeMutableRawPointer(buffer).copyMemory(
                from: buffer + (low - held.lowerBound) * rowFloats,
                byteCount: kept * rowFloats * MemoryLayout<Float>.stride)
            start = low + kept
        }
        if start < high {
            let k = expansion.inputShape.channels
            let imageIn = expansion.inputShape.height * expansion.inputShape.width * k
            let a = UnsafePointer(expansion.input + b * imageIn + start * width * k)
            expansion.pointwise.multiply(
                a, pixels: (high - start) * width, output: buffer + (start - low) * rowFloats,
                scratch: buffer + expandedFloats)
        }
        return low..<high
    }
}

extension Range<Int> {
    /// Each bound times `factor`: rows of `factor` pixels as a range of pixels.
    fileprivate func scaled(by factor: Int) -> Range<Int> { (lowerBound * factor)..<(upperBound * factor) }
}
