import ModelFile
import TestSupport
import Testing

@testable import VisionTasks

@Suite struct ObjectDetectorModelInfoTests {
    private func ssd(_ name: String = "ssd_mobilenet_v1.tflite") throws -> TFLiteModel? {
        guard let path = SharedData.path("models/\(name)") else { return nil }
        return try TFLiteModel(contentsOfFile: path)
    }

    @Test func readsOutputsBoxLayoutAndLabelsFromMetadata() throws {
        guard let model = try ssd() else {
            print("skipped: ../shared is not available")
            return
        }
        let info = try ObjectDetectorModelInfo(model: model, options: ObjectDetectorOptions())
        #expect(
            [info.locationOutput, info.categoryOutput, info.scoreOutput, info.countOutput] == [0, 1, 2, 3] as [Int])
        #expect(info.boxIndices == [1, 0, 3, 2])
        #expect(info.labels?.count == 90)
        #expect(info.labels?[0] == "person")
        #expect(info.displayNames == nil)  // the SSD's label file has no locale
        #expect(info.classesPerDetection == 1)
        #expect(info.normalization == InputNormalization(mean: [127.5], std: [127.5]))
    }

    @Test func categoryListsBecomeClassIndices() throws {
        guard let model = try ssd() else {
            print("skipped: ../shared is not available")
            return
        }
        let options = ObjectDetectorOptions()
        options.categoryAllowlist = ["person", "dog", "unicorn"]
        let info = try ObjectDetectorModelInfo(model: model, options: options)
        guard case .allow(let allowed) = try info.classFilter(options) else {
            Issue.record("not an allow filter")
            return
        }
        #expect(allowed == [0, 17])
        let deny = ObjectDetectorOptions()
        deny.categoryDenylist = ["person"]
        guard case .ignore(let ignored) = try info.classFilter(deny) else {
            Issue.record("not a deny filter")
            return
        }
        #expect(ignored == [0])
    }

    @Test func aModelWithoutMetadataIsRejectedLikeUpstream() throws {
        guard let path = SharedData.path("models/ssd_mobilenet_v1_no_metadata.tflite"),
            let expected = try References.errors()?["object_detector_model_without_metadata"]?.message
        else {
            print("skipped: ../shared is not available")
            return
        }
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = path
        #expect(throws: TasksError.missingMetadata(expected)) { try ObjectDetector(options: options) }
        #expect(TasksError.missingMetadata(expected).code == .invalidArgumentError)
        #expect(try References.errors()?["object_detector_model_without_metadata"]?.abslStatus == "INVALID_ARGUMENT")
        // Options that only apply with metadata do not make the model acceptable.
        options.maxResults = 3
        options.categoryDenylist = ["person"]
        #expect(throws: TasksError.missingMetadata(expected)) { try ObjectDetector(options: options) }
    }

    @Test func aModelWithoutMetadataTakesLabelsFromTheOptions() throws {
        guard let model = try ssd("ssd_mobilenet_v1_no_metadata.tflite") else {
            print("skipped: ../shared is not available")
            return
        }
        let options = ObjectDetectorOptions()
        options.labels = (0..<90).map { "class \($0)" }
        let info = try ObjectDetectorModelInfo(model: model, options: options)
        #expect(info.labels?.count == 90)
        #expect(info.boxIndices == [1, 0, 3, 2])  // TFLite_Detection_PostProcess's layout
        #expect(info.normalization == nil)
    }

    @Test func optionErrorsMatchErrorsJSON() throws {
        guard let errors = try References.errors(), let path = SharedData.path("models/ssd_mobilenet_v1.tflite") else {
            print("skipped: ../shared is not available")
            return
        }
        let zero = ObjectDetectorOptions()
        zero.baseOptions.modelAssetPath = path
        zero.maxResults = 0
        #expect { try ObjectDetector(options: zero) } throws: { error in
            (error as? TasksError)?.message == errors["object_detector_max_results_0"]?.message
                && (error as? TasksError)?.code == .invalidArgumentError
        }
        #expect(errors["object_detector_max_results_0"]?.abslStatus == "INVALID_ARGUMENT")
        #expect(
            throws: TasksError.invalidOption(
                option: "maxResults", message: "Invalid `max_results` option: value must be != 0")
        ) {
            try ObjectDetector(options: zero)
        }
        let both = ObjectDetectorOptions()
        both.baseOptions.modelAssetPath = path
        both.categoryAllowlist = ["person"]
        both.categoryDenylist = ["dog"]
        #expect { try ObjectDetector(options: both) } throws: { error in
            (error as? TasksError)?.message == errors["object_detector_allowlist_and_denylist"]?.message
                && (error as? TasksError)?.code == .invalidArgumentError
        }
        #expect(errors["object_detector_allowlist_and_denylist"]?.abslStatus == "INVALID_ARGUMENT")
        #expect(throws: TasksError.mutuallyExclusiveCategoryLists) { try ObjectDetector(options: both) }
        // Negative maxResults other than -1 mean "all" as well (upstream only rejects 0).
        let negative = ObjectDetectorOptions()
        negative.baseOptions.modelAssetPath = path
        negative.maxResults = -5
        #expect(throws: Never.self) { try ObjectDetector(options: negative) }
        let missing = ObjectDetectorOptions()
        missing.baseOptions.modelAssetPath = "/nonexistent/model.tflite"
        #expect { try ObjectDetector(options: missing) } throws: { error in
            (error as? TasksError)?.code == .notFoundError
        }
    }
}
