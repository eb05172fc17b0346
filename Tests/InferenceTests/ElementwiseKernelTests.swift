import CVisionKernels
import ModelFile
import Testing

@testable import Inference

@Suite struct ElementwiseKernelTests {
    private func binary(
        _ op: BinaryKernel.Operation, _ a: [Float], _ sa: [Int], _ b: [Float], _ sb: [Int],
        clamp: ActivationClamp = .identity, threads: Int = 1
    ) -> ([Int], [Float]) {
        let h = KernelHarness(threads: threads)
        let shape = BroadcastShape(sa, sb)!
        let count = shape.outputShape.reduce(1, *)
        let out = h.output(count)
        h.run(BinaryKernel(operation: op, a: h.buffer(a), b: h.buffer(b), output: out, shape: shape, clamp: clamp))
        return (shape.outputShape, values(out, count))
    }

    @Test func broadcastingFollowsNumPyRules() {
        #expect(BroadcastShape([2, 3], [4]) == nil)
        // [2,1,3] + [4,1] → [2,4,3]: out[i][j][k] = a[i][0][k] + b[j][0]
        let a: [Float] = [1, 2, 3, 4, 5, 6]
        let b: [Float] = [10, 20, 30, 40]
        let (shape, out) = binary(.add, a, [2, 1, 3], b, [4, 1])
        #expect(shape == [2, 4, 3])
        var expected: [Float] = []
        for i in 0..<2 { for j in 0..<4 { for k in 0..<3 { expected.append(a[i * 3 + k] + b[j]) } } }
        #expect(out == expected)
    }

    @Test func scalarAndLastDimensionBroadcastVectoriseCorrectly() {
        let a = (0..<37).map(Float.init)
        #expect(binary(.mul, a, [37], [2], [1]).1 == a.map { $0 * 2 })
        #expect(binary(.sub, [100], [], a, [37]).1 == a.map { 100 - $0 })
        let row = (0..<19).map { Float($0) / 2 }
        let (shape, out) = binary(.add, Array(repeating: 1, count: 3 * 19), [3, 19], row, [19], threads: 2)
        #expect(shape == [3, 19])
        #expect(out == (0..<57).map { 1 + row[$0 % 19] })
    }

    @Test func channelScalesMultiplyEveryPixelWhicheverOperandHoldsThem() {
        // 5 × 3 pixels of 29 channels (16 + 8 + 4 + 1 lanes) times one scale per channel, as a
        // squeeze-and-excitation gate; the scales first or second, on one and two threads.
        let channels = 29
        let pixels = (0..<(15 * channels)).map { Float($0 % 23) - 11.5 }
        let scales = (0..<channels).map { Float($0) / 8 - 1 }
        let expected = pixels.indices.map { pixels[$0] * scales[$0 % channels] }
        for threads in [1, 2] {
            let first = binary(.mul, pixels, [1, 5, 3, channels], scales, [1, 1, 1, channels], threads: threads)
            #expect(first.0 == [1, 5, 3, channels])
            #expect(first.1 == expected)
            let second = binary(.mul, scales, [channels], pixels, [5, 3, channels], threads: threads)
            #expect(second.1 == expected)
        }
        let relu6 = binary(.mul, pixels, [15, channels], scales, [channels], clamp: ActivationClamp(.relu6)!)
        #expect(relu6.1 == expected.map { min(max($0, 0), 6) })
    }

    /// Every operation, broadcast and activation as defined, -0 and NaN included, in every build:
    /// the operation rounded once, then `v < lo ? lo : v` and `> hi ? hi : ...` — XNNPACK's
    /// `max(min, v)` then `min(max, v)` with the bound first, so a -0 stays -0 under RELU and a NaN
    /// passes; TANH over the unclamped result. Shapes that merge to two dimensions run a block of
    /// rows per call, the three-dimensional one a row per call.
    @Test(arguments: SIMDKernelTests.instructionSets)
    func everyOperationComputesAsDefined(_ isa: InstructionSet) {
        let operations: [(BinaryKernel.Operation, (Float, Float) -> Float)] = [
            (.add, { $0 + $1 }), (.sub, { $0 - $1 }), (.mul, { $0 * $1 }), (.div, { $0 / $1 }),
            (.maximum, { $0 > $1 ? $0 : $1 }), (.minimum, { $0 < $1 ? $0 : $1 }),
            (.prelu, { $0 >= 0 ? $0 : $0 * $1 }), (.squaredDifference, { ($0 - $1) * ($0 - $1) }),
        ]
        let clamps = [
            ActivationClamp.identity, ActivationClamp(.relu)!, ActivationClamp(.relu6)!, ActivationClamp(.tanh)!,
        ]
        // [rows, columns] against [columns], [rows, 1] and [rows, columns], and [rows, 3, 9]
        // against [rows, 1, 9]; 27 columns cover every vector width and a scalar tail.
        let (rows, columns) = (5, 27)
        let special: [Float] = [0, -0.0, .nan, .infinity, -.infinity, 0x1p-133]
        func data(_ count: Int, _ seed: UInt64) -> [Float] {
            RandomInput.values(seed: seed, count: count, low: -3, high: 3).enumerated().map {
                $0.offset % 7 == 3 ? special[$0.offset % special.count] : $0.element
            }
        }
        let a = data(rows * columns, 1)
        let cases: [(shapeA: [Int], second: [Float], shapeB: [Int], operand: (Int) -> Int)] = [
            ([rows, columns], data(columns, 2), [columns], { $0 % columns }),
            ([rows, columns], data(rows, 3), [rows, 1], { $0 / columns }),
            ([rows, columns], data(rows * columns, 4), [rows, columns], { $0 }),
            ([rows, 3, 9], data(rows * 9, 5), [rows, 1, 9], { $0 / columns * 9 + $0 % 9 }),
        ]
        for (shapeA, second, shapeB, operand) in cases {
            let shape = BroadcastShape(shapeA, shapeB)!
            for (operation, definition) in operations {
                for clamp in clamps {
                    let h = KernelHarness(threads: 2)
                    let out = h.output(rows * columns)
                    h.run(
                        BinaryKernel(
                            operation: operation, a: h.buffer(a), b: h.buffer(second), output: out, shape: shape,
                            clamp: clamp, instructionSet: isa))
                    let expected = (0..<(rows * columns)).map { index -> Float in
                        let v = definition(a[index], second[operand(index)])
                        if clamp.hasFunction { return clamp.apply(v) }
                        let low = v < clamp.lower ? clamp.lower : v
                        return low > clamp.upper ? clamp.upper : low
                    }
                    let got = values(out, rows * columns)
                    let mismatches = zip(got, expected).filter {
                        $0.isNaN != $1.isNaN || (!$0.isNaN && $0.bitPattern != $1.bitPattern)
                    }
                    #expect(mismatches.isEmpty, "\(isa) \(operation) \(shapeB) \(clamp): \(mismatches)")
                }
            }
        }
    }

    @Test func fusedActivationAppliesToTheSum() {
        let a: [Float] = [-5, -1, 0, 2, 5, 9, 1, 3, 4]
        let b: [Float] = [1, 1, 1, 1, 1, 1, 1, 1, 1]
        #expect(binary(.add, a, [9], b, [9], clamp: ActivationClamp(.relu6)!).1 == [0, 0, 1, 3, 6, 6, 2, 4, 5])
        #expect(binary(.add, a, [9], b, [9], clamp: ActivationClamp(.reluN1To1)!).1 == [-1, 0, 1, 1, 1, 1, 1, 1, 1])
    }

    @Test func divMaximumMinimum() {
        #expect(binary(.div, [1, 4, -9], [3], [2], [1]).1 == [0.5, 2, -4.5])
        #expect(binary(.maximum, [1, 4, -9], [3], [2, 2, 2], [3]).1 == [2, 4, 2])
        #expect(binary(.minimum, [1, 4, -9], [3], [2, 2, 2], [3]).1 == [1, 2, -9])
    }

    @Test func preluScalesOnlyNegativeValuesPerChannel() {
        // [1, 2, 2, 3] input, alpha [1, 1, 3].
        let x: [Float] = [-1, 2, -3, 4, -5, 6, -7, 8, -9, 10, -11, 12]
        let (_, out) = binary(.prelu, x, [1, 2, 2, 3], [0.5, 0.25, 2], [1, 1, 3])
        #expect(out == [-0.5, 2, -6, 4, -1.25, 6, -3.5, 8, -18, 10, -2.75, 12])
    }

    /// `vk_sigmoid` over whole vectors gives what it gives one element at a time (the scalar
    /// path), bit for bit: ordinary values, the ±87 edge where 2^n leaves the normal range,
    /// huge values (0, 1 or NaN), infinities, NaN, zeros and subnormals, in every build.
    @Test(arguments: SIMDKernelTests.instructionSets)
    func sigmoidVectorsMatchTheScalarPathBitForBit(_ isa: InstructionSet) {
        var values = RandomInput.values(seed: 7, count: 4096, low: -30, high: 30)
        values += (0..<4096).map { -87.6 + Float($0) * 0.0002 }
        values += (0..<4096).map { Float(bitPattern: UInt32(truncatingIfNeeded: $0 &* 2_654_435_761)) }
        values += [0, -0.0, .infinity, -.infinity, .nan, 0x1p-133, -0x1p-133, 88.7, -88.7, 3e38, -3e38, -104]
        let vectors = [Float](unsafeUninitializedCapacity: values.count) { buffer, count in
            vk_sigmoid(isa.isa, values, buffer.baseAddress, values.count)
            count = values.count
        }
        var mismatches = 0
        for (index, value) in values.enumerated() {
            var one: Float = 0
            var input = value
            vk_sigmoid(isa.isa, &input, &one, 1)
            let same = one.isNaN ? vectors[index].isNaN : one.bitPattern == vectors[index].bitPattern
            if !same { mismatches += 1 }
        }
        #expect(mismatches == 0, "\(isa): \(mismatches) of \(values.count)")
    }

    @Test func unaryActivations() {
        let h = KernelHarness()
        let x: [Float] = [-4, -1, 0, 0.5, 3, 8]
        func run(_ op: UnaryKernel.Operation) -> [Float] {
            let out = h.output(6)
            h.run(UnaryKernel(operation: op, input: h.buffer(x), output: out, count: 6))
            return values(out, 6)
        }
        // XNNPACK's approximation: within 2 ulp of the C library's formula, exactly 0.5 at 0.
        for (value, exact) in zip(run(.logistic), x.map { 1 / (1 + Float.expValue(-$0)) }) {
            #expect(abs(value - exact) <= 2 * exact.ulp, "logistic \(value) vs \(exact)")
        }
        #expect(run(.logistic)[2] == 0.5)
        // XNNPACK's x · min(max(x · ⅙ + ½, 0), 1), ⅙ rounded to float and one fused
        // multiply-add: -4 gives -0 (-4 · 0), -1 gives -1 · fma(-1, ⅙, ½), not -2 / 6.
        func xnnpackHardSwish(_ x: Float) -> Float {
            min(max(Float(0.5).addingProduct(x, 0x1.555556p-3), 0), 1) * x
        }
        let hardSwish = x.map(xnnpackHardSwish)
        #expect(hardSwish[0].sign == .minus && hardSwish[0] == 0 && hardSwish[4] == 3 && hardSwish[5] == 8)
        #expect(run(.hardSwish).map(\.bitPattern) == hardSwish.map(\.bitPattern))
        let leaky: [Float] = [Float(-4) * 0.1, Float(-1) * 0.1, 0, 0.5, 3, 8]
        #expect(run(.leakyRelu(alpha: 0.1)) == leaky)
        #expect(run(.clamp(ActivationClamp(lower: 0, upper: 6, function: .none))) == [0, 0, 0, 0.5, 3, 6])
    }

    /// A HARD_SWISH fused into a convolution computes the separate operator's bits, one value,
    /// eight lanes or a whole buffer at a time, with every instruction set.
    @Test func fusedHardSwishGivesTheOperatorsBits() {
        let h = KernelHarness()
        let subnormal = Float.leastNormalMagnitude / 4
        let special: [Float] = [-0.0, 0, -3, 3, -2.9999998, subnormal, -subnormal, .infinity, -.infinity, 1e30, -1e30]
        let x = special + RandomInput.values(seed: 5, count: 1000, low: -8, high: 8)
        let out = h.output(x.count)
        h.run(UnaryKernel(operation: .hardSwish, input: h.buffer(x), output: out, count: x.count))
        let expected = values(out, x.count).map(\.bitPattern)
        let fused = ActivationClamp.hardSwish
        #expect(fused.hasFunction && !fused.isIdentity)
        #expect(x.map { fused.apply($0).bitPattern } == expected)
        var lanes: [Float] = []
        for start in stride(from: 0, to: x.count - 7, by: 8) {
            let v = fused.apply(SIMD8<Float>(x[start..<(start + 8)]))
            lanes += (0..<8).map { v[$0] }
        }
        #expect(lanes.map(\.bitPattern) == Array(expected.prefix(lanes.count)))
        for isa in InstructionSet.all.filter(\.isSupported) {
            var buffer = x
            buffer.withUnsafeMutableBufferPointer {
                fused.apply(to: $0.baseAddress!, count: $0.count, instructionSet: isa)
            }
            #expect(buffer.map(\.bitPattern) == expected, "\(isa)")
        }
    }

    @Test func logisticSaturatesAndIsSymmetric() {
        let h = KernelHarness()
        // Beyond about -87.3 the result would be subnormal: XNNPACK flushes it to 0 (and 1 - 0
        // for positive inputs); far-out inputs saturate the same way.
        let x: [Float] = [-0.75, -20, -87.4, -100, -3e38, 0.75, 20, 87.4, 100, 3e38]
        let out = h.output(x.count)
        h.run(UnaryKernel(operation: .logistic, input: h.buffer(x), output: out, count: x.count))
        let y = values(out, x.count)
        #expect(y[2] == 0 && y[3] == 0 && y[4] == 0)
        #expect(y[7] == 1 && y[8] == 1 && y[9] == 1)
        // σ(x) = 1 - σ(-x), exactly, for x ≥ 0.
        for i in 0..<5 { #expect(y[5 + i] == 1 - y[i]) }
        #expect(y[1] > 0 && y[1] < 1e-8)
    }

    @Test func halfFloatsWidenExactly() {
        #expect(Float(halfBits: 0x3C00) == 1)
        #expect(Float(halfBits: 0xC000) == -2)
        #expect(Float(halfBits: 0x7BFF) == 65504)
        #expect(Float(halfBits: 0x0001) == Float(sign: .plus, exponent: -24, significand: 1))
        #expect(Float(halfBits: 0x7C00) == .infinity)
        #expect(Float(halfBits: 0x7E00).isNaN)
        #expect(Float(halfBits: 0x8000).sign == .minus)
    }

    /// The layer-norm operators of the face blendshapes model, as XNNPACK computes them:
    /// SQUARED_DIFFERENCE as `(a − b)²`, NEG as `0 − x` (so +0 stays +0), SQRT and RSQRT from the
    /// instruction set's estimate plus one Newton-Raphson step (within 1e-6 of the exact values).
    @Test func squaredDifferenceNegateAndRoots() {
        let (shape, squares) = binary(.squaredDifference, [1, -2, 3, 0.5, 4, 5], [1, 2, 3], [0.5, 1], [2, 1])
        #expect(shape == [1, 2, 3] && squares == [0.25, 6.25, 6.25, 0.25, 9, 16])
        let h = KernelHarness()
        let x: [Float] = [0, -0.0, 2, 0.25, 1e-6, 3e6]
        func run(_ op: UnaryKernel.Operation, isa: InstructionSet = .best) -> [Float] {
            let out = h.output(x.count)
            h.run(UnaryKernel(operation: op, input: h.buffer(x), output: out, count: x.count, instructionSet: isa))
            return values(out, x.count)
        }
        let negated = run(.negate)
        #expect(negated[0].bitPattern == Float(0).bitPattern && negated[1].bitPattern == Float(0).bitPattern)
        #expect(negated[2] == -2 && negated[5] == -3e6)
        for isa in InstructionSet.all where isa.isSupported {
            let roots = run(.squareRoot, isa: isa)
            let reciprocals = run(.reciprocalSquareRoot, isa: isa)
            #expect(roots[0] == 0 && roots[1] == 0, "\(isa): the square root of zero is 0")
            for (value, (root, reciprocal)) in zip(x, zip(roots, reciprocals)) where value > 0 {
                let exact = Double(value).squareRoot()
                #expect(abs(Double(root) - exact) <= 1e-6 * exact, "\(isa) sqrt(\(value)) = \(root)")
                #expect(abs(Double(reciprocal) - 1 / exact) <= 1e-6 / exact, "\(isa) rsqrt(\(value)) = \(reciprocal)")
            }
        }
    }

    /// XNNPACK's f32-rsum order for a row of any length, written out: two 16-lane accumulators
    /// from +0 over 32 values a step, a 16-value block and the zero-padded tail into the first,
    /// then the two added and the lanes folded in halves.
    private func xnnpackRowSum(_ x: [Float]) -> Float {
        var first = [Float](repeating: 0, count: 16)
        var second = first
        var i = 0
        while i + 32 <= x.count {
            for l in 0..<16 {
                first[l] += x[i + l]
                second[l] += x[i + 16 + l]
            }
            i += 32
        }
        while i < x.count {
            for l in 0..<16 { first[l] += i + l < x.count ? x[i + l] : 0 }
            i += 16
        }
        let lanes = (0..<16).map { first[$0] + second[$0] }
        let eight = (0..<8).map { lanes[$0] + lanes[$0 + 8] }
        let four = (0..<4).map { eight[$0] + eight[$0 + 4] }
        return (four[0] + four[2]) + (four[1] + four[3])
    }

    /// Rows of every length from 1 to 70 (short rows are all tail; -0 rows sum to +0, as
    /// XNNPACK's accumulators start at +0), to the bit, in every build.
    @Test(arguments: InstructionSet.all.filter(\.isSupported))
    func rowSumsOfEveryLengthKeepXNNPACKsBits(_ isa: InstructionSet) {
        for n in 1...70 {
            let random = RandomInput.fullMantissaValues(seed: UInt64(n), count: 3 * n, low: -1, high: 1)
            let rows: [Float] = random + [Float](repeating: -0.0, count: n)
            var sums = [Float](repeating: .nan, count: 4)
            vk_row_sums(isa.isa, rows, 4, n, 1, &sums)
            for r in 0..<4 {
                let expected = xnnpackRowSum(Array(rows[(r * n)..<((r + 1) * n)]))
                #expect(
                    sums[r].bitPattern == expected.bitPattern, "\(isa) n \(n) row \(r): \(sums[r]), not \(expected)")
            }
        }
    }

    /// MEAN over the innermost axis adds like XNNPACK's f32-rsum kernel: per lane of two 16-lane
    /// accumulators, then the lanes folded in halves — in every build. The values have full
    /// mantissas, so that another order of the additions rounds differently.
    @Test(arguments: InstructionSet.all.filter(\.isSupported))
    func innermostReductionsAddInXNNPACKsOrder(_ isa: InstructionSet) {
        let row = RandomInput.fullMantissaValues(seed: 21, count: 64, low: -1, high: 1)
        var lanes = [Float](repeating: 0, count: 32)
        for j in 0..<32 {
            let first: Float = 0 + row[j]
            lanes[j] = first + row[32 + j]
        }
        var w = [Float](repeating: 0, count: 8)
        for j in 0..<8 {
            let left: Float = lanes[j] + lanes[16 + j]
            let right: Float = lanes[8 + j] + lanes[24 + j]
            w[j] = left + right
        }
        var u = [Float](repeating: 0, count: 4)
        for i in 0..<4 { u[i] = w[i] + w[4 + i] }
        let even: Float = u[0] + u[2]
        let odd: Float = u[1] + u[3]
        let expected = even + odd
        // In input order the sum rounds differently: the test tells the orders apart.
        #expect(row.reduce(0, +) != expected)
        var sums: [Float] = [0, 0]
        let rows: [Float] = row + row
        vk_row_sums(isa.isa, rows, 2, 64, 1, &sums)
        #expect(sums == [expected, expected], "\(isa)")
        var short: Float = 0
        let pair: [Float] = [1.5, 2.25]
        vk_row_sums(isa.isa, pair, 1, 2, 0.5, &short)
        #expect(short == 1.875, "\(isa)")
    }
}
