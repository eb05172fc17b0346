/// An axis-aligned box in normalized coordinates, stored like MediaPipe's
/// `LocationData.RelativeBoundingBox` (mediapipe/framework/formats/location_data.proto).
struct RelativeBox: Sendable, Hashable {
    var xMin: Float
    var yMin: Float
    var width: Float
    var height: Float

    var xMax: Float { xMin + width }
    var yMax: Float { yMin + height }

    /// The intersection over union with `other`, as MediaPipe's `Rectangle_f` computes it
    /// (mediapipe/calculators/util/non_max_suppression_calculator.cc `OverlapSimilarity`,
    /// mediapipe/util/rectangle_util.cc `CalculateIou`): 0 when the boxes do not intersect, when
    /// either is empty (negative size) or when the union is not positive. Touching boxes
    /// intersect with area 0.
    func intersectionOverUnion(with other: RelativeBox) -> Float {
        let ax0 = xMin
        let ay0 = yMin
        let ax1 = xMax
        let ay1 = yMax
        let bx0 = other.xMin
        let by0 = other.yMin
        let bx1 = other.xMax
        let by1 = other.yMax
        if ax0 > ax1 || ay0 > ay1 || bx0 > bx1 || by0 > by1 { return 0 }
        if bx1 < ax0 || ax1 < bx0 || by1 < ay0 || ay1 < by0 { return 0 }
        let intersection = (min(ax1, bx1) - max(ax0, bx0)) * (min(ay1, by1) - max(ay0, by0))
        let union = (ax1 - ax0) * (ay1 - ay0) + (bx1 - bx0) * (by1 - by0) - intersection
        return union > 0 ? intersection / union : 0
    }
}
