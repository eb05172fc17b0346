import Foundation

/// A 2D point in the input image's pixel coordinates (ML Kit's `VisionPoint`).
public struct VisionPoint: Sendable, Equatable {
    /// Horizontal position in pixels, from the left edge of the upright image.
    public var x: CGFloat
    /// Vertical position in pixels, from the top edge of the upright image.
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
    /// Horizontal position in pixels, from the left edge of the upright image.
    public var x: CGFloat
    /// Vertical position in pixels, from the top edge of the upright image.
    public var y: CGFloat
    /// Depth on the scale of `x`, relative to the hips; negative is nearer the camera.
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
