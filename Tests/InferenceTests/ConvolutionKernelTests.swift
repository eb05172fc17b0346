import ModelFile
import Testing

@testable import Inference

@Suite struct ConvolutionKernelTests {
    /// 3×3 input 1..9, one 3×3 filter of ones: SAME keeps 3×3 and pads one zero on each side.
    @Test func samePaddingSumsOnlyInsideTaps() {
        let h = KernelHarness()
        let out = conv2D(
            h, input: (1...9).map(Float.init), shape: NHWC(batch: 1, height: 3, width: 3, channels: 1),
            filter: Array(repeating: 1, count: 9), filterShape: NHWC(batch: 1, height: 3, width: 3, channels: 1),
            bias: nil, padding: .same)
        // Corner (0,0): 1+2+4+5 = 12; centre: 45; edge (0,1): 1+2+3+4+5+6 = 21.
        #expect(out == [12, 21, 16, 27, 45, 33, 24, 39, 28])
    }

    @Test func validPaddingWithStrideTwoSkipsRowsAndColumns() {
        let h = KernelHarness()
        // 5×5 input x = 0..24, 1×1 filter 2, stride 2, bias 1 → 3×3 of 2·x + 1 at even positions.
        let out = conv2D(
            h, input: (0..<25).map(Float.init), shape: NHWC(batch: 1, height: 5, width: 5, channels: 1),
            filter: [2], filterShape: NHWC(batch: 1, height: 1, width: 1, channels: 1),
            bias: [1], stride: (2, 2), padding: .valid)
        #expect(out == [1, 5, 9, 21, 25, 29, 41, 45, 49])
    }

    @Test func samePaddingWithEvenInputPutsExtraPaddingAfter() {
        let h = KernelHarness()
        // 4×4 input, 2×2 ones filter, stride 2, SAME: out 2×2, no padding needed.
        // 3×3 filter stride 2 on 4 wide: out 2, total pad (2-1)*2+3-4 = 1 → 0 before, 1 after.
        let input = (0..<16).map(Float.init)
        let out = conv2D(
            h, input: input, shape: NHWC(batch: 1, height: 4, width: 4, channels: 1),
            filter: Array(repeating: 1, count: 9), filterShape: NHWC(batch: 1, height: 3, width: 3, channels: 1),
            bias: nil, stride: (2, 2), padding: .same)
        // (0,0): rows 0-2, cols 0-2 → 0+1+2+4+5+6+8+9+10 = 45; (0,1): cols 2-3 (4 is padding) → 2+3+6+7+10+11 = 39
        // (1,0): rows 2-3 → 8+9+10+12+13+14 = 66; (1,1): 10+11+14+15 = 50
        #expect(out == [45, 39, 66, 50])
    }

    @Test func dilationSpreadsTheTaps() {
        let h = KernelHarness()
        // 5×5 input, 2×2 filter [1, 10, 100, 1000] with dilation 2, VALID → 3×3 output.
        let input = (0..<25).map(Float.init)
        let out = conv2D(
            h, input: input, shape: NHWC(batch: 1, height: 5, width: 5, channels: 1),
            filter: [1, 10, 100, 1000], filterShape: NHWC(batch: 1, height: 2, width: 2, channels: 1),
            bias: nil, dilation: (2, 2), padding: .valid)
        // out(y,x) = in(y,x) + 10·in(y,x+2) + 100·in(y+2,x) + 1000·in(y+2,x+2)
        func expected(_ y: Int, _ x: Int) -> Float {
            let a: Float = Float(y * 5 + x)
            let b: Float = 10 * Float(y * 5 + x + 2)
            let c: Float = 100 * Float((y + 2) * 5 + x)
            let d: Float = 1000 * Float((y + 2) * 5 + x + 2)
            return a + b + c + d
        }
        #expect(out == (0..<9).map { expected($0 / 3, $0 % 3) })
    }

    @Test func multipleChannelsAndPartialPanelsMatchADirectSum() {
        // 2 images, 3×4 pixels, 5 input channels, 11 output channels (one full panel + 3), 2×3 filter.
        let h = KernelHarness(threads: 2)
        let shape = NHWC(batch: 2, height: 3, width: 4, channels: 5)
        let filterShape = NHWC(batch: 11, height: 2, width: 3, channels: 5)
        let input: [Float] = (0..<120).map { (i: Int) -> Float in Float((i * 7) % 13) - 6 }
        let filter: [Float] = (0..<330).map { (i: Int) -> Float in Float((i * 5) % 11) - 5 }
        let bias = (0..<11).map { Float($0) }
        let out = conv2D(
            h, input: input, shape: shape, filter: filter, filterShape: filterShape, bias: bias, padding: .same,
            clamp: ActivationClamp(.relu6)!)
        // SAME: pad rows (0 before, 1 after), cols (1 before, 1 after).
        var expected: [Float] = []
        for b in 0..<2 {
            for y in 0..<3 {
                for x in 0..<4 {
                    for o in 0..<11 {
                        var sum = bias[o]
                        for ky in 0..<2 {
                            for kx in 0..<3 {
                                let iy = y + ky
                                let ix = x + kx - 1
                                guard iy < 3, ix >= 0, ix < 4 else { continue }
                                for c in 0..<5 {
                                    let inputIndex: Int = ((b * 3 + iy) * 4 + ix) * 5 + c
                                    let filterIndex: Int = ((o * 2 + ky) * 3 + kx) * 5 + c
                                    sum += input[inputIndex] * filter[filterIndex]
                                }
                            }
                        }
                        expected.append(min(max(sum, 0), 6))
                    }
                }
            }
        }
        #expect(out == expected)
    }

    @Test func fusedActivationsClampAsTFLite() {
        let h = KernelHarness()
        let input: [Float] = [-3, -0.5, 0.5, 3, 7]
        func run(_ activation: FusedActivation) -> [Float] {
            conv2D(
                h, input: input, shape: NHWC(batch: 1, height: 1, width: 5, channels: 1), filter: [1],
                filterShape: NHWC(batch: 1, height: 1, width: 1, channels: 1), bias: nil, padding: .valid,
                clamp: ActivationClamp(activation)!)
        }
        #expect(run(.none) == input)
        #expect(run(.relu) == [0, 0, 0.5, 3, 7])
        #expect(run(.reluN1To1) == [-1, -0.5, 0.5, 1, 1])
        #expect(run(.relu6) == [0, 0, 0.5, 3, 6])
        #expect(run(.tanh) == input.map { Float.tanhValue($0) })
        #expect(ActivationClamp(.signBit) == nil)
        // A function replaces the clamp: kernels store with infinite bounds, whatever was given.
        let tanh = ActivationClamp(lower: 0, upper: 6, function: .tanh)
        #expect(tanh.lower == -.infinity && tanh.upper == .infinity && tanh.hasFunction)
    }

    @Test func depthwiseWithMultiplierTwoReadsInputChannelOverMultiplier() {
        let h = KernelHarness()
        // 1×2×2 input with 2 channels, 2×2 filter, multiplier 2 → 4 output channels, VALID → 1×1.
        let input: [Float] = [1, 2, 3, 4, 5, 6, 7, 8]  // pixel-major: (c0, c1) per pixel
        let filter: [Float] = (0..<16).map { Float($0 + 1) }  // [1, 2, 2, 4]: tap-major, 4 channels
        let shape = NHWC(batch: 1, height: 2, width: 2, channels: 2)
        let rows = WindowAxis(input: 2, filter: 2, stride: 1, dilation: 1, padding: .valid)!
        let bias = (0..<4).map { Float(100 * $0) }
        let out = h.output(4)
        h.run(
            DepthwiseConv2DKernel(
                input: h.buffer(input), output: out, inputShape: shape,
                outputShape: NHWC(batch: 1, height: 1, width: 1, channels: 4), rows: rows, columns: rows,
                filter: h.buffer(filter), bias: h.buffer(bias), clamp: .identity))
        // Output channel o uses input channel o / 2: sum over taps t of in[t][o/2] · w[t][o] + bias[o].
        var expected: [Float] = []
        for o in 0..<4 {
            var sum = Float(100 * o)
            for t in 0..<4 { sum += input[t * 2 + o / 2] * filter[t * 4 + o] }
            expected.append(sum)
        }
        #expect(values(out, 4) == expected)
    }

    @Test func depthwiseSamePaddingWithStrideMatchesDirectSum() {
        // 5×5×10 input (one full 8-channel block + 2 scalar channels), 3×3 filter, stride 2, SAME, RELU6.
        let h = KernelHarness(threads: 2)
        let c = 10
        let input: [Float] = (0..<(5 * 5 * c)).map { (i: Int) -> Float in Float((i * 3) % 17) / 4 - 2 }
        let filter: [Float] = (0..<(9 * c)).map { (i: Int) -> Float in Float((i * 7) % 5) / 2 - 1 }
        let rows = WindowAxis(input: 5, filter: 3, stride: 2, dilation: 1, padding: .same)!
        #expect(rows.output == 3 && rows.padBefore == 1)
        let out = h.output(9 * c)
        h.run(
            DepthwiseConv2DKernel(
                input: h.buffer(input), output: out, inputShape: NHWC(batch: 1, height: 5, width: 5, channels: c),
                outputShape: NHWC(batch: 1, height: 3, width: 3, channels: c), rows: rows, columns: rows,
                filter: h.buffer(filter), bias: h.buffer(Array(repeating: 0.25, count: c)),
                clamp: ActivationClamp(.relu6)!))
        var expected: [Float] = []
        for y in 0..<3 {
            for x in 0..<3 {
                for ch in 0..<c {
                    var sum: Float = 0.25
                    for ky in 0..<3 {
                        for kx in 0..<3 {
                            let iy = y * 2 - 1 + ky
                            let ix = x * 2 - 1 + kx
                            guard iy >= 0, iy < 5, ix >= 0, ix < 5 else { continue }
                            let inputIndex: Int = (iy * 5 + ix) * c + ch
                            let filterIndex: Int = (ky * 3 + kx) * c + ch
                            sum += input[inputIndex] * filter[filterIndex]
                        }
                    }
                    expected.append(min(max(sum, 0), 6))
                }
            }
        }
        #expect(values(out, 9 * c) == expected)
    }

    /// A 1×1 convolution asked for part of its output (DemandAnalysis) computes that part with
    /// the bits of the whole computation, and writes nothing else.
    @Test func pointwiseConvolutionComputesOnlyTheDemandedPixelsOrChannels() {
        let h = KernelHarness(threads: 2)
        let (pixels, k, n) = (29, 40, 37)
        let shape = NHWC(batch: 1, height: 1, width: pixels, channels: k)
        let outShape = NHWC(batch: 1, height: 1, width: pixels, channels: n)
        let axis = WindowAxis(input: 1, filter: 1, stride: 1, dilation: 1, padding: .valid)!
        let columns = WindowAxis(input: pixels, filter: 1, stride: 1, dilation: 1, padding: .valid)!
        let input = h.buffer(RandomInput.values(seed: 3, count: pixels * k, low: -1, high: 1))
        let filter = h.buffer(RandomInput.values(seed: 4, count: n * k, low: -1, high: 1))
        let bias = h.buffer(RandomInput.values(seed: 5, count: n, low: -1, high: 1))
        func run(pixels part: Range<Int>? = nil, channels: Range<Int> = 0..<n) -> [Float] {
            let out = h.output(pixels * n)
            let weights = PackedWeights(
                weights: filter + channels.lowerBound * k, bias: bias + channels.lowerBound, n: channels.count, k: k)
            h.run(
                Conv2DKernel(
                    input: input, output: out, inputShape: shape, outputShape: outShape, rows: axis, columns: columns,
                    weights: weights, clamp: ActivationClamp(.relu6)!, pixels: part, firstChannel: channels.lowerBound))
            return values(out, pixels * n)
        }
        let whole = run()
        let somePixels = run(pixels: 9..<18)
        let someChannels = run(channels: 17..<21)
        for p in 0..<pixels {
            for c in 0..<n {
                let at = p * n + c
                if (9..<18).contains(p) {
                    #expect(somePixels[at].bitPattern == whole[at].bitPattern, "pixel \(p) channel \(c)")
                } else {
                    #expect(somePixels[at].isNaN, "pixel \(p) was computed")
                }
                if (17..<21).contains(c) {
                    #expect(someChannels[at].bitPattern == whole[at].bitPattern, "pixel \(p) channel \(c)")
                } else {
                    #expect(someChannels[at].isNaN, "channel \(c) was computed")
                }
            }
        }
    }
}
