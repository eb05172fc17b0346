import CVisionKernels
import ModelFile

/// DEPTHWISE_CONV_2D on UINT8 (per-tensor) or INT8 (per-tensor or per-channel along the last
/// filter axis) NHWC tensors, any depth multiplier (tflite/kernels/depthwise_conv.cc; reference
/// arithmetic in tflite/kernels/internal/reference/depthwiseconv_uint8.h and
/// reference/integer_ops/depthwise_conv.h): output channel `c` reads input channel
/// `c / multiplier`, `acc = bias[c] + Σ_taps (x - x_zp) · (w - w_zp[c])`, then ``Requantizer``.
///
/// Weights are repacked at load as int16 (zero point removed, channels rounded up to 16): with
/// multiplier 1, for each pair of taps the two taps' weights of every channel side by side, so
/// one `pmaddwd` of two interleaved input vectors sums two taps for four channels; otherwise
/// `[tap][channel]` for a scalar path. Taps outside the input contribute zero. With multiplier 1
/// and the XNNPACK arithmetic the rows run in C (`vk_qdwconv_run`, the same sums and float
/// requantization): 16 channels of int32 lanes on the portable build; on x86 (AVX2 and AVX-512)
/// two taps per `vpmaddwd` over the tap pairs repacked in the kernel's lane order, with the input
/// zero point folded into the biases (XNNPACK's AVX2 kernels, src/qu8-dwconv/gen/*-avx2-mul32.c,
/// multiply one tap per 32-bit product instead). Work is split over output rows.
final class QuantizedDepthwiseConv2DKernel: Kernel, ParallelJob {
    let input: UnsafeMutableRawPointer
    let output: UnsafeMutableRawPointer
    let isSigned: Bool
    let inputShape: NHWC
    let outputShape: NHWC
    let rows: WindowAxis
    let columns: WindowAxis
    let multiplier: Int
    let inputZeroPoint: Int16
    /// `taps × paddedChannels` int16 weights.
    let packed: AlignedBuffer
    /// `tapPairs × paddedChannels × 2` int16 weights: tap `2j` then tap `2j + 1` of each channel, for
    /// the Swift rows with multiplier 1 (empty where the C kernel runs).
    let pairPacked: AlignedBuffer
    let taps: Int
    let tapPairs: Int
    /// Element offset of each tap from its window's first input pixel.
    let tapOffsets: [Int]
    /// `paddedChannels` int32 biases.
    let bias: AlignedBuffer
    /// The AVX2 C kernel's `pairPacked` weights, biases less `inputZeroPoint · Σ_taps w`, and
    /// scales, with channels in its lane order (``laneOrder(channels:padded:)``).
    let lanePairs: AlignedBuffer
    let laneBias: AlignedBuffer
    let laneScales: AlignedBuffer
    /// `paddedChannels + 16` bytes of the input zero point: the AVX2 C kernel's taps outside the input.
    let zeroPixel: AlignedBuffer

    /// The channel at each position of the AVX2 C kernel's buffers (`vk_qdwconv`): blocks of 32
    /// hold channels 4i ... 4i + 3 and 4i + 16 ... 4i + 19 at positions 8i ... 8i + 7, one block of
    /// 16 channels 4i ... 4i + 3 and 4i + 8 ... 4i + 11, the rest (and the padding) in order.
    static func laneOrder(channels: Int, padded: Int) -> [Int] {
        var order = Array(0..<padded)
        var start = 0
        for block in [32, 16] {
            while start + block <= channels {
                for position in 0..<block {
                    let (i, k) = (position / 8, position % 8)
                    order[start + position] = start + (k < 4 ? 0 : block / 2) + 4 * i + k % 4
                }
                start += block
            }
        }
        return order
    }
    let paddedChannels: Int
    let requantizer: Requantizer

    static func make(_ ctx: OperatorContext) throws -> Kernel {
        guard case .depthwiseConv2D(let options) = ctx.options else {
            throw ctx.invalid("missing DepthwiseConv2DOptions")
        }
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
        guard let filterShape = NHWC(filter.descriptor.shape), filterShape.batch == 1 else {
            throw ctx.invalid("filter must have shape [1, kh, kw, channels], has \(filter.descriptor.shapeText)")
        }
        let channels = filterShape.channels
        guard inputShape.channels > 0, channels % inputShape.channels == 0 else {
            throw ctx.invalid("filter depth \(channels) is not a multiple of input depth \(inputShape.channels)")
        }
        let multiplier = channels / inputShape.channels
        let filterQuantization = try ctx.filterQuantization(filter.descriptor, channels: channels, axis: 3, type: type)
        let biasTensor = try ctx.quantizedBias(2, channels: channels)
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
                    + "\(options.strideHeight)x\(options.strideWidth) on input \(inputDescriptor.shapeText)"
            )
        }
        let outputShape = NHWC(batch: inputShape.batch, height: rows.output, width: columns.output, channels: channels)
        try ctx.requireOutputShape(outputShape.shape)
        let range = try ctx.quantizedActivationRange(options.activation, output: outputQuantization, type: type)

        let padded = (channels + 15) / 16 * 16
        let taps = filterShape.height * filterShape.width
        let packed = AlignedBuffer(byteCount: taps * padded * MemoryLayout<Int16>.stride)
        let weights = packed.bound(to: Int16.self)
        let raw = filter.buffer.bound(to: UInt8.self)
        for tap in 0..<taps {
            for c in 0..<channels {
                let zeroPoint =
                    filterQuantization.zeroPoints.count == 1
                    ? filterQuantization.zeroPoints[0] : filterQuantization.zeroPoints[c]
                let byte = raw[tap * channels + c]
                let value = type == .int8 ? Int32(Int8(bitPattern: byte)) : Int32(byte)
                weights[tap * padded + c] = Int16(value - zeroPoint)
            }
        }
        let bias = AlignedBuffer(byteCount: padded * MemoryLayout<Int32>.stride)
        if let biasTensor {
            bias.bound(to: Int32.self).update(from: biasTensor.buffer.bound(to: Int32.self), count: channels)
        }
        let requantizer = Requantizer(
            arithmetic: ctx.arithmetic, inputScale: inputQuantization.scale, filterScales: filterQuantization.scales,
            outputScale: outputQuantization.scale, channelCount: channels, zeroPoint: outputQuantization.zeroPoint,
            range: range, floatProduct: type == .uint8)
        return QuantizedDepthwiseConv2DKernel(
            input: ctx.inputAddress(0), output: ctx.outputAddress(0), isSigned: type == .int8, inputShape: inputShape,
            outputShape: outputShape, rows: rows, columns: columns, multiplier: multiplier,
            inputZeroPoint: Int16(inputQuantization.zeroPoint), packed: packed, bias: bias, paddedChannels: padded,
            requantizer: requantizer, instructionSet: ctx.instructionSet)
    }

    init(
        input: UnsafeMutableRawPointer, output: UnsafeMutableRawPointer, isSigned: Bool, inputShape: NHWC,
        outputShape: NHWC, rows: WindowAxis, columns: WindowAxis, multiplier: Int, inputZeroPoint: Int16,
        packed: AlignedBuffer, bias: AlignedBuffer, paddedChannels: Int, requantizer: Requantizer,
        instructionSet: InstructionSet
    ) {
        self.input = input
        self.output = output
        self.isSigned = isSigned
        self.inputShape = inputShape
        self.outputShape = outputShape
        self.rows = rows
        self.columns = columns
        self.multiplier = multiplier
        self.inputZeroPoint = inputZeroPoint
        self.packed = packed
        self.bias = bias
        self.paddedChannels = paddedChannels
        self.requantizer = requantizer
        taps = rows.filter * columns.filter
        tapPairs = (taps + 1) / 2
        tapOffsets = (0..<taps).map { t in
            ((t / columns.filter) * rows.dilation * inputShape.width + (t % columns.filter) * columns.dilation)
                * inputShape.channels
        }
        let isNative = multiplier == 1 && requantizer.arithmetic == .xnnpack && taps <= vk_qdwconv_max_taps()
        // The Swift rows' tap pairs: multiplier 1 outside the C kernel (empty otherwise).
        let swiftPairs = multiplier == 1 && !isNative
        pairPacked = AlignedBuffer(
            byteCount: swiftPairs ? tapPairs * paddedChannels * 2 * MemoryLayout<Int16>.stride : 0)
        let single = packed.bound(to: Int16.self)
        let pairs = pairPacked.bound(to: Int16.self)
        for t in 0..<taps where swiftPairs {
            for c in 0..<paddedChannels {
                pairs[((t / 2) * paddedChannels + c) * 2 + t % 2] = single[t * paddedChannels + c]
            }
        }
        // The x86 kernel's weights, folded biases and scales in lane order, and its zero-point pixel
        // (see `vk_qdwconv`); empty where nothing reads them.
        let lanes = isNative && (instructionSet == .avx2 || instructionSet == .avx512) ? paddedChannels : 0
        let order = lanes == 0 ? [] : Self.laneOrder(channels: inputShape.channels, padded: lanes)
        lanePairs = AlignedBuffer(byteCount: tapPairs * lanes * 2 * MemoryLayout<Int16>.stride)
        laneBias = AlignedBuffer(byteCount: lanes * MemoryLayout<Int32>.stride)
        laneScales = AlignedBuffer(byteCount: lanes * MemoryLayout<Float>.stride)
        let laneWeights = lanePairs.bound(to: Int16.self)
        let folded = laneBias.bound(to: Int32.self)
        let plain = bias.bound(to: Int32.self)
        for (position, c) in order.enumerated() {
            var sum: Int32 = 0
            for t in 0..<taps {
                let weight = single[t * paddedChannels + c]
                laneWeights[((t / 2) * paddedChannels + position) * 2 + t % 2] = weight
                sum &+= Int32(weight)
            }
            folded[position] = plain[c] &- Int32(inputZeroPoint) &* sum
            laneScales.floats[position] = requantizer.scales.floats[c]
        }
        zeroPixel = AlignedBuffer(byteCount: lanes == 0 ? 0 : lanes + 16)
        zeroPixel.raw.initializeMemory(
            as: UInt8.self, repeating: UInt8(truncatingIfNeeded: inputZeroPoint), count: zeroPixel.byteCount)
        let range = requantizer.range
        native =
            isNative
            ? vk_qdwconv(
                isa: instructionSet.isa, input: input, input_height: inputShape.height, input_width: inputShape.width,
                channels: inputShape.channels, output: output, output_height: outputShape.height,
                output_width: outputShape.width, kernel_height: rows.filter, kernel_width: columns.filter,
                stride_h: rows.stride, stride_w: columns.stride, dilation_h: rows.dilation,
                dilation_w: columns.dilation,
                pad_top: rows.padBefore, pad_left: columns.padBefore, weights: UnsafePointer(single),
                padded_channels: paddedChannels, bias: UnsafePointer(bias.bound(to: Int32.self)),
                scales: UnsafePointer(requantizer.scales.floats), input_zero_point: Int32(inputZeroPoint),
                lower: Float(range.lower - requantizer.zeroPoint), upper: Float(range.upper - requantizer.zeroPoint),
                zero_point: requantizer.zeroPoint, is_signed: isSigned ? 1 : 0,
                pair_weights: UnsafePointer(laneWeights), pair_bias: UnsafePointer(folded),
                pair_scales: UnsafePointer(laneScales.floats), zero_pixel: UnsafeRawPointer(zeroPixel.raw))
            : nil
    }

    /// The C kernel's description (multiplier 1 with the XNNPACK arithmetic), else `nil`.
    private let native: vk_qdwconv?

    var constantByteCount: Int {
        packed.byteCount + pairPacked.byteCount + bias.byteCount + lanePairs.byteCount + laneBias.byteCount
            + laneScales.byteCount + zeroPixel.byteCount
            + requantizer.scales.byteCount
    }

    /// Per thread: the byte offset of every tap of the current output pixel (-1 outside).
    var scratchBytesPerThread: Int { (tapPairs * 2) * MemoryLayout<Int>.stride }

    private var context: ExecutionContext?

    func execute(_ context: ExecutionContext) {
        self.context = context
        context.pool.run(self, taskCount: outputShape.batch * outputShape.height)
        self.context = nil
    }

    func run(tasks range: Range<Int>, thread: Int) {
        if let native {
            withUnsafePointer(to: native) { vk_qdwconv_run($0, range.lowerBound, range.upperBound) }
            return
        }
        guard let context else { return }
        let offsets = (context.scratch + thread * context.scratchStride).assumingMemoryBound(to: Int.self)
        for task in range {
            let b = task / outputShape.height
            let oy = task % outputShape.height
            if isSigned {
                row(Int8.self, b: b, oy: oy, offsets: offsets)
            } else {
                row(UInt8.self, b: b, oy: oy, offsets: offsets)
            }
        }
    }

    @inline(__always)
    private func row<T: QuantizedElement>(_: T.Type, b: Int, oy: Int, offsets: UnsafeMutablePointer<Int>) {
        let channels = outputShape.channels
        let inputChannels = inputShape.channels
        let fullBlocks = multiplier == 1 ? channels / 8 : 0
        let w = packed.bound(to: Int16.self)
        let biases = bias.bound(to: Int32.self)
        let padded = paddedChannels
        let rows = self.rows
        let columns = self.columns
        let inputWidth = inputShape.width
        let ys = rows.validTaps(oy)
        let iy0 = rows.origin(oy)
        let source = input.assumingMemoryBound(to: T.self)
        let imageBase = source + b * inputShape.height * inputWidth * inputChannels
        var out =
            output.assumingMemoryBound(to: T.self) + ((b * outputShape.height + oy) * outputShape.width) * channels
        let rowStride = inputWidth * inputChannels
        let zeroPoint = SIMD8<Int16>(repeating: inputZeroPoint)
        let pairWeights = UnsafeRawPointer(pairPacked.raw)
        let elementBytes = MemoryLayout<T>.stride
        for ox in 0..<outputShape.width {
            let xs = columns.validTaps(ox)
            let ix0 = columns.origin(ox)
            if fullBlocks > 0 {
                if ys.count == rows.filter && xs.count == columns.filter {
                    // Every tap inside: the pixel's base plus each tap's fixed offset.
                    let pixel = (iy0 * rowStride + ix0 * inputChannels) * elementBytes
                    for t in 0..<taps { offsets[t] = pixel + tapOffsets[t] * elementBytes }
                    if taps < tapPairs * 2 { offsets[taps] = -1 }
                } else {
                    var t = 0
                    for ky in 0..<rows.filter {
                        for kx in 0..<columns.filter {
                            offsets[t] =
                                ys.contains(ky) && xs.contains(kx)
                                ? ((iy0 + ky * rows.dilation) * rowStride + (ix0 + kx * columns.dilation)
                                    * inputChannels)
                                    * elementBytes : -1
                            t += 1
                        }
                    }
                    if taps < tapPairs * 2 { offsets[taps] = -1 }
                }
            }
            let base = UnsafeRawPointer(imageBase)
            for block in 0..<fullBlocks {
                let c = block * 8
                var low = UnsafeRawPointer(bias.raw).load(fromByteOffset: c * 4, as: SIMD4<Int32>.self)
                var high = UnsafeRawPointer(bias.raw).load(fromByteOffset: c * 4 + 16, as: SIMD4<Int32>.self)
                let channelBase = base + c * elementBytes
                var wp = pairWeights + c * 4
                for j in 0..<tapPairs {
                    let o0 = offsets[2 * j]
                    let o1 = offsets[2 * j + 1]
                    let x0 =
                        o0 >= 0 ? QuantizedVector.widen(channelBase + o0, signed: T.isSigned) &- zeroPoint : SIMD8()
                    let x1 =
                        o1 >= 0 ? QuantizedVector.widen(channelBase + o1, signed: T.isSigned) &- zeroPoint : SIMD8()
                    let (first, second) = QuantizedVector.interleave(x0, x1)
                    low &+= QuantizedVector.multiplyAdd(first, wp.load(as: SIMD8<Int16>.self))
                    high &+= QuantizedVector.multiplyAdd(second, wp.load(fromByteOffset: 16, as: SIMD8<Int16>.self))
                    wp += padded * 4
                }
                requantizer.store(low, high, channel: c, to: out + c, width: 8)
            }
            for c in (fullBlocks * 8)..<channels {
                let ic = c / multiplier
                var acc = biases[c]
                for ky in ys {
                    let rowBase = imageBase + (iy0 + ky * rows.dilation) * rowStride + ic
                    let tapBase = ky * columns.filter
                    for kx in xs {
                        let v = Int32(rowBase[(ix0 + kx * columns.dilation) * inputChannels]) - Int32(inputZeroPoint)
                        acc &+= v * Int32(w[(tapBase + kx) * padded + c])
                    }
                }
                out[c] = T(truncatingIfNeeded: requantizer.requantize(acc, channel: c))
            }
            out += channels
        }
    }
}
