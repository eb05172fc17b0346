import ModelFile

/// TFLite's fixed-point scaling of int32 values by a real multiplier (the "double rounding"
/// variant that LiteRT's reference kernels use; TFLITE_SINGLE_ROUNDING is not set there).
///
/// Sources: tflite/kernels/internal/quantization_util.cc (`QuantizeMultiplier`),
/// tflite/kernels/internal/common.cc and common.h (`MultiplyByQuantizedMultiplier`,
/// `MultiplyByQuantizedMultiplierSmallerThanOneExp`), and gemmlowp's
/// fixedpoint/fixedpoint.h (`SaturatingRoundingDoublingHighMul`, `RoundingDivideByPOT`).
struct FixedPointMultiplier: Equatable {
    /// The multiplier's mantissa as Q0.31, in [2^30, 2^31) (0 for a zero multiplier).
    let mantissa: Int32
    /// Power-of-two exponent: the real multiplier is `mantissa / 2^31 · 2^shift`.
    let shift: Int

    init(mantissa: Int32, shift: Int) {
        self.mantissa = mantissa
        self.shift = shift
    }

    /// `QuantizeMultiplier`: `frexp` of the multiplier, mantissa rounded half away from zero to
    /// 31 bits (carrying into the exponent when it rounds up to 1), and multipliers below
    /// 2^-31 flushed to zero.
    init(_ real: Double) {
        guard real != 0, real.isFinite else {
            self.init(mantissa: 0, shift: 0)
            return
        }
        // frexp: real = fraction · 2^exponent with |fraction| in [0.5, 1).
        var exponent = Int(real.exponent) + 1
        let fraction = real.significand / 2 * (real < 0 ? -1 : 1)
        var fixed = Int64((fraction * 2_147_483_648).rounded(.toNearestOrAwayFromZero))
        if fixed == 1 << 31 {
            fixed /= 2
            exponent += 1
        }
        if exponent < -31 {
            exponent = 0
            fixed = 0
        }
        self.init(mantissa: Int32(clamping: fixed), shift: exponent)
    }

    /// gemmlowp `SaturatingRoundingDoublingHighMul`: `a·b / 2^31` rounded to nearest — the
    /// nudge of ±2^30 followed by C's truncating division rounds ties up (towards +∞) — with
    /// the one overflowing case saturated.
    @inline(__always)
    static func roundingDoublingHighMultiply(_ a: Int32, _ b: Int32) -> Int32 {
        if a == b && a == Int32.min { return Int32.max }
        let product = Int64(a) * Int64(b)
        let nudge: Int64 = product >= 0 ? 1 << 30 : 1 - (1 << 30)
        // C++ integer division truncates towards zero.
        return Int32(truncatingIfNeeded: (product + nudge) / (1 << 31))
    }

    /// gemmlowp `RoundingDivideByPOT`: `x / 2^exponent` rounded to nearest, ties away from zero.
    @inline(__always)
    static func roundingDivide(_ x: Int32, byPowerOfTwo exponent: Int) -> Int32 {
        guard exponent > 0 else { return x }
        let mask = Int32(truncatingIfNeeded: (Int64(1) << exponent) - 1)
        let remainder = x & mask
        let threshold = (mask >> 1) + (x < 0 ? 1 : 0)
        return (x >> Int32(exponent)) + (remainder > threshold ? 1 : 0)
    }

    /// `MultiplyByQuantizedMultiplier` (double rounding): left shift for positive exponents
    /// (wrapping, as TFLite's unchecked C++), rounding doubling high multiply, then a rounding
    /// right shift for negative exponents.
    @inline(__always)
    func apply(_ x: Int32) -> Int32 {
        let left = shift > 0 ? shift : 0
        let right = shift > 0 ? 0 : -shift
        let shifted = x &* Int32(truncatingIfNeeded: Int64(1) << left)
        return FixedPointMultiplier.roundingDivide(
            FixedPointMultiplier.roundingDoublingHighMultiply(shifted, mantissa), byPowerOfTwo: right)
    }

    /// The same multiplication as TFLite's optimized kernels compute it on x86, where NEON
    /// intrinsics are emulated with SSE (tflite/kernels/internal/optimized/neon_check.h,
    /// NEON_2_SSE.h): `MultiplyByQuantizedMultiplier4Rows` (common.h) is `vqrdmulhq_s32` —
    /// `(2·a·b + 2^31) >> 32`, ties rounded up — followed by `vrshlq_s32`, a right shift that
    /// rounds ties up, where gemmlowp rounds ties away from zero.
    @inline(__always)
    func applyRoundingUp(_ x: Int32) -> Int32 {
        let left = shift > 0 ? shift : 0
        let right = shift > 0 ? 0 : -shift
        let shifted = x &* Int32(truncatingIfNeeded: Int64(1) << left)
        let high: Int64
        if shifted == Int32.min && mantissa == Int32.min {
            high = Int64(Int32.max)
        } else {
            high = (2 * Int64(shifted) * Int64(mantissa) + (1 << 31)) >> 32
        }
        guard right > 0 else { return Int32(truncatingIfNeeded: high) }
        return Int32(truncatingIfNeeded: (high + (1 << (right - 1))) >> right)
    }

    /// `MultiplyByQuantizedMultiplierSmallerThanOneExp` (`shift` ≤ 0).
    @inline(__always)
    func applySmallerThanOne(_ x: Int32) -> Int32 {
        FixedPointMultiplier.roundingDivide(
            FixedPointMultiplier.roundingDoublingHighMultiply(x, mantissa),
            byPowerOfTwo: -shift)
    }
}

/// The value range of a quantized element type.
struct QuantizedRange: Equatable {
    var lower: Int32
    var upper: Int32

    static let uint8 = QuantizedRange(lower: 0, upper: 255)
    static let int8 = QuantizedRange(lower: -128, upper: 127)

    /// Clamps to the range.
    @inline(__always)
    func clamp(_ v: Int32) -> Int32 { Swift.min(Swift.max(v, lower), upper) }
}

extension QuantizedArithmetic {
    /// The quantized output range of a fused activation on an output with `scale` and
    /// `zeroPoint`, intersected with `range`; `nil` for activations without a quantized form
    /// (TANH, SIGN_BIT).
    ///
    /// Reference: `CalculateActivationRangeQuantized` (tflite/kernels/kernel_util.cc):
    /// `zero_point + round_half_away(f / scale)`. XNNPACK: the delegate passes the float range
    /// (tflite/delegates/xnnpack/xnnpack_delegate.cc, `ConvertActivationToOutputRange`) and
    /// XNNPACK quantizes it as `lrintf(clamp(f / scale + zero_point))`
    /// (XNNPACK src/xnnpack/requantization.h, `xnn_qu8_quantize` / `xnn_qs8_quantize`).
    func activationRange(
        _ activation: FusedActivation, scale: Float, zeroPoint: Int32,
        range: QuantizedRange
    ) -> QuantizedRange? {
        let bounds: (Float?, Float?)
        switch activation {
        case .none: bounds = (nil, nil)
        case .relu: bounds = (0, nil)
        case .relu6: bounds = (0, 6)
        case .reluN1To1: bounds = (-1, 1)
        case .tanh, .signBit: return nil
        }
        func quantize(_ f: Float) -> Int32 {
            switch self {
            case .reference:
                // Beyond ±2^24 the bound is outside every 8-bit range anyway.
                let q = Swift.max(Swift.min((f / scale).rounded(.toNearestOrAwayFromZero), 16_777_216), -16_777_216)
                return zeroPoint + Int32(q)
            case .xnnpack:
                let v = Swift.min(Swift.max(f / scale + Float(zeroPoint), Float(range.lower)), Float(range.upper))
                return Int32(v.rounded(.toNearestOrEven))
            }
        }
        var result = range
        if let lower = bounds.0 { result.lower = Swift.max(range.lower, quantize(lower)) }
        if let upper = bounds.1 { result.upper = Swift.min(range.upper, quantize(upper)) }
        return result
    }
}
