import TestSupport
import Testing

@testable import ModelFile

/// Every official model file in ../shared/models parses, and what we read equals MODELS.md.
@Suite struct SharedModelsTests {
    static let document: ModelsDocument? = SharedData.path("models/MODELS.md").flatMap { try? ModelsDocument(path: $0) }

    /// (label as MODELS.md writes it, container file, model name inside it)
    static let models: [(label: String, file: String, name: String)] = SharedData.modelFiles.flatMap { file in
        if file.hasSuffix(".task") {
            let members =
                file.hasPrefix("hand")
                ? ["hand_detector.tflite", "hand_landmarks_detector.tflite"]
                : ["pose_detector.tflite", "pose_landmarks_detector.tflite"]
            return members.map { ("\(file):\($0)", file, $0) }
        }
        return [(file, file, file)]
    }

    @Test func modelsDocumentIsReadable() throws {
        guard SharedData.isAvailable else {
            print("skipped: ../shared is not available")
            return
        }
        let document = try #require(Self.document)
        // MODELS.md grows as models are added to ../shared: every model these tests parse has its
        // section, and every bundle among them its member layout.
        let missing = Self.models.map(\.label).filter { document.models[$0] == nil }
        #expect(missing.isEmpty, "MODELS.md has no section for \(missing)")
        for (label, file, name) in Self.models where file.hasSuffix(".task") {
            #expect(document.layouts.contains { $0.bundle == file && $0.member == name }, "no layout for \(label)")
        }
    }

    @Test(arguments: models)
    func summaryMatchesModelsDocument(label: String, file: String, name: String) throws {
        guard let path = SharedData.path("models/\(file)"), let document = Self.document else {
            print("skipped \(label): ../shared is not available")
            return
        }
        let facts = try #require(document.models[label], "MODELS.md has no section \(label)")
        let container = try ModelContainer(contentsOfFile: path)
        let model = try container.model(named: name)
        let summary = try ModelSummary(model: model)

        #expect(summary.operatorCount == facts.operatorCount)
        #expect(summary.macs == facts.macs)
        #expect(summary.parameters == facts.parameters)
        #expect(
            Dictionary(uniqueKeysWithValues: summary.operatorCounts.map { ($0.name, $0.count) }) == facts.operatorCounts
        )
        var versions: [String: Set<Int>] = [:]
        for op in model.mainSubgraph.operators {
            let code = model.operatorCodes[op.opcodeIndex]
            versions[code.name, default: []].insert(code.version)
        }
        #expect(versions.mapValues { $0.sorted() } == facts.operatorVersions)
        #expect(summary.inputs.map(\.name) == facts.inputs.map(\.name))
        #expect(summary.inputs.map(\.shape) == facts.inputs.map(\.shape))
        #expect(summary.inputs.map(\.type) == facts.inputs.map(\.dtype))
        #expect(summary.outputs.map(\.name) == facts.outputs.map(\.name))
        #expect(summary.outputs.map(\.type) == facts.outputs.map(\.dtype))
        // Output shapes of the SSD are set at run time (empty in the file), so compare when present.
        for (ours, theirs) in zip(summary.outputs, facts.outputs) where !ours.shape.isEmpty {
            #expect(ours.shape == theirs.shape)
        }
        #expect((summary.metadata != nil) == facts.hasMetadata)
    }

    @Test func bundleLayoutMatchesModelsDocument() throws {
        guard let document = Self.document else {
            print("skipped: ../shared is not available")
            return
        }
        for layout in document.layouts {
            let path = try #require(SharedData.path("models/\(layout.bundle)"))
            let bundle = try ModelAssetBundle(contentsOfFile: path)
            let member = try #require(bundle.archive.member(named: layout.member))
            #expect(member.localHeaderOffset == layout.localHeader)
            #expect(member.data.offset == layout.dataOffset)
            #expect(member.data.count == layout.bytes)
            #expect(member.isStored)
            #expect(member.data.offset % 4 == 0)
        }
    }

    @Test func noMetadataModelReportsNoMetadata() throws {
        guard let path = SharedData.path("models/ssd_mobilenet_v1_no_metadata.tflite") else {
            print("skipped: ../shared is not available")
            return
        }
        let model = try TFLiteModel(contentsOfFile: path)
        #expect(try model.metadata() == nil)
        #expect(try ModelSummary(model: model).metadata == nil)
    }

    @Test func ssdMetadataCarriesNormalizationBoxesAndLabels() throws {
        guard let path = SharedData.path("models/ssd_mobilenet_v1.tflite") else {
            print("skipped: ../shared is not available")
            return
        }
        let model = try TFLiteModel(contentsOfFile: path)
        let metadata = try #require(try model.metadata())
        #expect(metadata.name == "SSD MobileNetV1")
        #expect(metadata.inputTensors.first?.normalization == NormalizationOptions(mean: [127.5], std: [127.5]))
        #expect(metadata.inputTensors.first?.imageProperties?.colorSpace == .rgb)
        #expect(
            metadata.outputTensors.map { $0.name ?? "" } == ["location", "category", "score", "number of detections"])
        let box = try #require(metadata.outputTensors[0].boundingBoxProperties)
        #expect(box.index == [1, 0, 3, 2])
        #expect(box.type == .boundaries)
        #expect(box.coordinateType == .ratio)
        let labels = LabelFile.lines(try model.associatedFile(named: "labelmap.txt"))
        #expect(labels.count == 90)
        #expect(labels.first == "person")
        #expect(labels.filter { $0 == "???" }.count == 10)
        // The detection post-processing op is custom, with flexbuffer options.
        let op = try #require(model.mainSubgraph.operators.last)
        #expect(model.operatorCodes[op.opcodeIndex].name == "CUSTOM:TFLite_Detection_PostProcess")
        #expect((op.customOptions?.count ?? 0) > 0)
    }

    @Test func poseDetectorHasThirtyEightSparseFloat16Weights() throws {
        guard let path = SharedData.path("models/pose_landmarker_full.task") else {
            print("skipped: ../shared is not available")
            return
        }
        let model = try ModelAssetBundle(contentsOfFile: path).model(named: "pose_detector.tflite")
        let sparse = model.mainSubgraph.tensors.filter { $0.sparsity != nil }
        #expect(sparse.count == 38)
        for tensor in sparse {
            #expect(tensor.type == .float16)
            let sparsity = try #require(tensor.sparsity)
            #expect(sparsity.dimensionMetadata.contains { $0.format == .sparseCSR })
            // CSR segments are monotonic and end at the number of stored values.
            for dimension in sparsity.dimensionMetadata where dimension.format == .sparseCSR {
                #expect(zip(dimension.arraySegments, dimension.arraySegments.dropFirst()).allSatisfy { $0 <= $1 })
                #expect(Int(dimension.arraySegments.last ?? -1) == dimension.arrayIndices.count)
            }
        }
        #expect(model.metadataString(named: "min_runtime_version") == "2.2.0")
    }

    @Test func landmarkModelsDeclareReducedPrecisionSupport() throws {
        guard let path = SharedData.path("models/hand_landmarker.task") else {
            print("skipped: ../shared is not available")
            return
        }
        let bundle = try ModelAssetBundle(contentsOfFile: path)
        let landmarks = try bundle.model(named: "hand_landmarks_detector.tflite")
        #expect(landmarks.metadataString(named: "reduced_precision_support") == "fp16accfp32")
        let metadata = try #require(try landmarks.metadata())
        #expect(metadata.inputTensors.first?.normalization?.std == [255, 255, 255])
        #expect(metadata.allAssociatedFiles.map(\.name).contains("handedness.txt"))
    }
}
