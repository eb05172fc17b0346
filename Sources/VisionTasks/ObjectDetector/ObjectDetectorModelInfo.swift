import ModelFile

/// What the object detector reads from its model before running it: which output is which, how
/// boxes are laid out, the labels and display names, and how many classes each detection has
/// (mediapipe/tasks/cc/vision/object_detector/object_detector_graph.cc and
/// detection_postprocessing_graph.cc; ../shared/spec/PIPELINES.md §4.1, §4.3, §4.6).
struct ObjectDetectorModelInfo: Sendable {
    /// Output indices of boxes, classes, scores and the detection count.
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

    /// The metadata names MediaPipe looks up (object_detector_graph.cc).
    static let outputNames = ["location", "category", "score", "number of detections"]
    /// TFLite_Detection_PostProcess writes boxes as ymin, xmin, ymax, xmax.
    static let postProcessBoxIndices = [1, 0, 3, 2]

    init(model: TFLiteModel, options: ObjectDetectorOptions) throws(TasksError) {
        let graph = model.mainSubgraph
        guard graph.outputs.count == 4 else {
            throw .unsupportedModel(
                "Expected a model with 4 output tensors (in-model non-max suppression); this one has "
                    + "\(graph.outputs.count). Models with 2 outputs are not supported yet.")
        }
        classesPerDetection = Self.classesPerDetection(model)
        let metadata: ModelMetadata?
        do {
            metadata = try model.metadata()
        } catch {
            throw TasksError.wrapping(error)
        }
        guard let metadata else {
            // Beyond MediaPipe: accept a model without metadata when the caller supplies what the
            // metadata would have said.
            guard options.labels != nil || options.inputNormalization != nil else {
                throw .missingMetadata("Object detection models require TFLite Model Metadata but none was found")
            }
            labels = options.labels
            normalization = options.inputNormalization
            if Self.endsInPostProcess(model) { boxIndices = Self.postProcessBoxIndices }
            return
        }
        normalization = metadata.inputTensors.first?.normalization.map {
            InputNormalization(mean: $0.mean, std: $0.std)
        }

        let tensors = metadata.outputTensors
        guard tensors.count == 4 else {
            throw .invalidModel(
                "Mismatch between number of output tensors (4) and output tensors metadata (\(tensors.count)).")
        }
        let names = tensors.map { $0.name ?? "" }
        if let indices = Optional(Self.outputNames.map { names.firstIndex(of: $0) }), !indices.contains(nil) {
            locationOutput = indices[0]!
            categoryOutput = indices[1]!
            scoreOutput = indices[2]!
            countOutput = indices[3]!
        }
        if let box = tensors[locationOutput].boundingBoxProperties {
            guard box.type == .boundaries, box.coordinateType == .ratio else {
                throw .unsupportedModel("Only BOUNDARIES bounding boxes with RATIO coordinates are supported.")
            }
            if box.index.count == 4 {
                let indices = box.index.map { Int($0) }
                guard Set(indices) == [0, 1, 2, 3] else {
                    throw .invalidModel("The bounding box index \(indices) is not a permutation of 0…3.")
                }
                boxIndices = indices
            }
        }
        try readLabels(model: model, files: tensors[categoryOutput].associatedFiles, locale: options.displayNamesLocale)
        scoreCalibration = try Self.scoreCalibration(model: model, tensor: tensors[scoreOutput])
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

    /// Labels: the first TENSOR_VALUE_LABELS file of the category tensor; display names: the
    /// first file of that type in `locale` (label_map_util.cc, metadata_extractor.cc).
    private mutating func readLabels(model: TFLiteModel, files: [AssociatedFile], locale: String) throws(TasksError) {
        let candidates = files.filter { $0.type == .tensorValueLabels }
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
