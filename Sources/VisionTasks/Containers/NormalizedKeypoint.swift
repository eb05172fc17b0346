import Foundation

/// A point of a detection, such as an eye of a face, in image coordinates normalized to 0…1.
///
/// Mirrors MediaPipe's `MPPNormalizedKeypoint`
/// (mediapipe/tasks/ios/components/containers/sources/MPPDetection.h).
public struct NormalizedKeypoint: Sendable, Hashable {
    /// The position as fractions of the image width and height.
    public var location: CGPoint
    /// The keypoint's name, if the model gives one.
    public var label: String?
    /// The keypoint's score; 0 when the model gives none.
    public var score: Float

    /// Creates a keypoint.
    public init(location: CGPoint, label: String?, score: Float) {
        self.location = location
        self.label = label
        self.score = score
    }
}
