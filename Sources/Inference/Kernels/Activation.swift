import ModelFile

/// A fused activation in the form kernels apply it: a clamp, optionally preceded by tanh.
///
/// TFLite's float kernels apply fused activations as `min(max(x, lower), upper)`
/// (tensorflow/lite/kernels/internal/common.h, `ActivationFunctionWithMinMax`; ranges from
/// tensorflow/lite/kernels/kernel_util.cc, `CalculateActivationRange`), and TANH as `tanh(x)`.
struct ActivationClamp: Equatable {
    var lower: Float
    var upper: Float
    /// Whether `tanh` is applied (fused TANH); then the clamp is the identity.
    var isTanh: Bool

    static let identity = ActivationClamp(lower: -.infinity, upper: .infinity, isTanh: false)

    /// The clamp for `activation`, or `nil` when the engine does not support it (SIGN_BIT).
    init?(_ activation: FusedActivation) {
        switch activation {
        case .none: self = .identity
        case .relu: self.init(lower: 0, upper: .infinity, isTanh: false)
        case .reluN1To1: self.init(lower: -1, upper: 1, isTanh: false)
        case .relu6: self.init(lower: 0, upper: 6, isTanh: false)
        case .tanh: self.init(lower: -.infinity, upper: .infinity, isTanh: true)
        case .signBit: return nil
        }
    }

    init(lower: Float, upper: Float, isTanh: Bool) {
        self.lower = lower
        self.upper = upper
        self.isTanh = isTanh
    }

    var isIdentity: Bool { self == .identity }

    @inline(__always)
    func apply(_ x: Float) -> Float {
        if isTanh { return Float.tanhValue(x) }
        return Swift.min(Swift.max(x, lower), upper)
    }

    @inline(__always)
    func apply(_ x: SIMD8<Float>) -> SIMD8<Float> {
        if isTanh {
            var y = x
            for i in 0..<8 { y[i] = Float.tanhValue(x[i]) }
            return y
        }
        return clamped(x, SIMD8(repeating: lower), SIMD8(repeating: upper))
    }

    /// Applies the activation in place to `count` floats.
    func apply(to values: UnsafeMutablePointer<Float>, count: Int) {
        if isIdentity { return }
        var i = 0
        while i + 8 <= count {
            let v = UnsafeRawPointer(values + i).loadUnaligned(as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(values + i).storeBytes(of: apply(v), as: SIMD8<Float>.self)
            i += 8
        }
        while i < count {
            values[i] = apply(values[i])
            i += 1
        }
    }
}

/// `min(max(v, lower), upper)` lane by lane, as compare-and-select (inlined, unlike the
/// standard library's generic `pointwiseMin`/`pointwiseMax`).
@inline(__always)
func clamped(_ v: SIMD8<Float>, _ lower: SIMD8<Float>, _ upper: SIMD8<Float>) -> SIMD8<Float> {
    let low = v.replacing(with: lower, where: v .< lower)
    return low.replacing(with: upper, where: low .> upper)
}
