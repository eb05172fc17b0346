/// A landmark in image coordinates: `x` and `y` are fractions of the image width and height
/// (they can fall outside 0…1), `z` is depth on roughly the same scale as `x`, smaller being
/// closer to the camera.
///
/// Mirrors MediaPipe's `MPPNormalizedLandmark`
/// (mediapipe/tasks/ios/components/containers/sources/MPPLandmark.h). Unlike MediaPipe, equality
/// compares every field exactly (see docs/DIFFERENCES.md).
public struct NormalizedLandmark: Sendable, Hashable {
    /// x as a fraction of the image width.
    public var x: Float
    /// y as a fraction of the image height.
    public var y: Float
    /// Depth, scaled like `x`.
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
