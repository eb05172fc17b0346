import Foundation

/// One detected object: its classes, its box in pixels and optional keypoints.
///
/// Mirrors MediaPipe's `MPPDetection`
/// (mediapipe/tasks/ios/components/containers/sources/MPPDetection.h).
public struct Detection: Sendable, Hashable {
    /// The object's classes, best first.
    public var categories: [ResultCategory]
    /// The bounding box in pixels of the unrotated input image, with whole-number values.
    public var boundingBox: CGRect
    /// Keypoints of the object, or `nil` when the model gives none.
    public var keypoints: [NormalizedKeypoint]?

    /// Creates a detection.
    public init(categories: [ResultCategory], boundingBox: CGRect, keypoints: [NormalizedKeypoint]?) {
        self.categories = categories
        self.boundingBox = boundingBox
        self.keypoints = keypoints
    }
}
