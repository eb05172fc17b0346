/// Which output of the two hand models holds what, identified by order and size as MediaPipe's
/// graphs do — not by the metadata names, which for the landmark model do not follow the output
/// order (../shared/spec/PIPELINES.md §3.2, §3.4, §6.1).
enum HandModelOutputs {
    /// Palm detector: raw boxes with keypoints, 2016 × 18 values.
    static let detectorBoxes = 0
    /// Palm detector: raw scores, 2016 × 1 values.
    static let detectorScores = 1
    /// Landmark model: 21 × (x, y, z) in input pixels.
    static let landmarks = 0
    /// Landmark model: the hand presence score.
    static let presence = 1
    /// Landmark model: the handedness score (probability of "Right").
    static let handedness = 2
    /// Landmark model: 21 × (x, y, z) world landmarks in metres.
    static let worldLandmarks = 3

    /// Boxes and keypoint values per palm anchor (hand_detector_graph.cc: num_coords 18).
    static let detectorCoordinates = 18

    /// Checks that the palm detector has the two outputs the pipeline reads, with one row per
    /// anchor (2016 for the 192 × 192 input).
    static func checkDetector(_ model: TaskModel) throws(TasksError) {
        let anchors = DetectionDecoderOptions.palmDetector(minScore: 0).numBoxes
        try check(
            model, name: HandLandmarkerProcessor.detectorMember,
            sizes: [
                (detectorBoxes, anchors * detectorCoordinates), (detectorScores, anchors),
            ])
    }

    /// Checks that the landmark model has the four outputs the pipeline reads: 63, 1, 1 and 63
    /// values.
    static func checkLandmarker(_ model: TaskModel) throws(TasksError) {
        let values = HandLandmarksDecoder.landmarkCount * 3
        try check(
            model, name: HandLandmarkerProcessor.landmarksMember,
            sizes: [
                (landmarks, values), (presence, 1), (handedness, 1), (worldLandmarks, values),
            ])
    }

    private static func check(_ model: TaskModel, name: String, sizes: [(index: Int, count: Int)]) throws(TasksError) {
        guard model.outputCount >= sizes.count else {
            throw .invalidModel("\(name) has \(model.outputCount) outputs, expected \(sizes.count)")
        }
        for (index, count) in sizes {
            let shape = try model.outputShape(index)
            var actual = 1
            for dimension in shape {
                let (product, overflow) = actual.multipliedReportingOverflow(by: dimension)
                actual = overflow ? -1 : product
            }
            guard actual == count else {
                throw .invalidModel("\(name): output \(index) has shape \(shape), expected \(count) values")
            }
        }
    }
}
