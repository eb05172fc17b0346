/// An owned, zero-initialised, 64-byte aligned block of memory.
///
/// Holds the arena, pre-packed weights and folded constants. The block is padded by
/// ``AlignedBuffer/slack`` bytes so that vector loads that run past the last element stay
/// inside the allocation.
final class AlignedBuffer: @unchecked Sendable {
    // @unchecked: written only while the interpreter is being built, then read-only, except
    // the arena, which only the owning interpreter writes.

    /// Alignment of every buffer and of every arena slot.
    static let alignment = 64
    /// Extra bytes after the end.
    static let slack = 64

    let byteCount: Int
    let raw: UnsafeMutableRawPointer

    init(byteCount: Int) {
        self.byteCount = byteCount
        let total = byteCount + AlignedBuffer.slack
        raw = UnsafeMutableRawPointer.allocate(byteCount: total, alignment: AlignedBuffer.alignment)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: total)
    }

    /// A buffer holding a copy of `values`.
    convenience init<T>(copying values: UnsafeBufferPointer<T>) {
        self.init(byteCount: values.count * MemoryLayout<T>.stride)
        if let base = values.baseAddress {
            raw.copyMemory(from: base, byteCount: values.count * MemoryLayout<T>.stride)
        }
    }

    deinit { raw.deallocate() }

    /// The contents bound to `T`.
    func bound<T>(to type: T.Type) -> UnsafeMutablePointer<T> {
        raw.bindMemory(to: T.self, capacity: (byteCount + AlignedBuffer.slack) / MemoryLayout<T>.stride)
    }

    /// The contents as floats.
    var floats: UnsafeMutablePointer<Float> { bound(to: Float.self) }
}
