import Foundation
import Testing

@testable import Imaging

@Suite("Correctly rounded float math")
struct CorrectlyRoundedTests {
    /// Arguments where glibc's float functions and MediaPipe's differ in the last bit, with the
    /// value MediaPipe 1.2.3's own `atan2f`, `cosf`, `sinf` and `expf` return (called inside
    /// libmediapipe.so). The atan2 arguments are the wrist-to-knuckles vector of
    /// hand_test_video frame 0, where the one-bit difference changed the next frame's crop.
    @Test func matchesMediaPipeWhereTheFloatLibraryDiffers() {
        #expect(
            CorrectlyRounded.atan2(Float(hexString: "-0x1.fadcp+5"), Float(hexString: "0x1.92aecp+3"))
                == Float(hexString: "-0x1.5fee66p+0"))
        #expect(CorrectlyRounded.cos(Float(hexString: "0x1.f6501ep+0")) == Float(hexString: "-0x1.869aa6p-2"))
        #expect(CorrectlyRounded.sin(Float(hexString: "-0x1.6ff61cp+1")) == Float(hexString: "-0x1.0e111cp-2"))
        #expect(CorrectlyRounded.exp(Float(hexString: "0x1.ca3588p+0")) == Float(hexString: "0x1.7f4758p+2"))
    }

    @Test func agreesWithTheDoubleFunctionRoundedOnce() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1000 {
            let x = Float.random(in: -10...10, using: &generator)
            let y = Float.random(in: -10...10, using: &generator)
            #expect(CorrectlyRounded.cos(x) == Float(Foundation.cos(Double(x))))
            #expect(CorrectlyRounded.sin(x) == Float(Foundation.sin(Double(x))))
            #expect(CorrectlyRounded.exp(x) == Float(Foundation.exp(Double(x))))
            #expect(CorrectlyRounded.atan2(y, x) == Float(Foundation.atan2(Double(y), Double(x))))
        }
    }
}

extension Float {
    /// A float from a C hexadecimal literal.
    fileprivate init(hexString: String) {
        self = Float(strtod(hexString, nil))
    }
}
