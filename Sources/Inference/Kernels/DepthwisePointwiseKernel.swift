import CVisionKernels

/// A DEPTHWISE_CONV_2D and the 1×1 CONV_2D that reads its output, run together (fused by
/// ``GraphFusion``): each task computes a band of depthwise output rows into per-thread scratch
/// and multiplies them by the 1×1 weights (dense or sparse) while they are in cache, so the
/// depthwise output never goes through memory. Each value is computed exactly as the two
/// kernels compute it separately.
final class DepthwisePointwiseKernel: Kernel, ParallelJob {
    /// Bytes of depthwise output a band aims at.
    static let bandBytes = 128 * 1024
    /// Fewer pixels per band leave the 1×1 stage too few rows to multiply efficiently.
    static let minimumBandPixels = 48
    /// Fewest pixels per band when bands are cut smaller to share a layer between threads.
    static let minimumTaskPixels = 24

    /// Whether a depthwise output of `shape` (NHWC) is worth computing band by band.
    static func worthFusing(_ shape: [Int]) -> Bool {
        guard shape.count == 4, shape[1] > 0, shape[2] > 0, shape[3] > 0 else { return false }
        let rowBytes = shape[2] * shape[3] * MemoryLayout<Float>.stride
        let rows = Swift.max(1, Swift.min(shape[1], bandBytes / rowBytes))
        return rows * shape[2] >= minimumBandPixels
    }

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
    /// Bands in the current job (see ``bandCount(height:width:bandRows:threads:)``).
    private var bandCount = 1

    init(
        depthwise: DepthwiseConv2DKernel, pointwise: PointwiseWeights, output: UnsafeMutablePointer<Float>,
        outputChannels: Int,
        epilogue: ConvEpilogue
    ) {
        self.depthwise = depthwise
        self.pointwise = pointwise
        self.output = output
        self.outputChannels = outputChannels
        self.epilogue = epilogue
        middle = depthwise.outputShape
        let rowBytes = Swift.max(1, middle.width * middle.channels * MemoryLayout<Float>.stride)
        bandRows = Swift.max(1, Swift.min(middle.height, DepthwisePointwiseKernel.bandBytes / rowBytes))
        // Keep the band buffer 64-byte aligned for the stage after it.
        bandFloats = (bandRows * middle.width * middle.channels + 15) / 16 * 16
    }

    var scratchBytesPerThread: Int { (bandFloats + pointwise.scratchFloats) * MemoryLayout<Float>.stride }

    var constantByteCount: Int { depthwise.constantByteCount + pointwise.constantByteCount + epilogue.byteCount }

    private var context: ExecutionContext?

    /// The bands (``RowBands``) that a job cuts `height` depthwise output rows of `width` pixels
    /// into: with one thread, as few as fit `bandRows`; with several, about 8 per thread, so that
    /// the pool can balance the threads within a band, but none under ``minimumTaskPixels``;
    /// made a multiple of the thread count.
    static func bandCount(height: Int, width: Int, bandRows: Int, threads: Int) -> Int {
        guard threads > 1 else { return RowBands.count(height: height, wanted: 1, capacity: bandRows, threads: 1) }
        let rowsForPixels = (minimumTaskPixels + width - 1) / Swift.max(1, width)
        let rowsForBands = (height + 8 * threads - 1) / (8 * threads)
        let rows = Swift.max(1, Swift.min(bandRows, Swift.max(rowsForPixels, rowsForBands)))
        return RowBands.count(height: height, wanted: (height + rows - 1) / rows, capacity: bandRows, threads: threads)
    }

    func execute(_ context: ExecutionContext) {
        self.context = context
        bandCount = Self.bandCount(
            height: middle.height, width: middle.width, bandRows: bandRows,
            threads: context.pool.threadCount)
        context.pool.run(
            self, taskCount: middle.batch * bandCount,
            work: middle.batch * middle.height * middle.width * middle.channels * (outputChannels + 9))
        self.context = nil
    }

    func run(tasks range: Range<Int>, thread: Int) {
        guard let context else { return }
        let band = context.scratchFloats(thread: thread)
        let c = middle.channels
        let n = outputChannels
        let imageIn = depthwise.inputShape.height * depthwise.inputShape.width * depthwise.inputShape.channels
        for task in range {
            let b = task / bandCount
            let index = task % bandCount
            let span = RowBands.rows(index, of: bandCount, height: middle.height)
            let first = span.lowerBound
            let end = span.upperBound
            var conv = depthwise.convolution
            conv.input = UnsafePointer(depthwise.input + b * imageIn)
            conv.output = band
            conv.output_row_offset = first
            withUnsafePointer(to: conv) { vk_dwconv_run($0, first, end) }
            let pixels = (end - first) * middle.width
            if depthwise.clamp.isTanh { depthwise.clamp.apply(to: band, count: pixels * c) }
            // Output pixels of this band, counted over the batch.
            let firstPixel = (b * middle.height + first) * middle.width
            pointwise.multiply(band, pixels: pixels, output: output + firstPixel * n, scratch: band + bandFloats)
            epilogue.apply(
                InstructionSet(isa: depthwise.convolution.isa), output: output, channels: n,
                rows: firstPixel..<(firstPixel + pixels), columns: 0..<n)
        }
    }
}
