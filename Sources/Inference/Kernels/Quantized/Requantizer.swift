/// Turns the int32 accumulators of a quantized convolution (`Σ (x - x_zp)(w - w_zp) + bias`)
/// into 8-bit outputs, per output channel.
///
/// * ``QuantizedArithmetic/xnnpack``: `round_to_nearest_even(float(acc) · scale[c]) + y_zp`,
///   clamped to the activation range, with `scale[c] = x_scale · w_scale[c] / y_scale` computed
///   in float32 (XNNPACK src/operators/convolution-nhwc.c, `init_requantization_scale_qu8` /
///   `init_requantization_scale_qx8_qc8w`; the "fp32" requantization of its qu8/qs8 GEMM and
///   DWCONV micro-kernels).
/// * ``QuantizedArithmetic/reference``: `MultiplyByQuantizedMultiplier(acc, m[c]) + y_zp`,
///   clamped, with `m[c]` from `x_scale · w_scale[c] / y_scale` in double
///   (tflite/kernels/kernel_util.cc, `PopulateConvolutionQuantizationParams`; for UINT8 the
///   scale product is taken in float first, `GetQuantizedConvolutionMultipler`).
final class Requantizer {
    let arithmetic: QuantizedArithmetic
    let channelCount: Int
    /// Float scales, padded with zeros to a multiple of 16 channels (xnnpack).
    let scales: AlignedBuffer
    /// Fixed-point multipliers (reference).
    let multipliers: [FixedPointMultiplier]
    let zeroPoint: Int32
    /// The output range after the fused activation.
    let range: QuantizedRange
    /// `range - zeroPoint` as floats, and the integer correction of the rounding trick.
    private let lowerBound: SIMD4<Float>
    private let upperBound: SIMD4<Float>
    private let bias: SIMD4<Int32>

    /// - Parameters:
    ///   - filterScales: one scale, or one per output channel.
    ///   - floatProduct: TFLite's UINT8 rule (input × filter scale rounded to float first).
    init(
        arithmetic: QuantizedArithmetic, inputScale: Float, filterScales: [Float], outputScale: Float,
        channelCount: Int, zeroPoint: Int32, range: QuantizedRange, floatProduct: Bool
    ) {
        self.arithmetic = arithmetic
        self.channelCount = channelCount
        self.zeroPoint = zeroPoint
        self.range = range
        lowerBound = SIMD4(repeating: Float(range.lower - zeroPoint))
        upperBound = SIMD4(repeating: Float(range.upper - zeroPoint))
        bias = SIMD4(repeating: zeroPoint &- 0x4B40_0000)
        let padded = (channelCount + 15) / 16 * 16
        scales = AlignedBuffer(byteCount: padded * MemoryLayout<Float>.stride)
        var multipliers: [FixedPointMultiplier] = []
        multipliers.reserveCapacity(channelCount)
        for c in 0..<channelCount {
            let filterScale = filterScales.count == 1 ? filterScales[0] : filterScales[c]
            scales.floats[c] = inputScale * filterScale / outputScale
            let product = floatProduct ? Double(inputScale * filterScale) : Double(inputScale) * Double(filterScale)
            multipliers.append(FixedPointMultiplier(product / Double(outputScale)))
        }
        self.multipliers = multipliers
    }

    /// The 8-bit result for accumulator `acc` of channel `c` (scalar path).
    @inline(__always)
    func requantize(_ acc: Int32, channel c: Int) -> Int32 {
        switch arithmetic {
        case .xnnpack:
            let v = Float(acc) * scales.floats[c]
            let clamped = Swift.min(Swift.max(v, Float(range.lower - zeroPoint)), Float(range.upper - zeroPoint))
            return Int32(clamped.rounded(.toNearestOrEven)) + zeroPoint
        case .reference:
            return range.clamp(multipliers[c].apply(acc) &+ zeroPoint)
        }
    }

    /// Requantizes the accumulators of channels `c ..< c + 8` (`c` a multiple of 8; `low` holds
    /// channels `c ..< c + 4`) and stores the first `width` results at `out`.
    @inline(__always)
    func store<T: QuantizedElement>(
        _ low: SIMD4<Int32>, _ high: SIMD4<Int32>, channel c: Int, to out: UnsafeMutablePointer<T>,
        width: Int
    ) {
        guard arithmetic == .xnnpack else {
            storeReference(low, high, channel: c, to: out, width: width)
            return
        }
        let scales = UnsafeRawPointer(self.scales.raw)
        let q0 = QuantizedVector.requantize(
            low, scale: scales.load(fromByteOffset: c * 4, as: SIMD4<Float>.self),
            lower: lowerBound, upper: upperBound, bias: bias)
        let q1 = QuantizedVector.requantize(
            high, scale: scales.load(fromByteOffset: c * 4 + 16, as: SIMD4<Float>.self),
            lower: lowerBound, upper: upperBound, bias: bias)
        if width == 8 {
            QuantizedVector.storeNarrowed(q0, q1, to: UnsafeMutableRawPointer(out), signed: T.isSigned)
        } else {
            var bytes: (UInt64) = 0
            withUnsafeMutableBytes(of: &bytes) { buffer in
                guard let base = buffer.baseAddress else { return }
                QuantizedVector.storeNarrowed(q0, q1, to: base, signed: T.isSigned)
                UnsafeMutableRawPointer(out).copyMemory(from: base, byteCount: width)
            }
        }
    }

    @inline(never)
    private func storeReference<T: QuantizedElement>(
        _ low: SIMD4<Int32>, _ high: SIMD4<Int32>, channel c: Int,
        to out: UnsafeMutablePointer<T>, width: Int
    ) {
        for i in 0..<width {
            let acc = i < 4 ? low[i] : high[i - 4]
            out[i] = T(truncatingIfNeeded: range.clamp(multipliers[c + i].apply(acc) &+ zeroPoint))
        }
    }
}
