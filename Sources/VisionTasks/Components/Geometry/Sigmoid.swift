import Foundation
import Imaging

/// The logistic function `1 / (1 + e^-x)` in float, as MediaPipe's calculators compute it
/// (with its correctly rounded `expf`; see ``CorrectlyRounded``).
@inline(__always)
func sigmoid(_ value: Float) -> Float {
    1 / (1 + CorrectlyRounded.exp(-value))
}
