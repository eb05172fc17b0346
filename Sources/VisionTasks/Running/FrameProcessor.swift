/// A task's per-frame work: everything between an input image and a result.
///
/// A ``TaskRunner`` owns its processor and never calls ``process(_:timestampInMilliseconds:)``
/// from two threads at once, so a processor may keep tracking and smoothing state in plain
/// stored properties without locks.
package protocol FrameProcessor: SendableMetatype {
    /// What one call receives, e.g. an `MPImage`.
    associatedtype Input: Sendable
    /// What one call produces, e.g. a `PoseLandmarkerResult`.
    associatedtype Output: Sendable

    /// Processes one frame. `timestampInMilliseconds` is the caller's timestamp in video and
    /// live-stream mode and MediaPipe's synthetic 0, 1000, 2000, … in image mode.
    mutating func process(_ input: Input, timestampInMilliseconds: Int) throws -> Output
}
