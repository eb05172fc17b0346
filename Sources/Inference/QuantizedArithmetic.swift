/// The integer arithmetic the interpreter uses for quantized (UINT8 / INT8) operators.
///
/// TFLite's runtimes do not agree with each other bit for bit on quantized models: rounding
/// of the requantization step differs, and a difference of one quantum in an early layer
/// spreads through the network. The engine reproduces either of the two paths of LiteRT
/// (`ai-edge-litert` 2.3.0) exactly; pick the one whose results you compare against.
package enum QuantizedArithmetic: Sendable, Equatable {
    /// LiteRT's default CPU path, the XNNPACK delegate (also what MediaPipe runs): convolution
    /// and multiplication results are scaled in float32 and rounded to nearest-even, addition
    /// uses XNNPACK's 20-bit fixed-point multipliers, requantization a Q8 multiplier.
    /// Operators XNNPACK leaves to TFLite (uint8 CONCATENATION with differing scales, LOGISTIC
    /// tables, AVERAGE_POOL_2D, RESIZE_NEAREST_NEIGHBOR) follow TFLite.
    case xnnpack
    /// TFLite's reference kernels (`tflite/kernels/internal/reference`, LiteRT's
    /// `BUILTIN_REF` resolver): gemmlowp fixed-point multipliers with double rounding.
    case reference
}
