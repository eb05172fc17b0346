import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// FaceDetector against MediaPipe 1.2.3's own results (../shared/reference/face_detector and
/// reference/video/face_detector) on the exact decoded pixels: the same faces in the same order,
/// the same whole-pixel boxes, keypoints within 1e-4 and scores within 1e-5 (issue #20).
@Suite("FaceDetector fidelity", .serialized)
struct FaceDetectorFidelityTests {
    static var modelPath: String? { SharedData.path("models/blaze_face_short_range.tflite") }

    static func detector(
        _ mode: RunningMode = .image, options reference: ReferenceOptions? = nil
    ) throws -> FaceDetector? {
        guard let path = modelPath else { return nil }
        let options = FaceDetectorOptions()
        options.baseOptions.modelAssetPath = path
        options.runningMode = mode
        if let confidence = reference?.minDetectionConfidence { options.minDetectionConfidence = confidence }
        if let threshold = reference?.minSuppressionThreshold { options.minSuppressionThreshold = threshold }
        return try FaceDetector(options: options)
    }

    /// The largest differences of `ours` from `theirs`, after checking count, order and boxes.
    static func compare(
        _ ours: [Detection], _ theirs: [ReferenceDetection], label: String
    ) -> (keypoint: Double, score: Double) {
        #expect(ours.count == theirs.count, "\(label): \(ours.count) faces, MediaPipe \(theirs.count)")
        var worstKeypoint = 0.0
        var worstScore = 0.0
        for (index, (face, reference)) in zip(ours, theirs).enumerated() {
            let box = reference.boundingBox
            let expected = CGRect(x: box.originX, y: box.originY, width: box.width, height: box.height)
            #expect(
                face.boundingBox == expected, "\(label) face \(index): box \(face.boundingBox), MediaPipe \(expected)")
            #expect(face.categories.count == 1 && face.categories.first?.index == 0)
            #expect(face.categories.first?.categoryName == nil && face.categories.first?.displayName == nil)
            if let score = face.categories.first?.score, let theirScore = reference.categories.first?.score {
                worstScore = max(worstScore, Double(abs(score - theirScore)))
            }
            let keypoints = face.keypoints ?? []
            let expectedKeypoints = reference.keypoints ?? []
            #expect(keypoints.count == 6 && expectedKeypoints.count == 6, "\(label) face \(index): keypoints")
            for (point, theirs) in zip(keypoints, expectedKeypoints) {
                worstKeypoint = max(
                    worstKeypoint, abs(Double(point.location.x) - Double(theirs.x)),
                    abs(Double(point.location.y) - Double(theirs.y)))
                #expect(point.label == nil && point.score == (theirs.score ?? 0))
            }
        }
        return (worstKeypoint, worstScore)
    }

    @Test func everyImageAndOptionSetMatchesMediaPipe() throws {
        let names = References.imageNames(task: "face_detector")
        guard Self.modelPath != nil, !names.isEmpty else {
            return skipWithoutSharedData("blaze_face_short_range.tflite and reference/face_detector")
        }
        var worstKeypoint = 0.0
        var worstScore = 0.0
        var faces = 0
        var runs = 0
        for name in names {
            let reference = try #require(try References.image(task: "face_detector", name: name))
            let image = try MPImage(contentsOfFile: try #require(SharedData.path("images/decoded/\(name).png")))
            for (runName, run) in reference.runs.sorted(by: { $0.key < $1.key }) {
                let detector = try #require(try Self.detector(options: run.options))
                let result = try detector.detect(image: image)
                let worst = Self.compare(result.detections, run.result.detections ?? [], label: "\(name) \(runName)")
                worstKeypoint = max(worstKeypoint, worst.keypoint)
                worstScore = max(worstScore, worst.score)
                faces += result.detections.count
                runs += 1
            }
        }
        print(
            "FaceDetector IMAGE: \(runs) runs, \(faces) faces; largest keypoint difference \(worstKeypoint), "
                + "largest score difference \(worstScore)")
        #expect(runs == names.count * 3)
        #expect(worstKeypoint <= 1e-4)
        #expect(worstScore <= 1e-5)
    }

    @Test(arguments: ["gesture_test_video", "hand_test_video"])
    func everyVideoFrameMatchesMediaPipe(sequence: String) throws {
        guard let reference = try References.video(task: "face_detector", sequence: sequence),
            let run = reference.runs["default"], let detector = try Self.detector(.video, options: run.options)
        else { return skipWithoutSharedData("reference/video/face_detector/\(sequence)") }
        var worstKeypoint = 0.0
        var worstScore = 0.0
        for frame in run.frames {
            let image = try HandLandmarkerFidelityTests.frameImage(reference, frame)
            let result = try detector.detect(videoFrame: image, timestampInMilliseconds: frame.timestampMs)
            #expect(result.timestampInMilliseconds == frame.timestampMs)
            let worst = Self.compare(
                result.detections, frame.detections ?? [], label: "\(sequence) frame \(frame.frameIndex)")
            worstKeypoint = max(worstKeypoint, worst.keypoint)
            worstScore = max(worstScore, worst.score)
        }
        print(
            "FaceDetector VIDEO \(sequence): \(run.frames.count) frames; largest keypoint difference "
                + "\(worstKeypoint), largest score difference \(worstScore)")
        #expect(run.frames.count == 30)
        #expect(worstKeypoint <= 1e-4)
        #expect(worstScore <= 1e-5)
    }
}
