import Foundation
import VisionTasks

/// Turns PoseLandmarker results into ML Kit's pixel-space poses.
///
/// The mapping (docs/DIFFERENCES.md, "PoseDetection"): x and y are the normalized coordinates
/// times the upright image's width and height in pixels; z is the normalized z times the
/// width, the scale MediaPipe gives z ("same scale as x"); `inFrameLikelihood` is the
/// landmark's presence (the model's probability that the landmark is inside the image).
enum PoseConversion {
    /// One ``Pose`` per landmark list, each with the 33 landmarks in ``PoseLandmarkType/allTypes``
    /// order; lists of another length are skipped.
    static func poses(from landmarks: [[NormalizedLandmark]], width: Int, height: Int) -> [Pose] {
        landmarks.compactMap { pose(from: $0, width: width, height: height) }
    }

    /// One pose, or `nil` when the list does not hold exactly 33 landmarks.
    static func pose(from landmarks: [NormalizedLandmark], width: Int, height: Int) -> Pose? {
        let types = PoseLandmarkType.allTypes
        guard landmarks.count == types.count else { return nil }
        let scaleX = CGFloat(width)
        let scaleY = CGFloat(height)
        var converted: [PoseLandmark] = []
        converted.reserveCapacity(types.count)
        for (type, landmark) in zip(types, landmarks) {
            let position = Vision3DPoint(
                x: CGFloat(landmark.x) * scaleX, y: CGFloat(landmark.y) * scaleY, z: CGFloat(landmark.z) * scaleX)
            converted.append(
                PoseLandmark(type: type, position: position, inFrameLikelihood: inFrameLikelihood(of: landmark)))
        }
        return Pose(landmarks: converted)
    }

    /// The landmark's presence, clamped to 0…1; 0 when the model gave none.
    static func inFrameLikelihood(of landmark: NormalizedLandmark) -> Float {
        guard let presence = landmark.presence, presence.isFinite else { return 0 }
        return min(max(presence, 0), 1)
    }
}
