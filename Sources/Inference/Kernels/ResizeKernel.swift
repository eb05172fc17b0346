import CVisionKernels
import ModelFile

/// RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR on float32 NHWC tensors, with
/// `align_corners` and `half_pixel_centers`.
///
/// `scale = (in - 1) / (out - 1)` with aligned corners (and more than one output), else
/// `in / out`. Bilinear follows XNNPACK bit for bit (LiteRT's default path; see
/// `xnnpackBilinearAxis` and `vk_resize_bilinear`); ``axis(_:_:_:_:_:)`` gives TFLite's reference
/// samples (tensorflow/lite/kernels/internal/reference/resize_bilinear.h,
/// `ComputeInterpolationValues`: `(o + 0.5) · scale - 0.5` or `o · scale`, between
/// `max(floor(v), 0)` and `min(ceil(v), in - 1)`) for the quantized kernel; nearest neighbour
/// follows TFLite's reference kernel
/// (tensorflow/lite/kernels/internal/reference/resize_nearest_neighbor.h, `GetNearestNeighbor`).
/// The per-axis indices and weights are computed once at load.
final class ResizeKernel: Kernel, ParallelJob {
    let input: UnsafeMutablePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let inputShape: NHWC
    let outputShape: NHWC
    let isBilinear: Bool
    /// Per output row / column: lower index, upper index, weight of the upper one.
    let ys: [(Int, Int, Float)]
    let xs: [(Int, Int, Float)]
    let instructionSet: InstructionSet
    /// `ys` and `xs` as the C kernel reads them.
    private let table: AlignedBuffer
    private let resize: vk_resize

    var constantByteCount: Int { table.byteCount }

    static func make(_ ctx: OperatorContext, bilinear: Bool) throws -> Kernel {
        var alignCorners = false
        var halfPixelCenters = false
        switch ctx.options {
        case .resizeBilinear(let o) where bilinear:
            (alignCorners, halfPixelCenters) = (o.alignCorners, o.halfPixelCenters)
        case .resizeNearestNeighbor(let o) where !bilinear:
            (alignCorners, halfPixelCenters) = (o.alignCorners, o.halfPixelCenters)
        case .none: break
        default: throw ctx.invalid("missing resize options")
        }
        try ctx.expect(inputs: 2...2, outputs: 1)
        try ctx.requireFloat(inputs: [0])
        let x = try ctx.input(0)
        guard let shape = NHWC(x.shape) else { throw ctx.unsupported("input must have rank 4, has \(x.shapeText)") }
        let size = try ctx.constantIntegers(1, "the output size")
        guard size.count == 2, size[0] > 0, size[1] > 0 else {
            throw ctx.invalid("output size \(size) must be two positive values")
        }
        let outputShape = NHWC(batch: shape.batch, height: size[0], width: size[1], channels: shape.channels)
        try ctx.requireOutputShape(outputShape.shape)
        if alignCorners && halfPixelCenters {
            throw ctx.unsupported("align_corners together with half_pixel_centers")
        }
        return ResizeKernel(
            input: ctx.inputFloats(0), output: ctx.outputFloats(0), inputShape: shape, outputShape: outputShape,
            isBilinear: bilinear,
            ys: bilinear
                ? xnnpackBilinearAxis(shape.height, size[0], alignCorners, halfPixelCenters)
                : axis(shape.height, size[0], alignCorners, halfPixelCenters, false),
            xs: bilinear
                ? xnnpackBilinearAxis(shape.width, size[1], alignCorners, halfPixelCenters)
                : axis(shape.width, size[1], alignCorners, halfPixelCenters, false),
            instructionSet: ctx.instructionSet)
    }

    /// Source indices and upper weight for every output position along one axis.
    static func axis(_ input: Int, _ output: Int, _ alignCorners: Bool, _ halfPixelCenters: Bool, _ bilinear: Bool)
        -> [(Int, Int, Float)]
    {
        let scale =
            alignCorners && output > 1
            ? Float(input - 1) / Float(output - 1) : Float(input) / Float(output)
        return (0..<output).map { o in
            if bilinear {
                let v = halfPixelCenters ? (Float(o) + 0.5) * scale - 0.5 : Float(o) * scale
                let lower = Swift.max(Int(v.rounded(.down)), 0)
                let upper = Swift.min(Int(v.rounded(.up)), input - 1)
                return (lower, upper, v - Float(lower))
            }
            let offset: Float = halfPixelCenters ? 0.5 : 0
            let v = (Float(o) + offset) * scale
            var index = Swift.min(
                alignCorners ? Int(v.rounded(.toNearestOrAwayFromZero)) : Int(v.rounded(.down)), input - 1)
            if halfPixelCenters { index = Swift.max(0, index) }
            return (index, index, 0)
        }
    }

    /// Bilinear source indices and upper weight along one axis as XNNPACK computes them
    /// (src/indirection.c, `xnn_indirection_init_resize_bilinear2d_hwc_f32`): with half-pixel
    /// centres the sample is `o·scale + (0.5·scale - 0.5)` clamped to `[0, in - 1]`, otherwise
    /// `min(o·scale, in - 1)`; lower = truncation, upper = `min(lower + 1, in - 1)`, weight =
    /// `v - lower`. The same samples as TFLite's reference kernel except at the clamped borders,
    /// with XNNPACK's float rounding (each product and sum rounded separately).
    static func xnnpackBilinearAxis(_ input: Int, _ output: Int, _ alignCorners: Bool, _ halfPixelCenters: Bool) -> [(
        Int, Int, Float
    )] {
        let scale =
            alignCorners && output > 1
            ? Float(input - 1) / Float(output - 1) : Float(input) / Float(output)
        let last = Float(input - 1)
        let offset = 0.5 * scale - 0.5
        return (0..<output).map { o in
            var v = Float(o) * scale
            if halfPixelCenters && !alignCorners {
                v = v + offset
                v = Swift.min(Swift.max(v, 0), last)
            } else {
                v = Swift.min(v, last)
            }
            let lower = Int(v)
            return (lower, Swift.min(lower + 1, input - 1), v - Float(lower))
        }
    }

    init(
        input: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>, inputShape: NHWC, outputShape: NHWC,
        isBilinear: Bool, ys: [(Int, Int, Float)], xs: [(Int, Int, Float)], instructionSet: InstructionSet = .best
    ) {
        self.instructionSet = instructionSet
        // Indices and weights for the C kernel: two indices per row / column, one weight.
        let table = AlignedBuffer(byteCount: (3 * ys.count + 3 * xs.count) * 4)
        let indices = table.bound(to: Int32.self)
        for (i, y) in ys.enumerated() {
            indices[2 * i] = Int32(y.0)
            indices[2 * i + 1] = Int32(y.1)
        }
        for (i, x) in xs.enumerated() {
            indices[2 * ys.count + 2 * i] = Int32(x.0)
            indices[2 * ys.count + 2 * i + 1] = Int32(x.1)
        }
        let weights = (UnsafeMutableRawPointer(indices + 2 * (ys.count + xs.count))).bindMemory(
            to: Float.self, capacity: ys.count + xs.count)
        for (i, y) in ys.enumerated() { weights[i] = y.2 }
        for (i, x) in xs.enumerated() { weights[ys.count + i] = x.2 }
        self.table = table
        resize = vk_resize(
            input: input, input_height: inputShape.height, input_width: inputShape.width,
            channels: inputShape.channels, output: output, output_height: outputShape.height,
            output_width: outputShape.width, y_index: indices, y_weight: weights,
            x_index: indices + 2 * ys.count, x_weight: weights + ys.count)
        self.input = input
        self.output = output
        self.inputShape = inputShape
        self.outputShape = outputShape
        self.isBilinear = isBilinear
        self.ys = ys
        self.xs = xs
    }

    func execute(_ context: ExecutionContext) {
        context.pool.run(
            self, taskCount: outputShape.batch * outputShape.height,
            work: 4 * outputShape.batch * outputShape.height * outputShape.width * outputShape.channels)
    }

    func run(tasks range: Range<Int>, thread: Int) {
        if isBilinear {
            withUnsafePointer(to: resize) {
                vk_resize_bilinear(instructionSet.isa, $0, range.lowerBound, range.upperBound)
            }
            return
        }
        // Nearest neighbour: each output pixel a copy of its source pixel.
        let channels = inputShape.channels
        let rowStride = inputShape.width * channels
        for task in range {
            let b = task / outputShape.height
            let source = input + b * inputShape.height * rowStride + ys[task % outputShape.height].0 * rowStride
            var out = output + task * outputShape.width * channels
            for (x, _, _) in xs {
                out.update(from: source + x * channels, count: channels)
                out += channels
            }
        }
    }
}

/// SOFTMAX over the last dimension of a float32 tensor: `exp((x - max) · beta) / Σ`
/// (tensorflow/lite/kernels/internal/reference/softmax.h).
final class SoftmaxKernel: Kernel, ParallelJob {
    let input: UnsafeMutablePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let rowCount: Int
    let depth: Int
    let beta: Float

    static func make(_ ctx: OperatorContext) throws -> Kernel {
        guard case .softmax(let beta) = ctx.options else { throw ctx.invalid("missing SoftmaxOptions") }
        try ctx.expect(inputs: 1...1, outputs: 1)
        try ctx.requireFloat(inputs: [0])
        let x = try ctx.input(0)
        guard let depth = x.shape.last, depth > 0 else {
            throw ctx.unsupported("input must have rank ≥ 1, has \(x.shapeText)")
        }
        try ctx.requireOutputShape(x.shape)
        return SoftmaxKernel(
            input: ctx.inputFloats(0), output: ctx.outputFloats(0), rowCount: x.elementCount / depth, depth: depth,
            beta: beta)
    }

    init(
        input: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>, rowCount: Int, depth: Int, beta: Float
    ) {
        self.input = input
        self.output = output
        self.rowCount = rowCount
        self.depth = depth
        self.beta = beta
    }

    func execute(_ context: ExecutionContext) {
        context.pool.run(self, taskCount: rowCount)
    }

    func run(tasks range: Range<Int>, thread: Int) {
        for row in range {
            let x = input + row * depth
            let y = output + row * depth
            var maximum = x[0]
            for i in 1..<Swift.max(depth, 1) where x[i] > maximum { maximum = x[i] }
            var sum: Float = 0
            for i in 0..<depth {
                let e = Float.expValue((x[i] - maximum) * beta)
                y[i] = e
                sum += e
            }
            for i in 0..<depth { y[i] /= sum }
        }
    }
}
