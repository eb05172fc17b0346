import Foundation
import ModelFile
import TestSupport
import Testing

@testable import VisionTasks

/// The object detector on a model whose post-processing is outside the graph: the SSD of
/// ../shared cut before its `TFLite_Detection_PostProcess` by `scripts/reference/make_raw_ssd.py`
/// (two float outputs, raw boxes and class scores, with `DETECTOR_METADATA` holding the op's
/// anchors and box coding), compared with MediaPipe 1.2.3's results on that same file
/// (Fixtures/RawSSD, made by `scripts/reference/make_raw_ssd_reference.py`): the same detections
/// in the same order, boxes within 1 px, scores within 1e-5.
@Suite("ObjectDetector on raw outputs", .serialized)
struct RawOutputDetectorFidelityTests {
    static let modelName = "ssd_mobilenet_v1_raw.tflite"
    static let bareModelName = "ssd_mobilenet_v1_raw_no_metadata.tflite"
    static let scoreTolerance: Float = 1e-5

    /// The derived model at `name`, or `nil` (a skip) when it was not made; in CI with ../shared
    /// present a missing model fails the test instead.
    static func derivedModel(_ name: String) -> String? {
        let path = DerivedModels.path(name)
        if path == nil, DerivedModels.areRequired {
            Issue.record("\(name) is missing: .ci/run should have made it with scripts/reference/make_raw_ssd.py")
        }
        return path
    }

    /// MediaPipe's references on the derived model with the exact pixels it was fed.
    static func references() throws -> [(reference: ImageReference, image: MPImage)] {
        let folder = try #require(
            Bundle.module.url(forResource: "Fixtures", withExtension: nil)?.appendingPathComponent("RawSSD"))
        var names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        if SharedData.isDebugBuild { names = names.filter { $0.hasPrefix("od_test_image") } }
        return try names.compactMap { file in
            let reference = try References.image(atPath: folder.appendingPathComponent(file).path)
            guard let path = SharedData.path(reference.image.decodedPng) else { return nil }
            return (reference, try MPImage(contentsOfFile: path))
        }
    }

    /// Runs every option set of the references through detectors made by `makeOptions`.
    private static func compareAll(
        label: String, makeOptions: (ReferenceOptions) throws -> ObjectDetectorOptions
    ) throws -> DetectionComparison {
        let references = try references()
        try #require(!references.isEmpty, "no raw SSD references")
        let names = Set(references.flatMap { $0.reference.runs.keys }).sorted()
        var comparison = DetectionComparison()
        comparison.maxScoreDifference = scoreTolerance
        for name in names {
            let found = references.compactMap { $0.reference.runs[name]?.options }.first
            let options = try #require(found)
            let detector = try ObjectDetector(options: makeOptions(options))
            for (reference, image) in references {
                guard let run = reference.runs[name] else { continue }
                comparison.compare(
                    try detector.detect(image: image).detections, run.result.detections ?? [],
                    label: "\(label) \(reference.image.name)/\(name)")
            }
        }
        return comparison
    }

    @Test func everyImageAndOptionSetMatchesMediaPipe() throws {
        guard SharedData.isAvailable, let model = Self.derivedModel(Self.modelName) else {
            return skipWithoutSharedData(Self.modelName)
        }
        let comparison = try Self.compareAll(label: "raw") { options in
            ObjectDetectorTestData.options(model: model, reference: options)
        }
        print("ObjectDetector on raw outputs: \(comparison)")
        #expect(comparison.failures.isEmpty, "\(comparison.failures.joined(separator: "\n"))")
        #expect(comparison.detectionCount >= 20)
    }

    /// The model's metadata is read as MediaPipe reads it: two outputs named location and score,
    /// labels on the score tensor's class axis, and the op's anchors and box coding.
    @Test func readsDecodingAnchorsAndLabelsFromDetectorMetadata() throws {
        guard SharedData.isAvailable, let model = Self.derivedModel(Self.modelName),
            let original = ObjectDetectorTestData.model
        else { return skipWithoutSharedData(Self.modelName) }
        let info = try ObjectDetectorModelInfo(model: TFLiteModel(contentsOfFile: model), options: .init())
        let raw = try #require(info.rawOutputs)
        #expect(raw.anchors.count == 1917 && raw.decoder.numBoxes == 1917 && raw.decoder.numCoords == 4)
        #expect(raw.decoder.numClasses == 90 && !raw.decoder.sigmoidScore && raw.decoder.applyExponentialOnBoxSize)
        #expect(
            [raw.decoder.yScale, raw.decoder.xScale, raw.decoder.hScale, raw.decoder.wScale] == [10, 10, 5, 5])
        let originalInfo = try ObjectDetectorModelInfo(
            model: TFLiteModel(contentsOfFile: original), options: .init())
        #expect(info.labels == originalInfo.labels)
        #expect(originalInfo.rawOutputs == nil)
    }

    /// Beyond MediaPipe: the same graph without any metadata runs when the options give the
    /// anchors, box coding and labels the metadata would have held, with MediaPipe's results.
    @Test func aModelWithoutMetadataMatchesMediaPipeWithDecodingFromTheOptions() throws {
        guard SharedData.isAvailable, let model = Self.derivedModel(Self.modelName),
            let bare = Self.derivedModel(Self.bareModelName)
        else { return skipWithoutSharedData(Self.bareModelName) }
        let info = try ObjectDetectorModelInfo(model: TFLiteModel(contentsOfFile: model), options: .init())
        let raw = try #require(info.rawOutputs)
        let decoding = RawOutputDecoding(
            anchors: .fixed(
                raw.anchors.map {
                    RawOutputDecoding.Anchor(
                        xCenter: $0.xCenter, yCenter: $0.yCenter, width: $0.width, height: $0.height)
                }),
            xScale: 10, yScale: 10, wScale: 5, hScale: 5)
        let comparison = try Self.compareAll(label: "no metadata") { reference in
            let options = ObjectDetectorTestData.options(model: bare, reference: reference)
            options.labels = info.labels
            options.rawOutputDecoding = decoding
            return options
        }
        print("ObjectDetector on raw outputs without metadata: \(comparison)")
        #expect(comparison.failures.isEmpty, "\(comparison.failures.joined(separator: "\n"))")
    }

    /// Without metadata and without decoding options the error says what is missing.
    @Test func aModelWithoutMetadataOrDecodingOptionsNamesWhatIsMissing() throws {
        guard SharedData.isAvailable, let bare = Self.derivedModel(Self.bareModelName) else {
            return skipWithoutSharedData(Self.bareModelName)
        }
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = bare
        options.labels = ["person"]
        do {
            _ = try ObjectDetector(options: options)
            Issue.record("a raw-output model without metadata or decoding options was accepted")
        } catch {
            guard case .missingMetadata(let message) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(message.contains("rawOutputDecoding"))
        }
        // Anchors that do not match the model's box count are refused with both numbers.
        options.rawOutputDecoding = RawOutputDecoding(
            anchors: .fixed([RawOutputDecoding.Anchor(xCenter: 0.5, yCenter: 0.5, width: 1, height: 1)]),
            xScale: 10, yScale: 10, wScale: 5, hScale: 5)
        #expect(throws: TasksError.invalidModel("The detector has 1 anchors for 1917 boxes.")) {
            try ObjectDetector(options: options)
        }
        // The caller's own settings are refused as an option, naming it.
        options.rawOutputDecoding?.xScale = 0
        do {
            _ = try ObjectDetector(options: options)
            Issue.record("a zero box scale was accepted")
        } catch {
            guard case .invalidOption(let option, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(option == "rawOutputDecoding")
        }
    }
}

extension RawOutputDetectorFidelityTests {
    /// VIDEO mode keeps no state on this path either: every frame of MediaPipe's 30-frame run.
    @Test func videoFramesMatchMediaPipe() throws {
        guard SharedData.isAvailable, let model = Self.derivedModel(Self.modelName),
            let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil)?
                .appendingPathComponent("RawSSD/video/gesture_test_video.json")
        else { return skipWithoutSharedData(Self.modelName) }
        let reference = try References.video(atPath: url.path)
        var comparison = DetectionComparison()
        comparison.maxScoreDifference = Self.scoreTolerance
        for (name, run) in reference.runs.sorted(by: { $0.key < $1.key }) {
            let detector = try ObjectDetector(
                options: ObjectDetectorTestData.options(model: model, reference: run.options, runningMode: .video))
            for frame in run.frames {
                if SharedData.isDebugBuild, frame.frameIndex % 10 != 0 { continue }
                let path = try #require(
                    SharedData.path(
                        "\(reference.video.framesPngDir)/\(String(format: "%03d", frame.frameIndex)).png"))
                let result = try detector.detect(
                    videoFrame: try MPImage(contentsOfFile: path), timestampInMilliseconds: frame.timestampMs)
                comparison.compare(
                    result.detections, frame.detections ?? [], label: "video \(name) frame \(frame.frameIndex)")
            }
        }
        print("ObjectDetector on raw outputs, VIDEO mode: \(comparison)")
        #expect(comparison.failures.isEmpty, "\(comparison.failures.joined(separator: "\n"))")
        #expect(comparison.detectionCount >= 30)
    }

    /// The anchors in the model are MobileNet-SSD's classic generator settings, stored as 8-bit
    /// values: generating them with ``RawOutputDecoding/AnchorGeneration`` gives every anchor
    /// within half a quantization step (0.0065 / 2) of the metadata's.
    @Test func generatedAnchorsEqualTheModelsWithinItsQuantizationStep() throws {
        guard SharedData.isAvailable, let model = Self.derivedModel(Self.modelName) else {
            return skipWithoutSharedData(Self.modelName)
        }
        let stored = try #require(
            try ObjectDetectorModelInfo(model: TFLiteModel(contentsOfFile: model), options: .init()).rawOutputs?.anchors
        )
        let generation = RawOutputDecoding.AnchorGeneration(
            inputWidth: 300, inputHeight: 300, minScale: 0.2, maxScale: 0.95, strides: [16, 32, 64, 128, 256, 512],
            aspectRatios: [1, 2, 0.5, 3, 0.3333], reduceBoxesInLowestLayer: true)
        let generated = try SSDAnchorGenerator.anchors(for: try generation.generatorOptions())
        try #require(generated.count == stored.count)
        var worst: Float = 0
        for (ours, theirs) in zip(generated, stored) {
            worst = max(
                worst, abs(ours.xCenter - theirs.xCenter), abs(ours.yCenter - theirs.yCenter),
                abs(ours.width - theirs.width), abs(ours.height - theirs.height))
        }
        print("generated SSD anchors vs the model's: largest difference \(worst)")
        #expect(worst <= 0.00645306 / 2 + 1e-6)
    }
}
