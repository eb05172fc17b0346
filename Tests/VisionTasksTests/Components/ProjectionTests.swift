import Imaging
import Testing

@testable import VisionTasks

@Suite("Projections")
struct ProjectionTests {
    @Test func landmarkProjectionMatchesUpstreamExamples() {
        // mediapipe/calculators/util/landmark_projection_calculator_test.cc.
        let identity = LandmarkProjection.project(
            [NormalizedLandmark(x: 10, y: 20, z: -0.5)],
            onto: NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 1, height: 1))
        #expect(identity == [NormalizedLandmark(x: 10, y: 20, z: -0.5)])
        let cropped = LandmarkProjection.project(
            [NormalizedLandmark(x: 1, y: 1, z: -0.5, visibility: 0.25, presence: 0.75)],
            onto: NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.5, height: 2))
        #expect(cropped == [NormalizedLandmark(x: 0.75, y: 1.5, z: -0.25, visibility: 0.25, presence: 0.75)])
    }

    @Test func landmarkProjectionRotatesAroundTheRectCentre() {
        // (0.5, 1) is 0.5 below the centre; rotated by π/2 it points to −x: x = 0.5 − 0.5·0.5.
        let result = LandmarkProjection.project(
            [NormalizedLandmark(x: 0.5, y: 1, z: 0)],
            onto: NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.5, height: 1, rotation: .pi / 2))
        #expect(close(result[0].x, 0.25))
        #expect(close(result[0].y, 0.5))
    }

    @Test func worldProjectionOnlyRotates() {
        let result = WorldLandmarkProjection.project(
            [Landmark(x: 1, y: 0, z: 3, visibility: 0.5)], rotation: .pi / 2)
        #expect(close(result[0].x, 0) && close(result[0].y, 1))
        #expect(result[0].z == 3 && result[0].visibility == 0.5)
    }

    @Test func letterboxRemovalUndoesPadding() {
        let padding = LetterboxPadding(left: 0.1, top: 0.2, right: 0.1, bottom: 0.2)
        let landmarks = LetterboxRemoval.remove(
            padding,
            from: [
                NormalizedLandmark(x: 0.1, y: 0.2, z: 0.8), NormalizedLandmark(x: 0.9, y: 0.8, z: 0),
            ])
        #expect(close(landmarks[0].x, 0) && close(landmarks[0].y, 0) && close(landmarks[0].z, 1))
        #expect(close(landmarks[1].x, 1) && close(landmarks[1].y, 1))
        let box = LetterboxRemoval.remove(padding, from: detection(0.1, 0.2, 0.8, 0.6, keypoints: [SIMD2(0.5, 0.5)]))
        #expect(close(box.box, RelativeBox(xMin: 0, yMin: 0, width: 1, height: 1)))
        #expect(close(box.keypoints[0], SIMD2(0.5, 0.5)))
    }

    @Test func letterboxingGrowsTheShorterSide() throws {
        // A 200×100 image into a square tensor: the ROI grows to 200×200 px, 0.25 padding top and bottom.
        let square = TensorConversionOptions(width: 224, height: 224, keepAspectRatio: true)
        let wide = try CropGeometry(imageWidth: 200, imageHeight: 100, rect: .fullImage, options: square)
        #expect(wide.letterboxPadding == LetterboxPadding(left: 0, top: 0.25, right: 0, bottom: 0.25))
        #expect(wide.region.width == 200 && wide.region.height == 200)
        let tall = try CropGeometry(imageWidth: 100, imageHeight: 400, rect: .fullImage, options: square)
        #expect(tall.letterboxPadding == LetterboxPadding(left: 0.375, top: 0, right: 0.375, bottom: 0))
        let stretched = try CropGeometry(
            imageWidth: 200, imageHeight: 100, rect: .fullImage, options: TensorConversionOptions(width: 1, height: 1))
        #expect(stretched.letterboxPadding == .zero)
        let empty = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0, height: 0.5, rotation: 0)
        #expect(throws: ImageError.self) {
            try CropGeometry(imageWidth: 200, imageHeight: 100, rect: empty, options: square)
        }
    }

    @Test func subRectMatrixMapsTensorCornersToTheRotatedROI() throws {
        let image = ImageSize(width: 100, height: 100)
        let identity = CropMatrix(
            region: RotatedPixelRect(centerX: 50, centerY: 50, width: 100, height: 100, rotation: 0),
            imageWidth: image.width, imageHeight: image.height)
        let mapped = identity.apply(x: 0.25, y: 0.75)
        #expect(close(mapped.x, 0.25) && close(mapped.y, 0.75))
        // Rotated by π/2: the tensor's right edge centre (1, 0.5) lands at the bottom centre.
        let rotated = CropMatrix(
            region: RotatedPixelRect(centerX: 50, centerY: 50, width: 100, height: 100, rotation: .pi / 2),
            imageWidth: image.width, imageHeight: image.height)
        let edge = rotated.apply(x: 1, y: 0.5)
        #expect(close(edge.x, 0.5) && close(edge.y, 1))
        let inverse = try #require(rotated.inverseAffine())
        let back = inverse.apply(x: edge.x, y: edge.y)
        #expect(close(back.x, 1) && close(back.y, 0.5))
        #expect(CropMatrix(values: SIMD16(repeating: 0)).inverseAffine() == nil)
    }

    @Test func detectionProjectionTakesTheHullOfTheMappedBox() {
        // A 90° rotation matrix (x' = −y, y' = x), as in detection_projection_calculator_test.cc.
        let rotation = CropMatrix(values: SIMD16(0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))
        let result = DetectionProjection.project(detection(0, 0, 1, 0.5, keypoints: [SIMD2(1, 0.5)]), with: rotation)
        #expect(close(result.box, RelativeBox(xMin: -0.5, yMin: 0, width: 0.5, height: 1)))
        #expect(close(result.keypoints[0], SIMD2(-0.5, 1)))
    }

    @Test func landmarksToDetectionIsTheHull() {
        let result = LandmarksToDetection.detection(from: [
            NormalizedLandmark(x: 0.2, y: 0.8, z: 0), NormalizedLandmark(x: 0.6, y: 0.1, z: 0),
        ])
        #expect(close(result.box, RelativeBox(xMin: 0.2, yMin: 0.1, width: 0.4, height: 0.7)))
        #expect(result.keypoints == [SIMD2(0.2, 0.8), SIMD2(0.6, 0.1)])
    }
}
