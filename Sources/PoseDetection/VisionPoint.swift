import Foundation

/// A 2D point in the input image's pixel coordinates (ML Kit's `VisionPoint`).
public struct VisionPoint: Sendable, Equatable {
    public var x: CGFloat
    public var y: CGFloat

    /// Creates a point.
    public init(x: CGFloat, y: CGFloat) {
        self.x = x
        self.y = y
    }
}

/// A 3D point (ML Kit's `Vision3DPoint`): x and y in image pixels, z on the same scale with its
/// origin at the hips (negative is nearer the camera).
public struct Vision3DPoint: Sendable, Equatable {
    public var x: CGFloat
    public var y: CGFloat
    public var z: CGFloat

    /// Creates a point.
    public init(x: CGFloat, y: CGFloat, z: CGFloat) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The point without its depth.
    public var visionPoint: VisionPoint { VisionPoint(x: x, y: y) }
}
