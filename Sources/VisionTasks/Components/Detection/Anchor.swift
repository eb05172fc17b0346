/// An SSD anchor in normalized coordinates (mediapipe/framework/formats/object_detection/anchor.proto).
struct Anchor: Sendable, Hashable {
    var xCenter: Float
    var yCenter: Float
    var width: Float
    var height: Float
}
