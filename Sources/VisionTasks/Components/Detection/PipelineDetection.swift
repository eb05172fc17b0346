/// A detection inside a pipeline: a normalized box, keypoints and the best class with its
/// score. This is MediaPipe's `Detection` proto with `RELATIVE_BOUNDING_BOX` location data,
/// reduced to what the pipelines use (mediapipe/framework/formats/detection.proto); the public
/// ``Detection`` is built from it at the end.
struct PipelineDetection: Sendable, Hashable {
    /// The score of ``classIndex``.
    var score: Float
    /// The model's class index.
    var classIndex: Int
    /// The box in normalized coordinates.
    var box: RelativeBox
    /// Keypoints in normalized coordinates, in the model's order.
    var keypoints: [SIMD2<Float>]
}
