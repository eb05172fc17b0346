import ModelFile
import Testing

@testable import Inference

/// `TokenMixingKernel` against the four operators it replaces, built from the engine's own
/// kernels: a transpose, two 1×1 `Conv2DKernel`s, a transpose back.
@Suite struct TokenMixingKernelTests {
    /// Channel counts that leave a narrow last panel on every instruction set (37: 32 + 5 with
    /// AVX-512, 16 + 16 + 5 with AVX2 and NEON, 8 × 4 + 5 portable), a bias of −0 and of +0, a
    /// zero channel and a RELU6 on the first product; one, three and five threads.
    @Test(arguments: InstructionSet.all.filter(\.isSupported))
    func transposedProductsGiveTheSeparateOperatorsBits(_ isa: InstructionSet) {
        let (tokens, channels, hidden) = (13, 37, 20)
        var x = RandomInput.fullMantissaValues(seed: 3, count: tokens * channels, low: -2, high: 2)
        for t in 0..<tokens { x[t * channels + 4] = 0 }
        let w1 = RandomInput.fullMantissaValues(seed: 4, count: hidden * tokens, low: -1, high: 1)
        var b1 = RandomInput.fullMantissaValues(seed: 5, count: hidden, low: -0.5, high: 0.5)
        let w2 = RandomInput.fullMantissaValues(seed: 6, count: tokens * hidden, low: -1, high: 1)
        var b2 = RandomInput.fullMantissaValues(seed: 7, count: tokens, low: -0.5, high: 0.5)
        b1[1] = -0.0
        b2[2] = -0.0
        b2[3] = 0
        let relu6 = ActivationClamp(lower: 0, upper: 6, function: .none)

        // The operators: Xᵀ (channels pixels of tokens values), H = relu6(conv₁), O = conv₂, Oᵀ.
        let reference = KernelHarness()
        let transposed = (0..<(channels * tokens)).map { x[($0 % tokens) * channels + $0 / tokens] }
        let h = conv2D(
            reference, input: transposed, shape: NHWC(batch: 1, height: 1, width: channels, channels: tokens),
            filter: w1, filterShape: NHWC(batch: hidden, height: 1, width: 1, channels: tokens), bias: b1,
            padding: .valid, clamp: relu6)
        let o = conv2D(
            reference, input: h, shape: NHWC(batch: 1, height: 1, width: channels, channels: hidden), filter: w2,
            filterShape: NHWC(batch: tokens, height: 1, width: 1, channels: hidden), bias: b2, padding: .valid)
        let expected = (0..<(tokens * channels)).map { o[($0 % channels) * tokens + $0 / channels] }

        // Three and five threads take narrower panels than the product's own where those are
        // fewer (16 and 8 wide).
        for threads in [1, 3, 5] {
            for rows in [0..<tokens, 2..<5] {
                let harness = KernelHarness(threads: threads)
                let output = harness.output(tokens * channels)
                let kernel = w1.withUnsafeBufferPointer { w1 in
                    w2.withUnsafeBufferPointer { w2 in
                        TokenMixingKernel(
                            input: harness.buffer(x), output: output, tokens: tokens, channels: channels,
                            first: .init(filter: w1.baseAddress!, bias: b1, rows: hidden, k: tokens, clamp: relu6),
                            second: .init(filter: w2.baseAddress!, bias: b2, rows: tokens, k: hidden, clamp: .identity),
                            rows: rows, instructionSet: isa)
                    }
                }
                harness.run(kernel)
                let result = values(output, tokens * channels)
                let computed = (rows.lowerBound * channels)..<(rows.upperBound * channels)
                #expect(
                    result[computed].map(\.bitPattern) == expected[computed].map(\.bitPattern),
                    "\(isa), \(threads) threads, tokens \(rows)")
                // The other tokens are not written.
                #expect(
                    result.indices.filter { !computed.contains($0) }.allSatisfy { result[$0].isNaN },
                    "\(isa), tokens \(rows)")
            }
        }
    }
}
