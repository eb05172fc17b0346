/// How a detection's rect gets its rotation: the angle of the vector from keypoint `start` to
/// keypoint `end` is turned to `targetAngle` (radians)
/// (mediapipe/calculators/util/detections_to_rects_calculator.proto).
struct RotationVector: Sendable, Hashable {
    var start: Int
    var end: Int
    var targetAngle: Float

    /// A target given in degrees, converted as `π·deg/180` in double and rounded to float
    /// (`rotation_vector_target_angle_degrees`; detections_to_rects_calculator.cc).
    static func degrees(start: Int, end: Int, targetDegrees: Float) -> RotationVector {
        RotationVector(start: start, end: end, targetAngle: Float(Double.pi * Double(targetDegrees) / 180))
    }
}
