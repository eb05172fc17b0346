import Foundation

/// MediaPipe's one-euro filter (mediapipe/util/filtering/one_euro_filter.cc, ../shared/spec/PIPELINES.md §1.15):
/// a low-pass filter whose cut-off rises with the smoothed speed of the signal.
///
/// Arithmetic is in double, the two low-pass states in float, as upstream. The last time starts
/// at −1 ("unset"), so a first sample at time 0 is filtered (and initializes the state) and the
/// second sample after it keeps the 30 Hz default frequency.
struct OneEuroFilter: Sendable {
    private var frequency: Double
    private let minCutoff: Double
    private let beta: Double
    private let derivateCutoff: Double
    private var x: LowPassFilter
    private var dx: LowPassFilter
    private var lastTime: Int64 = -1

    /// `frequency` in Hz (MediaPipe's default is 30); the cut-offs in Hz. Non-positive
    /// frequencies and cut-offs are replaced by MediaPipe's defaults (30, 1, 1), where upstream
    /// logs an error and leaves the field unset.
    init(frequency: Double = 30, minCutoff: Double, beta: Double, derivateCutoff: Double) {
        let epsilon = 0.000001
        self.frequency = frequency > epsilon ? frequency : 30
        self.minCutoff = minCutoff > epsilon ? minCutoff : 1
        self.beta = beta
        self.derivateCutoff = derivateCutoff > epsilon ? derivateCutoff : 1
        // Every use sets α first, so the initial α does not matter.
        x = LowPassFilter(alpha: 0)
        dx = LowPassFilter(alpha: 0)
    }

    /// Filters `value` sampled at `nanoseconds`. A sample not later than the previous one
    /// passes through unfiltered and changes nothing. `valueScale` scales the speed (the
    /// inverse of the object size for landmarks).
    mutating func apply(_ value: Double, nanoseconds: Int64, valueScale: Double) -> Double {
        if lastTime >= nanoseconds { return value }
        if lastTime != 0, nanoseconds != 0 {
            frequency = 1.0 / (Double(nanoseconds - lastTime) * 1e-9)
        }
        lastTime = nanoseconds
        let speed = x.hasLastRawValue ? (value - Double(x.lastRawValue)) * valueScale * frequency : 0
        let smoothedSpeed = Double(dx.apply(Float(speed), alpha: Float(alpha(cutoff: derivateCutoff))))
        let cutoff = minCutoff + beta * abs(smoothedSpeed)
        return Double(x.apply(Float(value), alpha: Float(alpha(cutoff: cutoff))))
    }

    /// α = 1 / (1 + τ/Te) with τ = 1/(2π·cutoff) and Te = 1/frequency.
    private func alpha(cutoff: Double) -> Double {
        let te = 1.0 / frequency
        let tau = 1.0 / (2 * Double.pi * cutoff)
        return 1.0 / (1.0 + tau / te)
    }
}
