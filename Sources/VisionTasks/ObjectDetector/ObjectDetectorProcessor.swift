import Imaging
import ModelFile

/// The object detector's per-frame work: the whole (upright) image stretched to the model input,
/// the model, then either its in-model NMS's outputs read or its raw outputs decoded against
/// anchors and suppressed, then thresholds, class filter, labels and pixel boxes
/// (object_detector_graph.cc, detection_postprocessing_graph.cc; ../shared/spec/PIPELINES.md §4).
struct ObjectDetectorProcessor: FrameProcessor {
    let model: TaskModel
    let info: ObjectDetectorModelInfo
    let decoderOptions: InModelDetectionDecoder.Options
    /// At most this many detections after the raw path's suppression (−1: all).
    let maxResults: Int
    /// The raw path's decoder settings with this detector's threshold and class filter.
    let rawDecoderOptions: DetectionDecoderOptions?
    /// `min_suppression_threshold` of the raw path's NMS (DetectorOptions' default,
    /// ../shared/spec/PIPELINES.md §4.5).
    static let suppressionThreshold: Float = 0.3

    init(model: TFLiteModel, options: ObjectDetectorOptions) throws(TasksError) {
        info = try ObjectDetectorModelInfo(model: model, options: options)
        let normalization = info.normalization.map { NormalizationOptions(mean: $0.mean, std: $0.std) }
        self.model = try TaskModel(
            model: model, name: "object detector", threadCount: options.baseOptions.threadCount,
            normalization: normalization)
        let classFilter = try info.classFilter(options)
        decoderOptions = InModelDetectionDecoder.Options(
            classesPerDetection: info.classesPerDetection, boxIndices: info.boxIndices,
            scoreThreshold: options.scoreThreshold, classFilter: classFilter,
            maxResults: options.maxResults, calibration: info.scoreCalibration)
        maxResults = options.maxResults
        if var decoder = info.rawOutputs?.decoder {
            decoder.minScoreThreshold = options.scoreThreshold
            decoder.classFilter = classFilter
            rawDecoderOptions = decoder
        } else {
            rawDecoderOptions = nil
        }
    }

    mutating func process(_ image: MPImage, timestampInMilliseconds: Int) throws(TasksError) -> ObjectDetectorResult {
        // keep_aspect_ratio = false, BORDER_REPLICATE (../shared/spec/PIPELINES.md §4.2).
        let geometry = try model.setInput(image, region: .fullImage, keepAspectRatio: false, border: .replicate)
        try model.invoke()
        let candidates: [ObjectDetectionCandidate]
        if let rawDecoderOptions {
            candidates = try rawCandidates(rawDecoderOptions)
        } else {
            candidates = try inModelCandidates()
        }
        // Tensor-normalized → image-normalized through the crop's MATRIX: the box becomes the
        // axis-aligned hull of its projected corners (detection_projection_calculator.cc).
        let matrix = geometry.matrix
        let projected = candidates.map { candidate -> ObjectDetectionCandidate in
            var moved = candidate
            moved.box = DetectionProjection.project(candidate.box, with: matrix)
            return moved
        }
        let size = image.uprightSize
        let detections = DetectionOutput.detections(
            projected, imageSize: ImageSize(width: size.width, height: size.height),
            labels: info.labels, displayNames: info.displayNames)
        return ObjectDetectorResult(detections: detections, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// The four outputs of in-model NMS, read as TensorsToDetections does.
    private func inModelCandidates() throws(TasksError) -> [ObjectDetectionCandidate] {
        let count = try model.withOutput(info.countOutput) { $0.first ?? 0 }
        let info = info
        let options = decoderOptions
        return try model.withOutput(info.locationOutput) { (boxes) throws(TasksError) in
            try model.withOutput(info.categoryOutput) { (classes) throws(TasksError) in
                try model.withOutput(info.scoreOutput) { (scores) throws(TasksError) in
                    try InModelDetectionDecoder.decode(
                        boxes: boxes, classes: classes, scores: scores, count: count, options: options)
                }
            }
        }
    }

    /// The two raw outputs decoded against the anchors (TensorsToDetections), then greedy
    /// IoU suppression capped at `maxResults` (NonMaxSuppressionCalculator, DEFAULT).
    private func rawCandidates(_ decoder: DetectionDecoderOptions) throws(TasksError) -> [ObjectDetectionCandidate] {
        let anchors = info.rawOutputs?.anchors ?? []
        let decoded = try model.withOutput(info.locationOutput) { (boxes) throws(TasksError) in
            try model.withOutput(info.scoreOutput) { (scores) throws(TasksError) in
                try DetectionDecoder.decode(boxes: boxes, scores: scores, anchors: anchors, options: decoder)
            }
        }
        let kept = NonMaxSuppression.greedy(
            decoded, iouThreshold: Self.suppressionThreshold, maxDetections: maxResults)
        return kept.map(ObjectDetectionCandidate.init)
    }
}
