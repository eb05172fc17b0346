import CVisionKernels
import ModelFile
import Testing

@testable import Inference

/// The CVisionKernels builds (AVX-512, AVX2/FMA, NEON, portable — every one this CPU runs)
/// against direct double-precision sums, on shapes that hit every panel width, row-tile
/// remainder, channel remainder and window edge.
@Suite struct SIMDKernelTests {
    static let instructionSets = InstructionSet.all.filter(\.isSupported)

    /// Relative error of `actual` against `expected`, scaled by the sum of absolute terms.
    private func within(_ actual: Float, _ expected: Double, scale: Double) -> Bool {
        abs(Double(actual) - expected) <= 1e-5 * max(1, scale)
    }

    @Test(arguments: instructionSets)
    func matrixProductMatchesDirectSum(_ isa: InstructionSet) {
        let h = KernelHarness(threads: 2)
        for (m, k, n) in [
            (1, 1, 1), (3, 5, 7), (9, 16, 8), (13, 27, 24), (17, 3, 33), (8, 40, 47), (19, 64, 70), (50, 9, 96),
            (7, 100, 17), (24, 16, 8), (31, 7, 40), (37, 12, 6),
        ] {
            let a = RandomInput.values(seed: UInt64(m * 1000 + k), count: m * k, low: -1, high: 1)
            let w = RandomInput.values(seed: UInt64(n * 7 + k), count: n * k, low: -1, high: 1)
            let bias = RandomInput.values(seed: UInt64(n), count: n, low: -1, high: 1)
            let weights = w.withUnsafeBufferPointer { wp in
                bias.withUnsafeBufferPointer {
                    PackedWeights(weights: wp.baseAddress!, bias: $0.baseAddress, n: n, k: k, instructionSet: isa)
                }
            }
            let out = h.output(m * n)
            h.run(
                FullyConnectedKernel(
                    input: h.buffer(a), output: out, rowCount: m, weights: weights, clamp: ActivationClamp(.relu6)!))
            var failures = 0
            for row in 0..<m {
                for column in 0..<n {
                    var sum = Double(bias[column])
                    var scale = abs(sum)
                    for kk in 0..<k {
                        let term = Double(a[row * k + kk]) * Double(w[column * k + kk])
                        sum += term
                        scale += abs(term)
                    }
                    if !within(out[row * n + column], min(max(sum, 0), 6), scale: scale) { failures += 1 }
                }
            }
            #expect(failures == 0, "\(isa) m \(m) k \(k) n \(n): \(failures) outputs differ")
            // Nothing written beyond the output.
            #expect(out[m * n].isNaN, "\(isa) m \(m) k \(k) n \(n): wrote past the end")
        }
    }

    /// A row left over after the whole tiles (several main-width panels at a time, then the tail
    /// panels one by one) gets the bits that the same inputs get as a row of a whole tile.
    @Test(arguments: instructionSets)
    func aRowLeftOverGivesTheBitsOfTheSameRowInAWholeTile(_ isa: InstructionSet) {
        let h = KernelHarness()
        let tileRows = vk_gemm_tile_rows(isa.isa)
        // 200 columns: 6 panels of 32 and one of 8 (AVX-512), 12 of 16 and one of 8 (AVX2, NEON).
        for (k, n) in [(37, 200), (1, 64), (300, 136), (8, 24)] {
            let m = tileRows + 1
            let a = RandomInput.fullMantissaValues(seed: UInt64(k), count: m * k, low: -1, high: 1)
            let w = RandomInput.fullMantissaValues(seed: UInt64(n + k), count: n * k, low: -1, high: 1)
            let bias = RandomInput.values(seed: UInt64(n), count: n, low: -1, high: 1)
            let weights = PackedWeights(
                weights: h.buffer(w), bias: h.buffer(bias), n: n, k: k, instructionSet: isa)
            let panels = weights.panelCount
            let alone = h.output(m * n)
            vk_gemm_run(weights.shape, weights.data.floats, h.buffer(a), k, alone, n, 0, m, 0, panels, -0.5, 0.5)
            // The last row first, in a whole tile of copies of it.
            let lastRow = Array(a[(m - 1) * k..<(m * k)])
            let tile = h.output(tileRows * n)
            vk_gemm_run(
                weights.shape, weights.data.floats, h.buffer(Array(repeating: lastRow, count: tileRows).flatMap { $0 }),
                k, tile, n, 0, tileRows, 0, panels, -0.5, 0.5)
            var differences = 0
            for column in 0..<n where alone[(m - 1) * n + column].bitPattern != tile[column].bitPattern {
                differences += 1
            }
            #expect(differences == 0, "\(isa) k \(k) n \(n): \(differences) columns differ")
            #expect(alone[m * n].isNaN, "\(isa) k \(k) n \(n): wrote past the end")
        }
    }

    /// One convolution through `Conv2DKernel.make`'s choices: GEMM (direct or im2col) or dot products.
    private func convolution(
        _ h: KernelHarness, _ isa: InstructionSet, input: [Float], shape: NHWC, filter: [Float],
        filterShape: NHWC, bias: [Float], stride: Int, dilation: Int, padding: Padding
    ) -> (out: [Float], shape: NHWC) {
        let rows = WindowAxis(
            input: shape.height, filter: filterShape.height, stride: stride, dilation: dilation, padding: padding)!
        let columns = WindowAxis(
            input: shape.width, filter: filterShape.width, stride: stride, dilation: dilation, padding: padding)!
        let outShape = NHWC(batch: shape.batch, height: rows.output, width: columns.output, channels: filterShape.batch)
        let count = outShape.batch * outShape.height * outShape.width * outShape.channels
        let out = h.output(count)
        let k = filterShape.height * filterShape.width * filterShape.channels
        let kernel: Kernel
        if filterShape.batch <= ConvDotKernel.maximumOutputChannels {
            kernel = ConvDotKernel(
                input: h.buffer(input), output: out, inputShape: shape, outputShape: outShape, rows: rows,
                columns: columns, filter: h.buffer(filter), bias: h.buffer(bias), clamp: .identity, instructionSet: isa)
        } else {
            let weights = PackedWeights(
                weights: h.buffer(filter), bias: h.buffer(bias), n: filterShape.batch, k: k, instructionSet: isa)
            kernel = Conv2DKernel(
                input: h.buffer(input), output: out, inputShape: shape, outputShape: outShape, rows: rows,
                columns: columns, weights: weights, clamp: .identity)
        }
        h.run(kernel)
        return (values(out, count), outShape)
    }

    @Test(arguments: instructionSets)
    func convolutionsMatchDirectSum(_ isa: InstructionSet) {
        let h = KernelHarness(threads: 2)
        // (height, width, cin, cout, filter, stride, dilation, padding)
        let cases: [(Int, Int, Int, Int, Int, Int, Int, Padding)] = [
            (9, 11, 3, 24, 3, 2, 1, .same), (7, 6, 3, 32, 5, 2, 1, .same), (8, 8, 8, 1, 3, 1, 1, .same),
            (5, 9, 16, 2, 1, 1, 1, .valid), (6, 7, 5, 3, 3, 1, 2, .same), (4, 4, 12, 9, 2, 2, 1, .valid),
            (6, 5, 7, 40, 1, 2, 1, .same), (10, 3, 4, 4, 3, 1, 1, .valid),
            // 81 taps: patches gathered (im2col) instead of read in place.
            (12, 11, 2, 10, 9, 1, 1, .same),
            // Wide rows: tiles inside the input columns read whole window rows (row mode), the
            // others tap by tap; the RGB stem of BlazeFace, and a VALID window (all inside).
            (6, 40, 3, 24, 5, 2, 1, .same), (5, 30, 4, 16, 3, 1, 1, .valid),
        ]
        for (index, (height, width, cin, cout, f, stride, dilation, padding)) in cases.enumerated() {
            let shape = NHWC(batch: 2, height: height, width: width, channels: cin)
            let filterShape = NHWC(batch: cout, height: f, width: f, channels: cin)
            let input = RandomInput.values(seed: UInt64(index + 1), count: 2 * height * width * cin, low: -1, high: 1)
            let filter = RandomInput.values(seed: UInt64(index + 50), count: cout * f * f * cin, low: -1, high: 1)
            let bias = RandomInput.values(seed: UInt64(index + 99), count: cout, low: -1, high: 1)
            let (out, outShape) = convolution(
                h, isa, input: input, shape: shape, filter: filter, filterShape: filterShape,
                bias: bias, stride: stride, dilation: dilation, padding: padding)
            let rows = WindowAxis(input: height, filter: f, stride: stride, dilation: dilation, padding: padding)!
            let columns = WindowAxis(input: width, filter: f, stride: stride, dilation: dilation, padding: padding)!
            var failures = 0
            for b in 0..<2 {
                for y in 0..<outShape.height {
                    for x in 0..<outShape.width {
                        for o in 0..<cout {
                            var sum = Double(bias[o])
                            var scale = abs(sum)
                            for ky in 0..<f {
                                for kx in 0..<f {
                                    let iy = rows.origin(y) + ky * dilation
                                    let ix = columns.origin(x) + kx * dilation
                                    guard iy >= 0, iy < height, ix >= 0, ix < width else { continue }
                                    for c in 0..<cin {
                                        let term =
                                            Double(input[((b * height + iy) * width + ix) * cin + c])
                                            * Double(filter[((o * f + ky) * f + kx) * cin + c])
                                        sum += term
                                        scale += abs(term)
                                    }
                                }
                            }
                            let at = ((b * outShape.height + y) * outShape.width + x) * cout + o
                            if !within(out[at], sum, scale: scale) { failures += 1 }
                        }
                    }
                }
            }
            #expect(failures == 0, "\(isa) case \(index): \(failures) outputs differ")
        }
    }

    /// Every output of a matrix-product convolution is the bias, then one fused multiply-add per
    /// window tap (row, column) and input channel, in that order (XNNPACK's igemm), whatever
    /// the panel widths, the tile and the thread count: stems with 24 and 40 outputs (a 16-wide
    /// panel and the 8-wide one after it, which AVX2 computes together in halves of a tile),
    /// and 8, 16 and 32 outputs, at one and two threads.
    @Test(arguments: instructionSets, [1, 2])
    func convolutionAddsTermsInIGEMMOrder(_ isa: InstructionSet, threads: Int) {
        let h = KernelHarness(threads: threads)
        // (height, width, cin, cout, filter, stride)
        let cases: [(Int, Int, Int, Int, Int, Int)] = [
            (14, 30, 3, 24, 3, 2), (10, 27, 3, 24, 5, 2), (9, 26, 3, 40, 3, 2), (7, 33, 3, 8, 3, 2),
            (8, 28, 3, 16, 3, 2), (6, 25, 3, 32, 5, 2), (5, 19, 8, 24, 3, 1),
        ]
        for (index, (height, width, cin, cout, f, stride)) in cases.enumerated() {
            let shape = NHWC(batch: 1, height: height, width: width, channels: cin)
            let filterShape = NHWC(batch: cout, height: f, width: f, channels: cin)
            let input = RandomInput.values(seed: UInt64(index + 7), count: height * width * cin, low: -1, high: 1)
            let filter = RandomInput.values(seed: UInt64(index + 60), count: cout * f * f * cin, low: -1, high: 1)
            let bias = RandomInput.values(seed: UInt64(index + 110), count: cout, low: -1, high: 1)
            let (out, outShape) = convolution(
                h, isa, input: input, shape: shape, filter: filter, filterShape: filterShape,
                bias: bias, stride: stride, dilation: 1, padding: .same)
            let rows = WindowAxis(input: height, filter: f, stride: stride, dilation: 1, padding: .same)!
            let columns = WindowAxis(input: width, filter: f, stride: stride, dilation: 1, padding: .same)!
            var failures = 0
            for y in 0..<outShape.height {
                for x in 0..<outShape.width {
                    for o in 0..<cout {
                        var sum = bias[o]
                        for ky in 0..<f {
                            for kx in 0..<f {
                                let iy = rows.origin(y) + ky
                                let ix = columns.origin(x) + kx
                                // Taps outside the input add 0 × w, which leaves a non-zero sum as it is.
                                guard iy >= 0, iy < height, ix >= 0, ix < width else { continue }
                                for c in 0..<cin {
                                    sum = sum.addingProduct(
                                        input[(iy * width + ix) * cin + c], filter[((o * f + ky) * f + kx) * cin + c])
                                }
                            }
                        }
                        if out[(y * outShape.width + x) * cout + o] != sum { failures += 1 }
                    }
                }
            }
            #expect(failures == 0, "\(isa), \(threads) threads, case \(index): \(failures) outputs differ")
        }
    }

    /// Runs `DepthwiseConv2DKernel` with multiplier 1 on random values (input in [-2, 2], filter and
    /// bias in [-1, 1], from `seeds`) and a clamp to [-bound, bound]; returns the values and the
    /// output buffer.
    private func runDepthwise(
        _ h: KernelHarness, _ isa: InstructionSet, input shape: NHWC, rows: WindowAxis, columns: WindowAxis,
        filterSize f: Int, seeds: (UInt64, UInt64, UInt64), bound: Float
    ) -> (input: [Float], filter: [Float], bias: [Float], out: UnsafeMutablePointer<Float>) {
        let c = shape.channels
        let outShape = NHWC(batch: shape.batch, height: rows.output, width: columns.output, channels: c)
        let input = RandomInput.values(
            seed: seeds.0, count: shape.batch * shape.height * shape.width * c, low: -2, high: 2)
        let filter = RandomInput.values(seed: seeds.1, count: f * f * c, low: -1, high: 1)
        let bias = RandomInput.values(seed: seeds.2, count: c, low: -1, high: 1)
        let out = h.output(outShape.batch * outShape.height * outShape.width * c)
        h.run(
            DepthwiseConv2DKernel(
                input: h.buffer(input), output: out, inputShape: shape, outputShape: outShape, rows: rows,
                columns: columns, filter: h.buffer(filter), bias: h.buffer(bias),
                clamp: ActivationClamp(lower: -bound, upper: bound, function: .none), instructionSet: isa))
        return (input, filter, bias, out)
    }

    @Test(arguments: instructionSets, [2, 3])
    func depthwiseMatchesDirectSum(_ isa: InstructionSet, threads: Int) {
        let h = KernelHarness(threads: threads)
        // (height, width, channels, filter, stride, dilation, padding)
        let cases: [(Int, Int, Int, Int, Int, Int, Padding)] = [
            (9, 13, 37, 3, 1, 1, .same), (12, 11, 24, 3, 2, 1, .same), (8, 9, 40, 5, 1, 1, .same),
            (14, 10, 16, 5, 2, 1, .same),
            (1, 1, 8, 5, 1, 1, .same), (6, 7, 5, 3, 1, 2, .same), (7, 7, 19, 2, 1, 1, .valid),
            (11, 12, 48, 3, 2, 1, .valid),
            (3, 40, 8, 3, 1, 1, .same), (6, 6, 3, 3, 3, 1, .same),
            // Few rows, many channels: tasks split the channels too.
            (2, 5, 50, 3, 1, 1, .same), (2, 3, 72, 5, 1, 1, .same),
            // 5×5 rows ending in a group of three, two or one pixels (stride 1 and 2).
            (7, 7, 21, 5, 1, 1, .same), (6, 14, 24, 5, 1, 1, .same), (5, 13, 33, 5, 2, 1, .same),
            (5, 9, 16, 5, 2, 1, .valid),
        ]
        for (index, (height, width, channels, f, stride, dilation, padding)) in cases.enumerated() {
            let rows = WindowAxis(input: height, filter: f, stride: stride, dilation: dilation, padding: padding)!
            let columns = WindowAxis(input: width, filter: f, stride: stride, dilation: dilation, padding: padding)!
            let outShape = NHWC(batch: 2, height: rows.output, width: columns.output, channels: channels)
            let count = 2 * outShape.height * outShape.width * channels
            let (input, filter, bias, out) = runDepthwise(
                h, isa, input: NHWC(batch: 2, height: height, width: width, channels: channels), rows: rows,
                columns: columns, filterSize: f, seeds: (UInt64(index + 7), UInt64(index + 70), UInt64(index + 700)),
                bound: 1.5)
            var failures = 0
            for b in 0..<2 {
                for y in 0..<outShape.height {
                    for x in 0..<outShape.width {
                        for c in 0..<channels {
                            var sum = Double(bias[c])
                            var scale = abs(sum)
                            for ky in 0..<f {
                                for kx in 0..<f {
                                    let iy = rows.origin(y) + ky * dilation
                                    let ix = columns.origin(x) + kx * dilation
                                    guard iy >= 0, iy < height, ix >= 0, ix < width else { continue }
                                    let term =
                                        Double(input[((b * height + iy) * width + ix) * channels + c])
                                        * Double(filter[(ky * f + kx) * channels + c])
                                    sum += term
                                    scale += abs(term)
                                }
                            }
                            if !within(
                                out[((b * outShape.height + y) * outShape.width + x) * channels + c],
                                min(max(sum, -1.5), 1.5), scale: scale)
                            {
                                failures += 1
                            }
                        }
                    }
                }
            }
            #expect(failures == 0, "\(isa), \(threads) threads, case \(index): \(failures) outputs differ")
            #expect(out[count].isNaN, "\(isa), \(threads) threads, case \(index): wrote past the end")
        }
    }

    /// Each depthwise output is the bias, then one fused multiply-add per tap, window column by
    /// window column (XNNPACK's order), to the bit: on 5×5 windows at stride 1 and 2, whose rows
    /// go in pairs (an odd last row alone; tasks of two rows shared by two or three threads, some
    /// split by channels), and on 3×3.
    @Test(arguments: instructionSets, [1, 2, 3])
    func depthwiseAddsTapsColumnByColumnInXNNPACKsOrder(_ isa: InstructionSet, threads: Int) {
        let h = KernelHarness(threads: threads)
        // (height, width, channels, filter, stride)
        let cases: [(Int, Int, Int, Int, Int)] = [
            (8, 9, 40, 5, 1), (7, 7, 21, 5, 1), (6, 14, 24, 5, 1), (14, 14, 36, 5, 1), (3, 16, 8, 5, 1),
            (14, 10, 16, 5, 2), (5, 13, 33, 5, 2), (9, 7, 20, 5, 2), (9, 13, 37, 3, 1), (12, 11, 24, 3, 2),
        ]
        for (index, (height, width, channels, f, stride)) in cases.enumerated() {
            let rows = WindowAxis(input: height, filter: f, stride: stride, dilation: 1, padding: .same)!
            let columns = WindowAxis(input: width, filter: f, stride: stride, dilation: 1, padding: .same)!
            let outShape = NHWC(batch: 1, height: rows.output, width: columns.output, channels: channels)
            let (input, filter, bias, out) = runDepthwise(
                h, isa, input: NHWC(batch: 1, height: height, width: width, channels: channels), rows: rows,
                columns: columns, filterSize: f, seeds: (UInt64(index + 17), UInt64(index + 170), UInt64(index + 1700)),
                bound: 3)
            var failures = 0
            for y in 0..<outShape.height {
                for x in 0..<outShape.width {
                    for c in 0..<channels {
                        var sum = bias[c]
                        for kx in 0..<f {
                            let ix = columns.origin(x) + kx
                            guard ix >= 0, ix < width else { continue }
                            for ky in 0..<f {
                                let iy = rows.origin(y) + ky
                                let value = iy >= 0 && iy < height ? input[(iy * width + ix) * channels + c] : 0
                                sum.addProduct(value, filter[(ky * f + kx) * channels + c])
                            }
                        }
                        if out[(y * outShape.width + x) * channels + c] != min(max(sum, -3), 3) { failures += 1 }
                    }
                }
            }
            #expect(failures == 0, "\(isa), \(threads) threads, case \(index): \(failures) outputs differ")
        }
    }

    /// A HARD_SWISH fused into a depthwise convolution gives the bits of the convolution followed
    /// by the HARD_SWISH operator, on whole rows and on rows whose channels are split between
    /// three threads (one output row: a task per channel slice).
    @Test(arguments: instructionSets)
    func depthwiseWithFusedHardSwishMatchesTheSeparateOperator(_ isa: InstructionSet) {
        for (height, width, channels) in [(1, 9, 80), (12, 10, 37)] {
            let rows = WindowAxis(input: height, filter: 3, stride: 1, dilation: 1, padding: .same)!
            let columns = WindowAxis(input: width, filter: 3, stride: 1, dilation: 1, padding: .same)!
            let shape = NHWC(batch: 1, height: height, width: width, channels: channels)
            let input = RandomInput.values(seed: 17, count: height * width * channels, low: -4, high: 4)
            let filter = RandomInput.values(seed: 18, count: 9 * channels, low: -1, high: 1)
            let bias = RandomInput.values(seed: 19, count: channels, low: -1, high: 1)
            let count = height * width * channels
            func run(_ clamp: ActivationClamp, threads: Int) -> [Float] {
                let h = KernelHarness(threads: threads)
                let out = h.output(count)
                h.run(
                    DepthwiseConv2DKernel(
                        input: h.buffer(input), output: out, inputShape: shape, outputShape: shape, rows: rows,
                        columns: columns, filter: h.buffer(filter), bias: h.buffer(bias), clamp: clamp,
                        instructionSet: isa))
                return values(out, count)
            }
            let convolved = run(.identity, threads: 1)
            var expected = [Float](repeating: 0, count: count)
            vk_hard_swish(isa.isa, convolved, &expected, count)
            for threads in [1, 3] {
                #expect(
                    run(.hardSwish, threads: threads).map(\.bitPattern) == expected.map(\.bitPattern),
                    "\(isa) \(height)×\(width)×\(channels), \(threads) threads")
            }
        }
    }

    /// Max pooling over channel counts that end in every vector width (16, 8, 4 and single
    /// lanes), with 3 × 3 and 2 × 2 windows inside the input (their own loops) and clipped at its
    /// edges, and a fused clamp; signed zeros in the input, so that the taps' order shows in the
    /// bits on x86 (`maxps`: of two equal values the later tap wins, as in `max`). The portable
    /// and NEON builds' maximum prefers +0 to -0 in any order (as ARM's FMAX), so there the zeros
    /// compare equal.
    @Test(arguments: instructionSets)
    func maxPoolMatchesDirectMaximum(_ isa: InstructionSet) {
        let h = KernelHarness(threads: 2)
        let windows: [(height: Int, width: Int, filter: Int, padding: Padding)] = [
            (7, 9, 3, .same), (8, 10, 2, .valid), (7, 9, 2, .same), (9, 8, 3, .valid),
        ]
        for (index, (channels, window)) in [1, 5, 12, 28, 37, 42].flatMap({ c in windows.map { (c, $0) } })
            .enumerated()
        {
            let (height, width) = (window.height, window.width)
            let axisRows = WindowAxis(
                input: height, filter: window.filter, stride: 2, dilation: 1, padding: window.padding)!
            let axisColumns = WindowAxis(
                input: width, filter: window.filter, stride: 2, dilation: 1, padding: window.padding)!
            let inShape = NHWC(batch: 1, height: height, width: width, channels: channels)
            let outShape = NHWC(batch: 1, height: axisRows.output, width: axisColumns.output, channels: channels)
            var input = RandomInput.values(
                seed: UInt64(index + 7), count: height * width * channels, low: -1, high: 1)
            for i in stride(from: 0, to: input.count, by: 3) { input[i] = i % 2 == 0 ? 0.0 : -0.0 }
            let count = outShape.height * outShape.width * channels
            let out = h.output(count + 1)
            let clamp = ActivationClamp(lower: -0.5, upper: 0.75, function: .none)
            h.run(
                Pool2DKernel(
                    kind: .max, input: h.buffer(input), output: out, inputShape: inShape, outputShape: outShape,
                    rows: axisRows, columns: axisColumns, clamp: clamp, instructionSet: isa))
            let orderShows = isa == .avx512 || isa == .avx2
            var failures = 0
            for y in 0..<outShape.height {
                for x in 0..<outShape.width {
                    for c in 0..<channels {
                        var m = -Float.infinity
                        for ky in axisRows.validTaps(y) {
                            for kx in axisColumns.validTaps(x) {
                                let iy = axisRows.origin(y) + ky
                                let ix = axisColumns.origin(x) + kx
                                m = max(m, input[(iy * width + ix) * channels + c])
                            }
                        }
                        let expected = min(max(m, -0.5), 0.75)
                        let actual = out[(y * outShape.width + x) * channels + c]
                        if orderShows ? actual.bitPattern != expected.bitPattern : actual != expected { failures += 1 }
                    }
                }
            }
            #expect(failures == 0, "\(isa) \(channels) channels, \(window): \(failures) outputs differ")
            #expect(out[count].isNaN, "\(isa) \(channels) channels, \(window): wrote past the end")
        }
    }

    /// Average pooling over channel counts that end in every vector width, windows clipped at
    /// the input's edges (SAME: the average over the taps inside) and whole (VALID, a global
    /// pool of 90 taps, ten passes of nine): within float rounding of the exact mean.
    @Test(arguments: instructionSets)
    func averagePoolMatchesDirectMean(_ isa: InstructionSet) {
        let h = KernelHarness(threads: 2)
        for (index, (channels, filter, stride, padding)) in [
            (5, 3, 2, Padding.same), (28, 3, 2, .same), (37, 2, 1, .valid), (42, 9, 9, .valid), (16, 9, 9, .valid),
        ].enumerated() {
            let (height, width) = filter == 9 ? (9, 10) : (7, 9)
            let axisRows = WindowAxis(input: height, filter: filter, stride: stride, dilation: 1, padding: padding)!
            let axisColumns = WindowAxis(
                input: width, filter: filter == 9 ? 10 : filter, stride: stride, dilation: 1, padding: padding)!
            let inShape = NHWC(batch: 1, height: height, width: width, channels: channels)
            let outShape = NHWC(batch: 1, height: axisRows.output, width: axisColumns.output, channels: channels)
            let input = RandomInput.values(seed: UInt64(index + 70), count: height * width * channels, low: -1, high: 1)
            let count = outShape.height * outShape.width * channels
            let out = h.output(count + 1)
            h.run(
                Pool2DKernel(
                    kind: .average, input: h.buffer(input), output: out, inputShape: inShape, outputShape: outShape,
                    rows: axisRows, columns: axisColumns, clamp: .identity, instructionSet: isa))
            var failures = 0
            for y in 0..<outShape.height {
                for x in 0..<outShape.width {
                    for c in 0..<channels {
                        var sum = 0.0
                        var taps = 0
                        for ky in axisRows.validTaps(y) {
                            for kx in axisColumns.validTaps(x) {
                                let iy = axisRows.origin(y) + ky
                                let ix = axisColumns.origin(x) + kx
                                sum += Double(input[(iy * width + ix) * channels + c])
                                taps += 1
                            }
                        }
                        let actual = Double(out[(y * outShape.width + x) * channels + c])
                        if abs(actual - sum / Double(taps)) > 1e-6 { failures += 1 }
                    }
                }
            }
            #expect(failures == 0, "\(isa) case \(index): \(failures) outputs differ")
            #expect(out[count].isNaN, "\(isa) case \(index): wrote past the end")
        }
    }

    /// Average pooling sums XNNPACK's way, bit for bit: taps column by column, nine per pass as
    /// `((i2+i3)+(i4+i5)) + (((i0+i1)+i8)+(i6+i7))` with zeros past the window, the passes added
    /// in order from zero, times `1 / n` — for windows inside the input (whose full passes take
    /// the unchecked path, passes within and across window columns), windows at its edges, and
    /// whole-image averages large enough to be summed by bands of passes (in parallel with two
    /// threads; with one, the largest); channel counts of one to more than four whole vectors
    /// (read a pass at a time for up to four) and a rest.
    @Test(arguments: instructionSets, [1, 2])
    func averagePoolAddsInXNNPACKsOrder(_ isa: InstructionSet, threads: Int) {
        let h = KernelHarness(threads: threads)
        // (height, width, channels, filter height, filter width, stride, padding)
        let cases: [(Int, Int, Int, Int, Int, Int, Padding)] = [
            (16, 16, 96, 16, 16, 1, .valid), (7, 5, 21, 7, 5, 1, .valid), (40, 3, 16, 40, 3, 1, .valid),
            (9, 11, 24, 3, 3, 2, .valid), (8, 8, 13, 5, 5, 1, .same), (30, 31, 8, 30, 31, 1, .valid),
            (6, 5, 85, 6, 5, 1, .valid), (11, 4, 40, 11, 4, 1, .valid),
            // Large whole-image averages: pass sums by bands of rows, then added in order (70
            // rows: passes run off a column's foot; 10 rows: fewer rows than bands; 130 × 127 × 16
            // large enough to go by passes with one thread too).
            (64, 64, 16, 64, 64, 1, .valid), (70, 33, 29, 70, 33, 1, .valid), (10, 700, 10, 10, 700, 1, .valid),
            (40, 41, 72, 40, 41, 1, .valid), (130, 127, 16, 130, 127, 1, .valid),
        ]
        for (index, (height, width, channels, fh, fw, step, padding)) in cases.enumerated() {
            let rows = WindowAxis(input: height, filter: fh, stride: step, dilation: 1, padding: padding)!
            let columns = WindowAxis(input: width, filter: fw, stride: step, dilation: 1, padding: padding)!
            let inShape = NHWC(batch: 1, height: height, width: width, channels: channels)
            let outShape = NHWC(batch: 1, height: rows.output, width: columns.output, channels: channels)
            let input = RandomInput.fullMantissaValues(
                seed: UInt64(index + 90), count: height * width * channels, low: -1, high: 1)
            let count = outShape.height * outShape.width * channels
            let out = h.output(count)
            h.run(
                Pool2DKernel(
                    kind: .average, input: h.buffer(input), output: out, inputShape: inShape, outputShape: outShape,
                    rows: rows, columns: columns, clamp: .identity, instructionSet: isa))
            var expected: [UInt32] = []
            for y in 0..<outShape.height {
                for x in 0..<outShape.width {
                    for c in 0..<channels {
                        let taps = fh * fw
                        func tap(_ t: Int) -> Float {
                            guard t < taps else { return 0 }
                            let iy = rows.origin(y) + t % fh
                            let ix = columns.origin(x) + t / fh
                            guard iy >= 0, iy < height, ix >= 0, ix < width else { return 0 }
                            return input[(iy * width + ix) * channels + c]
                        }
                        var acc: Float = 0
                        for t0 in stride(from: 0, to: taps, by: 9) {
                            let i = (0..<9).map { tap(t0 + $0) }
                            acc = acc + (((i[2] + i[3]) + (i[4] + i[5])) + (((i[0] + i[1]) + i[8]) + (i[6] + i[7])))
                        }
                        let inside = rows.validTaps(y).count * columns.validTaps(x).count
                        expected.append((acc * (1 / Float(inside))).bitPattern)
                    }
                }
            }
            #expect(values(out, count).map(\.bitPattern) == expected, "\(isa), \(threads) threads, case \(index)")
        }
    }

    /// HARD_SWISH, XNNPACK's way (`x · min(max(x/6 + 1/2, 0), 1)` with a fused multiply-add),
    /// against the definition `x · relu6(x + 3) / 6` on both sides of the bends, in every build.
    @Test(arguments: instructionSets)
    func hardSwishMatchesDefinition(_ isa: InstructionSet) {
        let input = RandomInput.values(seed: 9, count: 1000, low: -5, high: 5) + [-3, 3, 0, -0.5, 7]
        var output = [Float](repeating: .nan, count: input.count)
        vk_hard_swish(isa.isa, input, &output, input.count)
        for (x, y) in zip(input, output) {
            let expected = Double(x) * min(max(Double(x) + 3, 0), 6) / 6
            #expect(abs(Double(y) - expected) <= 1e-6 * max(1, abs(expected)), "\(isa) hard swish of \(x): \(y)")
        }
    }

    /// The residual add of the convolution epilogue: equal widths (one flat run), a narrower
    /// residual (a folded channel PAD), and per-channel slopes, over channel counts that end in
    /// every vector width, to the bit: a -0 channel beyond the residual's becomes +0, as the
    /// padded ADD gives.
    @Test(arguments: instructionSets)
    func residualAddMatchesDirectSum(_ isa: InstructionSet) {
        let h = KernelHarness(threads: 1)
        for (index, (channels, residualChannels, slopes)) in [
            (28, 28, false), (42, 42, false), (28, 24, false), (42, 36, false), (37, 37, true), (13, 9, true),
            (32, 28, false), (96, 88, false), (48, 42, true), (7, 3, false),
        ].enumerated() {
            let pixels = 5
            var a = RandomInput.values(seed: UInt64(index + 1), count: pixels * channels, low: -1, high: 1)
            var b = RandomInput.values(seed: UInt64(index + 20), count: pixels * residualChannels, low: -1, high: 1)
            // Negative zeros on both sides, within and beyond the residual's channels.
            for i in stride(from: 0, to: a.count, by: 5) { a[i] = -0.0 }
            for i in stride(from: 0, to: b.count, by: 7) { b[i] = -0.0 }
            let alpha = RandomInput.values(seed: UInt64(index + 40), count: channels, low: 0, high: 1)
            let out = h.output(pixels * channels + 1)
            let alphaPointer = slopes ? UnsafePointer(h.buffer(alpha)) : nil
            vk_add_pixels(
                isa.isa, h.buffer(a), h.buffer(b), residualChannels, out, pixels, channels, -0.9, 1.2, alphaPointer)
            var failures = 0
            for p in 0..<pixels {
                for c in 0..<channels {
                    var x = a[p * channels + c] + (c < residualChannels ? b[p * residualChannels + c] : 0)
                    x = min(max(x, -0.9), 1.2)
                    if slopes && x < 0 { x *= alpha[c] }
                    if out[p * channels + c].bitPattern != x.bitPattern { failures += 1 }
                }
            }
            #expect(failures == 0, "\(isa) \(channels)/\(residualChannels) channels: \(failures) outputs differ")
            #expect(out[pixels * channels].isNaN, "\(isa) \(channels) channels: wrote past the end")
        }
    }

    /// A channel scale fused into an ADD rounds each product before the sum, as the MUL and the
    /// ADD give it, never as a fused multiply-add: over channel counts of whole vectors (one to
    /// four per pixel on each instruction set) and with scalar tails, with the clamp.
    @Test(arguments: instructionSets)
    func scaledAddRoundsTheProductBeforeTheSum(_ isa: InstructionSet) {
        let h = KernelHarness(threads: 1)
        var distinguishing = 0
        for (index, channels) in [16, 24, 8, 32, 48, 64, 80, 7, 13, 40].enumerated() {
            let pixels = 9
            let a = RandomInput.values(seed: UInt64(index + 3), count: pixels * channels, low: -2, high: 2)
            let b = RandomInput.values(seed: UInt64(index + 30), count: pixels * channels, low: -2, high: 2)
            let scale = RandomInput.values(seed: UInt64(index + 60), count: channels, low: 0, high: 1)
            let out = h.output(pixels * channels + 1)
            vk_scale_add_pixels(isa.isa, h.buffer(a), h.buffer(scale), h.buffer(b), out, pixels, channels, -1.5, 1.5)
            var failures = 0
            for p in 0..<pixels {
                for c in 0..<channels {
                    let i = p * channels + c
                    let product = a[i] * scale[c]
                    let expected = min(max(product + b[i], -1.5), 1.5)
                    if out[i].bitPattern != expected.bitPattern { failures += 1 }
                    if min(max(b[i].addingProduct(a[i], scale[c]), -1.5), 1.5) != expected { distinguishing += 1 }
                }
            }
            #expect(failures == 0, "\(isa) \(channels) channels: \(failures) outputs differ")
            #expect(out[pixels * channels].isNaN, "\(isa) \(channels) channels: wrote past the end")
        }
        // The data tells a fused multiply-add from a rounded product.
        #expect(distinguishing > 0)
    }

    /// The sparse 1×1 convolution sums the non-zero terms of the dense product in the same
    /// order, so it matches the dense kernel to the bit — over partial pixel tiles (whole groups
    /// of 8 pixels and single pixels, input depths that are not multiples of 8), channel counts
    /// that are not multiples of 4, channel groups split between tasks (few pixels, or a tile
    /// count that does not divide between the threads) and input channels in several cache
    /// blocks (k = 300).
    @Test(arguments: instructionSets)
    func sparseConvolutionEqualsDenseProduct(_ isa: InstructionSet) {
        let h = KernelHarness(threads: 2)
        let shapes = [
            (37, 40, 13), (5, 64, 70), (100, 300, 24), (33, 96, 9), (89, 45, 12), (70, 48, 20), (22, 33, 6),
            (84, 40, 10), (196, 36, 12),
        ]
        for (pixels, k, n) in shapes {
            let a = RandomInput.values(seed: UInt64(pixels * 31 + k), count: pixels * k, low: -1, high: 1)
            let dense = RandomInput.values(seed: UInt64(n * 17 + k), count: n * k, low: -1, high: 1)
            let keep = RandomInput.values(seed: UInt64(n + k + 5), count: n * k, low: 0, high: 1)
            let w = zip(dense, keep).map { $0.1 < 0.25 ? $0.0 : 0 }
            let bias = RandomInput.values(seed: UInt64(n), count: n, low: -1, high: 1)
            let clamp = ActivationClamp(.relu6)!
            guard
                let sparse = SparseConvKernel(
                    input: h.buffer(a), output: h.output(pixels * n), pixelCount: pixels,
                    filter: h.buffer(w), bias: h.buffer(bias), n: n, k: k, clamp: clamp,
                    instructionSet: isa)
            else {
                Issue.record("\(isa): 25 % dense weights were not taken as sparse")
                continue
            }
            h.run(sparse)
            let reference = h.output(pixels * n)
            h.run(
                FullyConnectedKernel(
                    input: h.buffer(a), output: reference, rowCount: pixels,
                    weights: PackedWeights(weights: h.buffer(w), bias: h.buffer(bias), n: n, k: k, instructionSet: isa),
                    clamp: clamp))
            #expect(
                values(sparse.output, pixels * n).map(\.bitPattern) == values(reference, pixels * n).map(\.bitPattern),
                "\(isa) pixels \(pixels) k \(k) n \(n)")
            #expect(sparse.output[pixels * n].isNaN, "\(isa) pixels \(pixels) k \(k) n \(n): wrote past the end")
        }
        // Dense weights stay dense.
        let full = RandomInput.values(seed: 1, count: 64 * 40, low: 0.5, high: 1)
        #expect(
            SparseConvKernel(
                input: h.output(40), output: h.output(64), pixelCount: 1, filter: h.buffer(full), bias: nil,
                n: 64, k: 40, clamp: .identity, instructionSet: isa) == nil)
    }

    /// The tiles cover the pixels once, none longer than the kernel's tile, in no more vectors
    /// than the pixels fill; their vector counts within one of each other; with several threads
    /// (and enough vectors) a multiple of the thread count of tiles.
    @Test func sparseTilesSharePixelsEvenlyBetweenThreads() {
        let cases = [
            (196, 56, 8, 2), (784, 56, 8, 2), (49, 56, 8, 2), (196, 32, 16, 2), (49, 32, 16, 2), (3136, 56, 8, 3),
            (100, 16, 8, 1), (60, 56, 8, 2), (9, 56, 8, 2), (196, 56, 8, 1),
        ]
        for (pixels, most, vector, threads) in cases {
            let tiling = SparseConvKernel.Tiling(pixels: pixels, most: most, vector: vector, threads: threads)
            let ranges = (0..<tiling.count).map(tiling.range)
            let vectors = ranges.map { ($0.count + vector - 1) / vector }
            #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == pixels)
            #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
            #expect(ranges.allSatisfy { !$0.isEmpty && $0.count <= most }, "\(pixels) pixels: \(ranges)")
            #expect(vectors.reduce(0, +) == (pixels + vector - 1) / vector && vectors.max()! - vectors.min()! <= 1)
            if threads > 1 && pixels >= 2 * vector * threads {
                #expect(tiling.count % threads == 0, "\(pixels) pixels, \(threads) threads: \(ranges)")
            }
        }
        #expect(SparseConvKernel.Tiling(pixels: 196, most: 56, vector: 8, threads: 2).range(1) == 48..<96)
        #expect(SparseConvKernel.Tiling(pixels: 49, most: 56, vector: 8, threads: 2).range(1) == 24..<49)
        #expect(SparseConvKernel.Tiling(pixels: 49, most: 32, vector: 16, threads: 2).range(1) == 32..<49)
    }

    /// A sparse job's tasks cover every tile's channel groups exactly once, and with several
    /// threads each thread's contiguous share of the tasks holds the same amount of work.
    @Test func sparseSplitCoversEveryTileOnceAndBalancesThreads() {
        for (tiles, threads) in [(7, 2), (2, 2), (1, 2), (5, 3), (25, 2), (9, 4), (3, 1)] {
            let split = SparseConvKernel.Split(tiles: tiles, groups: 48, threads: threads, splittable: true)
            var covered = Array(repeating: [Int](), count: tiles)
            var share = Array(repeating: 0.0, count: threads)
            for task in 0..<split.taskCount {
                let (tile, slice, slices) = split.task(task)
                covered[tile].append(slice * 100 + slices)
                share[task * threads / split.taskCount] += 1 / Double(slices)
            }
            for (tile, pieces) in covered.enumerated() {
                let slices = pieces.first.map { $0 % 100 } ?? 0
                #expect(
                    pieces.sorted() == (0..<slices).map { $0 * 100 + slices },
                    "\(tiles) tiles, \(threads) threads: tile \(tile) got \(pieces)")
            }
            if split.taskCount % threads == 0 {
                #expect(
                    share.allSatisfy { abs($0 - Double(tiles) / Double(threads)) < 1e-9 },
                    "\(tiles) tiles, \(threads) threads: shares \(share)")
            }
        }
        // Without a splittable epilogue, tiles stay whole.
        #expect(SparseConvKernel.Split(tiles: 7, groups: 48, threads: 2, splittable: false).taskCount == 7)
    }

    /// Every build runs the same fused multiply-adds in the same order (the portable one in
    /// software where the CPU lacks them), so they agree to the bit (the property that also
    /// makes results independent of the thread count).
    @Test func fusedBuildsAgreeBitForBit() {
        let fused = SIMDKernelTests.instructionSets
        guard fused.count > 1 else {
            print("skipping: this CPU runs only \(fused.map(\.description)) with fused multiply-add")
            return
        }
        let h = KernelHarness(threads: 1)
        let (m, k, n) = (29, 37, 75)
        let a = RandomInput.values(seed: 3, count: m * k, low: -1, high: 1)
        let w = RandomInput.values(seed: 4, count: n * k, low: -1, high: 1)
        let inShape = NHWC(batch: 1, height: 9, width: 10, channels: 24)
        let rows = WindowAxis(input: 9, filter: 5, stride: 1, dilation: 1, padding: .same)!
        let columns = WindowAxis(input: 10, filter: 5, stride: 1, dilation: 1, padding: .same)!
        let image = RandomInput.values(seed: 5, count: 9 * 10 * 24, low: -1, high: 1)
        let taps = RandomInput.values(seed: 6, count: 25 * 24, low: -1, high: 1)
        var results: [[UInt32]] = []
        for isa in fused {
            let weights = PackedWeights(weights: h.buffer(w), bias: nil, n: n, k: k, instructionSet: isa)
            let product = h.output(m * n)
            h.run(
                FullyConnectedKernel(
                    input: h.buffer(a), output: product, rowCount: m, weights: weights, clamp: .identity))
            let depthwise = h.output(9 * 10 * 24)
            h.run(
                DepthwiseConv2DKernel(
                    input: h.buffer(image), output: depthwise, inputShape: inShape, outputShape: inShape,
                    rows: rows, columns: columns, filter: h.buffer(taps), bias: nil, clamp: .identity,
                    instructionSet: isa))
            results.append((values(product, m * n) + values(depthwise, 9 * 10 * 24)).map(\.bitPattern))
        }
        for (isa, result) in zip(fused.dropFirst(), results.dropFirst()) {
            #expect(result == results[0], "\(isa) differs from \(fused[0])")
        }
    }

    /// `vk_layer_norm` against the ten operations written out one by one (MEAN's `vk_row_sums`,
    /// `vk_rsqrt`, single multiplications and additions), bit for bit, on channel counts with
    /// vector tails and a partial last 16-value block.
    @Test(arguments: instructionSets)
    func layerNormMatchesItsOperatorsOneByOne(_ isa: InstructionSet) {
        for channels in [64, 37, 70, 5] {
            let pixels = 11
            let x = RandomInput.fullMantissaValues(seed: UInt64(channels), count: pixels * channels, low: -3, high: 5)
            let gamma = RandomInput.values(seed: UInt64(channels + 1), count: channels, low: -2, high: 2)
            let epsilon: Float = 1e-6
            var y = [Float](repeating: .nan, count: pixels * channels)
            var scratch = [Float](repeating: 0, count: 3 * pixels)
            // Two calls over parts of the pixels, as two tasks would make them.
            for part in [0..<4, 4..<pixels] {
                vk_layer_norm(isa.isa, x, &y, part.lowerBound, part.upperBound, channels, epsilon, gamma, &scratch)
            }
            var expected: [Float] = []
            for p in 0..<pixels {
                let row = Array(x[(p * channels)..<((p + 1) * channels)])
                var m: Float = 0
                vk_row_sums(isa.isa, row, 1, channels, 1 / Float(channels), &m)
                let squares = row.map { ($0 - m) * ($0 - m) }
                var v: Float = 0
                vk_row_sums(isa.isa, squares, 1, channels, 1 / Float(channels), &v)
                var shifted = v + epsilon
                var r: Float = 0
                vk_rsqrt(isa.isa, &shifted, &r, 1)
                let negated = 0 - m
                for c in 0..<channels {
                    let s = r * gamma[c]
                    let product = row[c] * s
                    let offset = negated * s
                    expected.append(product + offset)
                }
            }
            #expect(y.map(\.bitPattern) == expected.map(\.bitPattern), "\(isa) channels \(channels)")
        }
    }

    /// `LayerNormKernel` over more pixels than one task takes, on two threads with per-thread
    /// scratch: the bits of one `vk_layer_norm` call over all the pixels.
    @Test func layerNormKernelTasksGiveTheBitsOfOneCall() {
        let (pixels, channels) = (3 * LayerNormKernel.pixelsPerTask + 5, 24)
        let x = RandomInput.values(seed: 31, count: pixels * channels, low: -2, high: 3)
        let gamma = RandomInput.values(seed: 32, count: channels, low: -1, high: 1)
        var expected = [Float](repeating: 0, count: pixels * channels)
        var scratch = [Float](repeating: 0, count: 3 * pixels)
        vk_layer_norm(InstructionSet.best.isa, x, &expected, 0, pixels, channels, 1e-5, gamma, &scratch)
        let h = KernelHarness(threads: 2)
        let out = h.output(pixels * channels)
        h.run(
            LayerNormKernel(
                input: h.buffer(x), output: out, pixels: pixels, channels: channels, epsilon: 1e-5,
                gamma: h.buffer(gamma), instructionSet: .best))
        #expect(values(out, pixels * channels).map(\.bitPattern) == expected.map(\.bitPattern))
    }
}
