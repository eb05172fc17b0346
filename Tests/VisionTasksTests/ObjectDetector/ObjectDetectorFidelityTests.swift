import Foundation
import ModelFile
import TestSupport
import Testing

@testable import VisionTasks

/// Runs the public ``ObjectDetector`` on the exact pixels MediaPipe was fed and compares every
/// result with MediaPipe 1.2.3's own (../shared/reference/object_detector): every image × option
/// set, IMAGE and VIDEO mode, with and without model metadata.
@Suite("ObjectDetector fidelity", .serialized)
struct ObjectDetectorFidelityTests {
    /// The option sets of the references (`default`, `max3_thr0`, `thr05`, `allow_person`,
    /// `deny_person`), each with its effective options.
    private static func optionSets(_ references: [(reference: ImageReference, image: MPImage)]) throws
        -> [(name: String, options: ReferenceOptions)]
    {
        let names = Set(references.flatMap { $0.reference.runs.keys }).sorted()
        return try names.map { name in
            let options = references.compactMap { $0.reference.runs[name]?.options }.first
            return (name, try #require(options))
        }
    }

    @Test func everyImageAndOptionSetMatchesMediaPipeInImageMode() throws {
        guard let model = ObjectDetectorTestData.model else { return skipWithoutSharedData("ssd_mobilenet_v1.tflite") }
        let references = try ObjectDetectorTestData.references()
        try #require(!references.isEmpty, "no object detector references")
        let optionSets = try Self.optionSets(references)
        #expect(optionSets.count == 5)
        var comparison = DetectionComparison()
        for (name, options) in optionSets {
            let detector = try ObjectDetector(options: ObjectDetectorTestData.options(model: model, reference: options))
            for (reference, image) in references {
                guard let run = reference.runs[name] else { continue }
                let result = try detector.detect(image: image)
                comparison.compare(
                    result.detections, run.result.detections ?? [], label: "\(reference.image.name)/\(name)")
                #expect(result.detections.allSatisfy { $0.keypoints == nil }, "the SSD has no keypoints")
            }
        }
        print("ObjectDetector IMAGE mode: \(comparison)")
        #expect(comparison.failures.isEmpty, "\(comparison.failures.joined(separator: "\n"))")
        #expect(comparison.detectionCount >= 10 * references.count)
    }

    /// The object detector graph keeps no state between frames, so VIDEO mode must give every
    /// frame exactly what IMAGE mode gives that picture; the images are fed as one 33 ms sequence.
    @Test(arguments: ["default", "max3_thr0"])
    func videoModeMatchesMediaPipeFrameByFrame(optionSet: String) throws {
        guard let model = ObjectDetectorTestData.model else { return skipWithoutSharedData("ssd_mobilenet_v1.tflite") }
        let references = try ObjectDetectorTestData.references()
        let options = try #require(references.first?.reference.runs[optionSet]?.options)
        let detector = try ObjectDetector(
            options: ObjectDetectorTestData.options(model: model, reference: options, runningMode: .video))
        var comparison = DetectionComparison()
        for (index, (reference, image)) in references.enumerated() {
            let run = try #require(reference.runs[optionSet])
            let result = try detector.detect(videoFrame: image, timestampInMilliseconds: index * 33)
            #expect(result.timestampInMilliseconds == index * 33)
            comparison.compare(
                result.detections, run.result.detections ?? [], label: "video \(reference.image.name)/\(optionSet)")
        }
        print("ObjectDetector VIDEO mode \(optionSet): \(comparison)")
        #expect(comparison.failures.isEmpty, "\(comparison.failures.joined(separator: "\n"))")
    }

    /// Boxes are in pixels of the upright picture: an image stored rotated or mirrored, with the
    /// orientation that shows it upright, gives MediaPipe's boxes for the upright picture.
    @Test func storedOrientationGivesTheUprightPicturesBoxes() throws {
        guard let model = ObjectDetectorTestData.model, let path = SharedData.path("images/decoded/grace_hopper.png"),
            let expected = try References.image(task: "object_detector", name: "grace_hopper")?.runs["default"]?.result
                .detections
        else { return skipWithoutSharedData("ssd_mobilenet_v1.tflite") }
        let detector = try ObjectDetector(modelPath: model)
        let pixels = PoseTestData.uprightPixels(try MPImage(contentsOfFile: path))
        var comparison = DetectionComparison()
        let orientations =
            SharedData.isDebugBuild ? [.right, .downMirrored] : ImageOrientation.allCases.filter { $0 != .up }
        for orientation in orientations {
            let image = try PoseTestData.stored(pixels, showingAs: orientation)
            #expect(image.uprightSize.width == 512 && image.uprightSize.height == 600)
            comparison.compare(
                try detector.detect(image: image).detections, expected, label: "grace_hopper \(orientation)")
        }
        print("ObjectDetector orientations: \(comparison)")
        #expect(comparison.failures.isEmpty, "\(comparison.failures.joined(separator: "\n"))")
    }

    /// Beyond MediaPipe: the SSD without metadata, given the labels the metadata would have held,
    /// gives exactly MediaPipe's results for the SSD with metadata (an 8-bit model needs no
    /// normalization).
    @Test func aModelWithoutMetadataAndSuppliedLabelsMatchesMediaPipe() throws {
        guard let model = ObjectDetectorTestData.model, let bare = ObjectDetectorTestData.modelWithoutMetadata else {
            return skipWithoutSharedData("ssd_mobilenet_v1 models")
        }
        let labels = try #require(
            try ObjectDetectorModelInfo(model: TFLiteModel(contentsOfFile: model), options: ObjectDetectorOptions())
                .labels)
        let references = try ObjectDetectorTestData.references()
        var comparison = DetectionComparison()
        for (name, options) in try Self.optionSets(references) {
            let detectorOptions = ObjectDetectorTestData.options(model: bare, reference: options)
            detectorOptions.labels = labels
            let detector = try ObjectDetector(options: detectorOptions)
            for (reference, image) in references {
                guard let run = reference.runs[name] else { continue }
                comparison.compare(
                    try detector.detect(image: image).detections, run.result.detections ?? [],
                    label: "no metadata \(reference.image.name)/\(name)")
            }
        }
        print("ObjectDetector without metadata, labels from the options: \(comparison)")
        #expect(comparison.failures.isEmpty, "\(comparison.failures.joined(separator: "\n"))")
    }

    /// Without labels the categories keep their class index and no names; the index names
    /// MediaPipe's label for the same detection.
    @Test func aModelWithoutMetadataAndOnlyNormalizationReportsClassIndices() throws {
        guard let model = ObjectDetectorTestData.model, let bare = ObjectDetectorTestData.modelWithoutMetadata else {
            return skipWithoutSharedData("ssd_mobilenet_v1 models")
        }
        let labels = try #require(
            try ObjectDetectorModelInfo(model: TFLiteModel(contentsOfFile: model), options: ObjectDetectorOptions())
                .labels)
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = bare
        options.inputNormalization = InputNormalization(mean: [127.5], std: [127.5])
        let detector = try ObjectDetector(options: options)
        var checked = 0
        for (reference, image) in try ObjectDetectorTestData.references() {
            let expected = try #require(reference.runs["default"]?.result.detections)
            let detections = try detector.detect(image: image).detections
            try #require(detections.count == expected.count, "\(reference.image.name)")
            for (ours, theirs) in zip(detections, expected) {
                let category = try #require(ours.categories.first)
                let mediapipe = try #require(theirs.categories.first)
                #expect(category.categoryName == nil && category.displayName == nil)
                #expect(labels.indices.contains(category.index) && labels[category.index] == mediapipe.categoryName)
                #expect(abs(category.score - mediapipe.score) <= DetectionComparison.scoreTolerance)
                checked += 1
            }
        }
        #expect(checked >= 10)
        // Category lists need names: without labels they are rejected, not silently ignored.
        options.categoryAllowlist = ["person"]
        #expect(throws: TasksError.categoryListsRequireLabels) { try ObjectDetector(options: options) }
    }
}
