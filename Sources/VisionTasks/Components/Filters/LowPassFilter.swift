/// MediaPipe's exponential low-pass filter (mediapipe/util/filtering/low_pass_filter.cc): the
/// first value passes through, then `α·value + (1−α)·previous`, with state kept in float.
struct LowPassFilter: Sendable {
    private(set) var alpha: Float
    private(set) var hasLastRawValue = false
    private(set) var lastRawValue: Float = 0
    private(set) var lastValue: Float = 0

    init(alpha: Float) {
        self.alpha = 0
        setAlpha(alpha)
    }

    /// Filters `value` with the current α.
    mutating func apply(_ value: Float) -> Float {
        let result: Float
        if hasLastRawValue {
            // (1.0 - alpha) is evaluated in double upstream.
            result = Float(Double(alpha * value) + (1.0 - Double(alpha)) * Double(lastValue))
        } else {
            result = value
            hasLastRawValue = true
        }
        lastRawValue = value
        lastValue = result
        return result
    }

    /// Sets α (ignored outside 0…1, as upstream) and filters `value`.
    mutating func apply(_ value: Float, alpha: Float) -> Float {
        setAlpha(alpha)
        return apply(value)
    }

    private mutating func setAlpha(_ newAlpha: Float) {
        guard newAlpha >= 0, newAlpha <= 1 else { return }
        alpha = newAlpha
    }
}
