import Foundation
import Imaging

/// MediaPipe's `RectTransformationCalculator` for normalized rects: shift along the rect's own
/// axes, make square, scale (mediapipe/calculators/util/rect_transformation_calculator.cc,
/// ../shared/spec/PIPELINES.md §1.12).
struct RectTransformation: Sendable, Hashable {
    var scaleX: Float = 1
    var scaleY: Float = 1
    /// Shift as a fraction of the rect's width, along its own x-axis.
    var shiftX: Float = 0
    /// Shift as a fraction of the rect's height, along its own y-axis.
    var shiftY: Float = 0
    /// Make the rect square (in pixels) using its longer side.
    var squareLong = false
    /// Make the rect square (in pixels) using its shorter side; ignored with `squareLong`.
    var squareShort = false
    /// An extra rotation in radians added to the rect's own, then normalized to [-π, π).
    ///
    /// Upstream uses the new angle only to steer the shift and never stores it in the rect
    /// (a bug; none of the three tasks sets this option); here the rect gets it.
    var rotation: Float?

    /// The pose detector's rect expansion (pose_detector_graph.cc, ../shared/spec/PIPELINES.md §2.2) and the
    /// pose next-frame ROI expansion (pose_landmarks_detector_graph.cc, §2.5).
    static let pose = RectTransformation(scaleX: 1.25, scaleY: 1.25, squareLong: true)
    /// The palm-to-hand rect expansion (hand_detector_graph.cc, ../shared/spec/PIPELINES.md §3.2).
    static let palm = RectTransformation(scaleX: 2.6, scaleY: 2.6, shiftY: -0.5, squareLong: true)
    /// The hand next-frame ROI expansion (hand_landmarks_detector_graph.cc, ../shared/spec/PIPELINES.md §3.5).
    static let handLandmarks = RectTransformation(scaleX: 2, scaleY: 2, shiftY: -0.1, squareLong: true)

    /// The transformed rect on an image of `imageSize`.
    func apply(to rect: NormalizedRect, imageSize: ImageSize) -> NormalizedRect {
        var result = rect
        var width = rect.width
        var height = rect.height
        var angle = rect.rotation
        if let rotation {
            angle = Radians.normalized(angle + rotation)
            result.rotation = angle
        }
        let imageWidth = Float(imageSize.width)
        let imageHeight = Float(imageSize.height)
        if angle == 0 {
            result.xCenter += width * shiftX
            result.yCenter += height * shiftY
        } else {
            let cosine = CorrectlyRounded.cos(angle)
            let sine = CorrectlyRounded.sin(angle)
            let xShift = (imageWidth * width * shiftX * cosine - imageHeight * height * shiftY * sine) / imageWidth
            let yShift = (imageWidth * width * shiftX * sine + imageHeight * height * shiftY * cosine) / imageHeight
            result.xCenter += xShift
            result.yCenter += yShift
        }
        if squareLong {
            let side = max(width * imageWidth, height * imageHeight)
            width = side / imageWidth
            height = side / imageHeight
        } else if squareShort {
            let side = min(width * imageWidth, height * imageHeight)
            width = side / imageWidth
            height = side / imageHeight
        }
        result.width = width * scaleX
        result.height = height * scaleY
        return result
    }
}
