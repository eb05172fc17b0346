#if canImport(Foundation)
import Foundation
#endif

/// Options of an ``Interpreter``.
public final class InterpreterOptions: @unchecked Sendable {
    // @unchecked: plain stored values, read once when an interpreter is created.

    /// Number of threads that run the kernels, the calling thread included. Values below 1
    /// are treated as 1. Results are identical whatever the count.
    public var threadCount: Int

    /// The SIMD instruction set of the kernels; `nil` (the default) picks the best this CPU
    /// supports. An unsupported choice falls back to the portable kernels.
    package var instructionSet: InstructionSet?

    /// Creates options; `threadCount` defaults to the number of active processor cores.
    public init(threadCount: Int = InterpreterOptions.defaultThreadCount) {
        self.threadCount = threadCount
    }

    /// The number of active processor cores.
    public static var defaultThreadCount: Int {
        ProcessInfo.processInfo.activeProcessorCount
    }
}
