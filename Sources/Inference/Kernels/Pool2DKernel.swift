import CVisionKernels
import ModelFile

/// MAX_POOL_2D and AVERAGE_POOL_2D on float32 NHWC tensors.
///
/// Semantics of TFLite's reference kernels (tensorflow/lite/kernels/internal/reference/pooling.h):
/// the window is clipped to the input; the maximum starts from the lowest finite float; the
/// average is the sum times one over the number of taps inside the input, summed in XNNPACK's
/// order (`vk_avg_pool`) so that the bits are LiteRT's. Work is split over output rows.
///
/// A large whole-image average (one output pixel whose window is the unpadded input: the
/// squeeze of a squeeze-and-excitation block) is one output row, so one task; its passes of
/// nine taps, which are independent, are summed by bands of the rows they start in
/// (`vk_avg_pool_pass_rows`), in parallel with several threads, then added in order on the
/// calling thread (`vk_avg_pool_chain`): the same additions in the same order, so the same bits.
/// Bands of rows follow the split of the kernels that wrote the input, so each thread reads
/// mostly what its own core wrote. One thread takes the same way for the largest
/// (``minimumSweepFloats``): the passes go row by row through the image, where the single-pixel
/// average walks its window column by column, a whole image row between taps (the selfie
/// segmenter's 128 × 128 × 16 in 0.021 ms instead of 0.045 ms timed alone, AVX-512 on Zen 4).
final class Pool2DKernel: Kernel, ParallelJob {
    /// Whole-image averages over fewer floats than this go window by window (`vk_avg_pool`) on
    /// one thread, even in a pool of several: the pass sums' buffer and second sweep cost more
    /// than they save there (32 × 32 × 24: 0.0022 ms against 0.0015).
    static let minimumSplitFloats = 64 * 1024
    /// With one thread, whole-image averages over fewer floats than this go window by window too:
    /// the image is still in the cache from the kernel that wrote it, so the column walk costs
    /// little (in the selfie segmenter at one thread, AVX2 on Zen 4: 64 × 64 × 16 0.005 ms window
    /// by window, 0.006–0.007 ms by passes; 128 × 128 × 16 0.038 ms, 0.028–0.032 ms by passes).
    static let minimumSweepFloats = 256 * 1024
    /// Bands of rows a split whole-image average is cut into.
    static let passBands = 16

    enum Kind { case max, average }

    let kind: Kind
    let input: UnsafeMutablePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let inputShape: NHWC
    let outputShape: NHWC
    let rows: WindowAxis
    let columns: WindowAxis
    let clamp: ActivationClamp
    let instructionSet: InstructionSet
    private let geometry: vk_conv_geometry
    /// One pass sum per nine taps of a large whole-image average (`nil` for other pools).
    private let passSums: AlignedBuffer?
    /// Whether one thread also sums the passes (``minimumSweepFloats``).
    private let sweepsOnOneThread: Bool
    /// Passes of nine taps over the whole image.
    private let passCount: Int
    /// The image whose passes the current job sums; `nil` outside such a job.
    private var summedImage: Int?

    static func make(_ ctx: OperatorContext, kind: Kind) throws -> Kernel {
        guard case .pool2D(let options) = ctx.options else { throw ctx.invalid("missing Pool2DOptions") }
        try ctx.expect(inputs: 1...1, outputs: 1)
        try ctx.requireFloat(inputs: [0])
        let x = try ctx.input(0)
        guard let shape = NHWC(x.shape) else { throw ctx.unsupported("input must have rank 4, has \(x.shapeText)") }
        guard
            let rows = WindowAxis(
                input: shape.height, filter: options.filterHeight, stride: options.strideHeight,
                dilation: 1, padding: options.padding),
            let columns = WindowAxis(
                input: shape.width, filter: options.filterWidth, stride: options.strideWidth,
                dilation: 1, padding: options.padding)
        else {
            throw ctx.invalid(
                "invalid window \(options.filterHeight)x\(options.filterWidth) stride "
                    + "\(options.strideHeight)x\(options.strideWidth) on \(x.shapeText)"
            )
        }
        let outputShape = NHWC(batch: shape.batch, height: rows.output, width: columns.output, channels: shape.channels)
        try ctx.requireOutputShape(outputShape.shape)
        return Pool2DKernel(
            kind: kind, input: ctx.inputFloats(0), output: ctx.outputFloats(0), inputShape: shape,
            outputShape: outputShape, rows: rows, columns: columns, clamp: try ctx.clamp(options.activation),
            instructionSet: ctx.instructionSet)
    }

    init(
        kind: Kind, input: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>, inputShape: NHWC,
        outputShape: NHWC, rows: WindowAxis, columns: WindowAxis, clamp: ActivationClamp,
        instructionSet: InstructionSet = .best
    ) {
        self.kind = kind
        self.instructionSet = instructionSet
        geometry = vk_conv_geometry(
            input: input, input_height: inputShape.height, input_width: inputShape.width, channels: inputShape.channels,
            output_height: outputShape.height, output_width: outputShape.width,
            kernel_height: rows.filter, kernel_width: columns.filter, stride_h: rows.stride, stride_w: columns.stride,
            dilation_h: 1, dilation_w: 1, pad_top: rows.padBefore, pad_left: columns.padBefore)
        let wholeImage =
            kind == .average && !clamp.hasFunction && outputShape.height == 1 && outputShape.width == 1
            && rows.filter == inputShape.height && columns.filter == inputShape.width && rows.padBefore == 0
            && columns.padBefore == 0
        let taps = inputShape.height * inputShape.width
        passCount = (taps + 8) / 9
        passSums =
            wholeImage && taps * inputShape.channels >= Pool2DKernel.minimumSplitFloats
            ? AlignedBuffer(byteCount: passCount * inputShape.channels * MemoryLayout<Float>.stride) : nil
        sweepsOnOneThread = taps * inputShape.channels >= Pool2DKernel.minimumSweepFloats
        self.input = input
        self.output = output
        self.inputShape = inputShape
        self.outputShape = outputShape
        self.rows = rows
        self.columns = columns
        self.clamp = clamp
    }

    var constantByteCount: Int { passSums?.byteCount ?? 0 }

    func execute(_ context: ExecutionContext) {
        if let passSums, context.pool.threadCount > 1 || sweepsOnOneThread {
            for b in 0..<inputShape.batch {
                summedImage = b
                context.pool.run(self, taskCount: Pool2DKernel.passBands)
                vk_avg_pool_chain(
                    instructionSet.isa, passSums.floats, passCount, inputShape.channels,
                    inputShape.height * inputShape.width, clamp.lower, clamp.upper, output + b * inputShape.channels)
            }
            summedImage = nil
            return
        }
        context.pool.run(
            self, taskCount: outputShape.batch * outputShape.height,
            work: outputShape.batch * outputShape.height * outputShape.width * outputShape.channels * rows.filter
                * columns.filter)
    }

    func run(tasks range: Range<Int>, thread: Int) {
        if let b = summedImage, let passSums {
            var image = geometry
            image.input = UnsafePointer(input + b * inputShape.height * inputShape.width * inputShape.channels)
            let first = inputShape.height * range.lowerBound / Pool2DKernel.passBands
            let end = inputShape.height * range.upperBound / Pool2DKernel.passBands
            withUnsafePointer(to: image) { vk_avg_pool_pass_rows(instructionSet.isa, $0, first, end, passSums.floats) }
            return
        }
        if !clamp.hasFunction {
            withUnsafePointer(to: geometry) {
                if kind == .max {
                    vk_max_pool(
                        instructionSet.isa, $0, output, range.lowerBound, range.upperBound, clamp.lower, clamp.upper)
                } else {
                    // Averages over the taps inside the input (TFLite's and XNNPACK's rule).
                    vk_avg_pool(
                        instructionSet.isa, $0, output, range.lowerBound, range.upperBound, 1, clamp.lower,
                        clamp.upper)
                }
            }
            return
        }
        let channels = inputShape.channels
        for task in range {
            let b = task / outputShape.height
            let oy = task % outputShape.height
            let ys = rows.validTaps(oy)
            var out = output + task * outputShape.width * channels
            for ox in 0..<outputShape.width {
                let xs = columns.validTaps(ox)
                let taps = Float(ys.count * xs.count)
                var c = 0
                while c < channels {
                    let lanes = Swift.min(8, channels - c)
                    var acc = SIMD8<Float>(repeating: kind == .max ? -Float.greatestFiniteMagnitude : 0)
                    for ky in ys {
                        let iy = rows.origin(oy) + ky
                        for kx in xs {
                            let ix = columns.origin(ox) + kx
                            let p = input + ((b * inputShape.height + iy) * inputShape.width + ix) * channels + c
                            var v = SIMD8<Float>(repeating: 0)
                            if lanes == 8 {
                                v = UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
                            } else {
                                for l in 0..<lanes { v[l] = p[l] }
                            }
                            if kind == .max { acc = acc.replacing(with: v, where: v .> acc) } else { acc += v }
                        }
                    }
                    if kind == .average { acc /= SIMD8(repeating: taps) }
                    for l in 0..<lanes { out[c + l] = clamp.apply(acc[l]) }
                    c += 8
                }
                out += channels
            }
        }
    }
}
