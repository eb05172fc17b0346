import Foundation

/// Angle helpers shared by the rect calculators.
enum Radians {
    /// Wraps `angle` into [-π, π): `a − 2π·floor((a + π) / 2π)`, evaluated in double and
    /// rounded to float as MediaPipe does
    /// (mediapipe/calculators/util/detections_to_rects_calculator.h).
    static func normalized(_ angle: Float) -> Float {
        let value = Double(angle)
        return Float(value - 2 * Double.pi * (floor((value + Double.pi) / (2 * Double.pi))))
    }
}
