/// MediaPipe's non-maximum suppression over detections
/// (mediapipe/calculators/util/non_max_suppression_calculator.cc, ../shared/spec/PIPELINES.md §1.10), with
/// intersection over union as the overlap measure.
///
/// Detections are first ordered by score, highest first, with `std::sort` as MediaPipe's
/// libc++ runs it (``LibCxxSort``): that sort is not stable, and equal scores end in its order.
enum NonMaxSuppression {
    /// Weighted NMS, used by the pose and palm detectors.
    ///
    /// Repeatedly takes the best remaining detection T, gathers every remaining detection
    /// (T included) whose IoU with T is above `iouThreshold`, and emits a copy of T (keeping its
    /// score and class) whose box corners and keypoints are the score-weighted means of the
    /// gathered ones. Stops when nothing remains or when a round removes nothing (T has no
    /// area). `maxDetections` does not apply in this mode, as upstream. When every gathered
    /// score is 0 the copy of T keeps T's own box and keypoints.
    static func weighted(
        _ detections: [PipelineDetection], iouThreshold: Float, minScoreThreshold: Float = -1
    ) -> [PipelineDetection] {
        var remaining = sortedByScore(detections)
        var output: [PipelineDetection] = []
        var candidates: [PipelineDetection] = []
        var rest: [PipelineDetection] = []
        while let top = remaining.first {
            if minScoreThreshold > 0, top.score < minScoreThreshold { break }
            candidates.removeAll(keepingCapacity: true)
            rest.removeAll(keepingCapacity: true)
            for detection in remaining {
                if detection.box.intersectionOverUnion(with: top.box) > iouThreshold {
                    candidates.append(detection)
                } else {
                    rest.append(detection)
                }
            }
            var merged = top
            if !candidates.isEmpty {
                var xMin: Float = 0
                var yMin: Float = 0
                var xMax: Float = 0
                var yMax: Float = 0
                var total: Float = 0
                var keypoints = [SIMD2<Float>](repeating: .zero, count: top.keypoints.count)
                for candidate in candidates {
                    let weight = candidate.score
                    total += weight
                    xMin += candidate.box.xMin * weight
                    yMin += candidate.box.yMin * weight
                    xMax += (candidate.box.xMin + candidate.box.width) * weight
                    yMax += (candidate.box.yMin + candidate.box.height) * weight
                    for index in keypoints.indices where index < candidate.keypoints.count {
                        keypoints[index] += candidate.keypoints[index] * weight
                    }
                }
                // Scores of exactly 0 (a sigmoid that underflows, reachable with a threshold of 0)
                // leave no weights: the mean would be 0/0, so the top detection stays as it is
                // (MediaPipe divides anyway and reports NaN coordinates).
                if total > 0 {
                    let left = xMin / total
                    let top = yMin / total
                    merged.box = RelativeBox(
                        xMin: left, yMin: top, width: xMax / total - left, height: yMax / total - top)
                    merged.keypoints = keypoints.map { $0 / total }
                }
            }
            output.append(merged)
            if rest.count == remaining.count { break }
            swap(&remaining, &rest)
        }
        return output
    }

    /// Greedy NMS (`DEFAULT`): keeps a detection unless its IoU with an already kept one is
    /// above `iouThreshold`; stops after `maxDetections` (when ≥ 0) or, when
    /// `minScoreThreshold > 0`, at the first detection scoring below it.
    static func greedy(
        _ detections: [PipelineDetection], iouThreshold: Float, maxDetections: Int = -1,
        minScoreThreshold: Float = -1
    ) -> [PipelineDetection] {
        let sorted = sortedByScore(detections)
        let limit = maxDetections > -1 ? maxDetections : sorted.count
        var kept: [PipelineDetection] = []
        if limit <= 0 { return kept }
        for detection in sorted {
            if minScoreThreshold > 0, detection.score < minScoreThreshold { break }
            let suppressed = kept.contains { $0.box.intersectionOverUnion(with: detection.box) > iouThreshold }
            if !suppressed { kept.append(detection) }
            if kept.count >= limit { break }
        }
        return kept
    }

    /// Greedy NMS run separately for each class, then merged, ordered by score and capped at
    /// `maxDetections` (when ≥ 0). Classes are visited in order of first appearance (upstream
    /// uses a hash map, whose order is unspecified).
    static func multiclass(
        _ detections: [PipelineDetection], iouThreshold: Float, maxDetections: Int = -1,
        minScoreThreshold: Float = -1
    ) -> [PipelineDetection] {
        var order: [Int] = []
        var groups: [Int: [PipelineDetection]] = [:]
        for detection in detections {
            if groups[detection.classIndex] == nil { order.append(detection.classIndex) }
            groups[detection.classIndex, default: []].append(detection)
        }
        var merged: [PipelineDetection] = []
        for classIndex in order {
            merged += greedy(groups[classIndex] ?? [], iouThreshold: iouThreshold, minScoreThreshold: minScoreThreshold)
        }
        let sorted = sortedByScore(merged)
        return maxDetections > -1 ? Array(sorted.prefix(maxDetections)) : sorted
    }

    /// Highest score first; equal scores in the order libc++'s `std::sort` leaves them
    /// (`SortBySecond` in non_max_suppression_calculator.cc compares scores only).
    static func sortedByScore(_ detections: [PipelineDetection]) -> [PipelineDetection] {
        var sorted = detections
        LibCxxSort.sort(&sorted) { $0.score > $1.score }
        return sorted
    }
}
