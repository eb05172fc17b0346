import ModelFile

/// What the object detector reads from its model before running it: which output is which, how
/// boxes are laid out, the labels and display names, and how many classes each detection has
/// (mediapipe/tasks/cc/vision/object_detector/object_detector_graph.cc and
/// detection_postprocessing_graph.cc; ../shared/spec/PIPELINES.md §4.1, §4.3, §4.5, §4.6).
///
/// Two kinds of model run: four outputs (boxes, classes, scores, count) from an in-model
/// `TFLite_Detection_PostProcess`, and two outputs (raw boxes and class scores per anchor) that
/// are decoded against anchors and suppressed here, configured by the `DETECTOR_METADATA`
/// custom metadata or, beyond MediaPipe, by ``ObjectDetectorOptions/rawOutputDecoding``.
struct ObjectDetectorModelInfo: Sendable {
    /// How a two-output model's tensors become detections.
    struct RawOutputs: Sendable {
        /// The decoder's settings without the per-call thresholds and class filter.
        var decoder: DetectionDecoderOptions
        /// One anchor per box, in the model's box order.
        var anchors: [Anchor]
    }

    /// Output indices of boxes, classes, scores and the detection count (four-output models);
    /// for two-output models only `locationOutput` and `scoreOutput` apply.
    var locationOutput = 0
    var categoryOutput = 1
    var scoreOutput = 2
    var countOutput = 3
    /// Positions of left, top, right and bottom in each box.
    var boxIndices = [0, 1, 2, 3]
    var labels: [String]?
    var displayNames: [String]?
    /// `max_classes_per_detection` of the post-processing op (1 when absent, as upstream).
    var classesPerDetection = 1
    /// Input normalization from the metadata (or the options, for a model without metadata).
    var normalization: InputNormalization?
    /// Per-class score calibration of the score tensor, when its metadata asks for one.
    var scoreCalibration: ScoreCalibration?
    /// Set for a model with two outputs: decoding and anchors; `nil` for in-model NMS.
    var rawOutputs: RawOutputs?

    /// The metadata names MediaPipe looks up (object_detector_graph.cc).
    static let outputNames = ["location", "category", "score", "number of detections"]
    /// The names looked up for a two-output model (detection_postprocessing_graph.cc).
    static let rawOutputNames = ["location", "score"]
    /// TFLite_Detection_PostProcess writes boxes as ymin, xmin, ymax, xmax.
    static let postProcessBoxIndices = [1, 0, 3, 2]

    init(model: TFLiteModel, options: ObjectDetectorOptions) throws(TasksError) {
        let graph = model.mainSubgraph
        let outputCount = graph.outputs.count
        guard outputCount == 2 || outputCount == 4 else {
            throw .invalidModel("Expected a model with 2 or 4 output tensors, found \(outputCount).")
        }
        let inModelSuppression = outputCount == 4
        if inModelSuppression {
            classesPerDetection = Self.classesPerDetection(model)
        } else {
            (locationOutput, scoreOutput) = (0, 1)
        }
        let metadata: ModelMetadata?
        do {
            metadata = try model.metadata()
        } catch {
            throw TasksError.wrapping(error)
        }
        guard let metadata else {
            try configureWithoutMetadata(model: model, options: options, inModelSuppression: inModelSuppression)
            return
        }
        normalization = metadata.inputTensors.first?.normalization.map {
            InputNormalization(mean: $0.mean, std: $0.std)
        }

        let tensors = metadata.outputTensors
        guard tensors.count == outputCount else {
            throw .invalidModel(
                "Mismatch between number of output tensors (\(outputCount)) and output tensors metadata "
                    + "(\(tensors.count)).")
        }
        let names = tensors.map { $0.name ?? "" }
        let wanted = inModelSuppression ? Self.outputNames : Self.rawOutputNames
        let found = wanted.compactMap { names.firstIndex(of: $0) }
        if found.count == wanted.count {
            if inModelSuppression {
                (locationOutput, categoryOutput, scoreOutput, countOutput) = (found[0], found[1], found[2], found[3])
            } else {
                (locationOutput, scoreOutput) = (found[0], found[1])
            }
        }
        if let box = tensors[locationOutput].boundingBoxProperties {
            guard box.type == .boundaries, box.coordinateType == .ratio else {
                throw .unsupportedModel("Only BOUNDARIES bounding boxes with RATIO coordinates are supported.")
            }
            if !box.index.isEmpty {
                let indices = box.index.map { Int($0) }
                guard indices.count == 4, Set(indices) == [0, 1, 2, 3] else {
                    throw .invalidModel("The bounding box index \(indices) is not a permutation of 0…3.")
                }
                boxIndices = indices
            }
        }
        if inModelSuppression {
            try readLabels(
                model: model, files: tensors[categoryOutput].associatedFiles, type: .tensorValueLabels,
                locale: options.displayNamesLocale)
            scoreCalibration = try Self.scoreCalibration(model: model, tensor: tensors[scoreOutput])
        } else {
            // Labels of a raw score tensor name its class axis (TENSOR_AXIS_LABELS); MediaPipe
            // applies no score calibration on this path.
            try readLabels(
                model: model, files: tensors[scoreOutput].associatedFiles, type: .tensorAxisLabels,
                locale: options.displayNamesLocale)
            let detector: DetectorMetadata?
            do {
                detector = try DetectorMetadata(metadata)
            } catch {
                throw TasksError.wrapping(error)
            }
            guard let detector, let decoding = detector.decoding else {
                throw .missingMetadata(
                    "TensorsDecodingOptions is not found in the object detector metadata: a model with 2 outputs "
                        + "needs DETECTOR_METADATA custom metadata.")
            }
            let anchors = detector.fixedAnchors.map {
                Anchor(xCenter: $0.xCenter, yCenter: $0.yCenter, width: $0.width, height: $0.height)
            }
            rawOutputs = try Self.rawOutputs(
                decoding: decoding, anchors: anchors, model: model, location: locationOutput, score: scoreOutput)
        }
    }

    /// A model without TFLite metadata (beyond MediaPipe, which rejects it): the caller supplies
    /// what the metadata would have said.
    private mutating func configureWithoutMetadata(
        model: TFLiteModel, options: ObjectDetectorOptions, inModelSuppression: Bool
    ) throws(TasksError) {
        labels = options.labels
        normalization = options.inputNormalization
        if inModelSuppression {
            guard options.labels != nil || options.inputNormalization != nil else {
                throw .missingMetadata("Object detection models require TFLite Model Metadata but none was found")
            }
            classesPerDetection = Self.classesPerDetection(model)
            if Self.endsInPostProcess(model) { boxIndices = Self.postProcessBoxIndices }
            return
        }
        (locationOutput, scoreOutput) = (0, 1)
        guard let raw = options.rawOutputDecoding else {
            throw .missingMetadata(
                "This model has 2 outputs (raw boxes and scores) and no TFLite Model Metadata; set "
                    + "ObjectDetectorOptions.rawOutputDecoding (anchors and box scales) to run it.")
        }
        // The caller's settings are checked as options, before the model is matched against them.
        guard [raw.xScale, raw.yScale, raw.wScale, raw.hScale].allSatisfy({ $0.isFinite && $0 != 0 }),
            raw.numKeypoints >= 0
        else {
            throw .invalidOption(
                option: "rawOutputDecoding",
                message: "The box scales must be finite and non-zero, and numKeypoints at least 0.")
        }
        let shape = try Self.output(1, of: model).shape.map(Int.init)
        guard let classes = shape.last, classes > 0 else {
            throw .invalidModel("The score output's shape \(shape) has no class axis.")
        }
        let boxShape = try Self.output(0, of: model).shape.map(Int.init)
        let boxes = boxShape.count >= 2 ? boxShape[boxShape.count - 2] : 0
        let anchors: [Anchor]
        switch raw.anchors {
        case .fixed(let list):
            anchors = list.map { Anchor(xCenter: $0.xCenter, yCenter: $0.yCenter, width: $0.width, height: $0.height) }
        case .generated(let generation):
            anchors = try SSDAnchorGenerator.anchors(for: try generation.generatorOptions())
        }
        let decoding = DetectorMetadata.Decoding(
            numClasses: classes, numBoxes: boxes, numCoords: 4 + 2 * raw.numKeypoints,
            keypointCoordOffset: 4, numKeypoints: raw.numKeypoints, numValuesPerKeypoint: 2,
            xScale: raw.xScale, yScale: raw.yScale, wScale: raw.wScale, hScale: raw.hScale,
            applyExponentialOnBoxSize: raw.applyExponentialOnBoxSize, sigmoidScore: raw.sigmoidScore)
        rawOutputs = try Self.rawOutputs(decoding: decoding, anchors: anchors, model: model, location: 0, score: 1)
    }

    /// Output `index` of the main subgraph.
    private static func output(_ index: Int, of model: TFLiteModel) throws(TasksError) -> Tensor {
        let graph = model.mainSubgraph
        guard graph.outputs.indices.contains(index), graph.tensors.indices.contains(Int(graph.outputs[index])) else {
            throw .invalidModel("Output \(index) of the model names no tensor.")
        }
        return graph.tensors[Int(graph.outputs[index])]
    }

    /// Checks `decoding` and `anchors` against the model's two outputs and turns them into the
    /// decoder's settings (box format YXHW, as detection_postprocessing_graph.cc fixes it).
    private static func rawOutputs(
        decoding: DetectorMetadata.Decoding, anchors: [Anchor], model: TFLiteModel, location: Int, score: Int
    ) throws(TasksError) -> RawOutputs {
        // num_values_per_keypoint only matters when there are keypoints (MediaPipe aborts on
        // anything but 2 even without them; here it is ignored then).
        let decoder = DetectionDecoderOptions(
            numClasses: decoding.numClasses, numBoxes: decoding.numBoxes, numCoords: decoding.numCoords,
            boxCoordOffset: 0, keypointCoordOffset: decoding.numKeypoints == 0 ? 0 : decoding.keypointCoordOffset,
            numKeypoints: decoding.numKeypoints,
            numValuesPerKeypoint: decoding.numKeypoints == 0 ? 2 : decoding.numValuesPerKeypoint, boxFormat: .yxhw,
            xScale: decoding.xScale, yScale: decoding.yScale, wScale: decoding.wScale, hScale: decoding.hScale,
            applyExponentialOnBoxSize: decoding.applyExponentialOnBoxSize, sigmoidScore: decoding.sigmoidScore)
        guard decoder.isConsistent else {
            throw .invalidModel(
                "The detector decoding options are inconsistent: \(decoding.numBoxes) boxes of "
                    + "\(decoding.numCoords) values, \(decoding.numClasses) classes, "
                    + "\(decoding.numKeypoints) keypoints of \(decoding.numValuesPerKeypoint) values at offset "
                    + "\(decoding.keypointCoordOffset).")
        }
        guard
            [decoding.xScale, decoding.yScale, decoding.wScale, decoding.hScale].allSatisfy({ $0.isFinite && $0 != 0 })
        else {
            throw .invalidModel("The detector box scales must be finite and non-zero.")
        }
        guard anchors.count == decoding.numBoxes else {
            throw .invalidModel("The detector has \(anchors.count) anchors for \(decoding.numBoxes) boxes.")
        }
        let boxTensor = try output(location, of: model)
        let scoreTensor = try output(score, of: model)
        let boxCount = boxTensor.shape.reduce(1) { $0 * Int($1) }
        let scoreCount = scoreTensor.shape.reduce(1) { $0 * Int($1) }
        let boxType = boxTensor.type
        let scoreType = scoreTensor.type
        guard boxType == .float32, scoreType == .float32 else {
            throw .unsupportedModel(
                "The raw box and score outputs must be float32; this model's are \(boxType) and \(scoreType).")
        }
        let expected = (decoding.numBoxes * decoding.numCoords, decoding.numBoxes * decoding.numClasses)
        guard (boxCount, scoreCount) == expected else {
            throw .invalidModel(
                "The model's outputs hold \(boxCount) and \(scoreCount) values; the detector metadata expects "
                    + "\(expected.0) box values and \(expected.1) scores.")
        }
        return RawOutputs(decoder: decoder, anchors: anchors)
    }

    /// The score tensor's calibration: its first ScoreCalibrationOptions unit and first
    /// TENSOR_AXIS_SCORE_CALIBRATION file (GetScoreCalibrationOptionsIfAny in
    /// detection_postprocessing_graph.cc).
    private static func scoreCalibration(model: TFLiteModel, tensor: TensorMetadata) throws(TasksError)
        -> ScoreCalibration?
    {
        guard let options = tensor.scoreCalibration else { return nil }
        guard let file = tensor.associatedFiles.first(where: { $0.type == .tensorAxisScoreCalibration }) else {
            throw .invalidModel(
                "Found ScoreCalibrationOptions but missing required associated parameters file with type "
                    + "TENSOR_AXIS_SCORE_CALIBRATION.")
        }
        let bytes: ByteRange
        do {
            bytes = try model.associatedFile(named: file.name)
        } catch {
            throw TasksError.wrapping(error)
        }
        return try ScoreCalibration(options: options, file: String(decoding: bytes.bytes, as: UTF8.self))
    }

    /// Labels: the first file of `type` (TENSOR_VALUE_LABELS of the category tensor, or
    /// TENSOR_AXIS_LABELS of a raw score tensor); display names: the first file of that type in
    /// `locale` (label_map_util.cc, metadata_extractor.cc).
    private mutating func readLabels(
        model: TFLiteModel, files: [AssociatedFile], type: AssociatedFile.FileType, locale: String
    ) throws(TasksError) {
        let candidates = files.filter { $0.type == type }
        guard let labelFile = candidates.first else { return }
        do {
            labels = LabelFile.lines(try model.associatedFile(named: labelFile.name))
            if let localized = candidates.first(where: { $0.locale == locale }) {
                let names = LabelFile.lines(try model.associatedFile(named: localized.name))
                guard names.count == labels?.count else {
                    throw TasksError.invalidModel(
                        "The display name file '\(localized.name)' has \(names.count) lines but the label file has "
                            + "\(labels?.count ?? 0)."
                    )
                }
                displayNames = names
            }
        } catch {
            throw TasksError.wrapping(error)
        }
    }

    /// The class filter for `options`' allow or deny list; names the labels lack are ignored.
    func classFilter(_ options: ObjectDetectorOptions) throws(TasksError) -> DetectionDecoderOptions.ClassFilter {
        let allow = options.categoryAllowlist
        let deny = options.categoryDenylist
        guard !allow.isEmpty || !deny.isEmpty else { return .all }
        guard let labels else { throw .categoryListsRequireLabels }
        func indices(_ names: [String]) -> Set<Int> {
            let wanted = Set(names)
            return Set(labels.indices.filter { wanted.contains(labels[$0]) })
        }
        return allow.isEmpty ? .ignore(indices(deny)) : .allow(indices(allow))
    }

    private static func postProcessOperator(_ model: TFLiteModel) -> Operator? {
        model.mainSubgraph.operators.last {
            model.operatorCodes[$0.opcodeIndex].name == "CUSTOM:TFLite_Detection_PostProcess"
        }
    }

    private static func endsInPostProcess(_ model: TFLiteModel) -> Bool {
        postProcessOperator(model) != nil
    }

    /// `max_classes_per_detection` of the post-processing op, or 1 (GetMaxClassesPerDetection in
    /// detection_postprocessing_graph.cc).
    private static func classesPerDetection(_ model: TFLiteModel) -> Int {
        guard let op = postProcessOperator(model), let bytes = op.customOptions,
            let options = try? FlexValue(bytes: bytes),
            let value = options["max_classes_per_detection"]?.intValue, value > 0
        else { return 1 }
        return value
    }
}
