/// A single-channel image such as a segmentation mask, row-major, `width × height` values.
///
/// Mirrors MediaPipe's `MPPMask` (mediapipe/tasks/ios/vision/core/sources/MPPMask.h). Reading the
/// type that is not the native one converts once and caches the result (`float × 255`,
/// truncated, for bytes; `byte / 255` for floats). A mask always owns its pixels: the
/// initializers copy even when `shouldCopy` is `false` (see docs/DIFFERENCES.md). The pointers
/// stay valid as long as any copy of the mask is alive.
public struct Mask: Sendable {
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int

    private let storage: MaskStorage

    /// The type the mask stores natively.
    public var dataType: MaskDataType { storage.dataType }

    /// The pixels as bytes, 0…255 (converted from floats on first use if needed).
    public var uint8Data: UnsafePointer<UInt8> { UnsafePointer(storage.uint8Pointer()) }

    /// The pixels as floats, 0…1 (converted from bytes on first use if needed).
    public var float32Data: UnsafePointer<Float> { UnsafePointer(storage.float32Pointer()) }

    /// Creates a mask of bytes by copying `width × height` values from `uInt8Data`.
    ///
    /// Returns `nil` when `width` or `height` is not positive or their product overflows.
    public init?(uInt8Data: UnsafePointer<UInt8>, width: Int, height: Int, shouldCopy: Bool) {
        guard let count = Mask.pixelCount(width: width, height: height) else { return nil }
        self.width = width
        self.height = height
        storage = MaskStorage(copyingBytes: UnsafeBufferPointer(start: uInt8Data, count: count))
    }

    /// Creates a mask of floats by copying `width × height` values from `float32Data`.
    ///
    /// Returns `nil` when `width` or `height` is not positive or their product overflows.
    public init?(float32Data: UnsafePointer<Float>, width: Int, height: Int, shouldCopy: Bool) {
        guard let count = Mask.pixelCount(width: width, height: height) else { return nil }
        self.width = width
        self.height = height
        storage = MaskStorage(copyingFloats: UnsafeBufferPointer(start: float32Data, count: count))
    }

    /// Creates a float mask from pipeline output; `values.count` must be `width × height`.
    init?(float32Values values: [Float], width: Int, height: Int) {
        guard let count = Mask.pixelCount(width: width, height: height), count == values.count else {
            return nil
        }
        self.width = width
        self.height = height
        storage = values.withUnsafeBufferPointer { MaskStorage(copyingFloats: $0) }
    }

    /// Creates a float mask of `width × height` and lets `fill` write its pixels, without an
    /// intermediate copy (pipeline output). With `zeroed` the pixels start at zero; without it
    /// `fill` must write every pixel (a 958 × 1358 segmenter mask then skips a 5.2 MB memset).
    init?(float32Width width: Int, height: Int, zeroed: Bool, fill: (UnsafeMutableBufferPointer<Float>) -> Void) {
        guard let count = Mask.pixelCount(width: width, height: height) else { return nil }
        self.width = width
        self.height = height
        storage = MaskStorage(floats: count, zeroed: zeroed, fill: fill)
    }

    /// Creates a byte mask of `width × height` and lets `fill` write its pixels, as
    /// ``init(float32Width:height:zeroed:fill:)`` does for floats.
    init?(uInt8Width width: Int, height: Int, zeroed: Bool, fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        guard let count = Mask.pixelCount(width: width, height: height) else { return nil }
        self.width = width
        self.height = height
        storage = MaskStorage(bytes: count, zeroed: zeroed, fill: fill)
    }

    /// Calls `body` with the pixels as floats.
    public func withUnsafeFloat32Buffer<R>(_ body: (UnsafeBufferPointer<Float>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: storage.float32Pointer(), count: width * height))
    }

    /// Calls `body` with the pixels as bytes.
    public func withUnsafeUInt8Buffer<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: storage.uint8Pointer(), count: width * height))
    }

    private static func pixelCount(width: Int, height: Int) -> Int? {
        guard width > 0, height > 0 else { return nil }
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? nil : count
    }
}
