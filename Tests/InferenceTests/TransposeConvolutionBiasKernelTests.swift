import CVisionKernels
import ModelFile
import Testing

@testable import Inference

/// MediaPipe's `Convolution2DTransposeBias` with non-overlapping windows, on both of its paths:
/// pixels in vector lanes for few outputs per input pixel (`vk_deconv_row`) and the per-row
/// matrix products otherwise.
struct TransposeConvolutionBiasKernelTests {
    static let instructionSets = InstructionSet.all.filter(\.isSupported)

    /// Every output is the bias plus one fused multiply-add per input channel, in channel order
    /// (XNNPACK's deconvolution GEMM order), to the bit — over rows that end in partial vector
    /// blocks, channel counts that are and are not multiples of 8, batches, and output counts on
    /// both sides of `VK_DECONV_MAX_OUTPUTS`, with two threads.
    @Test(arguments: instructionSets)
    func outputsAreOrderedSumsOnBothPaths(_ isa: InstructionSet) {
        let h = KernelHarness(threads: 2)
        // (batch, height, width, input channels, kernel height, kernel width, output channels)
        let shapes = [
            (1, 3, 37, 16, 2, 2, 1), (2, 2, 21, 5, 2, 2, 2), (1, 2, 16, 64, 1, 2, 4), (1, 4, 9, 12, 2, 1, 3),
            (1, 2, 19, 16, 3, 3, 1), (1, 3, 11, 24, 2, 2, 4),
        ]
        for (index, (n, height, width, cin, kh, kw, cout)) in shapes.enumerated() {
            let inputShape = NHWC(batch: n, height: height, width: width, channels: cin)
            let outputShape = NHWC(batch: n, height: height * kh, width: width * kw, channels: cout)
            var x = RandomInput.values(seed: UInt64(index + 1), count: n * height * width * cin, low: -1, high: 1)
            for i in stride(from: 0, to: x.count, by: 9) { x[i] = -0.0 }
            let filter = RandomInput.values(seed: UInt64(index + 30), count: cout * kh * kw * cin, low: -1, high: 1)
            let bias = RandomInput.values(seed: UInt64(index + 60), count: cout, low: -1, high: 1)
            let count = n * outputShape.height * outputShape.width * cout
            let out = h.output(count)
            let kernel = TransposeConvolutionBiasKernel(
                input: h.buffer(x), output: out, inputShape: inputShape, outputShape: outputShape,
                filter: h.buffer(filter), filterShape: NHWC(batch: cout, height: kh, width: kw, channels: cin),
                bias: h.buffer(bias), instructionSet: isa)
            #expect(
                kernel.putsPixelsInLanes == (kh * kw * cout <= Int(VK_DECONV_MAX_OUTPUTS)),
                "\(isa) case \(index): path")
            h.run(kernel)
            var failures = 0
            for b in 0..<n {
                for y in 0..<outputShape.height {
                    for xx in 0..<outputShape.width {
                        for o in 0..<cout {
                            let (iy, dy, ix, dx) = (y / kh, y % kh, xx / kw, xx % kw)
                            let pixel = ((b * height + iy) * width + ix) * cin
                            let weights = ((o * kh + dy) * kw + dx) * cin
                            var acc = bias[o]
                            for c in 0..<cin { acc = acc.addingProduct(x[pixel + c], filter[weights + c]) }
                            let got = out[((b * outputShape.height + y) * outputShape.width + xx) * cout + o]
                            if got.bitPattern != acc.bitPattern { failures += 1 }
                        }
                    }
                }
            }
            #expect(failures == 0, "\(isa) case \(index): \(failures) of \(count) outputs differ")
            #expect(out[count].isNaN, "\(isa) case \(index): wrote past the end")
        }
    }
}
