import Foundation
import Imaging

/// MediaPipe's `WorldLandmarkProjectionCalculator`: rotates world landmarks by the ROI's
/// rotation about the z-axis, without translation
/// (mediapipe/calculators/util/world_landmark_projection_calculator.cc, ../shared/spec/PIPELINES.md §1.7).
enum WorldLandmarkProjection {
    static func project(_ landmarks: [Landmark], rotation: Float) -> [Landmark] {
        let cosine = CorrectlyRounded.cos(rotation)
        let sine = CorrectlyRounded.sin(rotation)
        return landmarks.map { landmark in
            var projected = landmark
            projected.x = cosine * landmark.x - sine * landmark.y
            projected.y = sine * landmark.x + cosine * landmark.y
            return projected
        }
    }
}
