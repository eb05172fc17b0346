import Foundation

/// The pixels of a ``Mask``: the native buffer plus the lazily converted other type.
///
/// The buffers are never written after they are filled; the lazy conversion runs under a lock,
/// so the storage can be shared between threads.
final class MaskStorage: @unchecked Sendable {
    let dataType: MaskDataType
    private let count: Int
    private let lock = NSLock()
    private var bytes: UnsafeMutablePointer<UInt8>?
    private var floats: UnsafeMutablePointer<Float>?

    init(copyingBytes source: UnsafeBufferPointer<UInt8>) {
        dataType = .uInt8
        count = source.count
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(count, 1))
        if let base = source.baseAddress { buffer.update(from: base, count: count) }
        bytes = buffer
    }

    init(copyingFloats source: UnsafeBufferPointer<Float>) {
        dataType = .float32
        count = source.count
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: max(count, 1))
        if let base = source.baseAddress { buffer.update(from: base, count: count) }
        floats = buffer
    }

    init(floats count: Int, zeroed: Bool, fill: (UnsafeMutableBufferPointer<Float>) -> Void) {
        dataType = .float32
        self.count = count
        floats = MaskStorage.filled(count, zeroed: zeroed, fill: fill)
    }

    init(bytes count: Int, zeroed: Bool, fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        dataType = .uInt8
        self.count = count
        bytes = MaskStorage.filled(count, zeroed: zeroed, fill: fill)
    }

    /// A buffer of room for `count` values (at least one), zeros when `zeroed`, that `fill` then
    /// writes; without `zeroed`, `fill` must write every value (the element types are trivial, so
    /// an unwritten one would only hold stale bits).
    private static func filled<Value: Numeric>(
        _ count: Int, zeroed: Bool, fill: (UnsafeMutableBufferPointer<Value>) -> Void
    ) -> UnsafeMutablePointer<Value> {
        let buffer = UnsafeMutablePointer<Value>.allocate(capacity: max(count, 1))
        if zeroed { buffer.initialize(repeating: 0, count: max(count, 1)) }
        fill(UnsafeMutableBufferPointer(start: buffer, count: count))
        return buffer
    }

    deinit {
        bytes?.deallocate()
        floats?.deallocate()
    }

    /// The bytes, converting from floats on first use: `float × 255`, clamped to 0…255 and
    /// truncated (MediaPipe truncates without clamping; mediapipe/tasks/ios/vision/core/sources/MPPMask.mm).
    func uint8Pointer() -> UnsafeMutablePointer<UInt8> {
        lock.lock()
        defer { lock.unlock() }
        if let bytes { return bytes }
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(count, 1))
        if let floats {
            for index in 0..<count {
                let scaled = floats[index] * 255
                buffer[index] = scaled.isNaN ? 0 : UInt8(min(max(scaled, 0), 255))
            }
        }
        bytes = buffer
        return buffer
    }

    /// The floats, converting from bytes on first use: `byte / 255`.
    func float32Pointer() -> UnsafeMutablePointer<Float> {
        lock.lock()
        defer { lock.unlock() }
        if let floats { return floats }
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: max(count, 1))
        if let bytes {
            for index in 0..<count {
                buffer[index] = Float(bytes[index]) / 255
            }
        }
        floats = buffer
        return buffer
    }
}
