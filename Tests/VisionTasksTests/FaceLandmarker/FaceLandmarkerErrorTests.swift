import Foundation
import ModelFile
import TestSupport
import Testing

@testable import VisionTasks

/// Options, running modes, bundles and errors of FaceLandmarker against
/// ../shared/reference/errors.json (the `face_landmarker_*` cases).
@Suite("FaceLandmarker options and errors", .serialized)
struct FaceLandmarkerErrorTests {
    final class Receiver: FaceLandmarkerLiveStreamDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var received: [(Int, FaceLandmarkerResult?, (any Error)?)] = []
        var results: [(Int, FaceLandmarkerResult?, (any Error)?)] { lock.withLock { received } }

        func faceLandmarker(
            _ faceLandmarker: FaceLandmarker, didFinishDetection result: FaceLandmarkerResult?,
            timestampInMilliseconds: Int, error: (any Error)?
        ) {
            lock.withLock { received.append((timestampInMilliseconds, result, error)) }
        }
    }

    private static func image() throws -> MPImage? {
        try SharedData.path("images/decoded/astronaut.png").map { try MPImage(contentsOfFile: $0) }
    }

    /// A copy of face_landmarker.task without `member`, its other members in their order, written
    /// to a temporary file (MediaPipe's cases pass such a bundle as a buffer).
    static func bundle(without member: String) throws -> String? {
        guard let path = FaceLandmarkerFidelityTests.modelPath else { return nil }
        let archive = try ZipArchive(contentsOfFile: path)
        #expect(archive.memberNames.contains(member))
        let entries = archive.members.filter { $0.name != member }.map { entry in
            ZipBuilder.Entry(
                name: entry.name, data: entry.data.array, method: 0, crc: entry.crc32)
        }
        var builder = ZipBuilder()
        builder.alignment = 4
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "face_landmarker_without_\(member)_\(ProcessInfo.processInfo.processIdentifier).task")
        try Data(builder.build(entries)).write(to: url)
        return url.path
    }

    @Test func defaultsAreMediaPipesAndCopyIsIndependent() {
        let options = FaceLandmarkerOptions()
        #expect(options.runningMode == .image && options.faceLandmarkerLiveStreamDelegate == nil)
        #expect(options.numFaces == 1 && options.minFaceDetectionConfidence == 0.5)
        #expect(options.minFacePresenceConfidence == 0.5 && options.minTrackingConfidence == 0.5)
        #expect(!options.outputFaceBlendshapes && !options.outputFacialTransformationMatrixes)
        let receiver = Receiver()
        options.baseOptions.modelAssetPath = "a.task"
        options.runningMode = .liveStream
        options.faceLandmarkerLiveStreamDelegate = receiver
        options.numFaces = 3
        options.minFaceDetectionConfidence = 0.25
        options.minFacePresenceConfidence = 0.35
        options.minTrackingConfidence = 0.45
        options.outputFaceBlendshapes = true
        options.outputFacialTransformationMatrixes = true
        let copy = options.copy()
        options.baseOptions.modelAssetPath = "b.task"
        options.numFaces = 1
        options.outputFaceBlendshapes = false
        #expect(copy.baseOptions.modelAssetPath == "a.task" && copy.runningMode == .liveStream)
        #expect(copy.faceLandmarkerLiveStreamDelegate === receiver && copy.numFaces == 3)
        #expect(copy.minFaceDetectionConfidence == 0.25 && copy.minFacePresenceConfidence == 0.35)
        #expect(copy.minTrackingConfidence == 0.45)
        #expect(copy.outputFaceBlendshapes && copy.outputFacialTransformationMatrixes)
    }

    /// errors.json `face_landmarker_num_faces_*`: MediaPipe fails with a graph error naming its
    /// vector clip; here the option is named, before the bundle is opened.
    @Test(arguments: [0, -1])
    func numFacesBelowOneIsRejected(_ value: Int) throws {
        let options = FaceLandmarkerOptions()
        options.baseOptions.modelAssetPath = "/nonexistent/face_landmarker.task"
        options.numFaces = value
        let error = try #require(throws: TasksError.self) { try FaceLandmarker(options: options) }
        #expect(error == .invalidOption(option: "numFaces", message: error.message))
        #expect(error.message.contains("max_vec_size should be greater than or equal to 1."))
        #expect(error.message.contains("numFaces is \(value)"))
        if let upstream = try References.errors()?["face_landmarker_num_faces_\(value)"] {
            #expect(upstream.raised == true)
            #expect(upstream.message?.contains("max_vec_size should be greater than or equal to 1.") == true)
        }
    }

    /// errors.json `face_landmarker_min_*`: MediaPipe checks only the presence confidence (its
    /// message names `min_detection_confidence`); here each confidence is checked under its own
    /// name (docs/DIFFERENCES.md).
    @Test(arguments: [Float(1.5), -0.1, .nan])
    func confidencesOutsideZeroToOneAreRejectedUnderTheirOwnNames(_ value: Float) throws {
        let names = ["minFaceDetectionConfidence", "minFacePresenceConfidence", "minTrackingConfidence"]
        for option in names {
            let options = FaceLandmarkerOptions()
            options.baseOptions.modelAssetPath = "/nonexistent/face_landmarker.task"
            switch option {
            case "minFaceDetectionConfidence": options.minFaceDetectionConfidence = value
            case "minFacePresenceConfidence": options.minFacePresenceConfidence = value
            default: options.minTrackingConfidence = value
            }
            let error = try #require(throws: TasksError.self) { try FaceLandmarker(options: options) }
            guard case .invalidOption(let name, let message) = error else {
                Issue.record("\(option) \(value): \(error)")
                continue
            }
            #expect(name == option && error.code == .invalidArgumentError)
            #expect(message.contains("value must be in the range [0.0, 1.0]") && message.contains("\(option) is"))
        }
        guard value.isFinite, let cases = try References.errors() else { return }
        let label = value == 1.5 ? "1.5" : "-0.1"
        // MediaPipe: only the presence confidence raises, INVALID_ARGUMENT with the landmarks
        // detector's field name, which ours carries too.
        let presence = try #require(cases["face_landmarker_min_face_presence_confidence_\(label)"])
        #expect(presence.raised == true && presence.abslStatus == "INVALID_ARGUMENT")
        #expect(presence.message == "Invalid `min_detection_confidence` option: value must be in the range [0.0, 1.0]")
        let options = FaceLandmarkerOptions()
        options.minFacePresenceConfidence = value
        options.baseOptions.modelAssetPath = "/nonexistent/face_landmarker.task"
        let error = try #require(throws: TasksError.self) { try FaceLandmarker(options: options) }
        #expect(error.message.hasPrefix(try #require(presence.message)))
        #expect(cases["face_landmarker_min_face_detection_confidence_\(label)"]?.raised == false)
        #expect(cases["face_landmarker_min_tracking_confidence_\(label)"]?.raised == false)
    }

    /// errors.json `face_landmarker_bundle_without_face_detector` and `…_face_landmarks_detector`:
    /// the missing member is named with the bundle's members, MediaPipe's NOT_FOUND.
    @Test(arguments: ["face_detector.tflite", "face_landmarks_detector.tflite"])
    func aBundleWithoutAModelNamesTheMissingMember(_ member: String) throws {
        guard let path = try Self.bundle(without: member), let cases = try References.errors() else {
            return skipWithoutSharedData("face_landmarker.task")
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let upstream = try #require(
            cases["face_landmarker_bundle_without_\(member.replacingOccurrences(of: ".tflite", with: ""))"])
        let error = try #require(throws: TasksError.self) { try FaceLandmarker(modelPath: path) }
        guard case .bundleMemberNotFound(let name, let members) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(error.code == .notFoundError && upstream.abslStatus == "NOT_FOUND" && name == member)
        // The same message but for the order of the members, which MediaPipe lists in the order
        // of its own map.
        let message = try #require(upstream.message)
        #expect(message.hasPrefix("No file with name: \(member). All files in the model asset bundle are: "))
        #expect(members.count == 3)
        for other in members { #expect(message.contains(other)) }
    }

    /// errors.json `face_landmarker_given_face_detector_tflite`: a plain model file reads as a
    /// bundle without members, and the first member looked for is reported missing.
    @Test func aPlainModelFileIsNotABundle() throws {
        guard let path = FaceDetectorFidelityTests.modelPath, let cases = try References.errors() else {
            return skipWithoutSharedData("blaze_face_short_range.tflite")
        }
        let upstream = try #require(cases["face_landmarker_given_face_detector_tflite"])
        #expect(upstream.raised == true && upstream.abslStatus == "NOT_FOUND")
        let error = try #require(throws: TasksError.self) { try FaceLandmarker(modelPath: path) }
        #expect(error == .bundleMemberNotFound(name: "face_detector.tflite", members: []))
        #expect(upstream.message?.hasPrefix("No file with name: face_detector.tflite.") == true)
        #expect(error.message.hasPrefix("No file with name: face_detector.tflite."))
    }

    /// errors.json `face_landmarker_bundle_without_face_blendshapes*`: the blendshapes model is
    /// only needed, and only loaded, when blendshapes are asked for.
    @Test func blendshapesNeedTheirModelOnlyWhenAskedFor() throws {
        guard let path = try Self.bundle(without: "face_blendshapes.tflite"), let image = try Self.image(),
            let cases = try References.errors()
        else { return skipWithoutSharedData("face_landmarker.task") }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let accepted = try #require(cases["face_landmarker_bundle_without_face_blendshapes"])
        #expect(accepted.raised == false)
        let options = FaceLandmarkerOptions()
        options.baseOptions.modelAssetPath = path
        options.outputFacialTransformationMatrixes = true
        let result = try FaceLandmarker(options: options).detect(image: image)
        #expect(result.faceLandmarks.count == accepted.resultOnImageUsed?.numFaces)
        #expect(result.facialTransformationMatrixes.count == 1 && result.faceBlendshapes.isEmpty)

        let upstream = try #require(cases["face_landmarker_bundle_without_face_blendshapes_output_face_blendshapes"])
        options.outputFaceBlendshapes = true
        let error = try #require(throws: TasksError.self) { try FaceLandmarker(options: options) }
        #expect(error.code == .invalidArgumentError && upstream.abslStatus == "INVALID_ARGUMENT")
        #expect(error.message.hasPrefix(try #require(upstream.message)))
        #expect(error.message.contains("face_blendshapes.tflite"))
    }

    /// errors.json `face_landmarker_bundle_without_geometry_pipeline_metadata_landmarks*`: the
    /// geometry file is only read when matrices are asked for.
    @Test func matricesNeedTheGeometryFileOnlyWhenAskedFor() throws {
        let member = "geometry_pipeline_metadata_landmarks.binarypb"
        guard let path = try Self.bundle(without: member), let image = try Self.image(),
            let cases = try References.errors()
        else { return skipWithoutSharedData("face_landmarker.task") }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let accepted = try #require(cases["face_landmarker_bundle_without_geometry_pipeline_metadata_landmarks"])
        let options = FaceLandmarkerOptions()
        options.baseOptions.modelAssetPath = path
        options.outputFaceBlendshapes = true
        let result = try FaceLandmarker(options: options).detect(image: image)
        #expect(result.faceLandmarks.count == accepted.resultOnImageUsed?.numFaces)
        #expect(result.faceBlendshapes.count == 1 && result.facialTransformationMatrixes.isEmpty)

        let refused =
            "face_landmarker_bundle_without_geometry_pipeline_metadata_landmarks"
            + "_output_facial_transformation_matrixes"
        let upstream = try #require(cases[refused])
        options.outputFacialTransformationMatrixes = true
        let error = try #require(throws: TasksError.self) { try FaceLandmarker(options: options) }
        guard case .bundleMemberNotFound(let name, let members) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(error.code == .notFoundError && upstream.abslStatus == "NOT_FOUND" && name == member)
        // MediaPipe lists the members in another order; the same names.
        let message = try #require(upstream.message)
        #expect(message.hasPrefix("No file with name: \(member). All files in the model asset bundle are: "))
        for other in members { #expect(message.contains(other)) }
        #expect(members.count == 3)
    }

    /// errors.json `face_landmarker_min_face_detection_confidence_-0.1` and the other accepted
    /// cases: the task works with the default options on the image MediaPipe used.
    @Test func acceptedOptionsFindTheFaceMediaPipeFinds() throws {
        guard let landmarker = try FaceLandmarkerFidelityTests.landmarker(.image), let image = try Self.image(),
            let cases = try References.errors()
        else { return skipWithoutSharedData("face_landmarker.task") }
        let expected = try #require(cases["face_landmarker_min_tracking_confidence_1.5"]?.resultOnImageUsed?.numFaces)
        #expect(try landmarker.detect(image: image).faceLandmarks.count == expected)
    }

    @Test func wrongMethodForTheModeIsRejectedAndTheLandmarkerStaysUsable() throws {
        guard let video = try FaceLandmarkerFidelityTests.landmarker(.video),
            let still = try FaceLandmarkerFidelityTests.landmarker(.image), let image = try Self.image(),
            let cases = try References.errors()
        else { return skipWithoutSharedData("face_landmarker.task") }
        try RunningModeChecks.wrongMethodIsRejected(
            video: video, still: still, image: image, cases: cases, prefix: "face_landmarker")
        #expect(try still.detect(image: image).faceLandmarks.count == 1)
    }

    @Test func videoTimestampsMustIncrease() throws {
        guard let landmarker = try FaceLandmarkerFidelityTests.landmarker(.video), let image = try Self.image(),
            let cases = try References.errors()
        else { return skipWithoutSharedData("face_landmarker.task") }
        try RunningModeChecks.videoTimestampsMustIncrease(
            landmarker, image: image, cases: cases, prefix: "face_landmarker")
    }

    /// Live-stream mode tracks as video mode does: the same frames give the same results.
    @Test func liveStreamDeliversTheVideoModeResultsToTheDelegate() throws {
        let receiver = Receiver()
        guard let path = FaceLandmarkerFidelityTests.modelPath, let image = try Self.image(),
            let video = try FaceLandmarkerFidelityTests.landmarker(.video)
        else { return skipWithoutSharedData("face_landmarker.task") }
        let options = FaceLandmarkerOptions()
        options.baseOptions.modelAssetPath = path
        options.runningMode = .liveStream
        options.faceLandmarkerLiveStreamDelegate = receiver
        options.outputFaceBlendshapes = true
        let stream = try FaceLandmarker(options: options)
        try stream.detectAsync(image: image, timestampInMilliseconds: 10)
        stream.waitUntilIdle()
        try stream.detectAsync(image: image, timestampInMilliseconds: 50)
        #expect(throws: TasksError.nonIncreasingTimestamp(previous: 50, received: 50)) {
            try stream.detectAsync(image: image, timestampInMilliseconds: 50)
        }
        stream.waitUntilIdle()
        let results = receiver.results
        try #require(results.count == 2)
        let first = try video.detect(videoFrame: image, timestampInMilliseconds: 10)
        let second = try video.detect(videoFrame: image, timestampInMilliseconds: 50)
        #expect(results.map(\.0) == [10, 50] && results.allSatisfy { $0.2 == nil })
        #expect(results[0].1?.faceLandmarks == first.faceLandmarks)
        #expect(results[1].1?.faceLandmarks == second.faceLandmarks)
        #expect(results[1].1?.faceBlendshapes.first?.categories.count == 52)
        #expect(stream.droppedFrameCount == 0)
    }
}
