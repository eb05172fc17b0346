import Imaging
import Testing

@testable import VisionTasks

@Suite("Detection to rect")
struct DetectionToRectTests {
    private let square = ImageSize(width: 100, height: 100)

    @Test func boxBecomesCentredRect() throws {
        // mediapipe/calculators/util/detections_to_rects_calculator_test.cc `DetectionToNormalizedRect`.
        let rect = try DetectionToRect.rect(for: detection(0.1, 0.2, 0.3, 0.4), rotation: nil, imageSize: square)
        #expect(close(rect, NormalizedRect(xCenter: 0.25, yCenter: 0.4, width: 0.3, height: 0.4)))
    }

    @Test func rotationTurnsTheKeypointVectorToTheTarget() throws {
        let up = detection(0, 0, 1, 1, keypoints: [SIMD2(0.5, 0.5), SIMD2(0.5, 0.25)])
        let right = detection(0, 0, 1, 1, keypoints: [SIMD2(0.5, 0.5), SIMD2(0.75, 0.5)])
        let target = RotationVector.degrees(start: 0, end: 1, targetDegrees: 90)
        // A vector pointing up already is at 90°: no rotation. Pointing right it is at 0°: +π/2.
        #expect(close(try DetectionToRect.rect(for: up, rotation: target, imageSize: square).rotation, 0))
        #expect(close(try DetectionToRect.rect(for: right, rotation: target, imageSize: square).rotation, .pi / 2))
        // Pointing down (−90°) needs a half turn (±π, depending on float rounding).
        let down = detection(0, 0, 1, 1, keypoints: [SIMD2(0.5, 0.5), SIMD2(0.5, 0.75)])
        #expect(close(abs(try DetectionToRect.rect(for: down, rotation: target, imageSize: square).rotation), .pi))
    }

    @Test func rotationUsesPixelsNotNormalizedUnits() throws {
        // On a 200×100 image the vector (0.25, −0.5) normalized is (50, −50) px: 45°.
        let tilted = detection(0, 0, 1, 1, keypoints: [SIMD2(0.5, 0.75), SIMD2(0.75, 0.25)])
        let rect = try DetectionToRect.rect(
            for: tilted, rotation: .degrees(start: 0, end: 1, targetDegrees: 90),
            imageSize: ImageSize(width: 200, height: 100))
        #expect(close(rect.rotation, .pi / 4))
    }

    @Test func ninetyRadiansTargetActsLikeAbout116Degrees() {
        // The palm detector's literal 90-radian target (../shared/spec/PIPELINES.md §3.2): 90 − 2π·14.
        #expect(close(Radians.normalized(90), 2.0354056, 1e-5))
        // Swift's Float.pi is rounded toward zero, so it stays; the next float up wraps to −π.
        #expect(Radians.normalized(.pi) == .pi)
        #expect(close(Radians.normalized(Float.pi.nextUp), -.pi))
        #expect(close(Radians.normalized(3.5), 3.5 - 2 * .pi))
        #expect(close(Radians.normalized(-.pi), -.pi))
        #expect(close(Radians.normalized(3 * .pi / 2), -.pi / 2))
    }

    @Test func alignmentPointsGiveAPixelSquareOfTwiceTheDistance() throws {
        let image = ImageSize(width: 200, height: 100)
        // Centre (0.5, 0.5) = (100, 50) px; scale point 30 px to the right.
        let pose = detection(0, 0, 0, 0, keypoints: [SIMD2(0.5, 0.5), SIMD2(0.65, 0.5)])
        let rect = try DetectionToRect.alignmentPointsRect(
            for: pose, alignment: .degrees(start: 0, end: 1, targetDegrees: 90), imageSize: image)
        #expect(close(rect, NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.3, height: 0.6, rotation: .pi / 2)))
    }

    @Test func emptyDetectionsGiveOneZeroRectWhenAsked() throws {
        let rects = try DetectionToRect.rects(for: [], rotation: nil, imageSize: square, zeroRectWhenEmpty: true)
        #expect(rects == [NormalizedRect(xCenter: 0, yCenter: 0, width: 0, height: 0)])
        #expect(try DetectionToRect.rects(for: [], rotation: nil, imageSize: square, zeroRectWhenEmpty: false).isEmpty)
    }

    @Test func missingKeypointIsAnError() {
        #expect(throws: TasksError.self) {
            try DetectionToRect.rect(
                for: detection(0, 0, 1, 1), rotation: .degrees(start: 0, end: 2, targetDegrees: 90), imageSize: square)
        }
    }
}
