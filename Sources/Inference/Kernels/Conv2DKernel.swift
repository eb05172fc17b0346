import CVisionKernels
import ModelFile

/// CONV_2D on float32 NHWC tensors: every output pixel is a row of a matrix product with the
/// filter, packed at load (``PackedWeights``).
///
/// A 1×1 filter with stride 1 and no padding reads its rows straight from the input; other
/// filters read each window tap's input pixel in place (`vk_gemm_conv`, zeros outside the
/// input), or gather the patches into per-thread scratch first (im2col) for windows of more
/// than 64 taps. Work is split over tiles of output pixels (and, when there are few, over
/// column panels too). On the direct path it computes only the part of its output that is
/// read (``DemandAnalysis``): a range of pixels, or a range of channels whose weights alone are
/// packed.
final class Conv2DKernel: Kernel, ParallelJob {
    let input: UnsafeMutablePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let inputShape: NHWC
    let outputShape: NHWC
    let rows: WindowAxis
    let columns: WindowAxis
    let weights: PackedWeights
    let clamp: ActivationClamp
    /// Whether rows come straight from the input (1×1 filter, stride 1, no padding).
    let isDirect: Bool
    let pixelCount: Int
    /// The first output pixel computed: tasks cover `tiling.rowCount` pixels from it (all of
    /// them, except on the direct path when only some are read; see ``DemandAnalysis``).
    let firstPixel: Int
    /// The output channel of the packed weights' column 0 (not 0 when only some channels are
    /// read; the direct path without an epilogue).
    let firstChannel: Int

    static func make(_ ctx: OperatorContext) throws -> Kernel {
        guard case .conv2D(let options) = ctx.options else { throw ctx.invalid("missing Conv2DOptions") }
        // A fourth input is the operand of a fused residual ADD (GraphFusion).
        try ctx.expect(inputs: 2...(ctx.residualOptions == nil ? 3 : 4), outputs: 1)
        try ctx.requireFloat(inputs: [0])
        let inputDescriptor = try ctx.input(0)
        // With a fused depthwise stage, the convolution's input is that stage's output.
        guard let inputShape = ctx.fusedDepthwise?.outputShape ?? NHWC(inputDescriptor.shape) else {
            throw ctx.unsupported("input must have rank 4, has shape \(inputDescriptor.shapeText)")
        }
        let filter = try ctx.requireConstant(1, "the filter")
        guard filter.descriptor.type == .float32 else {
            throw ctx.unsupported("filter type \(filter.descriptor.type) is not supported")
        }
        guard let filterShape = NHWC(filter.descriptor.shape) else {
            throw ctx.invalid("filter must have rank 4, has shape \(filter.descriptor.shapeText)")
        }
        guard filterShape.channels == inputShape.channels else {
            // Grouped convolution (filter depth dividing the input depth) is not implemented.
            throw ctx.unsupported(
                "filter depth \(filterShape.channels) differs from input depth \(inputShape.channels) (grouped "
                    + "convolution)"
            )
        }
        let bias = try ctx.floatBias(2, count: filterShape.batch)
        let extra = ctx.inputPadding ?? ExplicitPadding(top: 0, bottom: 0, left: 0, right: 0)
        guard
            let rows = WindowAxis(
                input: inputShape.height, filter: filterShape.height, stride: options.strideHeight,
                dilation: options.dilationHeight, padding: options.padding,
                before: extra.top, after: extra.bottom),
            let columns = WindowAxis(
                input: inputShape.width, filter: filterShape.width, stride: options.strideWidth,
                dilation: options.dilationWidth, padding: options.padding,
                before: extra.left, after: extra.right)
        else {
            throw ctx.invalid(
                "invalid window: filter \(filter.descriptor.shapeText), strides "
                    + "\(options.strideHeight)x\(options.strideWidth), dilation "
                    + "\(options.dilationHeight)x\(options.dilationWidth) on input \(inputDescriptor.shapeText)"
            )
        }
        let outputShape = NHWC(
            batch: inputShape.batch, height: rows.output, width: columns.output, channels: filterShape.batch)
        try ctx.requireOutputShape(outputShape.shape)
        let clamp = try ctx.outputActivation(options.activation)
        let epilogue = try ConvEpilogue(ctx, channels: outputShape.channels)
        if filterShape.batch <= ConvDotKernel.maximumOutputChannels {
            // GraphFusion fuses depthwise stages only into convolutions with more outputs.
            guard ctx.fusedDepthwise == nil else {
                throw ctx.invalid("a convolution of \(filterShape.batch) outputs takes no depthwise stage")
            }
            return ConvDotKernel(
                input: ctx.inputFloats(0), output: ctx.outputFloats(0), inputShape: inputShape,
                outputShape: outputShape, rows: rows, columns: columns, filter: filter.floats,
                bias: bias?.floats, clamp: clamp, instructionSet: ctx.instructionSet, epilogue: epilogue)
        }
        let pointwise =
            filterShape.height == 1 && filterShape.width == 1 && rows.stride == 1 && columns.stride == 1
            && rows.padBefore == 0 && columns.padBefore == 0 && rows.output == inputShape.height
            && columns.output == inputShape.width
        if let stage = ctx.fusedDepthwise {
            guard pointwise, stage.multiplier == 1 else {
                throw ctx.invalid("only a 1×1 convolution takes a depthwise stage")
            }
            // GraphFusion leaves sparse weights unfused; the sparse stage remains for robustness.
            let pointwiseStage = PointwiseWeights(
                filter: filter.floats, bias: bias?.floats, n: filterShape.batch,
                k: filterShape.channels, clamp: clamp, instructionSet: ctx.instructionSet,
                placeholder: ctx.outputFloats(0),
                skippingZeroSteps: PackedWeights.worthSkippingZeroSteps(
                    inputClampedAtZero: stage.clamp.lower >= 0 && stage.epilogue.isEmpty, n: filterShape.batch,
                    tuning: ctx.tuning))
            return DepthwisePointwiseKernel(
                expansion: ctx.fusedExpansion, depthwise: stage, pointwise: pointwiseStage,
                output: ctx.outputFloats(0), outputChannels: filterShape.batch, epilogue: epilogue, tuning: ctx.tuning)
        }
        if pointwise && !clamp.hasFunction,
            let sparse = SparseConvKernel(
                input: ctx.inputFloats(0), output: ctx.outputFloats(0),
                pixelCount: inputShape.batch
                    * inputShape.height * inputShape.width, filter: filter.floats, bias: bias?.floats,
                n: filterShape.batch, k: filterShape.channels, clamp: clamp,
                instructionSet: ctx.instructionSet, epilogue: epilogue)
        {
            return sparse
        }
        // Only the part of the output that is read (DemandAnalysis): some of its pixels, or,
        // without a fused epilogue, some of its channels, whose weights alone are packed.
        let k = filterShape.height * filterShape.width * filterShape.channels
        var pixels = 0..<(outputShape.batch * outputShape.height * outputShape.width)
        var channels = 0..<filterShape.batch
        if pointwise {
            switch ctx.outputDemand {
            case .pixels(let range) where !range.isEmpty && range.lowerBound >= 0 && range.upperBound <= pixels.count:
                pixels = range
            case .channels(let range)
            where epilogue.isEmpty && !range.isEmpty && range.lowerBound >= 0 && range.upperBound <= channels.count:
                channels = range
            default:
                break
            }
        }
        let weights = PackedWeights(
            weights: filter.floats + channels.lowerBound * k, bias: bias.map { $0.floats + channels.lowerBound },
            n: channels.count, k: k, instructionSet: ctx.instructionSet,
            skippingZeroSteps: pointwise
                && PackedWeights.worthSkippingZeroSteps(
                    inputClampedAtZero: ctx.inputClampedAtZero, n: channels.count, tuning: ctx.tuning)
        )
        return Conv2DKernel(
            input: ctx.inputFloats(0), output: ctx.outputFloats(0), inputShape: inputShape, outputShape: outputShape,
            rows: rows, columns: columns, weights: weights, clamp: clamp, epilogue: epilogue, pixels: pixels,
            firstChannel: channels.lowerBound, tuning: ctx.tuning)
    }

    init(
        input: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>, inputShape: NHWC, outputShape: NHWC,
        rows: WindowAxis, columns: WindowAxis, weights: PackedWeights, clamp: ActivationClamp,
        epilogue: ConvEpilogue = ConvEpilogue(), pixels: Range<Int>? = nil, firstChannel: Int = 0,
        tuning: EngineTuning = .standard
    ) {
        self.input = input
        self.epilogue = epilogue
        self.output = output
        self.inputShape = inputShape
        self.outputShape = outputShape
        self.rows = rows
        self.columns = columns
        self.weights = weights
        self.clamp = clamp
        isDirect =
            rows.filter == 1 && columns.filter == 1 && rows.padBefore == 0 && columns.padBefore == 0
            && rows.stride == 1 && columns.stride == 1 && rows.output == rows.input && columns.output == columns.input
        pixelCount = outputShape.batch * outputShape.height * outputShape.width
        // Only the direct path computes part of the output (the others compute all of it).
        let part = pixels ?? 0..<pixelCount
        precondition(
            (part == 0..<pixelCount || isDirect) && (firstChannel == 0 || (isDirect && epilogue.isEmpty)),
            "only the direct path computes part of the output, and part of the channels without an epilogue")
        firstPixel = part.lowerBound
        self.firstChannel = firstChannel
        geometry = vk_conv_geometry(
            input: input, input_height: inputShape.height, input_width: inputShape.width, channels: inputShape.channels,
            output_height: outputShape.height, output_width: outputShape.width,
            kernel_height: rows.filter, kernel_width: columns.filter, stride_h: rows.stride, stride_w: columns.stride,
            dilation_h: rows.dilation, dilation_w: columns.dilation, pad_top: rows.padBefore,
            pad_left: columns.padBefore)
        tiling = GemmTiling(rowCount: part.count, weights: weights, tuning: tuning)
        zeros = AlignedBuffer(byteCount: columns.filter * inputShape.channels * MemoryLayout<Float>.stride)
    }

    var scratchBytesPerThread: Int {
        isDirect || isIndirect ? 0 : weights.tileRows * weights.k * MemoryLayout<Float>.stride
    }

    /// Whether the window taps are read in place (`vk_gemm_conv`) rather than gathered (im2col).
    private var isIndirect: Bool { !isDirect && rows.filter * columns.filter <= vk_gemm_conv_max_taps() }
    /// Zeros read for window taps (or whole window rows) outside the input.
    private let zeros: AlignedBuffer

    var constantByteCount: Int { weights.byteCount + zeros.byteCount + epilogue.byteCount }

    private let geometry: vk_conv_geometry
    private let tiling: GemmTiling
    /// The task order of the current job (see ``GemmTiling``).
    private var rowMajor = false
    private var context: ExecutionContext?
    /// A fused residual ADD and PRELU, applied to each finished tile.
    private let epilogue: ConvEpilogue

    func execute(_ context: ExecutionContext) {
        self.context = context
        rowMajor = tiling.rowMajor(threads: context.pool.threadCount)
        context.pool.run(self, taskCount: tiling.taskCount, work: tiling.rowCount * weights.k * weights.n)
        self.context = nil
    }

    func run(tasks range: Range<Int>, thread: Int) {
        guard let context else { return }
        let n = outputShape.channels
        let k = weights.k
        let tileRows = weights.tileRows
        for task in range {
            let (rows, panels) = tiling.task(task, rowMajor: rowMajor)
            if isDirect {
                let rows = (firstPixel + rows.lowerBound)..<(firstPixel + rows.upperBound)
                weights.run(
                    a: input, aStride: k, c: output + firstChannel, cStride: n, rows: rows, panels: panels, clamp: clamp
                )
                applyEpilogue(rows: rows, panels: panels)
                continue
            }
            if isIndirect {
                withUnsafePointer(to: geometry) {
                    vk_gemm_conv(
                        weights.shape, weights.data.floats, $0, zeros.floats, output, n, rows.lowerBound,
                        rows.upperBound, panels.lowerBound, panels.upperBound, clamp.lower, clamp.upper)
                }
                weights.applyFunction(of: clamp, to: output, cStride: n, rows: rows, panels: panels)
                applyEpilogue(rows: rows, panels: panels)
                continue
            }
            let scratch = context.scratchFloats(thread: thread)
            var first = rows.lowerBound
            while first < rows.upperBound {
                let count = Swift.min(tileRows, rows.upperBound - first)
                withUnsafePointer(to: geometry) { vk_im2col($0, first, count, scratch) }
                weights.run(
                    a: scratch, aStride: k, c: output + first * n, cStride: n, rows: 0..<count, panels: panels,
                    clamp: clamp)
                applyEpilogue(rows: first..<(first + count), panels: panels)
                first += count
            }
        }
    }

    /// The fused epilogue on output rows `rows`, columns of `panels` (still in cache).
    @inline(__always)
    private func applyEpilogue(rows: Range<Int>, panels: Range<Int>) {
        if epilogue.isEmpty { return }
        epilogue.apply(
            InstructionSet(isa: weights.shape.isa), output: output, channels: outputShape.channels, rows: rows,
            columns: weights.columns(of: panels))
    }
}

/// CONV_2D with at most ``maximumOutputChannels`` output channels (e.g. a segmentation head's
/// single logit), instead of a matrix product whose column panels would be mostly padding.
/// With stride 1 and no dilation, pixels run in vector lanes over input rows transposed into
/// channel planes (`vk_conv_planar`, work split over bands of rows); otherwise each output is a
/// dot product of the input window, read in place, with the filter (`vk_conv_dot`, work split
/// over blocks of pixels).
final class ConvDotKernel: Kernel, ParallelJob {
    static let maximumOutputChannels = 4
    /// Output pixels per task.
    static let pixelsPerTask = 256

    let output: UnsafeMutablePointer<Float>
    let outputChannels: Int
    let pixelCount: Int
    let clamp: ActivationClamp
    let instructionSet: InstructionSet
    /// The filter as in the model (OHWI), then the bias.
    let weights: AlignedBuffer
    private let hasBias: Bool
    private let geometry: vk_conv_geometry
    /// A row of zeros read for window rows outside the input.
    private let zeros: AlignedBuffer

    var constantByteCount: Int { weights.byteCount + zeros.byteCount + epilogue.byteCount }
    /// A fused residual ADD and PRELU.
    private let epilogue: ConvEpilogue

    init(
        input: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>, inputShape: NHWC, outputShape: NHWC,
        rows: WindowAxis, columns: WindowAxis, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        clamp: ActivationClamp, instructionSet: InstructionSet, epilogue: ConvEpilogue = ConvEpilogue()
    ) {
        self.output = output
        self.epilogue = epilogue
        outputChannels = outputShape.channels
        pixelCount = outputShape.batch * outputShape.height * outputShape.width
        self.clamp = clamp
        self.instructionSet = instructionSet
        let k = rows.filter * columns.filter * inputShape.channels
        weights = AlignedBuffer(byteCount: (k + 1) * outputChannels * MemoryLayout<Float>.stride)
        weights.floats.update(from: filter, count: k * outputChannels)
        if let bias { (weights.floats + k * outputChannels).update(from: bias, count: outputChannels) }
        hasBias = bias != nil
        zeros = AlignedBuffer(byteCount: inputShape.width * inputShape.channels * MemoryLayout<Float>.stride)
        geometry = vk_conv_geometry(
            input: input, input_height: inputShape.height, input_width: inputShape.width, channels: inputShape.channels,
            output_height: outputShape.height, output_width: outputShape.width,
            kernel_height: rows.filter, kernel_width: columns.filter, stride_h: rows.stride, stride_w: columns.stride,
            dilation_h: rows.dilation, dilation_w: columns.dilation, pad_top: rows.padBefore,
            pad_left: columns.padBefore)
    }

    /// Stride 1 without dilation: pixels in vector lanes over transposed rows (`vk_conv_planar`).
    private var isPlanar: Bool {
        geometry.stride_h == 1 && geometry.stride_w == 1 && geometry.dilation_h == 1 && geometry.dilation_w == 1
            && geometry.kernel_height <= 32
    }

    /// Output rows per task of the planar path (each task transposes its window rows once).
    static let rowsPerTask = 8

    var scratchBytesPerThread: Int {
        isPlanar
            ? withUnsafePointer(to: geometry) { vk_conv_planar_scratch_floats($0) } * MemoryLayout<Float>.stride : 0
    }

    private var context: ExecutionContext?

    func execute(_ context: ExecutionContext) {
        if isPlanar {
            self.context = context
            let rows = pixelCount / Swift.max(1, geometry.output_width)
            context.pool.run(
                self, taskCount: (rows + ConvDotKernel.rowsPerTask - 1) / ConvDotKernel.rowsPerTask,
                work: pixelCount * outputChannels * geometry.kernel_height * geometry.kernel_width * geometry.channels)
            self.context = nil
            return
        }
        context.pool.run(
            self, taskCount: (pixelCount + ConvDotKernel.pixelsPerTask - 1) / ConvDotKernel.pixelsPerTask,
            work: pixelCount * outputChannels * geometry.kernel_height * geometry.kernel_width * geometry.channels)
    }

    func run(tasks range: Range<Int>, thread: Int) {
        let k = geometry.kernel_height * geometry.kernel_width * geometry.channels
        let (lower, upper) = (clamp.lower, clamp.upper)
        if isPlanar, let context {
            let rows = pixelCount / Swift.max(1, geometry.output_width)
            let first = range.lowerBound * ConvDotKernel.rowsPerTask
            let end = Swift.min(rows, range.upperBound * ConvDotKernel.rowsPerTask)
            withUnsafePointer(to: geometry) {
                vk_conv_planar(
                    instructionSet.isa, $0, weights.floats, hasBias ? weights.floats + k * outputChannels : nil,
                    outputChannels, output, first, end, lower, upper, context.scratchFloats(thread: thread))
            }
            let pixels = (first * geometry.output_width)..<(end * geometry.output_width)
            if clamp.hasFunction {
                clamp.apply(
                    to: output + pixels.lowerBound * outputChannels, count: pixels.count * outputChannels,
                    instructionSet: instructionSet)
            }
            epilogue.apply(
                instructionSet, output: output, channels: outputChannels, rows: pixels, columns: 0..<outputChannels)
            return
        }
        let first = range.lowerBound * ConvDotKernel.pixelsPerTask
        let count = Swift.min(pixelCount, range.upperBound * ConvDotKernel.pixelsPerTask) - first
        withUnsafePointer(to: geometry) {
            vk_conv_dot(
                instructionSet.isa, $0, weights.floats, hasBias ? weights.floats + k * outputChannels : nil,
                outputChannels, output + first * outputChannels, first, count, lower, upper, zeros.floats)
        }
        if clamp.hasFunction {
            clamp.apply(
                to: output + first * outputChannels, count: count * outputChannels, instructionSet: instructionSet)
        }
        epilogue.apply(
            instructionSet, output: output, channels: outputChannels, rows: first..<(first + count),
            columns: 0..<outputChannels)
    }
}
