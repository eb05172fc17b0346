import Testing

@testable import Inference
@testable import ModelFile

@Suite struct LayoutKernelTests {
    @Test func maxAndAveragePoolClipTheWindowToTheInput() {
        let h = KernelHarness()
        // 3×3 input 1..9, 2×2 window, stride 2, SAME: out 2×2, pad 0 before, 1 after.
        let input = (1...9).map(Float.init)
        let axis = WindowAxis(input: 3, filter: 2, stride: 2, dilation: 1, padding: .same)!
        let shape = NHWC(batch: 1, height: 3, width: 3, channels: 1)
        let outShape = NHWC(batch: 1, height: 2, width: 2, channels: 1)
        let maxOut = h.output(4)
        let avgOut = h.output(4)
        h.run(
            Pool2DKernel(
                kind: .max, input: h.buffer(input), output: maxOut, inputShape: shape, outputShape: outShape,
                rows: axis, columns: axis, clamp: .identity))
        h.run(
            Pool2DKernel(
                kind: .average, input: h.buffer(input), output: avgOut, inputShape: shape, outputShape: outShape,
                rows: axis, columns: axis, clamp: .identity))
        #expect(values(maxOut, 4) == [5, 6, 8, 9])
        // Averages over the in-bounds taps only: (1+2+4+5)/4, (3+6)/2, (7+8)/2, 9/1.
        #expect(values(avgOut, 4) == [3, 4.5, 7.5, 9])
    }

    @Test func padAddsConstantBorders() {
        let h = KernelHarness()
        let out = h.output(4 * 5)
        // [2, 3] padded by [[1, 1], [0, 2]] with 9.
        h.run(
            PadKernel(
                input: h.buffer([1, 2, 3, 4, 5, 6]), output: out, inputShape: [2, 3], outputShape: [4, 5],
                before: [1, 0], value: 9))
        #expect(values(out, 20) == [9, 9, 9, 9, 9, 1, 2, 3, 9, 9, 4, 5, 6, 9, 9, 9, 9, 9, 9, 9])
    }

    @Test func concatenationInterleavesAlongTheAxis() {
        let h = KernelHarness()
        let out = h.output(10)
        // [2, 2] and [2, 3] along axis 1.
        h.run(
            ConcatenationKernel(
                inputs: [h.buffer([1, 2, 3, 4]), h.buffer([5, 6, 7, 8, 9, 10])], chunks: [2, 3],
                output: out, outerCount: 2, clamp: .identity))
        #expect(values(out, 10) == [1, 2, 5, 6, 7, 3, 4, 8, 9, 10])
    }

    @Test func depthToSpaceUsesDepthColumnRowOrder() {
        let h = KernelHarness()
        // 1×1×1×4 → 1×2×2×1: channel (dy·2 + dx) goes to (dy, dx).
        let out = h.output(4)
        h.run(
            DepthToSpaceKernel(
                input: h.buffer([1, 2, 3, 4]), output: out,
                inputShape: NHWC(batch: 1, height: 1, width: 1, channels: 4), block: 2))
        #expect(values(out, 4) == [1, 2, 3, 4])
        // 1×1×2×8 with 2 output channels: pixel x=0 → out (0,0),(0,1),(1,0),(1,1).
        let out2 = h.output(16)
        h.run(
            DepthToSpaceKernel(
                input: h.buffer((0..<16).map(Float.init)), output: out2,
                inputShape: NHWC(batch: 1, height: 1, width: 2, channels: 8), block: 2))
        // Output [1, 2, 4, 2]: row 0: px0 ch0-1, px0 ch2-3, px1 ch0-1, px1 ch2-3; row 1: ch4-7.
        #expect(values(out2, 16) == [0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15])
    }

    @Test func meanOverSpatialAxesAndGeneralAxes() {
        let h = KernelHarness()
        // [1, 2, 2, 3] mean over [1, 2] → per channel.
        let x = (0..<12).map(Float.init)
        let out = h.output(3)
        h.run(
            ReduceKernel(
                kind: .mean, input: h.buffer(x), output: out, inputShape: [1, 2, 2, 3],
                reduced: [false, true, true, false]))
        #expect(values(out, 3) == [4.5, 5.5, 6.5])
        // [2, 3, 2] sum over axes 0 and 2 (not adjacent) → 3 values.
        let sum = h.output(3)
        h.run(
            ReduceKernel(
                kind: .sum, input: h.buffer(x), output: sum, inputShape: [2, 3, 2], reduced: [true, false, true]))
        let expectedSums: [Float] = [14, 22, 30]  // 0+1+6+7, 2+3+8+9, 4+5+10+11
        #expect(values(sum, 3) == expectedSums)
    }

    /// A spatial mean over many channels (sixteen at a time, then one by one) adds each channel's
    /// values in pixel order from zero, as XNNPACK does: bit for bit, on full-mantissa values.
    @Test func spatialMeanAddsEachChannelInPixelOrder() {
        let h = KernelHarness(threads: 2)
        let (pixels, channels) = (49, 37)
        let x = RandomInput.fullMantissaValues(seed: 3, count: pixels * channels, low: -1, high: 1)
        let out = h.output(channels)
        h.run(
            ReduceKernel(
                kind: .mean, input: h.buffer(x), output: out, inputShape: [1, 7, 7, channels],
                reduced: [false, true, true, false]))
        let scale = 1 / Float(pixels)
        let expected = (0..<channels).map { c -> UInt32 in
            var sum: Float = 0
            for p in 0..<pixels { sum += x[p * channels + c] }
            return (0 + sum * scale).bitPattern
        }
        #expect(values(out, channels).map(\.bitPattern) == expected)
    }

    @Test func bilinearResizeSamplingModes() {
        // 1-D view: input [0, 10] (width 2) to width 4.
        let half = ResizeKernel.axis(2, 4, false, true, true)
        // half-pixel: v = (o + 0.5)·0.5 - 0.5 → -0.25, 0.25, 0.75, 1.25
        #expect(half.map(\.0) == [0, 0, 0, 1])
        #expect(half.map(\.1) == [0, 1, 1, 1])
        #expect(half.map(\.2) == [-0.25, 0.25, 0.75, 0.25])
        let aligned = ResizeKernel.axis(2, 4, true, false, true)
        // align corners: scale 1/3 → v = 0, 1/3, 2/3, 1
        #expect(aligned.map(\.0) == [0, 0, 0, 1])
        #expect(aligned.map(\.2) == [0, Float(1) / 3, Float(2) / 3, 0])
        let plain = ResizeKernel.axis(2, 4, false, false, true)
        #expect(plain.map(\.2) == [0, 0.5, 0, 0.5])

        let h = KernelHarness()
        let out = h.output(4)
        h.run(
            ResizeKernel(
                input: h.buffer([0, 10]), output: out, inputShape: NHWC(batch: 1, height: 1, width: 2, channels: 1),
                outputShape: NHWC(batch: 1, height: 1, width: 4, channels: 1), isBilinear: true,
                ys: [(0, 0, 0)], xs: half))
        #expect(values(out, 4) == [0, 2.5, 7.5, 10])
    }

    @Test func bilinearResizeUsesXNNPACKCoordinates() {
        // Half-pixel centres, width 2 to 4: v = o·0.5 - 0.25 clamped to [0, 1]; upper = min(lower + 1, 1).
        let half = ResizeKernel.xnnpackBilinearAxis(2, 4, false, true)
        #expect(half.map(\.0) == [0, 0, 0, 1])
        #expect(half.map(\.1) == [1, 1, 1, 1])
        #expect(half.map(\.2) == [0, 0.25, 0.75, 0])
        // Aligned corners: v = o/3, last sample exactly at the last input.
        let aligned = ResizeKernel.xnnpackBilinearAxis(2, 4, true, false)
        #expect(aligned.map(\.0) == [0, 0, 0, 1])
        #expect(aligned.map(\.2) == [0, Float(1) / 3, Float(2) / 3, 0])
        // Neither: v = min(o·0.5, 1).
        let plain = ResizeKernel.xnnpackBilinearAxis(2, 4, false, false)
        #expect(plain.map(\.0) == [0, 0, 1, 1])
        #expect(plain.map(\.2) == [0, 0.5, 0, 0])

        // t + (b - t)·ay with t, b lerps across x: input rows [0, 10] and [20, 40], ay = 0.25.
        let h = KernelHarness()
        let out = h.output(4)
        h.run(
            ResizeKernel(
                input: h.buffer([0, 10, 20, 40]), output: out,
                inputShape: NHWC(batch: 1, height: 2, width: 2, channels: 1),
                outputShape: NHWC(batch: 1, height: 1, width: 4, channels: 1), isBilinear: true,
                ys: [(0, 1, 0.25)], xs: half))
        #expect(values(out, 4) == [5, 8.125, 14.375, 17.5])
    }

    /// Every channel count takes its own compiled path in `vk_resize_bilinear` (8 to 48 with the
    /// count a constant, others with a channel loop): each gives XNNPACK's value, the two
    /// horizontal lerps and then the vertical one with every product rounded before its sum, in
    /// every lane, on every instruction set, for a batch of two split between two threads.
    @Test(arguments: SIMDKernelTests.instructionSets)
    func bilinearResizeGivesXNNPACKsValuesForEveryChannelCount(_ isa: InstructionSet) {
        for channels in [1, 3, 8, 16, 24, 32, 40, 48, 56, 128] {
            let inputShape = NHWC(batch: 2, height: 5, width: 6, channels: channels)
            let outputShape = NHWC(batch: 2, height: 10, width: 12, channels: channels)
            let ys = ResizeKernel.xnnpackBilinearAxis(5, 10, false, true)
            let xs = ResizeKernel.xnnpackBilinearAxis(6, 12, false, true)
            let count = 2 * 10 * 12 * channels
            let input = (0..<(2 * 5 * 6 * channels)).map { Float(($0 &* 2_654_435_761) % 1000) * 0.0137 - 3 }
            let h = KernelHarness(threads: 2)
            let out = h.output(count + 1)
            h.run(
                ResizeKernel(
                    input: h.buffer(input), output: out, inputShape: inputShape, outputShape: outputShape,
                    isBilinear: true, ys: ys, xs: xs, instructionSet: isa))
            var expected: [UInt32] = []
            for b in 0..<2 {
                for (y0, y1, ay) in ys {
                    for (x0, x1, ax) in xs {
                        for c in 0..<channels {
                            func at(_ y: Int, _ x: Int) -> Float { input[((b * 5 + y) * 6 + x) * channels + c] }
                            let topProduct = (at(y0, x1) - at(y0, x0)) * ax
                            let bottomProduct = (at(y1, x1) - at(y1, x0)) * ax
                            let top = at(y0, x0) + topProduct
                            let bottom = at(y1, x0) + bottomProduct
                            let verticalProduct = (bottom - top) * ay
                            expected.append((top + verticalProduct).bitPattern)
                        }
                    }
                }
            }
            let differing = (0..<count).first { out[$0].bitPattern != expected[$0] }
            #expect(differing == nil, "\(isa), \(channels) channels: value \(differing ?? 0) differs")
            #expect(out[count].isNaN, "\(isa), \(channels) channels: wrote past the end")
        }
    }

    @Test func nearestNeighbourResize() {
        #expect(ResizeKernel.axis(2, 4, false, false, false).map(\.0) == [0, 0, 1, 1])
        #expect(ResizeKernel.axis(3, 2, true, false, false).map(\.0) == [0, 2])
        // half-pixel: v = (o + 0.5) · 0.5 → 0.25, 0.75, 1.25, 1.75, floored
        #expect(ResizeKernel.axis(2, 4, false, true, false).map(\.0) == [0, 0, 1, 1])
    }

    /// TRANSPOSE moves every element to its permuted position, and a strided slice with a
    /// backwards step reads the right elements. (Begin and end masks and shrunk axes, resolved
    /// when the kernel is made, are checked on the face blendshapes model by LiteRTParityTests.)
    @Test func transposeAndStridedSliceCopyTheRightElements() {
        let h = KernelHarness()
        let input = (0..<24).map(Float.init)  // [2, 3, 4]
        let transposed = h.output(24)
        h.run(
            StridedCopyKernel(
                input: h.buffer(input), output: transposed, shape: [2, 4, 3], steps: [12, 1, 4], base: 0))
        #expect(values(transposed, 24)[0..<6] == [0, 4, 8, 1, 5, 9])
        // input[1, ::-1, 1:3] of [2, 3, 4]: rows 2, 1, 0 of the second plane, columns 1 and 2.
        let sliced = h.output(6)
        h.run(
            StridedCopyKernel(
                input: h.buffer(input), output: sliced, shape: [3, 2], steps: [-4, 1], base: 12 + 8 + 1))
        #expect(values(sliced, 6) == [21, 22, 17, 18, 13, 14])
    }

    /// The transpose of a matrix (the blendshapes model's [1, 1, 97, 64] ↔ [1, 1, 64, 97]) takes
    /// the 8 × 8 block path, edges and thread splits included, and moves every element.
    @Test(arguments: SIMDKernelTests.instructionSets)
    func matrixTransposeMovesEveryElementInBlocksOfEight(_ isa: InstructionSet) {
        for (rows, columns) in [(97, 64), (64, 97), (13, 29), (8, 8), (3, 100), (1, 9)] {
            for threads in [1, 2] {
                let h = KernelHarness(threads: threads)
                let input = (0..<(rows * columns)).map(Float.init)
                let out = h.output(rows * columns + 1)
                let kernel = StridedCopyKernel(
                    input: h.buffer(input), output: out, shape: [1, 1, columns, rows], steps: [0, 0, 1, columns],
                    base: 0, instructionSet: isa)
                // A single row or column is a plain copy.
                #expect(kernel.isMatrixTranspose == (rows > 1 && columns > 1))
                h.run(kernel)
                let expected = (0..<(rows * columns)).map { Float(($0 % rows) * columns + $0 / rows) }
                #expect(values(out, rows * columns) == expected, "\(isa) \(rows)x\(columns), \(threads) threads")
                #expect(out[rows * columns].isNaN, "\(isa) \(rows)x\(columns): wrote past the end")
            }
        }
    }

    /// The input elements a STRIDED_SLICE reads, as DemandAnalysis bounds them.
    @Test func stridedSliceLayoutBoundsTheElementsItReads() throws {
        let none = StridedSliceOptions(
            beginMask: 0, endMask: 0, ellipsisMask: 0, newAxisMask: 0, shrinkAxisMask: 0, offset: false)
        // [1, 1, 97, 64] → tokens 0..<2: elements 0...127, output element 64 reads element 64.
        let tokens = try StridedCopyKernel.sliceLayout(
            input: [1, 1, 97, 64], begins: [0, 0, 0, 0], ends: [1, 1, 2, 64], steps: [1, 1, 1, 1], options: none)
        #expect(tokens.shape == [1, 1, 2, 64] && tokens.elementBounds == 0...127 && tokens.inputElement(64) == 64)
        // A 4×6 matrix, rows 3, 1 (step -2), columns 1, 3, 5: elements 7...23.
        let backwards = try StridedCopyKernel.sliceLayout(
            input: [4, 6], begins: [3, 1], ends: [0, 6], steps: [-2, 2], options: none)
        #expect(backwards.shape == [2, 3] && backwards.elementBounds == 7...23)
        #expect(backwards.inputElement(0) == 19 && backwards.inputElement(5) == 11)
        #expect(throws: StridedCopyKernel.InvalidSlice.self) {
            try StridedCopyKernel.sliceLayout(input: [4], begins: [0], ends: [4], steps: [0], options: none)
        }
    }
}
