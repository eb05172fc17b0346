/// MediaPipe's `VisibilitySmoothingCalculator`, low-pass variant: one low-pass filter per
/// landmark on its visibility (mediapipe/calculators/util/visibility_smoothing_calculator.cc).
struct VisibilitySmoother: Sendable {
    /// α for the pose landmarks, normalized and world (../shared/spec/PIPELINES.md §2.7 steps 1 and 3).
    static let poseAlpha: Float = 0.1

    let alpha: Float
    private var filters: [LowPassFilter] = []

    init(alpha: Float) {
        self.alpha = alpha
    }

    mutating func reset() {
        filters.removeAll()
    }

    /// The landmarks with smoothed visibility (a missing visibility counts as 0 and comes out
    /// set, as upstream).
    mutating func smooth(_ landmarks: [NormalizedLandmark]) -> [NormalizedLandmark] {
        prepare(count: landmarks.count)
        var output = landmarks
        for index in output.indices {
            output[index].visibility = filters[index].apply(landmarks[index].visibility ?? 0)
        }
        return output
    }

    /// The same for world landmarks.
    mutating func smooth(_ landmarks: [Landmark]) -> [Landmark] {
        prepare(count: landmarks.count)
        var output = landmarks
        for index in output.indices {
            output[index].visibility = filters[index].apply(landmarks[index].visibility ?? 0)
        }
        return output
    }

    private mutating func prepare(count: Int) {
        if filters.count != count {
            filters = Array(repeating: LowPassFilter(alpha: alpha), count: count)
        }
    }
}
