import Foundation
import Imaging

/// MediaPipe's `LandmarkProjectionCalculator` with a rect and no image size: maps landmarks
/// from ROI-normalized to image-normalized coordinates
/// (mediapipe/calculators/util/landmark_projection_calculator.cc, ../shared/spec/PIPELINES.md §1.6).
///
/// x' = xc + (cos r·(x−½) − sin r·(y−½))·w, y' = yc + (sin r·(x−½) + cos r·(y−½))·h, z' = z·w.
/// Exact for ROIs that are square in pixels, which is what both landmarkers use.
enum LandmarkProjection {
    static func project(_ landmarks: [NormalizedLandmark], onto rect: NormalizedRect) -> [NormalizedLandmark] {
        let cosine = CorrectlyRounded.cos(rect.rotation)
        let sine = CorrectlyRounded.sin(rect.rotation)
        return landmarks.map { landmark in
            let x = landmark.x - 0.5
            let y = landmark.y - 0.5
            var projected = landmark
            projected.x = (cosine * x - sine * y) * rect.width + rect.xCenter
            projected.y = (sine * x + cosine * y) * rect.height + rect.yCenter
            projected.z = landmark.z * rect.width
            return projected
        }
    }
}
