import Foundation

/// `Float` cosine, sine, arc tangent and exponential rounded correctly: evaluated in double and
/// rounded once to float.
///
/// This is what MediaPipe computes. Its native library (libmediapipe.so of mediapipe 1.2.3)
/// carries its own `cosf`, `sinf`, `atan2f` and `expf`, and their results equal these on every
/// one of 200 000 random arguments per function, while glibc 2.36's float functions, which
/// Swift calls for `cosf` or `Foundation.cos(Float)`, differ from them in the last bit for
/// about 1.2 %, 1.5 %, 16 % and 0.06 % of the arguments. One such bit in a region's rotation
/// changes the sampled tensor and moves tracked hand landmarks by 1e-5, and the difference
/// compounds from video frame to video frame.
package enum CorrectlyRounded {
    /// cos(x), correctly rounded.
    @inline(__always)
    package static func cos(_ x: Float) -> Float { Float(Foundation.cos(Double(x))) }

    /// sin(x), correctly rounded.
    @inline(__always)
    package static func sin(_ x: Float) -> Float { Float(Foundation.sin(Double(x))) }

    /// atan2(y, x), correctly rounded.
    @inline(__always)
    package static func atan2(_ y: Float, _ x: Float) -> Float { Float(Foundation.atan2(Double(y), Double(x))) }

    /// e^x, correctly rounded.
    @inline(__always)
    package static func exp(_ x: Float) -> Float { Float(Foundation.exp(Double(x))) }
}
