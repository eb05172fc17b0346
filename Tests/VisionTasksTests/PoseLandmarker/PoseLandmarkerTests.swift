import Foundation
import TestSupport
import Testing

@testable import VisionTasks

@Suite("PoseLandmarker API and behaviour", .serialized)
struct PoseLandmarkerTests {
    @Test func optionsHaveMediaPipesDefaults() {
        let options = PoseLandmarkerOptions()
        #expect(options.runningMode == .image)
        #expect(options.numPoses == 1)
        #expect(options.minPoseDetectionConfidence == 0.5)
        #expect(options.minPosePresenceConfidence == 0.5)
        #expect(options.minTrackingConfidence == 0.5)
        #expect(options.shouldOutputSegmentationMasks == false)
        #expect(options.poseLandmarkerLiveStreamDelegate == nil)
        #expect(options.baseOptions.modelAssetPath == nil)
    }

    @Test func copyIsIndependent() {
        let options = PoseLandmarkerOptions()
        options.baseOptions.modelAssetPath = "a.task"
        options.numPoses = 3
        let copy = options.copy()
        copy.numPoses = 4
        copy.baseOptions.modelAssetPath = "b.task"
        #expect(options.numPoses == 3 && options.baseOptions.modelAssetPath == "a.task")
        #expect(copy.numPoses == 4 && copy.minTrackingConfidence == 0.5)
    }

    @Test func skeletonHasMediaPipesConnections() {
        let connections = PoseLandmarker.poseLandmarks
        #expect(connections.count == 35)
        #expect(connections.first == Connection(start: 0, end: 1))
        #expect(connections.last == Connection(start: 28, end: 32))
        #expect(connections.allSatisfy { $0.start < 33 && $0.end < 33 })
    }

    /// The guide's code (seed guide 000), with `MPImage(contentsOfFile:)` for the UIImage.
    @Test func guideCodeFindsThePerson() throws {
        guard let model = PoseTestData.fullModel, let path = SharedData.path("images/decoded/business-person.png")
        else {
            return skipWithoutSharedData("pose model")
        }
        let options = PoseLandmarkerOptions()
        options.baseOptions.modelAssetPath = model
        options.runningMode = .image
        options.minPoseDetectionConfidence = 0.5
        options.minPosePresenceConfidence = 0.5
        options.minTrackingConfidence = 0.5
        options.numPoses = 1
        let poseLandmarker = try PoseLandmarker(options: options)
        let image = try MPImage(contentsOfFile: path)
        let result = try poseLandmarker.detect(image: image)
        #expect(result.landmarks.count == 1)
        #expect(result.worldLandmarks.count == 1)
        #expect(result.segmentationMasks.isEmpty)
        let nose = try #require(result.landmarks.first?.first)
        #expect((0...1).contains(nose.x) && (0...1).contains(nose.y))
        #expect((nose.visibility ?? 0) > 0.9 && (nose.presence ?? 0) > 0.9)
        // The nose is above the hips, world landmarks are in metres around the hips.
        let hips = result.landmarks[0][23].y
        #expect(nose.y < hips)
        #expect(result.worldLandmarks[0].allSatisfy { abs($0.x) < 2 && abs($0.y) < 2 && abs($0.z) < 2 })
        #expect(result.worldLandmarks[0][0].visibility == result.landmarks[0][0].visibility)

        let byPath = try PoseLandmarker(modelPath: model)
        #expect(try byPath.detect(image: image).landmarks == result.landmarks)
    }

    @Test func imageModeTimestampsCountUpInSeconds() throws {
        guard let model = PoseTestData.liteModel, let image = try PoseTestData.image("od_test_image") else {
            return skipWithoutSharedData("pose model")
        }
        let landmarker = try PoseLandmarker(modelPath: model)
        let stamps = try (0..<3).map { _ in try landmarker.detect(image: image).timestampInMilliseconds }
        #expect(stamps == [0, 1000, 2000])
    }

    @Test func noPersonGivesEmptyArrays() throws {
        guard let model = PoseTestData.liteModel, let image = try PoseTestData.image("od_test_image") else {
            return skipWithoutSharedData("pose model")
        }
        let options = PoseTestData.options(model)
        options.shouldOutputSegmentationMasks = true
        let result = try PoseLandmarker(options: options).detect(image: image)
        #expect(result.landmarks.isEmpty && result.worldLandmarks.isEmpty && result.segmentationMasks.isEmpty)
    }

    @Test func masksOnlyWhenRequested() throws {
        guard let model = PoseTestData.liteModel, let image = try PoseTestData.image("astronaut") else {
            return skipWithoutSharedData("pose model")
        }
        let options = PoseTestData.options(model)
        let without = try PoseLandmarker(options: options).detect(image: image)
        options.shouldOutputSegmentationMasks = true
        let with = try PoseLandmarker(options: options).detect(image: image)
        #expect(without.segmentationMasks.isEmpty)
        #expect(with.segmentationMasks.count == 1)
        let mask = try #require(with.segmentationMasks.first)
        #expect(mask.width == 512 && mask.height == 512 && mask.dataType == .float32)
        let values = mask.withUnsafeFloat32Buffer { Array($0) }
        #expect(values.allSatisfy { (0...1).contains($0) })
        // The astronaut covers the middle of the picture, not the top corners.
        #expect(values[256 * 512 + 256] > 0.5)
        #expect(values[5 * 512 + 5] < 0.5)
        // Masks change nothing else.
        #expect(with.landmarks == without.landmarks && with.worldLandmarks == without.worldLandmarks)
        // Without masks the landmark model's segmentation decoder does not run.
        let kernels = try [false, true].map { masks in
            options.shouldOutputSegmentationMasks = masks
            return try poseProcessor(options).models.landmarks.interpreter.kernelCount
        }
        #expect(kernels[0] < kernels[1], "\(kernels)")
    }

    @Test func numPosesLimitsAndFindsSeveralPeople() throws {
        guard let model = PoseTestData.fullModel, let person = try PoseTestData.image("business-person") else {
            return skipWithoutSharedData("pose model")
        }
        let twoPeople = try PoseTestData.sideBySide(person)
        let options = PoseTestData.options(model)
        options.numPoses = 2
        options.shouldOutputSegmentationMasks = true
        let two = try PoseLandmarker(options: options).detect(image: twoPeople)
        #expect(two.landmarks.count == 2 && two.worldLandmarks.count == 2 && two.segmentationMasks.count == 2)
        // One person in each half.
        let centres = two.landmarks.map { $0[0].x }.sorted()
        #expect(centres.count == 2 && centres[0] < 0.5 && centres[1] > 0.5)
        options.numPoses = 1
        options.shouldOutputSegmentationMasks = false
        let one = try PoseLandmarker(options: options).detect(image: twoPeople)
        #expect(one.landmarks.count == 1)
        // The single pose is the first of the two (detector order).
        #expect(one.landmarks == [two.landmarks[0]])
        options.numPoses = 5
        #expect(try PoseLandmarker(options: options).detect(image: twoPeople).landmarks.count == 2)
    }

    /// The public task runs exactly the processor the fidelity tests drive.
    @Test func publicTaskGivesTheProcessorsResults() throws {
        guard let model = PoseTestData.liteModel, let image = try PoseTestData.image("grace_hopper") else {
            return skipWithoutSharedData("pose model")
        }
        let options = PoseTestData.options(model, .video)
        options.shouldOutputSegmentationMasks = true
        let landmarker = try PoseLandmarker(options: options)
        var processor = try poseProcessor(options)
        for timestamp in [0, 33, 66] {
            let throughTask = try landmarker.detect(videoFrame: image, timestampInMilliseconds: timestamp)
            let direct = try processor.run(image, timestampInMilliseconds: timestamp).result
            #expect(throughTask.landmarks == direct.landmarks)
            #expect(throughTask.worldLandmarks == direct.worldLandmarks)
            #expect(throughTask.timestampInMilliseconds == timestamp)
            #expect(
                throughTask.segmentationMasks.map(PoseComparison.mean)
                    == direct.segmentationMasks.map(PoseComparison.mean))
        }
    }

    @Test func videoModeTracksAndSmoothsAStillPicture() throws {
        guard let model = PoseTestData.fullModel, let image = try PoseTestData.image("business-person") else {
            return skipWithoutSharedData("pose model")
        }
        let still = try PoseLandmarker(modelPath: model).detect(image: image)
        let landmarker = try PoseLandmarker(options: PoseTestData.options(model, .video))
        var results: [PoseLandmarkerResult] = []
        for frame in 0..<5 {
            results.append(try landmarker.detect(videoFrame: image, timestampInMilliseconds: frame * 33))
        }
        #expect(results.allSatisfy { $0.landmarks.count == 1 })
        // The first frame runs the detector as image mode does (smoothing passes a first sample
        // through, up to the round trip through pixels); tracked frames of the same picture stay
        // on the person.
        #expect(PoseTestData.largestDifference(results[0].landmarks, still.landmarks) <= 1e-6)
        for result in results.dropFirst() {
            #expect(
                PoseTestData.largestDifference(
                    [Array(result.landmarks[0][0..<13])], [Array(still.landmarks[0][0..<13])]) < 0.02)
        }
        #expect(results.map(\.timestampInMilliseconds) == [0, 33, 66, 99, 132])
    }

    @Test func asyncSequenceOfFramesGivesResultsInOrder() async throws {
        guard let model = PoseTestData.liteModel, let image = try PoseTestData.image("astronaut") else {
            return skipWithoutSharedData("pose model")
        }
        let landmarker = try PoseLandmarker(options: PoseTestData.options(model, .video))
        let frames = AsyncStream<(MPImage, Int)> { continuation in
            for index in 0..<4 { continuation.yield((image, index * 40)) }
            continuation.finish()
        }
        var stamps: [Int] = []
        for try await result in landmarker.results(for: frames) {
            #expect(result.landmarks.count == 1)
            stamps.append(result.timestampInMilliseconds)
        }
        #expect(stamps == [0, 40, 80, 120])
        // The sequence ran in video mode on the same task: the clock has moved on.
        #expect(throws: TasksError.nonIncreasingTimestamp(previous: 120, received: 120)) {
            try landmarker.detect(videoFrame: image, timestampInMilliseconds: 120)
        }
    }

    @Test func threadCountDoesNotChangeResults() throws {
        guard let model = PoseTestData.liteModel, let image = try PoseTestData.image("camera") else {
            return skipWithoutSharedData("pose model")
        }
        let one = PoseTestData.options(model)
        one.baseOptions.threadCount = 1
        let two = PoseTestData.options(model)
        two.baseOptions.threadCount = 2
        #expect(
            try PoseLandmarker(options: one).detect(image: image).landmarks
                == PoseLandmarker(options: two).detect(image: image).landmarks)
    }
}

@Suite("PoseLandmarker on odd images", .serialized)
struct PoseLandmarkerOddImageTests {
    @Test(arguments: [(1, 1), (1, 700), (700, 1), (3, 2)])
    func tinyAndExtremeImagesGiveResultsNotCrashes(width: Int, height: Int) throws {
        guard let model = PoseTestData.liteModel else { return skipWithoutSharedData("pose model") }
        let pixels = (0..<(width * height * 3)).map { UInt8(truncatingIfNeeded: $0 &* 97) }
        let image = try MPImage(pixels: pixels, width: width, height: height, bytesPerRow: width * 3, format: .rgb8)
        let options = PoseTestData.options(model, .video)
        options.shouldOutputSegmentationMasks = true
        options.minPoseDetectionConfidence = 0
        options.minPosePresenceConfidence = 0
        let landmarker = try PoseLandmarker(options: options)
        for frame in 0..<3 {
            let result = try landmarker.detect(videoFrame: image, timestampInMilliseconds: frame)
            #expect(result.landmarks.count == result.segmentationMasks.count)
            #expect(result.segmentationMasks.allSatisfy { $0.width == width && $0.height == height })
        }
    }
}
