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
        #expect(run(.clamp(ActivationClamp(lower: 0, upper: 6, isTanh: false))) == [0, 0, 0, 0.5, 3, 6])
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
}
