/// An object detection before it becomes a public ``Detection``: a normalized box and one or
/// more (class, score) pairs, best first as the model gave them.
struct ObjectDetectionCandidate: Sendable, Hashable {
    /// One class of a candidate.
    struct Category: Sendable, Hashable {
        var classIndex: Int
        var score: Float
    }

    var box: RelativeBox
    var categories: [Category]

    /// A candidate from a decoded and suppressed SSD detection (the two-output path).
    init(_ detection: PipelineDetection) {
        box = detection.box
        categories = [Category(classIndex: detection.classIndex, score: detection.score)]
    }

    init(box: RelativeBox, categories: [Category]) {
        self.box = box
        self.categories = categories
    }
}
