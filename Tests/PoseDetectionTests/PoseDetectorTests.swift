import Foundation
import TestSupport
import Testing
import VisionTasks

@testable import PoseDetection

/// PoseDetector against PoseLandmarker on the shared images: the same landmarks, in pixels.
@Suite("PoseDetector", .serialized)
struct PoseDetectorTests {
    typealias Data = PoseDetectionTestData

    @Test func singleImageGivesPoseLandmarkersLandmarksInPixels() throws {
        guard let model = Data.liteModel else { return Data.skip("lite model") }
        let names = SharedData.isDebugBuild ? ["grace_hopper", "business-person", "od_test_image"] : Data.imageNames
        let detector = PoseDetector.poseDetector(options: Data.options(model, .singleImage))
        let landmarker = try PoseLandmarker(modelPath: model)
        var found = 0
        for name in names {
            guard let path = Data.imagePath(name) else { return Data.skip(name) }
            let image = try MPImage(contentsOfFile: path)
            let expected = try landmarker.detect(image: image)
            let poses = try detector.results(in: VisionImage(image: image))
            let size = image.uprightSize
            #expect(poses == Data.expectedPoses(expected.landmarks, width: size.width, height: size.height), "\(name)")
            #expect(poses.count <= 1, "\(name)")
            found += poses.count
            for pose in poses {
                #expect(pose.landmarks.map(\.type) == PoseLandmarkType.allTypes)
                #expect(pose.landmarks.allSatisfy { (0...1).contains($0.inFrameLikelihood) })
            }
        }
        #expect(found >= 2)
        // Single-image mode does not track: the same image again gives the same result.
        guard let path = Data.imagePath("grace_hopper") else { return }
        let image = VisionImage(image: try MPImage(contentsOfFile: path))
        #expect(try detector.results(in: image) == detector.results(in: image))
    }

    @Test func accurateOptionsRunTheGivenModel() throws {
        guard let model = Data.fullModel, let path = Data.imagePath("grace_hopper") else {
            return Data.skip("full model")
        }
        let image = try MPImage(contentsOfFile: path)
        let detector = PoseDetector.poseDetector(options: Data.options(model, .singleImage, accurate: true))
        let expected = try PoseLandmarker(modelPath: model).detect(image: image)
        let poses = try detector.results(in: VisionImage(image: image))
        #expect(poses.count == 1)
        #expect(poses == Data.expectedPoses(expected.landmarks, width: 512, height: 600))
    }

    @Test func anImageWithoutPeopleGivesNoPoses() throws {
        // od_test_image.png: MediaPipe's reference for it holds no pose.
        guard let model = Data.liteModel, let path = Data.imagePath("od_test_image") else {
            return Data.skip("od_test_image")
        }
        let image = VisionImage(image: try MPImage(contentsOfFile: path))
        for mode in [PoseDetectorMode.singleImage, .stream] {
            let detector = PoseDetector.poseDetector(options: Data.options(model, mode))
            #expect(try detector.results(in: image).isEmpty, "\(mode)")
        }
    }

    @Test func streamTracksAcrossCallsLikeVideoMode() throws {
        // Frames stamped 0, 33, 66, … by a fake clock give exactly PoseLandmarker's video-mode
        // results (tracking and smoothing) for the same stamps.
        let count = SharedData.isDebugBuild ? 4 : 10
        guard let model = Data.liteModel, let frames = Data.videoFrames(count) else { return Data.skip("video frames") }
        let detector = PoseDetector(
            options: Data.options(model, .stream), locator: .current(), clock: SteppingClock(step: 33).reading)
        let single = PoseDetector.poseDetector(options: Data.options(model, .singleImage))
        let options = PoseLandmarkerOptions()
        options.baseOptions.modelAssetPath = model
        options.runningMode = .video
        let landmarker = try PoseLandmarker(options: options)
        var differsFromSingleImage = false
        for (index, path) in frames.enumerated() {
            let image = try MPImage(contentsOfFile: path)
            let expected = try landmarker.detect(videoFrame: image, timestampInMilliseconds: index * 33)
            let poses = try detector.results(in: VisionImage(image: image))
            let size = image.uprightSize
            #expect(
                poses == Data.expectedPoses(expected.landmarks, width: size.width, height: size.height),
                "frame \(index)")
            #expect(poses.count == 1, "frame \(index)")
            if index > 0, try poses != single.results(in: VisionImage(image: image)) { differsFromSingleImage = true }
        }
        // Tracked and smoothed frames are not the per-image detections.
        #expect(differsFromSingleImage)
    }

    @Test func streamStampsStayIncreasingWhenTheClockStalls() throws {
        guard let model = Data.liteModel, let path = Data.imagePath("grace_hopper") else {
            return Data.skip("grace_hopper")
        }
        let detector = PoseDetector(options: Data.options(model, .stream), locator: .current(), clock: { 7 })
        let image = VisionImage(image: try MPImage(contentsOfFile: path))
        for _ in 0..<3 {
            #expect(try detector.results(in: image).count == 1)
        }
    }

    @Test func concurrentCallsAreSerialized() async throws {
        guard let model = Data.liteModel, let path = Data.imagePath("grace_hopper") else {
            return Data.skip("grace_hopper")
        }
        let detector = PoseDetector.poseDetector(options: Data.options(model, .stream))
        let image = VisionImage(image: try MPImage(contentsOfFile: path))
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<3 {
                group.addTask { try detector.results(in: image).count }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == [1, 1, 1])
    }

    @Test func asynchronousFormsGiveTheSynchronousResult() async throws {
        guard let model = Data.liteModel, let path = Data.imagePath("business-person") else {
            return Data.skip("business-person")
        }
        let detector = PoseDetector.poseDetector(options: Data.options(model, .singleImage))
        let image = VisionImage(image: try MPImage(contentsOfFile: path))
        let expected = try detector.results(in: image)
        #expect(expected.count == 1)
        let awaited = try await detector.process(image)
        #expect(awaited == expected)
        let delivered: ([Pose]?, Bool) = await withCheckedContinuation { continuation in
            detector.process(image) { poses, error in continuation.resume(returning: (poses, error != nil)) }
        }
        #expect(delivered.0 == expected && !delivered.1)
    }
}
