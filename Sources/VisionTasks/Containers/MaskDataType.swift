/// The element type a ``Mask`` stores natively.
///
/// Mirrors MediaPipe's `MPPMaskDataType` (mediapipe/tasks/ios/vision/core/sources/MPPMask.h).
public enum MaskDataType: Int, Sendable, CaseIterable {
    /// One byte per pixel, 0…255.
    case uInt8 = 0
    /// One `Float` per pixel, 0…1.
    case float32 = 1
}
