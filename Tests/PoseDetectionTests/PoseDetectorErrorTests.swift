import Foundation
import TestSupport
import Testing
import VisionTasks

@testable import PoseDetection

/// Model lookup and the errors a detector reports (never at creation, always from the call).
@Suite("PoseDetector errors and model lookup")
struct PoseDetectorErrorTests {
    typealias Data = PoseDetectionTestData

    private func blankImage() throws -> VisionImage {
        VisionImage(
            image: try MPImage(
                pixels: [UInt8](repeating: 0, count: 8 * 8 * 3), width: 8, height: 8, bytesPerRow: 24, format: .rgb8))
    }

    @Test func aMissingModelFileIsReportedByEveryForm() async throws {
        let options = PoseDetectorOptions()
        options.modelPath = "/nonexistent/pose_landmarker_lite.task"
        let detector = PoseDetector.poseDetector(options: options)
        let image = try blankImage()
        #expect {
            try detector.results(in: image)
        } throws: { error in
            guard case .modelFileNotFound(let path, _)? = error as? TasksError else { return false }
            return path == "/nonexistent/pose_landmarker_lite.task"
        }
        await #expect(throws: TasksError.self) { try await detector.process(image) }
        let delivered: (Bool, TasksErrorCode?) = await withCheckedContinuation { continuation in
            detector.process(image) { poses, error in
                continuation.resume(returning: (poses == nil, (error as? TasksError)?.code))
            }
        }
        #expect(delivered.0 && delivered.1 == .notFoundError)
    }

    @Test func noModelInTheModelsFolderNamesTheFolderAndTheFiles() throws {
        let folder = try Data.temporaryFolder("empty-models")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let locator = PoseModelLocator(environment: ["VISION_TASKS_MODELS": folder], currentDirectory: "/")
        let detector = PoseDetector(options: AccuratePoseDetectorOptions(), locator: locator, clock: { 0 })
        #expect {
            try detector.results(in: try blankImage())
        } throws: { error in
            guard let error = error as? TasksError, case .modelFileNotFound = error else { return false }
            return error.message.contains(folder) && error.message.contains("pose_landmarker_heavy.task")
                && error.message.contains("pose_landmarker_full.task")
        }
    }

    /// ML Kit apps ship their models in the app bundle: its resources are searched before the
    /// models folder, and the error names both places.
    @Test func theAppBundleIsSearchedBeforeTheModelsFolder() throws {
        let resources = try Data.temporaryFolder("bundle-resources")
        let folder = try Data.temporaryFolder("models")
        defer {
            try? FileManager.default.removeItem(atPath: resources)
            try? FileManager.default.removeItem(atPath: folder)
        }
        let options = PoseDetectorOptions()
        let locator = PoseModelLocator(
            environment: ["VISION_TASKS_MODELS": folder], currentDirectory: "/", bundleResources: resources)
        #expect {
            try locator.modelPath(for: nil, defaultFileNames: options.defaultModelFileNames)
        } throws: { error in
            guard let error = error as? TasksError, case .modelFileNotFound = error else { return false }
            return error.message.contains(resources) && error.message.contains(folder)
                && error.message.contains("pose_landmarker_lite.task")
        }
        for directory in [folder, resources] {
            #expect(
                FileManager.default.createFile(
                    atPath: directory + "/pose_landmarker_lite.task", contents: Foundation.Data([1])))
        }
        #expect(
            try locator.modelPath(for: nil, defaultFileNames: options.defaultModelFileNames)
                == resources + "/pose_landmarker_lite.task")
        try FileManager.default.removeItem(atPath: resources + "/pose_landmarker_lite.task")
        #expect(
            try locator.modelPath(for: nil, defaultFileNames: options.defaultModelFileNames)
                == folder + "/pose_landmarker_lite.task")
        #expect(PoseModelLocator.current().bundleResources == Bundle.main.resourcePath)
    }

    @Test func aBundleOfAnotherTaskIsReportedWithTheMissingMember() throws {
        guard let hands = SharedData.path("models/hand_landmarker.task") else { return Data.skip("hand model") }
        let options = PoseDetectorOptions()
        options.modelPath = hands
        let detector = PoseDetector.poseDetector(options: options)
        #expect {
            try detector.results(in: try blankImage())
        } throws: { error in
            guard case .bundleMemberNotFound(let name, _)? = error as? TasksError else { return false }
            return name.hasPrefix("pose_")
        }
    }

    @Test func theModelsFolderFollowsTheCommandLineRule() throws {
        let folder = try Data.temporaryFolder("models")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let base = PoseDetectorOptions()
        let accurate = AccuratePoseDetectorOptions()
        // $VISION_TASKS_MODELS, relative to the current directory; else ./Models.
        let parent = (folder as NSString).deletingLastPathComponent
        let relative = PoseModelLocator(
            environment: ["VISION_TASKS_MODELS": (folder as NSString).lastPathComponent], currentDirectory: parent)
        #expect(relative.modelsFolder == URL(fileURLWithPath: folder).standardized.path)
        #expect(
            PoseModelLocator(environment: ["VISION_TASKS_MODELS": ""], currentDirectory: "/work/app").modelsFolder
                == "/work/app/Models")
        #expect(PoseModelLocator(environment: [:], currentDirectory: "/work/app").modelsFolder == "/work/app/Models")

        let locator = PoseModelLocator(environment: ["VISION_TASKS_MODELS": folder], currentDirectory: "/")
        for name in ["pose_landmarker_lite.task", "pose_landmarker_full.task"] {
            #expect(FileManager.default.createFile(atPath: folder + "/" + name, contents: Foundation.Data([1])))
        }
        #expect(
            try locator.modelPath(for: base.modelPath, defaultFileNames: base.defaultModelFileNames)
                == folder + "/pose_landmarker_lite.task")
        #expect(
            try locator.modelPath(for: accurate.modelPath, defaultFileNames: accurate.defaultModelFileNames)
                == folder + "/pose_landmarker_full.task")
        #expect(
            FileManager.default.createFile(
                atPath: folder + "/pose_landmarker_heavy.task", contents: Foundation.Data([1])))
        #expect(
            try locator.modelPath(for: accurate.modelPath, defaultFileNames: accurate.defaultModelFileNames)
                == folder + "/pose_landmarker_heavy.task")
        // An explicit path wins, resolved against the current directory.
        #expect(try locator.modelPath(for: "my.task", defaultFileNames: base.defaultModelFileNames) == "/my.task")
    }

    @Test func conversionScalesByTheUprightSizeAndUsesPresence() throws {
        var landmarks = (0..<33).map { index in
            NormalizedLandmark(x: 0.5, y: 0.25, z: -0.1, visibility: 0.2, presence: Float(index) / 32)
        }
        let pose = try #require(PoseConversion.pose(from: landmarks, width: 200, height: 100))
        let ankle = pose.landmark(ofType: .leftAnkle)
        #expect(ankle.type == .leftAnkle)
        #expect(ankle.position.x == 100 && ankle.position.y == 25)
        #expect(abs(ankle.position.z - CGFloat(Float(-0.1)) * 200) < 1e-12)
        #expect(ankle.inFrameLikelihood == Float(27) / 32)
        landmarks[0].presence = nil
        landmarks[1].presence = 1.5
        let clamped = try #require(PoseConversion.pose(from: landmarks, width: 200, height: 100))
        #expect(clamped.landmarks[0].inFrameLikelihood == 0 && clamped.landmarks[1].inFrameLikelihood == 1)
        #expect(PoseConversion.pose(from: Array(landmarks.prefix(32)), width: 200, height: 100) == nil)
    }
}
