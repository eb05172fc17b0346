#if canImport(Foundation)
    import Foundation
#endif

/// Options of an ``Interpreter``.
package final class InterpreterOptions: @unchecked Sendable {
    // @unchecked: plain stored values, read once when an interpreter is created.

    /// Number of threads that run the kernels, the calling thread included. Values below 1
    /// are treated as 1. Results are identical whatever the count.
    package var threadCount: Int

    /// The arithmetic of quantized operators: ``QuantizedArithmetic/xnnpack`` (the default,
    /// LiteRT's and MediaPipe's CPU path) or ``QuantizedArithmetic/reference``. Float models
    /// are not affected.
    package var quantizedArithmetic: QuantizedArithmetic

    /// The SIMD instruction set of the kernels; `nil` (the default) picks the best this CPU
    /// supports. An unsupported choice falls back to the portable kernels.
    package var instructionSet: InstructionSet?

    /// Positions among the model's outputs (0 for the first) whose values the caller never
    /// reads. The operators that only these outputs need do not run — a pose landmark model's
    /// segmentation decoder, say, when no mask is wanted — and reading such an output throws
    /// ``InferenceError/outputNotComputed(index:)``. The other outputs keep their bits. Empty by
    /// default; a position out of range throws ``InferenceError/tensorIndexOutOfRange(kind:index:count:)``
    /// when the interpreter is created.
    package var unusedOutputs: Set<Int> = []

    /// How the engine fuses and shares out the model's layers (never what it computes);
    /// ``EngineTuning/standard`` by default.
    package var tuning = EngineTuning.standard

    /// Creates options; `threadCount` defaults to the number of active processor cores.
    package init(
        threadCount: Int = InterpreterOptions.defaultThreadCount,
        quantizedArithmetic: QuantizedArithmetic = .xnnpack
    ) {
        self.threadCount = threadCount
        self.quantizedArithmetic = quantizedArithmetic
    }

    /// The number of active processor cores.
    package static var defaultThreadCount: Int {
        ProcessInfo.processInfo.activeProcessorCount
    }
}
