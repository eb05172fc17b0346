/// The settings of MediaPipe's raw SSD tensor decoder
/// (mediapipe/calculators/tensor/tensors_to_detections_calculator.proto).
struct DetectionDecoderOptions: Sendable {
    /// How the four box values are laid out.
    enum BoxFormat: Sendable {
        /// y centre, x centre, height, width (the default).
        case yxhw
        /// x centre, y centre, width, height (`reverse_output_order`).
        case xywh
        /// Distances to the left, top, right and bottom edges.
        case xyxy
    }

    /// Which classes may be reported.
    enum ClassFilter: Sendable {
        case all
        case allow(Set<Int>)
        case ignore(Set<Int>)

        func allows(_ index: Int) -> Bool {
            switch self {
            case .all: return true
            case .allow(let set): return set.contains(index)
            case .ignore(let set): return !set.contains(index)
            }
        }
    }

    var numClasses: Int
    var numBoxes: Int
    var numCoords: Int
    var boxCoordOffset = 0
    var keypointCoordOffset = 0
    var numKeypoints = 0
    var numValuesPerKeypoint = 2
    var boxFormat: BoxFormat = .yxhw
    var xScale: Float = 0
    var yScale: Float = 0
    var wScale: Float = 0
    var hScale: Float = 0
    var applyExponentialOnBoxSize = false
    var sigmoidScore = false
    /// Raw scores are clipped to ±this before the sigmoid, when set.
    var scoreClippingThreshold: Float?
    /// Detections scoring below this are dropped (equal is kept), when set.
    var minScoreThreshold: Float?
    var classFilter: ClassFilter = .all
    /// At most this many detections when positive.
    var maxResults = -1

    /// Whether the layout describes boxes the decoder can read: two values per keypoint, exactly
    /// `4 + 2 × numKeypoints` values per box (upstream CHECKs the same in
    /// tensors_to_detections_calculator.cc), box and keypoints inside them, at least one class
    /// and one box.
    var isConsistent: Bool {
        numValuesPerKeypoint == 2 && numKeypoints >= 0 && numCoords == numKeypoints * numValuesPerKeypoint + 4
            && boxCoordOffset >= 0 && boxCoordOffset + 4 <= numCoords && keypointCoordOffset >= 0
            && keypointCoordOffset + 2 * numKeypoints <= numCoords && numClasses > 0 && numBoxes > 0
    }

    /// The pose detector's decoding (mediapipe/tasks/cc/vision/pose_detector/pose_detector_graph.cc,
    /// ../shared/spec/PIPELINES.md §2.2) with its detection threshold.
    static func poseDetector(minScore: Float) -> DetectionDecoderOptions {
        DetectionDecoderOptions(
            numClasses: 1, numBoxes: 2254, numCoords: 12, boxCoordOffset: 0, keypointCoordOffset: 4,
            numKeypoints: 4, numValuesPerKeypoint: 2, boxFormat: .xywh,
            xScale: 224, yScale: 224, wScale: 224, hScale: 224,
            sigmoidScore: true, scoreClippingThreshold: 100, minScoreThreshold: minScore)
    }

    /// The face detector's decoding (mediapipe/tasks/cc/vision/face_detector/face_detector_graph.cc,
    /// ../shared/spec/PIPELINES.md §7.4): `boxes` anchors of 16 values (box and six keypoints),
    /// scaled by the input size, with its detection threshold.
    static func faceDetector(boxes: Int, inputSize: Int, minScore: Float) -> DetectionDecoderOptions {
        let scale = Float(inputSize)
        return DetectionDecoderOptions(
            numClasses: 1, numBoxes: boxes, numCoords: 16, boxCoordOffset: 0, keypointCoordOffset: 4,
            numKeypoints: 6, numValuesPerKeypoint: 2, boxFormat: .xywh,
            xScale: scale, yScale: scale, wScale: scale, hScale: scale,
            sigmoidScore: true, scoreClippingThreshold: 100, minScoreThreshold: minScore)
    }

    /// The palm detector's decoding (mediapipe/tasks/cc/vision/hand_detector/hand_detector_graph.cc,
    /// ../shared/spec/PIPELINES.md §3.2) with its detection threshold.
    static func palmDetector(minScore: Float) -> DetectionDecoderOptions {
        DetectionDecoderOptions(
            numClasses: 1, numBoxes: 2016, numCoords: 18, boxCoordOffset: 0, keypointCoordOffset: 4,
            numKeypoints: 7, numValuesPerKeypoint: 2, boxFormat: .xywh,
            xScale: 192, yScale: 192, wScale: 192, hScale: 192,
            sigmoidScore: true, scoreClippingThreshold: 100, minScoreThreshold: minScore)
    }
}
