import Imaging
import TestSupport
import Testing

@testable import VisionTasks

/// Landmarks are normalized to the upright image: an image stored rotated or mirrored, with the
/// orientation that shows it upright, gives the upright picture's landmarks.
@Suite("PoseLandmarker orientation", .serialized)
struct PoseLandmarkerOrientationTests {
    @Test func storedOrientationDoesNotChangeTheUprightResult() throws {
        guard let model = PoseTestData.liteModel, let upright = try PoseTestData.image("grace_hopper") else {
            return skipWithoutSharedData("pose model")
        }
        let options = PoseTestData.options(model)
        options.shouldOutputSegmentationMasks = true
        let landmarker = try PoseLandmarker(options: options)
        let expected = try landmarker.detect(image: upright)
        try #require(expected.landmarks.count == 1)
        let pixels = PoseTestData.uprightPixels(upright)
        for orientation in ImageOrientation.allCases where orientation != .up {
            let image = try PoseTestData.stored(pixels, showingAs: orientation)
            #expect(image.uprightSize.width == 512 && image.uprightSize.height == 600)
            let result = try landmarker.detect(image: image)
            try #require(result.landmarks.count == 1, "\(orientation)")
            // The tensors are identical, so the results are too (up to nothing at all).
            #expect(PoseTestData.largestDifference(result.landmarks, expected.landmarks) <= 1e-6, "\(orientation)")
            #expect(result.worldLandmarks == expected.worldLandmarks, "\(orientation)")
            let mask = try #require(result.segmentationMasks.first)
            #expect(mask.width == 512 && mask.height == 600, "\(orientation)")
            #expect(abs(PoseComparison.mean(mask) - PoseComparison.mean(expected.segmentationMasks[0])) <= 1e-6)
        }
    }
}
