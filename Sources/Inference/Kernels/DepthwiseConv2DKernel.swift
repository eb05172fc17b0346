import CVisionKernels
import ModelFile

/// DEPTHWISE_CONV_2D on float32 NHWC tensors, any depth multiplier.
///
/// Output channel `oc` reads input channel `oc / multiplier` (TFLite's layout, filter
/// `[1, kh, kw, cin · multiplier]`). Weights are kept as `[tap][channel]` followed by the bias.
/// Multiplier 1 (every depthwise layer of the project's models) runs CVisionKernels'
/// `vk_dwconv_run`: vectors of channels, the bias, activation and padding fused, 3×3 and 5×5
/// windows with their weights in registers. Other multipliers take a scalar path. Work is
/// split over output rows. A residual ADD fused in by ``GraphFusion`` (multiplier 1) is added
/// band by band, to rows still in cache.
final class DepthwiseConv2DKernel: Kernel, ParallelJob {
    let input: UnsafeMutablePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let inputShape: NHWC
    let outputShape: NHWC
    let rows: WindowAxis
    let columns: WindowAxis
    let multiplier: Int
    let clamp: ActivationClamp
    /// `taps × channels` weights, then `channels` biases.
    let weights: AlignedBuffer
    /// A row of zeros that the C kernel reads for window rows above or below the input.
    private let zeros: AlignedBuffer
    let convolution: vk_dwconv
    /// A fused residual ADD (empty without one).
    let epilogue: ConvEpilogue
    let instructionSet: InstructionSet

    static func make(_ ctx: OperatorContext) throws -> Kernel {
        guard case .depthwiseConv2D(let options) = ctx.options else {
            throw ctx.invalid("missing DepthwiseConv2DOptions")
        }
        try ctx.expect(inputs: 2...(ctx.residualOptions == nil ? 3 : 4), outputs: 1)
        try ctx.requireFloat(inputs: [0])
        let inputDescriptor = try ctx.input(0)
        // With a fused 1×1 stage, the depthwise input is that stage's output.
        guard let inputShape = ctx.fusedPointwise?.outputShape ?? NHWC(inputDescriptor.shape) else {
            throw ctx.unsupported("input must have rank 4, has shape \(inputDescriptor.shapeText)")
        }
        let filter = try ctx.requireConstant(1, "the filter")
        guard filter.descriptor.type == .float32 else {
            throw ctx.unsupported("filter type \(filter.descriptor.type) is not supported")
        }
        guard let filterShape = NHWC(filter.descriptor.shape), filterShape.batch == 1 else {
            throw ctx.invalid("filter must have shape [1, kh, kw, channels], has \(filter.descriptor.shapeText)")
        }
        let outputChannels = filterShape.channels
        guard inputShape.channels > 0, outputChannels % inputShape.channels == 0 else {
            throw ctx.invalid("filter depth \(outputChannels) is not a multiple of input depth \(inputShape.channels)")
        }
        // The stored depth_multiplier is informational: TFLite derives it from the shapes
        // (tensorflow/lite/kernels/depthwise_conv.cc, `Prepare`), and so does this kernel
        // (output channels / input channels, in `init`).
        let bias = try ctx.floatBias(2, count: outputChannels)
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
                    + "\(options.strideHeight)x\(options.strideWidth) on input \(inputDescriptor.shapeText)"
            )
        }
        let outputShape = NHWC(
            batch: inputShape.batch, height: rows.output, width: columns.output, channels: outputChannels)
        try ctx.requireOutputShape(outputShape.shape)

        let kernel = DepthwiseConv2DKernel(
            input: ctx.inputFloats(0), output: ctx.outputFloats(0), inputShape: inputShape, outputShape: outputShape,
            rows: rows, columns: columns, filter: filter.floats, bias: bias?.floats,
            clamp: try ctx.outputActivation(options.activation),
            instructionSet: ctx.instructionSet, epilogue: try ConvEpilogue(ctx, channels: outputChannels))
        // With a 1×1 stage, only the residual that is the stage's own output (taken from the band).
        guard
            kernel.epilogue.isEmpty
                || (kernel.multiplier == 1 && rows.filter <= 32
                    && (ctx.fusedPointwise == nil || kernel.epilogue.residualFromStage))
        else {
            throw ctx.invalid("only a depthwise convolution of multiplier 1 takes a residual ADD")
        }
        if let stage = ctx.fusedPointwise {
            guard kernel.multiplier == 1, rows.filter <= 32 else {
                throw ctx.invalid("only a depthwise convolution of multiplier 1 takes a 1×1 stage")
            }
            // A residual taken from the band: the band's 1×1 rows are the output rows' own.
            guard
                !kernel.epilogue.residualFromStage
                    || (stage.outputShape == outputShape && rows.stride == 1 && columns.stride == 1)
            else {
                throw ctx.invalid("a residual from the 1×1 stage needs an output of the 1×1 output's shape")
            }
            return PointwiseDepthwiseKernel(stage: stage, depthwise: kernel, tuning: ctx.tuning)
        }
        return kernel
    }

    /// `filter` is `[kh · kw][outputChannels]` (TFLite's `[1, kh, kw, channels]`).
    init(
        input: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>, inputShape: NHWC, outputShape: NHWC,
        rows: WindowAxis, columns: WindowAxis, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        clamp: ActivationClamp, instructionSet: InstructionSet = .best, epilogue: ConvEpilogue = ConvEpilogue()
    ) {
        self.input = input
        self.epilogue = epilogue
        self.instructionSet = instructionSet
        self.output = output
        self.inputShape = inputShape
        self.outputShape = outputShape
        self.rows = rows
        self.columns = columns
        multiplier = Swift.max(1, outputShape.channels / Swift.max(1, inputShape.channels))
        self.clamp = clamp
        let channels = outputShape.channels
        let taps = rows.filter * columns.filter
        weights = AlignedBuffer(byteCount: (taps + 1) * channels * MemoryLayout<Float>.stride)
        weights.floats.update(from: filter, count: taps * channels)
        if let bias { (weights.floats + taps * channels).update(from: bias, count: channels) }
        zeros = AlignedBuffer(byteCount: multiplier == 1 ? inputShape.width * channels * MemoryLayout<Float>.stride : 0)
        convolution = vk_dwconv(
            isa: instructionSet.isa, input: input, input_height: inputShape.height, input_width: inputShape.width,
            channels: channels, output: output, output_height: outputShape.height, output_width: outputShape.width,
            output_row_offset: 0, input_row_offset: 0, kernel_height: rows.filter, kernel_width: columns.filter,
            stride_h: rows.stride, stride_w: columns.stride,
            dilation_h: rows.dilation, dilation_w: columns.dilation, pad_top: rows.padBefore,
            pad_left: columns.padBefore,
            weights: weights.floats, zeros: zeros.floats,
            lo: clamp.lower, hi: clamp.upper)
    }

    var constantByteCount: Int { weights.byteCount + zeros.byteCount + epilogue.byteCount }

    /// Output rows per call when a residual ADD is fused: about 64 KB of output, so that the
    /// rows are still in cache when the residual is added to them; even, so that the kernels'
    /// row pairs stay together.
    private var epilogueRows: Int {
        let rows = Swift.max(1, 16 * 1024 / Swift.max(1, outputShape.width * outputShape.channels))
        return rows + rows % 2
    }

    /// Whether tasks are groups of output rows run by `vk_dwconv_run` (channel multiplier 1).
    private var runsRowGroups: Bool { multiplier == 1 && rows.filter <= 32 }

    /// Output rows per task of the row-group path: the C kernels compute rows two at a time
    /// (`VK_DW_GROUP2`), sharing the input rows of both windows, and a task of one row (the
    /// pool hands out single tasks when there are few) would compute alone (a 14 × 14 layer
    /// at two threads scaled 1.45× for it).
    static let rowsPerTask = 2

    /// Tasks per image of the row-group path, before channel splits.
    private var groupsPerImage: Int { (outputShape.height + Self.rowsPerTask - 1) / Self.rowsPerTask }

    /// Channel slices per row group in the current job: with several threads, small layers (few
    /// rows, many channels) split their channels too, in multiples of 16, so that every thread
    /// gets work.
    private var channelSplits = 1

    func execute(_ context: ExecutionContext) {
        let threads = context.pool.threadCount
        let groups = outputShape.batch * (runsRowGroups ? groupsPerImage : outputShape.height)
        channelSplits =
            runsRowGroups && threads > 1 && groups % threads != 0 && groups < 4 * threads
            ? Swift.max(1, Swift.min(outputShape.channels / 16, (4 * threads + groups - 1) / groups)) : 1
        context.pool.run(
            self, taskCount: groups * channelSplits,
            work: outputShape.batch * outputShape.height * outputShape.width * outputShape.channels * rows.filter
                * columns.filter)
    }

    func run(tasks range: Range<Int>, thread: Int) {
        if runsRowGroups {
            let imageInput = inputShape.height * inputShape.width * inputShape.channels
            let imageOutput = outputShape.height * outputShape.width * outputShape.channels
            let splits = channelSplits
            let blocks = (outputShape.channels + 15) / 16
            let perImage = groupsPerImage
            let height = outputShape.height
            if splits > 1 {
                for task in range {
                    let group = task / splits
                    let split = task % splits
                    let b = group / perImage
                    let oy = group % perImage * Self.rowsPerTask
                    let oyEnd = Swift.min(height, oy + Self.rowsPerTask)
                    let first = Swift.min(outputShape.channels, blocks * split / splits * 16)
                    let end = Swift.min(outputShape.channels, blocks * (split + 1) / splits * 16)
                    var conv = convolution
                    conv.input = UnsafePointer(input + b * imageInput)
                    conv.output = output + b * imageOutput
                    withUnsafePointer(to: conv) { vk_dwconv_run_channels($0, oy, oyEnd, first, end) }
                    let start = (b * height + oy) * outputShape.width
                    let pixels = start..<(start + (oyEnd - oy) * outputShape.width)
                    if clamp.hasFunction {
                        clamp.apply(
                            to: output, rows: pixels, stride: outputShape.channels, columns: first..<end,
                            instructionSet: instructionSet)
                    }
                    epilogue.apply(
                        instructionSet, output: output, channels: outputShape.channels, rows: pixels,
                        columns: first..<end)
                }
                return
            }
            var task = range.lowerBound
            while task < range.upperBound {
                // One call per image: the rows of groups [task, task + groups) of image b.
                let b = task / perImage
                let group = task % perImage
                let groups = Swift.min(range.upperBound - task, perImage - group)
                let oy = group * Self.rowsPerTask
                let oyEnd = Swift.min(height, (group + groups) * Self.rowsPerTask)
                var conv = convolution
                conv.input = UnsafePointer(input + b * imageInput)
                conv.output = output + b * imageOutput
                let step = epilogue.isEmpty ? oyEnd - oy : epilogueRows
                var first = oy
                while first < oyEnd {
                    let last = Swift.min(oyEnd, first + step)
                    withUnsafePointer(to: conv) { vk_dwconv_run($0, first, last) }
                    let start = (b * height + first) * outputShape.width
                    let pixels = start..<(start + (last - first) * outputShape.width)
                    if clamp.hasFunction {
                        clamp.apply(
                            to: output + pixels.lowerBound * outputShape.channels,
                            count: pixels.count * outputShape.channels, instructionSet: instructionSet)
                    }
                    epilogue.apply(
                        instructionSet, output: output, channels: outputShape.channels, rows: pixels,
                        columns: 0..<outputShape.channels)
                    first = last
                }
                task += groups
            }
        } else {
            for task in range {
                rowWithMultiplier(b: task / outputShape.height, oy: task % outputShape.height)
            }
        }
    }

    private func rowWithMultiplier(b: Int, oy: Int) {
        let channels = outputShape.channels
        let inputChannels = inputShape.channels
        let w = weights.floats
        let biasRow = rows.filter * columns.filter * channels
        let ys = rows.validTaps(oy)
        let imageBase = input + b * inputShape.height * inputShape.width * inputChannels
        var out = output + ((b * outputShape.height + oy) * outputShape.width) * channels
        for ox in 0..<outputShape.width {
            let xs = columns.validTaps(ox)
            let iy0 = rows.origin(oy)
            let ix0 = columns.origin(ox)
            for c in 0..<channels {
                let ic = c / multiplier
                var acc = w[biasRow + c]
                for ky in ys {
                    let rowBase = imageBase + (iy0 + ky * rows.dilation) * inputShape.width * inputChannels + ic
                    let tapBase = ky * columns.filter
                    for kx in xs {
                        acc += rowBase[(ix0 + kx * columns.dilation) * inputChannels] * w[(tapBase + kx) * channels + c]
                    }
                }
                out[c] = clamp.apply(acc)
            }
            out += channels
        }
    }
}
