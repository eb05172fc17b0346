import CVisionKernels
import ModelFile

/// MediaPipe's custom operator `Convolution2DTransposeBias` (a transposed convolution with a
/// bias; mediapipe/util/tflite/operations/transpose_conv_bias.cc) on float32 NHWC tensors:
/// inputs the data `[n, h, w, cin]`, the filter `[cout, kh, kw, cin]` and the bias `[cout]`;
/// options the raw ``TransposeConvolutionParameters``.
///
/// Implemented for windows that do not overlap — strides equal to the kernel size, the
/// up-sampling layers of MediaPipe's segmenters — where no padding applies (SAME and VALID both
/// give `in · stride` outputs) and every output is `bias + Σ_c in[c] · w[c]` over one input
/// pixel: a matrix product whose `kw · cout` columns for one kernel row are the consecutive
/// outputs of that input pixel's block in one output row. So the product writes straight into
/// the output, one pass per kernel row, each output accumulated from the bias in channel order
/// as XNNPACK's deconvolution does (its GEMM path for stride = kernel). With few outputs per input
/// pixel (`kh · kw · cout` ≤ `VK_DECONV_MAX_OUTPUTS`: the segmenters' last layer, 2 × 2 × 1) the
/// columns would fill a quarter of a vector, so pixels go in the vector lanes instead
/// (`vk_deconv_row`, the same sums in the same order). Overlapping windows are rejected as
/// unsupported.
final class TransposeConvolutionBiasKernel: Kernel, ParallelJob {
    static let customCode = TransposeConvolutionParameters.operatorName

    let input: UnsafeMutablePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let inputShape: NHWC
    let outputShape: NHWC
    let kernelHeight: Int
    /// The weights as the chosen path takes them.
    private let weights: Weights
    let instructionSet: InstructionSet

    /// The two ways of computing the layer.
    private enum Weights {
        /// One matrix product per kernel row `dy`: `kw · cout` columns, `cin` deep.
        case rows([PackedWeights])
        /// Few outputs per input pixel: `kh · kw · cout` rows of `cin` weights, output `(dy, dx,
        /// o)` at row `(dy · kw + dx) · cout + o`, then as many biases (`vk_deconv_row`).
        case pixels(AlignedBuffer)
    }

    /// Whether pixels go in the vector lanes (`vk_deconv_row`) rather than through matrix products.
    var putsPixelsInLanes: Bool {
        if case .pixels = weights { return true }
        return false
    }

    /// Output columns per input column.
    private var kernelWidth: Int { outputShape.width / Swift.max(1, inputShape.width) }

    static func make(_ ctx: OperatorContext) throws -> Kernel {
        try ctx.expect(inputs: 3...3, outputs: 1)
        try ctx.requireFloat(inputs: [0])
        guard let bytes = ctx.customOptions else { throw ctx.invalid("missing TfLiteTransposeConvParams options") }
        let parameters: TransposeConvolutionParameters
        do {
            parameters = try TransposeConvolutionParameters(options: bytes)
        } catch {
            throw ctx.invalid("\(error)")
        }
        let x = try ctx.input(0)
        guard let inputShape = NHWC(x.shape) else {
            throw ctx.unsupported("input must have rank 4, has \(x.shapeText)")
        }
        let filter = try ctx.requireConstant(1, "the filter")
        guard filter.descriptor.type == .float32, let filterShape = NHWC(filter.descriptor.shape) else {
            throw ctx.invalid("filter must be a rank-4 float32 constant, has \(filter.descriptor.shapeText)")
        }
        guard filterShape.channels == inputShape.channels else {
            throw ctx.invalid("filter depth \(filterShape.channels) differs from input depth \(inputShape.channels)")
        }
        guard filterShape.height == parameters.strideHeight, filterShape.width == parameters.strideWidth else {
            throw ctx.unsupported(
                "kernel \(filterShape.height)x\(filterShape.width) with strides "
                    + "\(parameters.strideHeight)x\(parameters.strideWidth) (only non-overlapping windows, "
                    + "strides equal to the kernel size, are implemented)")
        }
        let outputs = filterShape.batch
        let bias = try ctx.floatBias(2, count: outputs)
        let outputShape = NHWC(
            batch: inputShape.batch, height: inputShape.height * filterShape.height,
            width: inputShape.width * filterShape.width, channels: outputs)
        try ctx.requireOutputShape(outputShape.shape)
        return TransposeConvolutionBiasKernel(
            input: ctx.inputFloats(0), output: ctx.outputFloats(0), inputShape: inputShape, outputShape: outputShape,
            filter: filter.floats, filterShape: filterShape, bias: bias?.floats, instructionSet: ctx.instructionSet)
    }

    init(
        input: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>, inputShape: NHWC, outputShape: NHWC,
        filter: UnsafePointer<Float>, filterShape: NHWC, bias: UnsafePointer<Float>?,
        instructionSet: InstructionSet = .best
    ) {
        self.input = input
        self.output = output
        self.inputShape = inputShape
        self.outputShape = outputShape
        self.instructionSet = instructionSet
        kernelHeight = filterShape.height
        let (kh, kw, cin, cout) = (filterShape.height, filterShape.width, filterShape.channels, filterShape.batch)
        // Row j = (dy · kw + dx) · cout + o holds filter[o][dy][dx][·] (OHWI), then the biases: the
        // rows of kernel row dy are the `kw · cout` consecutive ones from dy · kw · cout.
        let outputsPerPixel = kh * kw * cout
        let gathered = AlignedBuffer(byteCount: outputsPerPixel * (cin + 1) * MemoryLayout<Float>.stride)
        let w = gathered.floats
        let biases = w + outputsPerPixel * cin
        for dy in 0..<kh {
            for dx in 0..<kw {
                for o in 0..<cout {
                    let j = (dy * kw + dx) * cout + o
                    (w + j * cin).update(from: filter + ((o * kh + dy) * kw + dx) * cin, count: cin)
                    biases[j] = bias?[o] ?? 0
                }
            }
        }
        if outputsPerPixel <= Int(VK_DECONV_MAX_OUTPUTS), cin <= Int(VK_DECONV_MAX_CHANNELS) {
            weights = .pixels(gathered)
        } else {
            weights = .rows(
                (0..<kh).map { dy in
                    PackedWeights(
                        weights: w + dy * kw * cout * cin, bias: biases + dy * kw * cout, n: kw * cout, k: cin,
                        instructionSet: instructionSet)
                })
        }
    }

    var constantByteCount: Int {
        switch weights {
        case .rows(let rows): return rows.reduce(0) { $0 + $1.byteCount }
        case .pixels(let buffer): return buffer.byteCount
        }
    }

    func execute(_ context: ExecutionContext) {
        // Tasks: input rows through one kernel row each, or through all of them.
        let rows = inputShape.batch * inputShape.height
        context.pool.run(
            self, taskCount: putsPixelsInLanes ? rows : rows * kernelHeight,
            work: rows * inputShape.width * inputShape.channels * kernelHeight * kernelWidth * outputShape.channels)
    }

    /// Task `t`: input row `t / kh` (over the batch) through kernel row `t % kh`; with pixels in
    /// the lanes, input row `t` through every kernel row.
    func run(tasks range: Range<Int>, thread: Int) {
        let (w, cin, cout) = (inputShape.width, inputShape.channels, outputShape.channels)
        let kw = kernelWidth
        let rowWeights: [PackedWeights]
        switch weights {
        case .pixels(let buffer):
            let outputsPerPixel = kernelHeight * kw * cout
            let rowStride = outputShape.width * cout
            for row in range {
                // Input row `row` of the batch fills output rows `row · kh ..< (row + 1) · kh`.
                vk_deconv_row(
                    instructionSet.isa, input + row * w * cin, w, cin, buffer.floats,
                    buffer.floats + outputsPerPixel * cin, kernelHeight, kw, cout,
                    output + row * kernelHeight * rowStride, rowStride)
            }
            return
        case .rows(let rows): rowWeights = rows
        }
        for task in range {
            let dy = task % kernelHeight
            let row = task / kernelHeight
            let b = row / inputShape.height
            let y = row % inputShape.height
            let outputRow = (b * outputShape.height + y * kernelHeight + dy) * outputShape.width * cout
            let weights = rowWeights[dy]
            weights.run(
                a: input + row * w * cin, aStride: cin, c: output + outputRow, cStride: kw * cout, rows: 0..<w,
                panels: 0..<weights.panelCount, clamp: .identity)
        }
    }
}
