import Imaging

/// The landmarkers' tracking loop state in video and live-stream mode (../shared/spec/PIPELINES.md §1.14):
/// the regions of interest the previous processed frame produced for the next one.
struct RegionTracker: Sendable {
    /// `numPoses` or `numHands`.
    let maxCount: Int
    /// The "ROIs for next frame" of the previous processed frame; empty on the first frame and
    /// after a frame without landmarks (mediapipe/calculators/core/previous_loopback_calculator.cc,
    /// end_loop_calculator.h).
    private(set) var previous: [NormalizedRect] = []

    init(maxCount: Int) {
        self.maxCount = maxCount
    }

    /// Whether the detector must run on this frame: unless at least `maxCount` regions are
    /// tracked (collection_has_min_size_calculator.h; the gate lets a missing condition through,
    /// gate_calculator.cc).
    var needsDetection: Bool { previous.count < maxCount }

    /// Records the regions the current frame produced for the next one.
    mutating func update(nextRegions: [NormalizedRect]) {
        previous = nextRegions
    }

    /// Forgets everything, as on the first frame.
    mutating func reset() {
        previous = []
    }

    /// The first `count` rects (mediapipe/calculators/core/clip_vector_size_calculator.h).
    static func clip(_ rects: [NormalizedRect], to count: Int) -> [NormalizedRect] {
        Array(rects.prefix(max(count, 0)))
    }
}
