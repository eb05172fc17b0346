import CVisionKernels
import ModelFile

/// CONV_2D on UINT8 (per-tensor) or INT8 (per-tensor or per-channel) NHWC tensors with int32
/// biases, as TFLite defines it (tflite/kernels/conv.cc; reference arithmetic in
/// tflite/kernels/internal/reference/conv.h and reference/integer_ops/conv.h):
/// `acc = bias[c] + Σ (x - x_zp) · (w - w_zp[c])` over the window (padding contributes
/// nothing), then ``Requantizer``.
///
/// Each tile of eight output pixels gathers its patches into per-thread scratch as int16 (zero
/// points in the padding; `vk_qim2col`, or a widening copy of the input for 1×1 stride-1
/// layers), then ``QuantizedGemm`` runs over the packed filter. UINT8 models on
/// AVX512-VNNI CPUs use the 8-bit product instead (``QuantizedPackedWeights/Layout/quads``): the
/// patches are gathered as bytes, and 1×1 stride-1 layers whose depth is a multiple of 4 read their
/// input in place. Work is split over tiles, so results do not depend on the thread count.
final class QuantizedConv2DKernel: Kernel, ParallelJob {
    let input: UnsafeMutableRawPointer
    let output: UnsafeMutableRawPointer
    let isSigned: Bool
    let inputShape: NHWC
    let outputShape: NHWC
    let rows: WindowAxis
    let columns: WindowAxis
    let inputZeroPoint: Int16
    let weights: QuantizedPackedWeights
    let requantizer: Requantizer
    let gemm: QuantizedGemm
    let pixelCount: Int

    static func make(_ ctx: OperatorContext) throws -> Kernel {
        guard case .conv2D(let options) = ctx.options else { throw ctx.invalid("missing Conv2DOptions") }
        try ctx.expect(inputs: 2...3, outputs: 1)
        let (type, inputQuantization, outputQuantization) = try ctx.quantizedInputOutput()
        let inputDescriptor = try ctx.input(0)
        guard let inputShape = NHWC(inputDescriptor.shape) else {
            throw ctx.unsupported("input must have rank 4, has shape \(inputDescriptor.shapeText)")
        }
        let filter = try ctx.requireConstant(1, "the filter")
        guard filter.descriptor.type == type else {
            throw ctx.unsupported("filter type \(filter.descriptor.type) with \(type) activations")
        }
        guard let filterShape = NHWC(filter.descriptor.shape) else {
            throw ctx.invalid("filter must have rank 4, has shape \(filter.descriptor.shapeText)")
        }
        guard filterShape.channels == inputShape.channels else {
            throw ctx.unsupported(
                "filter depth \(filterShape.channels) differs from input depth \(inputShape.channels) (grouped "
                    + "convolution)"
            )
        }
        let filterQuantization = try ctx.filterQuantization(
            filter.descriptor, channels: filterShape.batch, axis: 0, type: type)
        let bias = try ctx.quantizedBias(2, channels: filterShape.batch)
        guard
            let rows = WindowAxis(
                input: inputShape.height, filter: filterShape.height, stride: options.strideHeight,
                dilation: options.dilationHeight, padding: options.padding),
            let columns = WindowAxis(
                input: inputShape.width, filter: filterShape.width, stride: options.strideWidth,
                dilation: options.dilationWidth, padding: options.padding)
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
        let range = try ctx.quantizedActivationRange(options.activation, output: outputQuantization, type: type)
        let weights = QuantizedPackedWeights(
            weights: UnsafeRawPointer(filter.buffer.raw), signed: type == .int8,
            zeroPoints: filterQuantization.zeroPoints,
            bias: bias.map { UnsafePointer($0.buffer.bound(to: Int32.self)) }, n: filterShape.batch,
            k: filterShape.height * filterShape.width * filterShape.channels,
            inputZeroPoint: inputQuantization.zeroPoint,
            layout: QuantizedPackedWeights.layout(signed: type == .int8, instructionSet: ctx.instructionSet))
        let requantizer = Requantizer(
            arithmetic: ctx.arithmetic, inputScale: inputQuantization.scale, filterScales: filterQuantization.scales,
            outputScale: outputQuantization.scale, channelCount: filterShape.batch,
            zeroPoint: outputQuantization.zeroPoint,
            range: range, floatProduct: type == .uint8)
        return QuantizedConv2DKernel(
            input: ctx.inputAddress(0), output: ctx.outputAddress(0), isSigned: type == .int8, inputShape: inputShape,
            outputShape: outputShape, rows: rows, columns: columns, inputZeroPoint: Int16(inputQuantization.zeroPoint),
            weights: weights, requantizer: requantizer, instructionSet: ctx.instructionSet)
    }

    init(
        input: UnsafeMutableRawPointer, output: UnsafeMutableRawPointer, isSigned: Bool, inputShape: NHWC,
        outputShape: NHWC, rows: WindowAxis, columns: WindowAxis, inputZeroPoint: Int16,
        weights: QuantizedPackedWeights, requantizer: Requantizer, instructionSet: InstructionSet
    ) {
        self.input = input
        self.output = output
        self.isSigned = isSigned
        self.inputShape = inputShape
        self.outputShape = outputShape
        self.rows = rows
        self.columns = columns
        self.inputZeroPoint = inputZeroPoint
        self.weights = weights
        self.requantizer = requantizer
        gemm = QuantizedGemm(
            weights: weights, requantizer: requantizer, isSigned: isSigned, instructionSet: instructionSet)
        pixelCount = outputShape.batch * outputShape.height * outputShape.width
        patches = vk_qpatch_geometry(
            input: input, input_count: inputShape.batch * inputShape.height * inputShape.width * inputShape.channels,
            is_signed: isSigned ? 1 : 0, input_height: inputShape.height, input_width: inputShape.width,
            channels: inputShape.channels, output_height: outputShape.height, output_width: outputShape.width,
            kernel_height: rows.filter, kernel_width: columns.filter, stride_h: rows.stride, stride_w: columns.stride,
            dilation_h: rows.dilation, dilation_w: columns.dilation, pad_top: rows.padBefore,
            pad_left: columns.padBefore, zero_point: inputZeroPoint)
        pointwise =
            rows.filter == 1 && columns.filter == 1 && rows.stride == 1 && columns.stride == 1
            && rows.padBefore == 0 && columns.padBefore == 0 && outputShape.height == inputShape.height
            && outputShape.width == inputShape.width
            && (weights.layout == .pairs ? weights.pairCount * 2 : weights.quadCount * 4) == inputShape.channels
    }

    /// The window geometry `vk_qim2col` gathers int16 patches with.
    private let patches: vk_qpatch_geometry

    /// Whether output pixel `m`'s patch is input pixel `m` (a 1×1 window, stride 1, no padding)
    /// with no padding of the row length, so a tile's patches are one run of input.
    private let pointwise: Bool

    var constantByteCount: Int { weights.byteCount + requantizer.scales.byteCount }

    /// Values per gathered row: int16 with `k` rounded up to even, or bytes with `k` rounded up to
    /// a multiple of 4 (``QuantizedPackedWeights/Layout/quads``).
    private var rowLength: Int {
        switch weights.layout {
        case .pairs: weights.pairCount * 2
        case .quads: weights.quadCount * 4
        }
    }

    /// Bytes of one thread's gathered rows (none when the 8-bit product reads the input in place).
    private var gatherByteCount: Int {
        switch weights.layout {
        // vk_qim2col may write 16 values past the last row.
        case .pairs: (QuantizedGemm.tileRows * rowLength + 16) * MemoryLayout<Int16>.stride
        case .quads: pointwise ? 0 : QuantizedGemm.tileRows * rowLength
        }
    }

    /// Per thread: the tile's gathered rows, then int32 sums (reference arithmetic).
    var scratchBytesPerThread: Int {
        gatherByteCount + gemm.sumCount(rows: QuantizedGemm.tileRows) * MemoryLayout<Int32>.stride
    }

    private var context: ExecutionContext?

    func execute(_ context: ExecutionContext) {
        self.context = context
        context.pool.run(
            self, taskCount: (pixelCount + QuantizedGemm.tileRows - 1) / QuantizedGemm.tileRows,
            work: pixelCount * weights.n * weights.k)
        self.context = nil
    }

    func run(tasks range: Range<Int>, thread: Int) {
        guard let context else { return }
        let scratch = context.scratch + thread * context.scratchStride
        // The sums follow the gathered rows (4-byte aligned: an even number of int16, or a multiple of 4 bytes).
        let sums = (scratch + gatherByteCount).assumingMemoryBound(to: Int32.self)
        if weights.layout == .quads {
            runBytes(range, scratch.assumingMemoryBound(to: UInt8.self), sums)
        } else if isSigned {
            run(Int8.self, range, scratch.assumingMemoryBound(to: Int16.self), sums)
        } else {
            run(UInt8.self, range, scratch.assumingMemoryBound(to: Int16.self), sums)
        }
    }

    /// The tiles of `range` with the 8-bit product (UINT8, ``QuantizedPackedWeights/Layout/quads``).
    private func runBytes(
        _ range: Range<Int>, _ scratch: UnsafeMutablePointer<UInt8>, _ sums: UnsafeMutablePointer<Int32>
    ) {
        let n = outputShape.channels
        let length = rowLength
        let out = output.assumingMemoryBound(to: UInt8.self)
        let source = UnsafePointer(input.assumingMemoryBound(to: UInt8.self))
        for tile in range {
            let first = tile * QuantizedGemm.tileRows
            let count = Swift.min(QuantizedGemm.tileRows, pixelCount - first)
            if pointwise {
                // A 1×1 window over every pixel in order: the tile's patches are its input pixels, read in place.
                gemm.runBytes(
                    rows: source + first * length, count: count, stride: length, out: out + first * n, sums: sums)
            } else {
                for r in 0..<count { gatherBytes(first + r, into: scratch + r * length) }
                gemm.runBytes(rows: scratch, count: count, stride: length, out: out + first * n, sums: sums)
            }
        }
    }

    @inline(__always)
    private func run<T: QuantizedElement>(
        _: T.Type, _ range: Range<Int>, _ scratch: UnsafeMutablePointer<Int16>, _ sums: UnsafeMutablePointer<Int32>
    ) {
        let n = outputShape.channels
        let length = rowLength
        let out = output.assumingMemoryBound(to: T.self)
        for tile in range {
            let first = tile * QuantizedGemm.tileRows
            let count = Swift.min(QuantizedGemm.tileRows, pixelCount - first)
            if pointwise {
                // A 1×1 window over every pixel in order: the tile's patches are its input pixels.
                QuantizedWiden.widen(
                    input.assumingMemoryBound(to: T.self) + first * length, to: scratch, count: count * length)
            } else {
                withUnsafePointer(to: patches) { vk_qim2col($0, first, count, scratch, length) }
            }
            gemm.run(rows: scratch, count: count, stride: length, out: out + first * n, sums: sums)
        }
    }

    /// Walks output pixel `m`'s window (kh × kw × cin activations, in patch order) as runs:
    /// `copy(offset, count)` for `count` consecutive input values from element `offset` of the
    /// input, `fill(count)` for `count` positions outside the input. Window rows wholly inside the
    /// input with undilated columns are one run.
    @inline(__always)
    private func walkPatch(_ m: Int, copy: (Int, Int) -> Void, fill: (Int) -> Void) {
        let perImage = outputShape.height * outputShape.width
        let b = m / perImage
        let rest = m % perImage
        let oy = rest / outputShape.width
        let ox = rest % outputShape.width
        let cin = inputShape.channels
        let x0 = columns.origin(ox)
        let contiguous = columns.dilation == 1 && x0 >= 0 && x0 + columns.filter <= inputShape.width
        for ky in 0..<rows.filter {
            let iy = rows.origin(oy) + ky * rows.dilation
            let rowInside = iy >= 0 && iy < inputShape.height
            if contiguous && rowInside {
                copy(((b * inputShape.height + iy) * inputShape.width + x0) * cin, columns.filter * cin)
                continue
            }
            for kx in 0..<columns.filter {
                let ix = x0 + kx * columns.dilation
                if rowInside && ix >= 0 && ix < inputShape.width {
                    copy(((b * inputShape.height + iy) * inputShape.width + ix) * cin, cin)
                } else {
                    fill(cin)
                }
            }
        }
    }

    /// Writes output pixel `m`'s patch as UINT8 bytes (the input zero point outside the input, then
    /// zeros up to a multiple of 4, which add nothing to the row's sum) to `patch`.
    @inline(__always)
    private func gatherBytes(_ m: Int, into patch: UnsafeMutablePointer<UInt8>) {
        let source = input.assumingMemoryBound(to: UInt8.self)
        let zeroPoint = UInt8(truncatingIfNeeded: inputZeroPoint)
        var p = patch
        walkPatch(
            m,
            copy: { offset, count in
                p.update(from: source + offset, count: count)
                p += count
            },
            fill: { count in
                p.update(repeating: zeroPoint, count: count)
                p += count
            })
        p.update(repeating: 0, count: rowLength - weights.k)
    }
}

/// Widening of 8-bit activations to int16.
enum QuantizedWiden {
    @inline(__always)
    static func widen<T: QuantizedElement>(
        _ source: UnsafePointer<T>, to destination: UnsafeMutablePointer<Int16>, count: Int
    ) {
        var i = 0
        while i + 8 <= count {
            let v = QuantizedVector.widen(UnsafeRawPointer(source + i), signed: T.isSigned)
            UnsafeMutableRawPointer(destination + i).storeBytes(of: v, as: SIMD8<Int16>.self)
            i += 8
        }
        while i < count {
            destination[i] = Int16(truncatingIfNeeded: source[i])
            i += 1
        }
    }
}

/// Filter quantization of a quantized convolution.
struct FilterQuantization {
    /// One scale, or one per output channel.
    let scales: [Float]
    /// One zero point, or one per output channel.
    let zeroPoints: [Int32]
}

extension OperatorContext {
    /// The filter's scales and zero points: per tensor, or per channel along `axis` with
    /// `channels` entries (TFLite allows per-channel filters only for INT8, with zero points
    /// of 0: tflite/kernels/kernel_util.cc, `PopulateConvolutionQuantizationParams`).
    func filterQuantization(_ filter: TensorDescriptor, channels: Int, axis: Int, type: TensorType) throws
        -> FilterQuantization
    {
        guard let q = filter.quantization, !q.scale.isEmpty else {
            throw unsupported("the filter has no quantization parameters")
        }
        let zeroPoints = q.zeroPoint.isEmpty ? [0] : q.zeroPoint
        guard zeroPoints.count == 1 || zeroPoints.count == q.scale.count else {
            throw invalid("filter has \(q.scale.count) scales and \(zeroPoints.count) zero points")
        }
        if q.scale.count > 1 {
            guard type == .int8 else { throw unsupported("per-channel quantization of a \(type) filter") }
            guard q.scale.count == channels, q.quantizedDimension == axis else {
                throw invalid(
                    "filter has \(q.scale.count) scales along dimension \(q.quantizedDimension), expected "
                        + "\(channels) along \(axis)"
                )
            }
        }
        guard let range = type.quantizedRange,
            zeroPoints.allSatisfy({ $0 >= Int64(range.lower) && $0 <= Int64(range.upper) })
        else {
            throw invalid("filter zero points \(zeroPoints) are outside the range of \(type)")
        }
        guard q.scale.allSatisfy({ $0 > 0 && $0.isFinite }) else { throw invalid("filter scales must be positive") }
        return FilterQuantization(scales: q.scale, zeroPoints: zeroPoints.map { Int32($0) })
    }

    /// The constant INT32 bias of a quantized convolution (input `i`, optional).
    func quantizedBias(_ i: Int, channels: Int) throws -> ConstantTensor? {
        guard let bias = try constantInput(i) else {
            if hasInput(i) { throw unsupported("the bias must be a constant tensor") }
            return nil
        }
        guard bias.descriptor.type == .int32, bias.descriptor.elementCount == channels else {
            throw unsupported(
                "the bias must be \(channels) INT32 values, is \(bias.descriptor.shapeText) \(bias.descriptor.type)")
        }
        return bias
    }
}
