/// A line between two landmarks, given by their indices, used to draw a skeleton.
///
/// Mirrors MediaPipe's `MPPConnection`
/// (mediapipe/tasks/ios/components/containers/sources/MPPConnection.h), including its `UInt`
/// fields.
public struct Connection: Sendable, Hashable {
    /// The index of the first landmark.
    public var start: UInt
    /// The index of the second landmark.
    public var end: UInt

    /// Creates a connection.
    public init(start: UInt, end: UInt) {
        self.start = start
        self.end = end
    }
}
