import Imaging
import Testing

@testable import VisionTasks

@Suite("Rect transformation")
struct RectTransformationTests {
    private let image = ImageSize(width: 200, height: 100)

    @Test func squareLongUsesTheLongerPixelSideThenScales() {
        // 0.2×0.1 of 200×100 is 40×10 px → 40×40 px → 0.2×0.4, then ×2.6.
        let rect = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.2, height: 0.1)
        let result = RectTransformation(scaleX: 2.6, scaleY: 2.6, squareLong: true).apply(to: rect, imageSize: image)
        #expect(close(result, NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.52, height: 1.04)))
        let short = RectTransformation(squareShort: true).apply(to: rect, imageSize: image)
        #expect(close(short, NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.05, height: 0.1)))
    }

    @Test func shiftUsesTheSizeBeforeSquaring() {
        // The palm expansion: shift_y −0.5 of the original height 0.1 → centre y 0.45.
        let rect = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.2, height: 0.1)
        let result = RectTransformation.palm.apply(to: rect, imageSize: image)
        #expect(close(result, NormalizedRect(xCenter: 0.5, yCenter: 0.45, width: 0.52, height: 1.04)))
    }

    @Test func shiftFollowsTheRectRotationInPixels() {
        // Rotated by π/2 the rect's own y-axis points to −x: shift of −0.5·(0.1·100 px) = −5 px
        // along it moves the centre +5 px in x, i.e. +0.025 of the 200 px width.
        let rect = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.2, height: 0.1, rotation: .pi / 2)
        let result = RectTransformation(shiftY: -0.5).apply(to: rect, imageSize: image)
        #expect(close(result.xCenter, 0.525))
        #expect(close(result.yCenter, 0.5))
        #expect(result.rotation == .pi / 2)  // unchanged, not renormalized
        let shiftedX = RectTransformation(shiftX: 1).apply(to: rect, imageSize: image)
        // Shift of 40 px along the rect's x-axis, which points to +y: +0.4 of the 100 px height.
        #expect(close(shiftedX.xCenter, 0.5))
        #expect(close(shiftedX.yCenter, 0.9))
    }

    @Test func extraRotationIsAddedAndNormalized() {
        let rect = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.2, height: 0.2, rotation: 3)
        let result = RectTransformation(rotation: 1).apply(to: rect, imageSize: image)
        #expect(close(result.rotation, 4 - 2 * .pi))
    }

    @Test func poseAndHandPresetsCarryUpstreamConstants() {
        #expect(RectTransformation.pose == RectTransformation(scaleX: 1.25, scaleY: 1.25, squareLong: true))
        #expect(
            RectTransformation.handLandmarks == RectTransformation(scaleX: 2, scaleY: 2, shiftY: -0.1, squareLong: true)
        )
    }
}
