/// Reads the four outputs of a model with MediaPipe-style in-model NMS
/// (`TFLite_Detection_PostProcess`: boxes, classes, scores, count), as MediaPipe's
/// TensorsToDetections does on that path
/// (mediapipe/calculators/tensor/tensors_to_detections_calculator.cc; ../shared/spec/PIPELINES.md §4.4).
enum InModelDetectionDecoder {
    struct Options: Sendable {
        /// Entries per detection: the op's `max_classes_per_detection` (1 when absent).
        var classesPerDetection = 1
        /// Positions of left, top, right and bottom within each box (metadata
        /// `BoundingBoxProperties.index`; SSD models give [1, 0, 3, 2], i.e. ymin, xmin, ymax, xmax).
        var boxIndices = [0, 1, 2, 3]
        /// Scores below this are dropped; equal is kept. ObjectDetector always passes
        /// `scoreThreshold` (default 0).
        var scoreThreshold: Float = 0
        var classFilter: DetectionDecoderOptions.ClassFilter = .all
        /// At most this many candidates when positive.
        var maxResults = -1
        /// Applied to each score before the threshold, when the model's metadata has one.
        var calibration: ScoreCalibration?
    }

    /// The candidates in the model's order (score-descending for fast NMS).
    static func decode(
        boxes: UnsafeBufferPointer<Float>, classes: UnsafeBufferPointer<Float>, scores: UnsafeBufferPointer<Float>,
        count: Float, options: Options
    ) throws(TasksError) -> [ObjectDetectionCandidate] {
        let perDetection = options.classesPerDetection
        guard perDetection > 0, Set(options.boxIndices) == [0, 1, 2, 3], options.boxIndices.count == 4 else {
            throw .internalError("in-model detection decoder: invalid options")
        }
        let entries = min(classes.count, scores.count, boxes.count / 4)
        let available = entries / perDetection
        // The count is a float tensor; anything that is not a sane non-negative number reads as 0.
        let groups = count.isFinite && count > 0 ? min(Int(count.rounded(.towardZero)), available) : 0
        let index = options.boxIndices
        var candidates: [ObjectDetectionCandidate] = []
        for group in 0..<groups {
            if options.maxResults > 0, candidates.count == options.maxResults { break }
            let first = group * perDetection
            var categories: [ObjectDetectionCandidate.Category] = []
            for entry in first..<first + perDetection {
                let rawClass = classes[entry]
                guard rawClass.isFinite, abs(rawClass) < Float(Int32.max) else { continue }
                let classIndex = Int(rawClass.rounded(.towardZero))
                var score = scores[entry]
                if let calibration = options.calibration {
                    score = try calibration.calibrate(score, classIndex: classIndex)
                }
                guard options.classFilter.allows(classIndex), score >= options.scoreThreshold else { continue }
                categories.append(.init(classIndex: classIndex, score: score))
            }
            if categories.isEmpty { continue }
            let base = first * 4
            let left = boxes[base + index[0]]
            let top = boxes[base + index[1]]
            let right = boxes[base + index[2]]
            let bottom = boxes[base + index[3]]
            let box = RelativeBox(xMin: left, yMin: top, width: right - left, height: bottom - top)
            if box.width < 0 || box.height < 0 || box.width.isNaN || box.height.isNaN { continue }
            candidates.append(ObjectDetectionCandidate(box: box, categories: categories))
        }
        return candidates
    }
}
