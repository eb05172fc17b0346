import Foundation
import TestSupport
import Testing
import VisionTasks

@testable import PoseDetection

/// A front camera's mirror-like capture, passed with the mirrored orientation that undoes the
/// mirror, gives the landmarks of the true picture, with left and right on the true sides.
@Suite("PoseDetector mirrored orientations", .serialized)
struct MirroredImageTests {
    typealias Data = PoseDetectionTestData

    @Test(arguments: [ImageOrientation.upMirrored, .leftMirrored])
    func anImageFlippedOnDiskAndShownMirroredGivesTheTrueLandmarks(orientation: ImageOrientation) throws {
        guard let model = Data.liteModel, let path = Data.imagePath("business-person") else {
            return Data.skip("business-person")
        }
        let folder = try Data.temporaryFolder("mirrored")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let original = try MPImage(contentsOfFile: path)
        let flippedPath = folder + "/flipped.png"
        try Data.writeMirrored(original, as: orientation, to: flippedPath)

        let detector = PoseDetector.poseDetector(options: Data.options(model, .singleImage))
        let expected = try detector.results(in: VisionImage(image: original))
        let stored = try MPImage(contentsOfFile: flippedPath)
        #expect(stored.orientation == .up)
        let mirrored = VisionImage(image: stored)
        mirrored.orientation = orientation
        let poses = try detector.results(in: mirrored)
        try #require(expected.count == 1 && poses.count == 1)
        // PoseLandmarker gives the upright picture's normalized landmarks within 1e-6 whatever
        // the orientation (its orientation tests); here that is 1e-6 of the image size.
        let size = CGFloat(max(original.width, original.height))
        #expect(Data.largestDifference(poses, expected) <= 1e-6 * size)
        // Left stays left: each side's wrist and shoulder where the true picture has them.
        for type in [PoseLandmarkType.leftWrist, .rightWrist, .leftShoulder, .rightShoulder] {
            let got = poses[0].landmark(ofType: type).position
            let want = expected[0].landmark(ofType: type).position
            #expect(abs(got.x - want.x) < 0.5 && abs(got.y - want.y) < 0.5, "\(type)")
        }
        let left = poses[0].landmark(ofType: .leftShoulder).position.x
        let right = poses[0].landmark(ofType: .rightShoulder).position.x
        #expect(abs(left - right) > 20)

        // The same mirrored file shown as `.up` is a mirror image: the model then puts the
        // person's left shoulder where, mirrored back, the true picture has the right one.
        if orientation == .upMirrored {
            let asStored = try detector.results(in: VisionImage(image: stored))
            try #require(asStored.count == 1)
            let seenLeft = original.width - asStored[0].landmark(ofType: .leftShoulder).position.x
            let trueLeft = expected[0].landmark(ofType: .leftShoulder).position.x
            let trueRight = expected[0].landmark(ofType: .rightShoulder).position.x
            #expect(abs(seenLeft - trueRight) < abs(seenLeft - trueLeft))
        }
    }
}
