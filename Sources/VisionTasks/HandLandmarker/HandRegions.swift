import Foundation
import Imaging

/// Which regions the hand landmark model runs on, and the region the next frame tracks
/// (../shared/spec/PIPELINES.md §3.3, §3.5).
enum HandRegions {
    /// The 12 landmarks the next-frame rect is built from: wrist, thumb CMC/MCP/IP and the MCP
    /// and PIP joints of the four fingers
    /// (mediapipe/tasks/cc/vision/hand_landmarker/hand_landmarks_detector_graph.cc).
    static let rectLandmarkIndices = [0, 1, 2, 3, 5, 6, 9, 10, 13, 14, 17, 18]

    /// The regions for this frame, clipped to `numHands`.
    ///
    /// In image mode (`tracked` is `nil`) these are the detector's hand rects. When tracking,
    /// `detected` is `nil` if the detector did not run; tracked rects are kept and a detector
    /// rect is added only if it overlaps none of the result with IoU above
    /// `minTrackingConfidence` (hand_association_calculator.cc).
    static func regions(
        tracked: [NormalizedRect]?, detected: [NormalizedRect]?, numHands: Int, minTrackingConfidence: Float
    ) -> [NormalizedRect] {
        guard let tracked else {
            return RegionTracker.clip(detected ?? [], to: numHands)
        }
        let merged = RectAssociation.keepingTracked(tracked, detected: detected ?? [], threshold: minTrackingConfidence)
        return RegionTracker.clip(merged, to: numHands)
    }

    /// Whether a region is the all-zero "no palm" placeholder, for which MediaPipe makes no
    /// tensor and so no landmarks (image_to_tensor_calculator.cc; ../shared/spec/PIPELINES.md §1.3 step 3).
    static func isPlaceholder(_ rect: NormalizedRect) -> Bool {
        rect.width == 0 && rect.height == 0
    }

    /// The next frame's region from a hand's image-normalized landmarks: MediaPipe's
    /// `HandLandmarksToRectCalculator` on the 12-landmark subset, then ×2, shifted by −0.1
    /// along its y-axis, square.
    static func nextFrameRegion(landmarks: [NormalizedLandmark], imageSize: ImageSize) throws(TasksError)
        -> NormalizedRect
    {
        guard landmarks.count == HandLandmarksDecoder.landmarkCount else {
            throw .internalError("hand has \(landmarks.count) landmarks, expected 21")
        }
        let subset = rectLandmarkIndices.map { SIMD2(landmarks[$0].x, landmarks[$0].y) }
        let rect = landmarksRect(subset, imageSize: imageSize)
        return RectTransformation.handLandmarks.apply(to: rect, imageSize: imageSize)
    }

    /// `HandLandmarksToRectCalculator`
    /// (mediapipe/modules/hand_landmark/calculators/hand_landmarks_to_rect_calculator.cc) on the
    /// 12-point subset: rotation from the wrist towards the mean of the index, middle and ring
    /// MCPs, then the tightest rect in that rotated frame.
    static func landmarksRect(_ points: [SIMD2<Float>], imageSize: ImageSize) -> NormalizedRect {
        let width = Float(imageSize.width)
        let height = Float(imageSize.height)
        // Subset positions 0, 4, 6, 8 are landmarks 0, 5, 9, 13.
        let x0 = points[0].x * width
        let y0 = points[0].y * height
        var x1 = (points[4].x + points[8].x) / 2
        var y1 = (points[4].y + points[8].y) / 2
        x1 = (x1 + points[6].x) / 2 * width
        y1 = (y1 + points[6].y) / 2 * height
        // M_PI * 0.5f in double, rounded to float (Swift's Float.pi is rounded toward zero).
        let targetAngle = Float(Double.pi * 0.5)
        let rotation = Radians.normalized(targetAngle - CorrectlyRounded.atan2(-(y1 - y0), x1 - x0))
        let reverse = Radians.normalized(-rotation)

        // Upstream starts the running maxima at the smallest positive float, not at −∞.
        var maxX = Float.leastNormalMagnitude
        var maxY = Float.leastNormalMagnitude
        var minX = Float.greatestFiniteMagnitude
        var minY = Float.greatestFiniteMagnitude
        for point in points {
            maxX = max(maxX, point.x)
            maxY = max(maxY, point.y)
            minX = min(minX, point.x)
            minY = min(minY, point.y)
        }
        let centerX = (maxX + minX) / 2
        let centerY = (maxY + minY) / 2

        let cosReverse = CorrectlyRounded.cos(reverse)
        let sinReverse = CorrectlyRounded.sin(reverse)
        maxX = Float.leastNormalMagnitude
        maxY = Float.leastNormalMagnitude
        minX = Float.greatestFiniteMagnitude
        minY = Float.greatestFiniteMagnitude
        for point in points {
            let originalX = (point.x - centerX) * width
            let originalY = (point.y - centerY) * height
            let projectedX = originalX * cosReverse - originalY * sinReverse
            let projectedY = originalX * sinReverse + originalY * cosReverse
            maxX = max(maxX, projectedX)
            maxY = max(maxY, projectedY)
            minX = min(minX, projectedX)
            minY = min(minY, projectedY)
        }
        let projectedCenterX = (maxX + minX) / 2
        let projectedCenterY = (maxY + minY) / 2
        let cosine = CorrectlyRounded.cos(rotation)
        let sine = CorrectlyRounded.sin(rotation)
        let rectCenterX = projectedCenterX * cosine - projectedCenterY * sine + width * centerX
        let rectCenterY = projectedCenterX * sine + projectedCenterY * cosine + height * centerY
        return NormalizedRect(
            xCenter: rectCenterX / width, yCenter: rectCenterY / height,
            width: (maxX - minX) / width, height: (maxY - minY) / height, rotation: rotation)
    }
}
