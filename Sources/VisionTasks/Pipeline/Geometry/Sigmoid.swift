import Foundation

/// The logistic function `1 / (1 + e^-x)` in float, as MediaPipe's calculators compute it.
@inline(__always)
func sigmoid(_ value: Float) -> Float {
    1 / (1 + expf(-value))
}
