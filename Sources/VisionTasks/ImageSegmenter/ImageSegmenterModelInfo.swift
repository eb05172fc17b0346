import ModelFile

/// What the image segmenter reads from its model at creation: where the masks and the quality
/// scores are, the mask tensor's size and channels, the activation from `SEGMENTER_METADATA` and
/// the labels (image_segmenter_graph.cc, ../shared/spec/PIPELINES.md §9.2 and §9.5).
struct ImageSegmenterModelInfo {
    /// The output holding the masks (the last one).
    var maskOutput: Int
    /// The output holding one quality score per channel, for two-output models.
    var qualityOutput: Int?
    /// The mask tensor's height, width and channels.
    var height: Int
    var width: Int
    var channels: Int
    var activation: SegmenterMetadata.Activation
    /// Label names in channel order (empty without a label file).
    var labels: [String]
    /// Display names in `displayNamesLocale`, when the model has them.
    var displayNames: [String]?

    init(model: TFLiteModel, metadata: ModelMetadata?, outputShapes: [[Int]], locale: String) throws(TasksError) {
        // One output (masks) or two (quality scores, then masks): tensors_to_segmentation_calculator.cc.
        guard outputShapes.count == 1 || outputShapes.count == 2 else {
            throw .unsupportedModel(
                "image segmenter: expected 1 or 2 output tensors (masks, or quality scores and masks), "
                    + "but the model has \(outputShapes.count)")
        }
        maskOutput = outputShapes.count - 1
        qualityOutput = outputShapes.count == 2 ? 0 : nil
        // MediaPipe also takes 2-D and 3-D tensors and runs any model with an image input, the
        // face detector included, returning meaningless masks; here the mask output must be an
        // image of channels (docs/DIFFERENCES.md).
        let shape = outputShapes[maskOutput]
        guard shape.count == 4, shape[0] == 1, shape[1] >= 2, shape[2] >= 2, shape[3] >= 1 else {
            throw .unsupportedModel(
                "image segmenter: the model has no segmentation output: its last output tensor has shape "
                    + "\(shape), not [1, height, width, channels] with height and width of at least 2")
        }
        height = shape[1]
        width = shape[2]
        channels = shape[3]
        if let quality = qualityOutput {
            let count = outputShapes[quality].reduce(1, *)
            guard count == channels else {
                throw .unsupportedModel(
                    "image segmenter: the quality output has \(count) values for \(channels) mask channels")
            }
        }
        do {
            activation = try metadata.flatMap { try SegmenterMetadata($0) }?.activation ?? .none
        } catch {
            throw .invalidModel("image segmenter: \(SegmenterMetadata.entryName): \(error)")
        }
        labels = []
        displayNames = nil
        // Labels: the first TENSOR_AXIS_LABELS file of the mask tensor's metadata; display names
        // from the file of that type in `locale` (image_segmenter_graph.cc, GetLabelItemsIfAny).
        let files = metadata?.outputTensors.last?.associatedFiles.filter { $0.type == .tensorAxisLabels } ?? []
        if let labelFile = files.first {
            do {
                labels = LabelFile.lines(try model.associatedFile(named: labelFile.name))
                if let localized = files.first(where: { $0.locale == locale }) {
                    let names = LabelFile.lines(try model.associatedFile(named: localized.name))
                    if names.count == labels.count { displayNames = names }
                }
            } catch {
                throw TasksError.wrapping(error)
            }
        }
    }
}
