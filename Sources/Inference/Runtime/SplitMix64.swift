/// SplitMix64 (Steele, Lea and Flood), a small deterministic generator: the fixed inputs of
/// `bench-model` and the tests' random tensors, the same sequence the reference scripts draw in
/// Python for the golden outputs.
///
/// Not for anything that needs unpredictable numbers.
package struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose first output follows `seed`.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
