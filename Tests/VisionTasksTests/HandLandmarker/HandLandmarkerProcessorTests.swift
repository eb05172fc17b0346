import Foundation
import Imaging
import TestSupport
import Testing

@testable import VisionTasks

/// The tracking wiring of the hand pipeline, driven through its processor with chosen tracked
/// regions.
@Suite("HandLandmarker tracking", .serialized)
struct HandLandmarkerProcessorTests {
    static func processor(numHands: Int) throws -> HandLandmarkerProcessor? {
        guard let path = SharedData.path("models/hand_landmarker.task") else {
            skipWithoutSharedData("hand_landmarker.task")
            return nil
        }
        let options = HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = path
        options.runningMode = .video
        options.numHands = numHands
        return try HandLandmarkerProcessor(options: options)
    }

    static func thumbUp() throws -> MPImage? {
        try SharedData.path("images/decoded/hand_thumb_up.png").map { try MPImage(contentsOfFile: $0) }
    }

    @Test func theDetectorIsSkippedWhileEnoughHandsAreTracked() throws {
        guard var processor = try Self.processor(numHands: 1), let image = try Self.thumbUp() else { return }
        // A tracked region on the empty background: the detector does not run, so the hand in
        // the picture is not found on this frame (../shared/spec/PIPELINES.md §1.14)…
        processor.tracker?.update(nextRegions: [NormalizedRect(xCenter: 0.8, yCenter: 0.3, width: 0.2, height: 0.25)])
        let missed = try processor.process(image, timestampInMilliseconds: 0)
        #expect(missed.landmarks.isEmpty)
        #expect(processor.tracker?.previous.isEmpty == true)
        // …and with nothing tracked any more it runs on the next frame and finds it.
        let found = try processor.process(image, timestampInMilliseconds: 33)
        #expect(found.landmarks.count == 1)
        #expect(processor.tracker?.previous.count == 1)
        // Then the hand is tracked: the next region comes from its landmarks.
        let expected = try HandRegions.nextFrameRegion(
            landmarks: try #require(found.landmarks.first), imageSize: ImageSize(width: 640, height: 521))
        #expect(processor.tracker?.previous == [expected])
    }

    @Test func duplicateHandsFromOverlappingRegionsAreRemoved() throws {
        guard var processor = try Self.processor(numHands: 2), let image = try Self.thumbUp() else { return }
        let first = try processor.process(image, timestampInMilliseconds: 0)
        let region = try #require(processor.tracker?.previous.first)
        #expect(first.landmarks.count == 1)
        // Two tracked regions on the same hand (the second slightly moved): both yield the hand,
        // and duplicate removal keeps the first, in every output and in the tracked regions.
        var moved = region
        moved.xCenter += 0.01
        moved.yCenter -= 0.01
        processor.tracker?.update(nextRegions: [region, moved])
        let result = try processor.process(image, timestampInMilliseconds: 33)
        #expect(result.landmarks.count == 1 && result.worldLandmarks.count == 1 && result.handedness.count == 1)
        #expect(processor.tracker?.previous.count == 1)
        // Without the duplicate the same region gives the same hand.
        processor.tracker?.update(nextRegions: [region])
        let single = try processor.process(image, timestampInMilliseconds: 66)
        #expect(single.landmarks == result.landmarks)
    }
}
