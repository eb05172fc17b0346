import Foundation

/// MediaPipe's removal of duplicate hands after the landmark model, run every frame in every
/// mode (mediapipe/tasks/cc/vision/hand_landmarker/calculators/hand_landmarks_deduplication_calculator.cc,
/// mediapipe/tasks/cc/vision/utils/landmarks_utils.cc; ../shared/spec/PIPELINES.md §3.6).
enum HandDeduplication {
    /// A hand is a duplicate of an earlier kept hand when at least this many of the 21
    /// landmark pairs are closer than the distance threshold…
    static let minMatchedLandmarks = 10
    /// …which is this fraction of the larger hand baseline…
    static let baselineRatio: Float = 0.2
    /// …and the landmark bounding boxes overlap with IoU above this.
    static let minIoU: Float = 0.2

    /// The indices of the hands to keep, in order. Hands are compared with the hands kept
    /// before them, starting at index 0.
    static func keptIndices(_ hands: [[NormalizedLandmark]], imageSize: ImageSize) -> [Int] {
        let width = Double(imageSize.width)
        let height = Double(imageSize.height)
        func distance(_ a: NormalizedLandmark, _ b: NormalizedLandmark) -> Float {
            let dx = Double((a.x - b.x) * Float(width))
            let dy = Double((a.y - b.y) * Float(height))
            return Float((dx * dx + dy * dy).squareRoot())
        }
        // baseline = max of the wrist–index MCP, index MCP–pinky MCP and pinky MCP–wrist distances.
        let baselines: [Float] = hands.map { hand in
            guard hand.count > 17 else { return 0 }
            return max(distance(hand[0], hand[5]), distance(hand[5], hand[17]), distance(hand[17], hand[0]))
        }
        let bounds = hands.map(Self.bounds)
        var kept: [Int] = []
        for index in hands.indices {
            let suppressed = kept.contains { other in
                let threshold = max(baselines[index], baselines[other]) * baselineRatio
                let matched = zip(hands[index], hands[other]).filter { distance($0, $1) < threshold }.count
                return matched >= minMatchedLandmarks && iou(bounds[index], bounds[other]) > minIoU
            }
            if !suppressed { kept.append(index) }
        }
        return kept
    }

    /// The min/max box of a hand's landmarks as (left, top, right, bottom).
    private static func bounds(_ hand: [NormalizedLandmark]) -> SIMD4<Float> {
        var box = SIMD4<Float>(
            .greatestFiniteMagnitude, .greatestFiniteMagnitude,
            -.greatestFiniteMagnitude, -.greatestFiniteMagnitude)
        for landmark in hand {
            box = SIMD4(
                min(box[0], landmark.x), min(box[1], landmark.y), max(box[2], landmark.x), max(box[3], landmark.y))
        }
        return box
    }

    /// IoU of two (left, top, right, bottom) boxes, 0 when either has no area
    /// (landmarks_utils.cc `CalculateIOU`).
    static func iou(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> Float {
        let areaA = (a[2] - a[0]) * (a[3] - a[1])
        let areaB = (b[2] - b[0]) * (b[3] - b[1])
        if areaA <= 0 || areaB <= 0 { return 0 }
        let intersection = max(min(a[3], b[3]) - max(a[1], b[1]), 0) * max(min(a[2], b[2]) - max(a[0], b[0]), 0)
        return intersection / (areaA + areaB - intersection)
    }
}
