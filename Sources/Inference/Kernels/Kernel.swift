/// What a kernel gets when it runs.
struct ExecutionContext {
    /// The pool to split work over.
    let pool: ThreadPool
    /// Scratch memory: thread `t` owns `scratchBytesPerThread` bytes at `scratch + t * scratchStride`.
    let scratch: UnsafeMutableRawPointer
    let scratchStride: Int

    /// Thread `thread`'s scratch memory as floats.
    func scratchFloats(thread: Int) -> UnsafeMutablePointer<Float> {
        (scratch + thread * scratchStride).assumingMemoryBound(to: Float.self)
    }
}

/// One prepared operator: shapes checked, weights packed, tensor addresses resolved.
///
/// Kernels are built once when the interpreter is created and hold raw pointers into the
/// interpreter's arena and into their own packed constants; `execute` must not allocate.
protocol Kernel: AnyObject {
    /// Scratch memory each thread needs while this kernel runs (0 for most kernels).
    var scratchBytesPerThread: Int { get }
    /// Bytes of constant data the kernel owns: packed weights, biases, zero rows (0 for most).
    var constantByteCount: Int { get }
    /// Computes the operator's outputs from its inputs.
    func execute(_ context: ExecutionContext)
}

extension Kernel {
    var scratchBytesPerThread: Int { 0 }
    var constantByteCount: Int { 0 }
}

/// A kernel that does nothing (RESHAPE and friends, whose output shares its input's memory).
final class AliasKernel: Kernel {
    func execute(_ context: ExecutionContext) {}
}

/// Copies bytes (a RESHAPE whose input and output could not share memory).
final class CopyKernel: Kernel {
    let source: UnsafeRawPointer
    let destination: UnsafeMutableRawPointer
    let byteCount: Int

    init(source: UnsafeRawPointer, destination: UnsafeMutableRawPointer, byteCount: Int) {
        self.source = source
        self.destination = destination
        self.byteCount = byteCount
    }

    func execute(_ context: ExecutionContext) {
        if source != UnsafeRawPointer(destination) {
            destination.copyMemory(from: source, byteCount: byteCount)
        }
    }
}
