import Foundation
import Imaging
import ModelFile

/// The face detector's per-frame work (mediapipe/tasks/cc/vision/face_detector/face_detector_graph.cc,
/// ../shared/spec/PIPELINES.md §7): the whole upright image letterboxed into the model input with
/// a zero border, the BlazeFace model, raw SSD decoding with the detector's anchors, weighted
/// non-max suppression, projection back to the image through the crop's matrix, and whole-pixel
/// boxes.
struct FaceDetectorProcessor: FrameProcessor {
    let model: TaskModel
    let anchors: [Anchor]
    let decoding: DetectionDecoderOptions
    let suppressionThreshold: Float

    init(options: FaceDetectorOptions) throws(TasksError) {
        try self.init(
            model: try TaskModel.model(options.baseOptions), minScore: options.minDetectionConfidence,
            suppressionThreshold: options.minSuppressionThreshold, threadCount: options.baseOptions.threadCount)
    }

    /// The detector on `model` (the face detector file, or the face landmarker bundle's member).
    init(model file: TFLiteModel, minScore: Float, suppressionThreshold: Float, threadCount: Int?) throws(TasksError) {
        model = try TaskModel(model: file, name: "face detector", threadCount: threadCount)
        // The legacy parameters by input size (§7.1): short range at 128×128, full range at
        // 192×192. The official models carry no FACE_DETECTOR_METADATA that would say otherwise.
        let width = model.inputWidth
        let height = model.inputHeight
        let anchorOptions: SSDAnchorOptions
        switch (width, height) {
        case (128, 128): anchorOptions = .faceDetectorShortRange
        case (192, 192): anchorOptions = .faceDetectorFullRange
        default:
            throw .unsupportedModel(
                "face detector: the input must be 128×128 (short range) or 192×192 (full range), "
                    + "not \(width)×\(height)")
        }
        anchors = try SSDAnchorGenerator.anchors(for: anchorOptions)
        decoding = .faceDetector(boxes: anchors.count, inputSize: width, minScore: minScore)
        self.suppressionThreshold = suppressionThreshold
    }

    mutating func process(_ image: MPImage, timestampInMilliseconds: Int) throws(TasksError) -> FaceDetectorResult {
        let faces = try detections(image)
        let size = image.uprightSize
        let imageSize = ImageSize(width: size.width, height: size.height)
        let detections = faces.map { face -> Detection in
            Detection(
                categories: [ResultCategory(index: 0, score: face.score, categoryName: nil, displayName: nil)],
                boundingBox: DetectionOutput.pixelBox(face.box, imageSize: imageSize),
                keypoints: face.keypoints.map {
                    NormalizedKeypoint(location: CGPoint(x: CGFloat($0.x), y: CGFloat($0.y)), label: nil, score: 0)
                })
        }
        return FaceDetectorResult(detections: detections, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// The faces of `image`, projected to the upright image's normalized coordinates, in the
    /// order suppression keeps them (§7.6 step 1).
    func detections(_ image: MPImage) throws(TasksError) -> [PipelineDetection] {
        // keep_aspect_ratio = true, BORDER_ZERO (§7.2).
        let geometry = try model.setInput(image, region: .fullImage, keepAspectRatio: true, border: .zero)
        try model.invoke()
        let model = model
        let anchors = anchors
        let decoding = decoding
        let decoded = try model.withOutput(0) { (boxes) throws(TasksError) in
            try model.withOutput(1) { (scores) throws(TasksError) in
                try DetectionDecoder.decode(boxes: boxes, scores: scores, anchors: anchors, options: decoding)
            }
        }
        let matrix = geometry.matrix
        return NonMaxSuppression.weighted(decoded, iouThreshold: suppressionThreshold).map {
            DetectionProjection.project($0, with: matrix)
        }
    }
}
