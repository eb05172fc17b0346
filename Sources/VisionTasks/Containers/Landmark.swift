/// A landmark in world coordinates: metres, with the origin at the centre of the body or
/// hand. A smaller `z` is closer to the camera.
///
/// Mirrors MediaPipe's `MPPLandmark`
/// (mediapipe/tasks/ios/components/containers/sources/MPPLandmark.h). Unlike MediaPipe, equality
/// compares every field exactly (see docs/DIFFERENCES.md).
public struct Landmark: Sendable, Hashable {
    /// x in metres.
    public var x: Float
    /// y in metres.
    public var y: Float
    /// z in metres.
    public var z: Float
    /// The probability that the landmark is visible (not occluded), or `nil` when the model
    /// does not give one.
    public var visibility: Float?
    /// The probability that the landmark is inside the image, or `nil` when the model does not
    /// give one.
    public var presence: Float?

    /// Creates a landmark.
    public init(x: Float, y: Float, z: Float, visibility: Float? = nil, presence: Float? = nil) {
        self.x = x
        self.y = y
        self.z = z
        self.visibility = visibility
        self.presence = presence
    }
}
