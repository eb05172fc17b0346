import ModelFile

/// The two models of a pose landmarker bundle, checked against the tensor layout MediaPipe's
/// graphs read (../shared/spec/PIPELINES.md §2.1–2.4, §6.1).
struct PoseLandmarkerModels {
    /// The `.task` bundle members (pose_landmarker_graph.cc, ../shared/spec/PIPELINES.md §2.1).
    static let detectorMember = "pose_detector.tflite"
    static let landmarksMember = "pose_landmarks_detector.tflite"

    /// The pose detector: outputs 0 (boxes, 2254 × 12) and 1 (scores, 2254 × 1).
    let detector: TaskModel
    /// The pose landmark model: outputs 0 landmarks, 1 presence, 2 segmentation logits,
    /// 3 heatmap, 4 world landmarks.
    let landmarks: TaskModel
    /// Heatmap rows and columns (output 3, HWC with one channel per model landmark).
    let heatmapHeight: Int
    let heatmapWidth: Int
    /// Segmentation logits rows and columns (output 2, one channel).
    let maskHeight: Int
    let maskWidth: Int

    /// The landmark model's segmentation output (see ``landmarks``).
    static let segmentationOutput = 2

    /// Loads both members of `bundle` to run with `threadCount` threads. Without
    /// `segmentationMasks` the landmark model's segmentation decoder is not run: the operators
    /// that only the mask needs, 9 % of the full model's multiply-adds and 16 % of the lite
    /// one's (the layers at 128×128 and 256×256), which MediaPipe runs whether or not a mask is
    /// wanted.
    ///
    /// - Throws: ``TasksError/bundleMemberNotFound(name:members:)`` for a missing member, and
    ///   ``TasksError/invalidModel(_:)`` when a model's outputs do not have the shapes the
    ///   pipeline reads.
    init(bundle: ModelAssetBundle, threadCount: Int?, segmentationMasks: Bool) throws(TasksError) {
        let detectorFile = try TaskModel.member(Self.detectorMember, of: bundle)
        let landmarksFile = try TaskModel.member(Self.landmarksMember, of: bundle)
        detector = try TaskModel(model: detectorFile, name: Self.detectorMember, threadCount: threadCount)
        landmarks = try TaskModel(
            model: landmarksFile, name: Self.landmarksMember, threadCount: threadCount,
            unusedOutputs: segmentationMasks ? [] : [Self.segmentationOutput])

        // pose_detector_graph.cc hard-codes 2254 anchors of 12 coordinates and one class.
        let options = DetectionDecoderOptions.poseDetector(minScore: 0)
        try Self.expect(detector, Self.detectorMember, outputs: 2)
        try Self.expect(
            detector, Self.detectorMember, output: 0, elements: options.numBoxes * options.numCoords, what: "boxes")
        try Self.expect(
            detector, Self.detectorMember, output: 1, elements: options.numBoxes * options.numClasses, what: "scores")

        // pose_landmarks_detector_graph.cc: 39 landmarks of 5 values, one presence score, a
        // one-channel mask, a 39-channel heatmap and 39 world landmarks of 3 values.
        let count = PoseLandmarksDecoder.modelLandmarkCount
        try Self.expect(landmarks, Self.landmarksMember, outputs: 5)
        try Self.expect(landmarks, Self.landmarksMember, output: 0, elements: count * 5, what: "landmarks")
        try Self.expect(landmarks, Self.landmarksMember, output: 1, elements: 1, what: "presence")
        try Self.expect(landmarks, Self.landmarksMember, output: 4, elements: count * 3, what: "world landmarks")
        (maskHeight, maskWidth) = try Self.imageShape(landmarks, output: 2, channels: 1, what: "segmentation")
        (heatmapHeight, heatmapWidth) = try Self.imageShape(landmarks, output: 3, channels: count, what: "heatmap")
    }

    private static func expect(_ model: TaskModel, _ name: String, outputs: Int) throws(TasksError) {
        guard model.outputCount >= outputs else {
            throw .invalidModel("\(name): expected \(outputs) output tensors, found \(model.outputCount)")
        }
    }

    private static func expect(
        _ model: TaskModel, _ name: String, output: Int, elements: Int, what: String
    ) throws(TasksError) {
        let shape = try model.outputShape(output)
        guard shape.reduce(1, *) == elements else {
            throw .invalidModel("\(name): output \(output) (\(what)) has shape \(shape); expected \(elements) values")
        }
    }

    /// Height and width of a 1×H×W×C output.
    private static func imageShape(
        _ model: TaskModel, output: Int, channels: Int, what: String
    ) throws(TasksError) -> (Int, Int) {
        let shape = try model.outputShape(output)
        guard shape.count == 4, shape[0] == 1, shape[1] > 0, shape[2] > 0, shape[3] == channels else {
            throw .invalidModel(
                "\(landmarksMember): output \(output) (\(what)) has shape \(shape); expected 1×H×W×\(channels)")
        }
        return (shape[1], shape[2])
    }
}
