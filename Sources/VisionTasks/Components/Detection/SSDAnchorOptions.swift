/// The settings of MediaPipe's SSD anchor generator, non-multiscale path
/// (mediapipe/calculators/tflite/ssd_anchors_calculator.proto; defaults as there).
struct SSDAnchorOptions: Sendable {
    var inputWidth: Int
    var inputHeight: Int
    var minScale: Float
    var maxScale: Float
    var numLayers: Int
    var strides: [Int]
    /// Explicit feature map sizes per layer; when empty they come from the strides.
    var featureMapWidths: [Int] = []
    var featureMapHeights: [Int] = []
    var aspectRatios: [Float]
    var anchorOffsetX: Float = 0.5
    var anchorOffsetY: Float = 0.5
    var interpolatedScaleAspectRatio: Float = 1
    var reduceBoxesInLowestLayer = false
    var fixedAnchorSize = false

    /// The pose detector's anchors: 2254 for its 224×224 input
    /// (mediapipe/tasks/cc/vision/pose_detector/pose_detector_graph.cc, ../shared/spec/PIPELINES.md §2.2).
    static let poseDetector = SSDAnchorOptions(
        inputWidth: 224, inputHeight: 224, minScale: 0.1484375, maxScale: 0.75, numLayers: 5,
        strides: [8, 16, 32, 32, 32], aspectRatios: [1.0], fixedAnchorSize: true)

    /// The palm detector's anchors: 2016 for its 192×192 input
    /// (mediapipe/tasks/cc/vision/hand_detector/hand_detector_graph.cc, ../shared/spec/PIPELINES.md §3.2).
    static let palmDetector = SSDAnchorOptions(
        inputWidth: 192, inputHeight: 192, minScale: 0.1484375, maxScale: 0.75, numLayers: 4,
        strides: [8, 16, 16, 16], aspectRatios: [1.0], fixedAnchorSize: true)

    /// The short-range face detector's anchors: 896 for its 128×128 input
    /// (mediapipe/tasks/cc/vision/face_detector/face_detector_graph.cc, ../shared/spec/PIPELINES.md §7.3).
    static let faceDetectorShortRange = SSDAnchorOptions(
        inputWidth: 128, inputHeight: 128, minScale: 0.1484375, maxScale: 0.75, numLayers: 4,
        strides: [8, 16, 16, 16], aspectRatios: [1.0], fixedAnchorSize: true)

    /// The full-range face detector's anchors: 2304 for its 192×192 input, no interpolated
    /// anchor (../shared/spec/PIPELINES.md §7.3).
    static let faceDetectorFullRange = SSDAnchorOptions(
        inputWidth: 192, inputHeight: 192, minScale: 0.1484375, maxScale: 0.75, numLayers: 1,
        strides: [4], aspectRatios: [1.0], interpolatedScaleAspectRatio: 0, fixedAnchorSize: true)
}
