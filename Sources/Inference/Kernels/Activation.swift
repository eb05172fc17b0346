import CVisionKernels
import ModelFile

/// A fused activation in the form kernels apply it: a clamp, or a function applied after the
/// operator's result (then the clamp is the identity).
///
/// TFLite's float kernels apply fused activations as `min(max(x, lower), upper)`
/// (tensorflow/lite/kernels/internal/common.h, `ActivationFunctionWithMinMax`; ranges from
/// tensorflow/lite/kernels/kernel_util.cc, `CalculateActivationRange`), and TANH as `tanh(x)`.
/// HARD_SWISH is not a TFLite fused activation: ``GraphFusion`` folds a separate HARD_SWISH
/// operator into the convolution that writes its input, and the convolution applies it to the
/// values it would have stored, with XNNPACK's formula (`vk_hard_swish`), so the bits are the
/// separate operator's.
struct ActivationClamp: Equatable {
    /// A function applied to the operator's result instead of a clamp.
    enum Function: Equatable {
        case none
        /// `tanh(x)` (the C library's `tanhf`).
        case tanh
        /// XNNPACK's hard swish, `x · min(max(fma(x, ⅙, ½), 0), 1)` (`vk_hard_swish`).
        case hardSwish
    }

    /// The bounds kernels clamp to while storing their results: `-∞` and `+∞` when a function is
    /// applied instead, so a kernel passes them on as they are in every case.
    let lower: Float
    let upper: Float
    /// The function applied instead of the clamp (`.none` for a clamp).
    let function: Function

    static let identity = ActivationClamp(lower: -.infinity, upper: .infinity, function: .none)

    /// Fused HARD_SWISH.
    static let hardSwish = ActivationClamp(lower: -.infinity, upper: .infinity, function: .hardSwish)

    /// The clamp for `activation`, or `nil` when the engine does not support it (SIGN_BIT).
    init?(_ activation: FusedActivation) {
        switch activation {
        case .none: self = .identity
        case .relu: self.init(lower: 0, upper: .infinity, function: .none)
        case .reluN1To1: self.init(lower: -1, upper: 1, function: .none)
        case .relu6: self.init(lower: 0, upper: 6, function: .none)
        case .tanh: self.init(lower: -.infinity, upper: .infinity, function: .tanh)
        case .signBit: return nil
        }
    }

    /// A clamp to `[lower, upper]`, or `function` (whose bounds are then infinite, whatever is
    /// given).
    init(lower: Float, upper: Float, function: Function) {
        self.lower = function == .none ? lower : -.infinity
        self.upper = function == .none ? upper : .infinity
        self.function = function
    }

    var isIdentity: Bool { self == .identity }

    /// Whether a function (TANH, HARD_SWISH) is applied rather than a clamp: kernels then store
    /// their results unclamped and apply it afterwards (``apply(to:count:)``).
    var hasFunction: Bool { function != .none }

    @inline(__always)
    func apply(_ x: Float) -> Float {
        switch function {
        case .none: return Swift.min(Swift.max(x, lower), upper)
        case .tanh: return Float.tanhValue(x)
        case .hardSwish:
            var y: Float = 0
            withUnsafePointer(to: x) { vk_hard_swish(InstructionSet.portable.isa, $0, &y, 1) }
            return y
        }
    }

    @inline(__always)
    func apply(_ x: SIMD8<Float>) -> SIMD8<Float> {
        switch function {
        case .none: return clamped(x, SIMD8(repeating: lower), SIMD8(repeating: upper))
        case .tanh, .hardSwish:
            var y = x
            for i in 0..<8 { y[i] = apply(x[i]) }
            return y
        }
    }

    /// Applies the activation in place to columns `columns` of rows `rows` of a matrix whose
    /// rows are `stride` floats apart: one call when the columns are whole rows.
    func apply(
        to base: UnsafeMutablePointer<Float>, rows: Range<Int>, stride: Int, columns: Range<Int>,
        instructionSet: InstructionSet = .best
    ) {
        if isIdentity || rows.isEmpty || columns.isEmpty { return }
        if columns.count == stride {
            apply(to: base + rows.lowerBound * stride, count: rows.count * stride, instructionSet: instructionSet)
            return
        }
        for m in rows {
            apply(to: base + m * stride + columns.lowerBound, count: columns.count, instructionSet: instructionSet)
        }
    }

    /// Applies the activation in place to `count` floats (HARD_SWISH with `instructionSet`'s
    /// kernel, the CPU's best by default: every build computes the same bits, and kernels that
    /// may carry a fused HARD_SWISH pass their own).
    func apply(to values: UnsafeMutablePointer<Float>, count: Int, instructionSet: InstructionSet = .best) {
        if isIdentity { return }
        if function == .hardSwish {
            vk_hard_swish(instructionSet.isa, values, values, count)
            return
        }
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
