import CVisionKernels
import ModelFile
import TestSupport
import Testing

@testable import Inference

/// `vk_gemm_run_skipping_zeros`, which leaves out the steps at which every row of a tile reads
/// ±0 (the 1×1 convolutions after a RELU), against `vk_gemm_run` on every build this CPU runs.
@Suite struct ZeroStepSkippingTests {
    static let instructionSets = InstructionSet.all.filter(\.isSupported)

    /// `m` rows of `k` inputs in which, per tile of `tileRows` rows, about a third of the columns
    /// are ±0 in every row and another third in one half of the tile or the other (steps that
    /// only some rows leave out); a few lone zeros, denormals and one NaN elsewhere. With
    /// `mixed`, every third tile has no zero column (it runs dense, and where the last panel is 8
    /// wide it may pair with the next) and every third one has them only after its first 64
    /// columns (the kernel's sample of a tile's steps sees none).
    private func zeroColumnInput(m: Int, k: Int, tileRows: Int, seed: UInt64, mixed: Bool = false) -> [Float] {
        var a = RandomInput.fullMantissaValues(seed: seed, count: m * k, low: -1, high: 1)
        let picks = RandomInput.values(seed: seed + 1, count: m * k, low: 0, high: 1)
        let half = tileRows / 2
        for tile in stride(from: 0, to: m, by: tileRows) {
            let kind = mixed ? tile / tileRows % 3 : 2
            if kind == 0 { continue }
            for column in (kind == 1 ? Swift.min(64, k) : 0)..<k {
                let rows: Range<Int>
                switch picks[tile * k + column] {
                case ..<(1 / 3): rows = tile..<(tile + tileRows)
                case ..<(1 / 2): rows = tile..<(tile + half)
                case ..<(2 / 3): rows = (tile + half)..<(tile + tileRows)
                default: continue
                }
                for row in rows.clamped(to: 0..<m) {
                    a[row * k + column] = row % 3 == 0 ? -0.0 : 0
                }
            }
        }
        for i in stride(from: 7, to: m * k, by: 13) { a[i] = 0 }
        for i in stride(from: 11, to: m * k, by: 29) { a[i] = Float.leastNonzeroMagnitude * Float(i % 5 + 1) }
        if m * k > 40 { a[40] = .nan }
        return a
    }

    /// `vk_gemm_run_skipping_zeros` over all `m` rows and panels, unclamped.
    private func skippedProduct(
        _ h: KernelHarness, _ weights: PackedWeights, _ a: [Float], m: Int
    ) -> UnsafeMutablePointer<Float> {
        let (k, n) = (weights.shape.k, weights.shape.n)
        let skipped = h.output(m * n)
        vk_gemm_run_skipping_zeros(
            weights.shape, weights.data.floats, h.buffer(a), k, skipped, n, 0, m, 0, weights.panelCount, -.infinity,
            .infinity)
        return skipped
    }

    /// The first output in `range` that is not -0.
    private func firstOutputNotNegativeZero(_ c: UnsafeMutablePointer<Float>, _ range: Range<Int>) -> Int? {
        range.first { c[$0].sign != .minus || c[$0] != 0 }
    }

    @Test(arguments: instructionSets)
    func skippingZeroStepsGivesTheFullProductsBits(_ isa: InstructionSet) {
        let h = KernelHarness()
        let tileRows = vk_gemm_tile_rows(isa.isa)
        // Every panel width (8, 16, 24, 32 and their mixes), k below, at and above a vector's
        // lanes and not a multiple of them, partial last tiles; k = 5000 exceeds the step list
        // (VK_SKIP_MAX_K) and runs whole.
        let shapes = [
            (8, 3, 8), (16, 37, 16), (20, 144, 24), (33, 200, 40), (49, 1152, 192), (24, 480, 80), (13, 16, 70),
            (64, 96, 112), (9, 5000, 32), (64, 384, 97), (40, 100, 40), (48, 256, 64), (13, 70, 8),
        ]
        for mixed in [false, true] {
            for (m, k, n) in shapes {
                let a = zeroColumnInput(m: m, k: k, tileRows: tileRows, seed: UInt64(m * 100 + k), mixed: mixed)
                let w = RandomInput.fullMantissaValues(seed: UInt64(n * 3 + k), count: n * k, low: -1, high: 1)
                let bias = RandomInput.values(seed: UInt64(n), count: n, low: -1, high: 1)
                let weights = PackedWeights(
                    weights: h.buffer(w), bias: h.buffer(bias), n: n, k: k, instructionSet: isa, skippingZeroSteps: true
                )
                #expect(weights.skipsZeroSteps)
                let full = h.output(m * n)
                let skipped = h.output(m * n)
                let panels = weights.panelCount
                vk_gemm_run(weights.shape, weights.data.floats, h.buffer(a), k, full, n, 0, m, 0, panels, -6, 6)
                vk_gemm_run_skipping_zeros(
                    weights.shape, weights.data.floats, h.buffer(a), k, skipped, n, 0, m, 0, panels, -6, 6)
                var differences = 0
                for i in 0..<(m * n) where full[i].bitPattern != skipped[i].bitPattern { differences += 1 }
                #expect(differences == 0, "\(isa) m \(m) k \(k) n \(n) mixed \(mixed): \(differences) outputs differ")
                #expect(skipped[m * n].isNaN, "\(isa) m \(m) k \(k) n \(n): wrote past the end")
            }
        }
    }

    /// A partial last tile (1 to tileRows − 1 rows after a whole one) leaves out its own zero
    /// steps too: over inputs that are all zero and a bias of -0, its sums stay -0 where the full
    /// product's end at +0.
    @Test(arguments: instructionSets)
    func partialTilesLeaveOutTheirZeroStepsToo(_ isa: InstructionSet) {
        let h = KernelHarness()
        let tileRows = vk_gemm_tile_rows(isa.isa)
        let (k, n) = (20, 40)
        let w = [Float](repeating: 0.25, count: n * k)
        let weights = PackedWeights(
            weights: h.buffer(w), bias: h.buffer([Float](repeating: -0.0, count: n)), n: n, k: k, instructionSet: isa)
        for m in (tileRows + 1)..<(2 * tileRows) {
            // The whole tile reads 0.5 in its first row at step 3; the partial tile only zeros.
            var a = [Float](repeating: 0, count: m * k)
            a[3] = 0.5
            let skipped = skippedProduct(h, weights, a, m: m)
            #expect(skipped[0] == 0.125)
            if let i = firstOutputNotNegativeZero(skipped, (tileRows * n)..<(m * n)) {
                Issue.record("\(isa) m \(m): output \(i) is \(skipped[i]), not -0: the partial tile ran every step")
            }
            #expect(skipped[m * n].isNaN, "\(isa) m \(m): wrote past the end")
        }
    }

    /// Where the last panel is 8 wide, two whole tiles that both run dense go as one call of
    /// twice the rows; a dense tile followed by one that leaves steps out must not: over a bias
    /// of -0, the second tile's all-zero rows stay -0 only if its steps were left out. (k above
    /// the 64 steps the kernel samples, so that a tile runs dense without a list.)
    @Test(arguments: instructionSets)
    func aDenseTileDoesNotPairWithOneThatLeavesStepsOut(_ isa: InstructionSet) {
        let h = KernelHarness()
        let tileRows = vk_gemm_tile_rows(isa.isa)
        let (m, k) = (3 * tileRows, 100)
        let w = [Float](repeating: 0.25, count: 40 * k)
        // 40 columns: panels of 32 and 8 (AVX-512), 16, 16 and 8 (AVX2, NEON).
        for n in [40, 8] {
            let weights = PackedWeights(
                weights: h.buffer(w), bias: h.buffer([Float](repeating: -0.0, count: n)), n: n, k: k,
                instructionSet: isa)
            // Tile 0 reads 0.5 in its first row at every step; tiles 1 and 2 read only zeros.
            var a = [Float](repeating: 0, count: m * k)
            for j in 0..<k { a[j] = 0.5 }
            let skipped = skippedProduct(h, weights, a, m: m)
            #expect(skipped[0] == 12.5)
            if let i = firstOutputNotNegativeZero(skipped, (tileRows * n)..<(m * n)) {
                Issue.record("\(isa) n \(n): output \(i) is \(skipped[i]), not -0: a tile of zeros ran every step")
            }
            #expect(skipped[m * n].isNaN, "\(isa) n \(n): wrote past the end")
        }
    }

    /// A bias of -0 over a tile whose inputs are all zero: the full product adds +0 products and
    /// ends at +0, the skipping one keeps the -0. So the kernel does leave steps out, and
    /// ``PackedWeights`` must not let it for such a bias, nor for weights that are not finite.
    @Test(arguments: instructionSets)
    func packedWeightsSkipOnlyWhereTheBitsStayTheSame(_ isa: InstructionSet) {
        let h = KernelHarness()
        let (m, k, n) = (2 * vk_gemm_tile_rows(isa.isa), 20, 16)
        // The first tile reads 0.5 in its first row, column 3; the second tile only zeros.
        var a = [Float](repeating: 0, count: m * k)
        a[3] = 0.5
        let w = [Float](repeating: 0.25, count: n * k)
        let bias = [Float](repeating: -0.0, count: n)
        let weights = PackedWeights(
            weights: h.buffer(w), bias: h.buffer(bias), n: n, k: k, instructionSet: isa, skippingZeroSteps: true)
        #expect(!weights.skipsZeroSteps)
        let skipped = h.output(m * n)
        vk_gemm_run_skipping_zeros(
            weights.shape, weights.data.floats, h.buffer(a), k, skipped, n, 0, m, 0, weights.panelCount, -.infinity,
            .infinity)
        // Row 0 reads 0.5 once: -0 + 0.5·0.25. Its tile's other rows add +0 at step 3 (listed for
        // row 0) and end at +0. The second tile's rows read only zeros: every sum of the full
        // product is -0 + (+0) = +0, and the skipping kernel, left with no step, keeps -0.
        let last = (m - 1) * n
        #expect(skipped[0] == 0.125)
        #expect(skipped[n].sign == .plus && skipped[n] == 0)
        #expect(skipped[last].sign == .minus && skipped[last] == 0, "\(isa): no step was left out")
        let full = h.output(m * n)
        weights.run(
            a: h.buffer(a), aStride: k, c: full, cStride: n, rows: 0..<m, panels: 0..<weights.panelCount,
            clamp: .identity)
        #expect(full[last].sign == .plus && full[last] == 0)

        let positiveBias = [Float](repeating: 0, count: n)
        for bad in [Float.infinity, -.infinity, .nan] {
            var w = w
            w[5] = bad
            let weights = PackedWeights(
                weights: h.buffer(w), bias: h.buffer(positiveBias), n: n, k: k, instructionSet: isa,
                skippingZeroSteps: true)
            #expect(!weights.skipsZeroSteps, "\(isa): skips with a weight \(bad)")
        }
        let fine = PackedWeights(
            weights: h.buffer(w), bias: nil, n: n, k: k, instructionSet: isa, skippingZeroSteps: true)
        #expect(fine.skipsZeroSteps)
    }

    /// The packed weights of `kernel`'s 1×1 product (a CONV_2D's own, or the 1×1 stage after a
    /// fused depthwise one) when that product leaves out zero steps.
    private func skippingWeights(of kernel: Kernel) -> PackedWeights? {
        let weights: PackedWeights
        if let conv = kernel as? Conv2DKernel {
            weights = conv.weights
        } else if let stages = kernel as? DepthwisePointwiseKernel, case .dense(let dense) = stages.pointwise.weights {
            weights = dense
        } else {
            return nil
        }
        return weights.skipsZeroSteps ? weights : nil
    }

    /// In the hand landmark model, the products that skip are the 1×1 convolutions that read a
    /// RELU's output and have 64 or more output channels — the projections of the blocks from
    /// 14 × 14 on, all fused after their depthwise stage (10; the 672- and 1152-channel ones
    /// with bands of up to twice the usual bytes, to reach enough pixels) — and no expansion
    /// (whose input is a residual sum).
    @Test func skipsZeroStepsInTheWideProductsAfterReLUsOfTheHandLandmarkModel() throws {
        guard let model = try sharedModel("hand_landmarker.task", member: "hand_landmarks_detector.tflite") else {
            return
        }
        let interpreter = try Interpreter(model: model, options: InterpreterOptions(threadCount: 1))
        var standalone = 0
        var fused = 0
        for kernel in interpreter.kernels {
            guard let weights = skippingWeights(of: kernel) else { continue }
            if let stages = kernel as? DepthwisePointwiseKernel {
                #expect(stages.depthwise.clamp.lower == 0)
                fused += 1
            } else {
                #expect(weights.n >= EngineTuning.standard.skippingColumns)
                standalone += 1
            }
        }
        #expect(standalone == 0)
        #expect(fused == 10)
    }

    /// `skipping-columns` (``EngineTuning/skippingColumns``) at 16 lets the hand landmark model's
    /// narrower projections (16 to 40 channels, at 112 × 112 to 28 × 28) skip too: more products
    /// skip, and the outputs keep their bits.
    @Test func aLowerColumnThresholdSkipsInMoreProductsWithTheSameBits() throws {
        guard let model = try sharedModel("hand_landmarker.task", member: "hand_landmarks_detector.tflite") else {
            return
        }
        var narrow = EngineTuning.standard
        let accepted = narrow.set("skipping-columns", to: 16)
        #expect(accepted)
        let input = RandomInput.values(seed: 5, count: 224 * 224 * 3, low: 0, high: 1)
        var results: [(skipping: Int, bits: [[UInt32]])] = []
        for tuning in [EngineTuning.standard, narrow] {
            let options = InterpreterOptions(threadCount: 1)
            options.tuning = tuning
            let interpreter = try Interpreter(model: model, options: options)
            let skipping = interpreter.kernels.filter { skippingWeights(of: $0) != nil }
            try interpreter.copyInput(0, from: input)
            try interpreter.invoke()
            let bits = try (0..<interpreter.outputCount).map { try interpreter.output($0).map(\.bitPattern) }
            results.append((skipping.count, bits))
        }
        #expect(results[0].skipping == 10)
        #expect(results[1].skipping > results[0].skipping)
        #expect(results[1].bits == results[0].bits)
    }
}
