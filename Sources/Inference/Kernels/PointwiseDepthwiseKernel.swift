import CVisionKernels

/// A 1×1 CONV_2D and the DEPTHWISE_CONV_2D that reads its output, run together (fused by
/// ``GraphFusion``): each task computes the 1×1 convolution for the input rows that a band of
/// depthwise output rows reaches into per-thread scratch, then the depthwise rows from there, so
/// the 1×1 output — the widest tensor of an inverted-residual block — never goes through memory.
/// Rows shared by two bands' windows are computed by both (each value exactly as the unfused
/// 1×1 kernel computes it), so every output equals the two kernels' run separately. A residual
/// ADD of the 1×1 output itself, fused into the depthwise convolution, is added to each band's
/// output rows from the band.
final class PointwiseDepthwiseKernel: Kernel, ParallelJob {
    /// The 1×1 stage and the shape of its input.
    struct Stage {
        let pointwise: PointwiseWeights
        let input: UnsafeMutablePointer<Float>
        let inputShape: NHWC
        /// Output channels.
        let channels: Int

        var outputShape: NHWC {
            NHWC(batch: inputShape.batch, height: inputShape.height, width: inputShape.width, channels: channels)
        }

        var constantByteCount: Int { pointwise.constantByteCount }
    }

    /// The 1×1 stage of `ctx`'s CONV_2D (a 1×1, stride-1, unpadded convolution with constant
    /// weights and no fused epilogue, as ``GraphFusion`` checks): sparse or dense weights chosen
    /// exactly as ``Conv2DKernel`` chooses them, so the values are the same.
    static func stage(_ ctx: OperatorContext) throws -> Stage {
        guard case .conv2D(let options) = ctx.options else { throw ctx.invalid("missing Conv2DOptions") }
        try ctx.expect(inputs: 2...3, outputs: 1)
        try ctx.requireFloat(inputs: [0])
        let inputDescriptor = try ctx.input(0)
        guard let inputShape = NHWC(inputDescriptor.shape) else {
            throw ctx.unsupported("input must have rank 4, has shape \(inputDescriptor.shapeText)")
        }
        let filter = try ctx.requireConstant(1, "the filter")
        guard filter.descriptor.type == .float32, let filterShape = NHWC(filter.descriptor.shape),
            filterShape.height == 1, filterShape.width == 1, filterShape.channels == inputShape.channels,
            options.strideHeight == 1, options.strideWidth == 1, ctx.inputPadding == nil
        else { throw ctx.invalid("only a float 1×1, stride-1 convolution runs as a fused 1×1 stage") }
        let bias = try ctx.floatBias(2, count: filterShape.batch)
        let clamp = try ctx.clamp(options.activation)
        guard !clamp.hasFunction, filterShape.batch > ConvDotKernel.maximumOutputChannels else {
            throw ctx.invalid("this 1×1 convolution does not run as a fused 1×1 stage")
        }
        let n = filterShape.batch
        let k = filterShape.channels
        // The model's shape of the 1×1 output (never stored now) must be what the stage computes.
        try ctx.requireOutputShape([inputShape.batch, inputShape.height, inputShape.width, n])
        let pointwise = PointwiseWeights(
            filter: filter.floats, bias: bias?.floats, n: n, k: k, clamp: clamp,
            instructionSet: ctx.instructionSet, placeholder: ctx.inputFloats(0))
        return Stage(pointwise: pointwise, input: ctx.inputFloats(0), inputShape: inputShape, channels: n)
    }

    let stage: Stage
    let depthwise: DepthwiseConv2DKernel
    /// The 1×1 output (= the depthwise input) sizes.
    let middle: NHWC
    /// Most depthwise output rows per band (sizes the band buffer).
    let bandRows: Int
    /// Floats of the band buffer (64-byte aligned), followed by the sparse stage's scratch.
    private let bandFloats: Int
    /// Bands per image in the current job.
    private var bandCount = 1

    /// `tuning`: the 1×1 output a band aims at (``EngineTuning/pointwiseBandBytes``).
    init(stage: Stage, depthwise: DepthwiseConv2DKernel, tuning: EngineTuning = .standard) {
        self.stage = stage
        self.depthwise = depthwise
        middle = stage.outputShape
        let axis = depthwise.rows
        let height = depthwise.outputShape.height
        let rowBytes = Swift.max(1, middle.width * middle.channels * MemoryLayout<Float>.stride)
        // Output rows whose input rows fit the band budget, but at least enough that the shared rows
        // are at most a third of a band's input rows.
        let window = (axis.filter - 1) * axis.dilation + 1
        let shared = Swift.max(0, window - axis.stride)
        let fitting = (tuning.pointwiseBandBytes / rowBytes - window) / Swift.max(1, axis.stride) + 1
        let least = (2 * shared + axis.stride - 1) / Swift.max(1, axis.stride)
        bandRows = Swift.max(1, Swift.min(height, Swift.max(fitting, least)))
        bandFloats = (Self.inputRows(forOutputRows: bandRows, axis) * middle.width * middle.channels + 15) / 16 * 16
    }

    /// The bands (``RowBands``) that `height` depthwise output rows are cut into: as few as keep
    /// every band within `bandRows` rows — each band recomputes the 1×1 rows its window shares
    /// with the band before it — made a multiple of `threads`.
    static func bandCount(height: Int, bandRows: Int, threads: Int) -> Int {
        RowBands.count(height: height, wanted: 1, capacity: bandRows, threads: threads)
    }

    /// Input rows that `rows` consecutive output rows reach, at most (also the expanded rows of
    /// ``DepthwisePointwiseKernel``'s bands).
    static func inputRows(forOutputRows rows: Int, _ axis: WindowAxis) -> Int {
        (rows - 1) * axis.stride + (axis.filter - 1) * axis.dilation + 1
    }

    var scratchBytesPerThread: Int { (bandFloats + stage.pointwise.scratchFloats) * MemoryLayout<Float>.stride }

    var constantByteCount: Int { stage.constantByteCount + depthwise.constantByteCount }

    private var context: ExecutionContext?

    func execute(_ context: ExecutionContext) {
        self.context = context
        bandCount = Self.bandCount(
            height: depthwise.outputShape.height, bandRows: bandRows, threads: context.pool.threadCount)
        context.pool.run(
            self, taskCount: middle.batch * bandCount,
            work: middle.batch * middle.height * middle.width * middle.channels * (stage.inputShape.channels + 9))
        self.context = nil
    }

    func run(tasks range: Range<Int>, thread: Int) {
        guard let context else { return }
        let band = context.scratchFloats(thread: thread)
        let rows = depthwise.rows
        let outputShape = depthwise.outputShape
        let k = stage.inputShape.channels
        let width = middle.width
        let imageIn = stage.inputShape.height * stage.inputShape.width * k
        let imageOut = outputShape.height * outputShape.width * outputShape.channels
        for task in range {
            let b = task / bandCount
            let index = task % bandCount
            let span = RowBands.rows(index, of: bandCount, height: outputShape.height)
            let first = span.lowerBound
            let end = span.upperBound
            // The input rows inside the image that output rows [first, end) reach.
            let low = Swift.max(0, rows.origin(first))
            let high = Swift.min(middle.height, rows.origin(end - 1) + (rows.filter - 1) * rows.dilation + 1)
            // (None when the band's windows lie wholly in the padding: its rows are bias alone.)
            if low < high {
                let pixels = (high - low) * width
                let a = UnsafePointer(stage.input + b * imageIn + low * width * k)
                stage.pointwise.multiply(a, pixels: pixels, output: band, scratch: band + bandFloats)
            }
            var conv = depthwise.convolution
            conv.input = UnsafePointer(band)
            conv.input_row_offset = low
            conv.output = depthwise.output + b * imageOut
            withUnsafePointer(to: conv) { vk_dwconv_run($0, first, end) }
            if depthwise.clamp.hasFunction {
                depthwise.clamp.apply(
                    to: depthwise.output + b * imageOut + first * outputShape.width * outputShape.channels,
                    count: (end - first) * outputShape.width * outputShape.channels,
                    instructionSet: depthwise.instructionSet)
            }
            // A fused residual ADD of the 1×1 output itself, from the band (its rows [low, high)
            // hold rows [first, end)), to the band's output rows while they are in cache.
            if depthwise.epilogue.residualFromStage {
                let start = (b * outputShape.height + first) * outputShape.width
                depthwise.epilogue.apply(
                    depthwise.instructionSet, output: depthwise.output, channels: outputShape.channels,
                    rows: start..<(start + (end - first) * outputShape.width),
                    residual: UnsafePointer(band + (first - low) * width * middle.channels))
            }
        }
    }
}
