import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// Options, running modes and errors of ImageSegmenter against ../shared/reference/errors.json
/// (the `image_segmenter_*` cases).
@Suite("ImageSegmenter options and errors", .serialized)
struct ImageSegmenterErrorTests {
    final class Receiver: ImageSegmenterLiveStreamDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var received: [(Int, ImageSegmenterResult?, (any Error)?)] = []
        var results: [(Int, ImageSegmenterResult?, (any Error)?)] { lock.withLock { received } }

        func imageSegmenter(
            _ imageSegmenter: ImageSegmenter, didFinishSegmentation result: ImageSegmenterResult?,
            timestampInMilliseconds: Int, error: (any Error)?
        ) {
            lock.withLock { received.append((timestampInMilliseconds, result, error)) }
        }
    }

    private static func image() throws -> MPImage? {
        try SharedData.path("images/decoded/astronaut.png").map { try MPImage(contentsOfFile: $0) }
    }

    @Test func defaultsAreMediaPipesAndCopyIsIndependent() {
        let options = ImageSegmenterOptions()
        #expect(options.runningMode == .image && options.imageSegmenterLiveStreamDelegate == nil)
        #expect(options.displayNamesLocale == "en")
        #expect(options.shouldOutputConfidenceMasks && !options.shouldOutputCategoryMask)
        let receiver = Receiver()
        options.baseOptions.modelAssetPath = "a.tflite"
        options.runningMode = .liveStream
        options.imageSegmenterLiveStreamDelegate = receiver
        options.shouldOutputCategoryMask = true
        options.displayNamesLocale = "fr"
        let copy = options.copy()
        options.baseOptions.modelAssetPath = "b.tflite"
        options.shouldOutputCategoryMask = false
        #expect(copy.baseOptions.modelAssetPath == "a.tflite" && copy.runningMode == .liveStream)
        #expect(copy.imageSegmenterLiveStreamDelegate === receiver)
        #expect(copy.shouldOutputCategoryMask && copy.shouldOutputConfidenceMasks && copy.displayNamesLocale == "fr")
    }

    /// errors.json `image_segmenter_no_mask_requested`: refused at creation, before the model is
    /// opened, with INVALID_ARGUMENT and both options named.
    @Test func neitherMaskIsAnErrorAtCreation() throws {
        let options = ImageSegmenterOptions()
        options.baseOptions.modelAssetPath = "/nonexistent/selfie_segmenter.tflite"
        options.shouldOutputConfidenceMasks = false
        options.shouldOutputCategoryMask = false
        let error = try #require(throws: TasksError.self) { try ImageSegmenter(options: options) }
        guard case .invalidOption(let option, let message) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(option == "shouldOutputConfidenceMasks" && error.code == .invalidArgumentError)
        #expect(message.contains("shouldOutputConfidenceMasks") && message.contains("shouldOutputCategoryMask"))
        #expect(message.hasPrefix("At least one of CONFIDENCE_MASK, CONFIDENCE_MASKS and CATEGORY_MASK"))
        if let upstream = try References.errors()?["image_segmenter_no_mask_requested"] {
            #expect(upstream.raised == true && upstream.abslStatus == "INVALID_ARGUMENT")
            #expect(upstream.message?.hasPrefix("At least one of") == true)
        }
    }

    /// errors.json `image_segmenter_given_face_detector_model`: MediaPipe runs the face detector
    /// as a segmenter and returns meaningless 512×512 masks; here creation fails, saying why
    /// (docs/DIFFERENCES.md).
    @Test func aModelWithoutMaskOutputIsRefused() throws {
        guard let path = SharedData.path("models/blaze_face_short_range.tflite"), let cases = try References.errors()
        else { return skipWithoutSharedData("blaze_face_short_range.tflite") }
        let upstream = try #require(cases["image_segmenter_given_face_detector_model"])
        #expect(upstream.raised == false)
        let error = try #require(throws: TasksError.self) { try ImageSegmenter(modelPath: path) }
        #expect(error.code == .invalidArgumentError || error.code == .unimplementedError, "\(error.code)")
        #expect(error.message.contains("no segmentation output") && error.message.contains("[1, 896, 1]"))
    }

    @Test func wrongMethodForTheModeIsRejectedAndTheSegmenterStaysUsable() throws {
        guard let video = try ImageSegmenterFidelityTests.segmenter(.video, confidence: true, category: false),
            let still = try ImageSegmenterFidelityTests.segmenter(.image, confidence: true, category: false),
            let image = try Self.image(), let cases = try References.errors()
        else { return skipWithoutSharedData("selfie_segmenter.tflite") }
        try RunningModeChecks.wrongMethodIsRejected(
            video: video, still: still, image: image, cases: cases, prefix: "image_segmenter", verb: "segment")
        #expect(try still.segment(image: image).confidenceMasks?.count == 1)
    }

    @Test func videoTimestampsMustIncrease() throws {
        guard let segmenter = try ImageSegmenterFidelityTests.segmenter(.video, confidence: true, category: false),
            let image = try Self.image(), let cases = try References.errors()
        else { return skipWithoutSharedData("selfie_segmenter.tflite") }
        try RunningModeChecks.videoTimestampsMustIncrease(
            segmenter, image: image, cases: cases, prefix: "image_segmenter", verb: "segment")
    }

    @Test func liveStreamAndCompletionCallsDeliverTheImageModeResult() throws {
        guard let path = ImageSegmenterFidelityTests.modelPath, let image = try Self.image(),
            let still = try ImageSegmenterFidelityTests.segmenter(.image, confidence: true, category: true)
        else { return skipWithoutSharedData("selfie_segmenter.tflite") }
        let expected = try still.segment(image: image)
        let receiver = Receiver()
        let options = ImageSegmenterOptions()
        options.baseOptions.modelAssetPath = path
        options.runningMode = .liveStream
        options.shouldOutputCategoryMask = true
        options.imageSegmenterLiveStreamDelegate = receiver
        let stream = try ImageSegmenter(options: options)
        try stream.segmentAsync(image: image, timestampInMilliseconds: 10)
        #expect(throws: TasksError.nonIncreasingTimestamp(previous: 10, received: 10)) {
            try stream.segmentAsync(image: image, timestampInMilliseconds: 10)
        }
        stream.waitUntilIdle()
        let results = receiver.results
        try #require(results.count == 1)
        #expect(results[0].0 == 10 && results[0].2 == nil)
        let live = try #require(results[0].1)
        func bytes(_ result: ImageSegmenterResult) -> [UInt8]? {
            result.categoryMask?.withUnsafeUInt8Buffer { Array($0) }
        }
        func floats(_ result: ImageSegmenterResult) -> [Float]? {
            result.confidenceMasks?.first?.withUnsafeFloat32Buffer { Array($0) }
        }
        #expect(bytes(live) == bytes(expected) && floats(live) == floats(expected))
        // The completion forms run synchronously on the calling thread.
        var delivered: ImageSegmenterResult?
        still.segment(image: image) { result, error in
            #expect(error == nil)
            delivered = result
        }
        #expect(delivered.map(bytes) == bytes(expected) && delivered?.timestampInMilliseconds == 1000)
        var failure: (any Error)?
        still.segment(videoFrame: image, timestampInMilliseconds: 0) { result, error in
            #expect(result == nil)
            failure = error
        }
        #expect(failure as? TasksError == .runningModeMismatch(expected: .video, actual: .image))
    }
}
