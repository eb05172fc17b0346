import ModelFile
import Testing

@testable import Inference

/// TFLite's and XNNPACK's integer arithmetic on hand-computed values.
@Suite struct QuantizedArithmeticTests {
    @Test func quantizeMultiplierSplitsIntoQ31MantissaAndExponent() {
        // frexp: 0.5 = 0.5·2^0, 1 = 0.5·2^1, 0.75 = 0.75·2^0, 0.1 = 0.8·2^-3.
        #expect(FixedPointMultiplier(0.5) == FixedPointMultiplier(mantissa: 1 << 30, shift: 0))
        #expect(FixedPointMultiplier(1.0) == FixedPointMultiplier(mantissa: 1 << 30, shift: 1))
        #expect(FixedPointMultiplier(0.75) == FixedPointMultiplier(mantissa: 1_610_612_736, shift: 0))
        #expect(FixedPointMultiplier(0.1) == FixedPointMultiplier(mantissa: 1_717_986_918, shift: -3))
        // A mantissa that rounds up to 2^31 carries into the exponent.
        #expect(FixedPointMultiplier(1 - 0x1p-34) == FixedPointMultiplier(mantissa: 1 << 30, shift: 1))
        // Below 2^-31 the multiplier is flushed to zero; zero stays zero.
        #expect(FixedPointMultiplier(0x1p-40) == FixedPointMultiplier(mantissa: 0, shift: 0))
        #expect(FixedPointMultiplier(0) == FixedPointMultiplier(mantissa: 0, shift: 0))
    }

    @Test func gemmlowpRoundingRoundsHighMultiplyTiesUpAndShiftTiesAwayFromZero() {
        let half = Int32(1 << 30)  // 0.5 in Q31
        #expect(FixedPointMultiplier.roundingDoublingHighMultiply(5, half) == 3)  //  2.5 →  3
        #expect(FixedPointMultiplier.roundingDoublingHighMultiply(-5, half) == -2)  // -2.5 → -2
        #expect(FixedPointMultiplier.roundingDoublingHighMultiply(.min, .min) == .max)
        #expect(FixedPointMultiplier.roundingDivide(5, byPowerOfTwo: 1) == 3)  //  2.5 →  3
        #expect(FixedPointMultiplier.roundingDivide(-5, byPowerOfTwo: 1) == -3)  // -2.5 → -3
        #expect(FixedPointMultiplier.roundingDivide(-6, byPowerOfTwo: 2) == -2)  // -1.5 → -2
        #expect(FixedPointMultiplier.roundingDivide(7, byPowerOfTwo: 0) == 7)
    }

    @Test func multiplyByQuantizedMultiplierRoundsTwice() {
        // 5 · 0.25 = 1.25, but the double rounding gives round(round(2.5) / 2) = round(1.5) = 2.
        let quarter = FixedPointMultiplier(0.25)
        #expect(quarter.apply(5) == 2)
        #expect(quarter.apply(-3) == -1)  // round(-1.5 → -1) / 2 = -0.5 → -1 (away from zero)
        // TFLite's optimized x86 kernels (NEON emulated) round the final shift's tie up instead.
        #expect(quarter.applyRoundingUp(-3) == 0)
        #expect(quarter.applyRoundingUp(5) == 2)
        // A multiplier above 1 shifts left first: 3 · 1.5 = 4.5 → 5.
        #expect(FixedPointMultiplier(1.5).apply(3) == 5)
        #expect(FixedPointMultiplier(0.5).applySmallerThanOne(7) == 4)
    }

    @Test func activationRangeTiesFollowEachArithmetic() {
        // RELU_N1_TO_1 on scale 0.08, zero point 100: ±1 / 0.08 = ±12.5 exactly.
        // TFLite: 100 + round_half_away(±12.5) = 87, 113. XNNPACK: lrintf(87.5), lrintf(112.5) = 88, 112.
        let reference = QuantizedArithmetic.reference.activationRange(
            .reluN1To1, scale: 0.08, zeroPoint: 100, range: .uint8)
        let xnnpack = QuantizedArithmetic.xnnpack.activationRange(
            .reluN1To1, scale: 0.08, zeroPoint: 100, range: .uint8)
        #expect(reference == QuantizedRange(lower: 87, upper: 113))
        #expect(xnnpack == QuantizedRange(lower: 88, upper: 112))
        // RELU6 beyond the type's range is clipped; NONE is the whole range; TANH has no quantized form.
        #expect(
            QuantizedArithmetic.reference.activationRange(.relu6, scale: 0.01, zeroPoint: -128, range: .int8)
                == QuantizedRange(lower: -128, upper: 127))
        #expect(QuantizedArithmetic.xnnpack.activationRange(.none, scale: 0.5, zeroPoint: 7, range: .int8) == .int8)
        #expect(
            QuantizedArithmetic.xnnpack.activationRange(.relu, scale: 0.5, zeroPoint: 7, range: .int8)
                == QuantizedRange(lower: 7, upper: 127))
        #expect(QuantizedArithmetic.reference.activationRange(.tanh, scale: 0.5, zeroPoint: 7, range: .int8) == nil)
    }

    @Test func convolutionRequantizationRoundsToEvenWithXNNPACKAndTwiceWithTheReference() {
        // Scale 0.01 · 0.5 / 0.01 = 0.5 exactly: accumulators 5 and 7 land on ties.
        let make = { (arithmetic: QuantizedArithmetic) in
            Requantizer(
                arithmetic: arithmetic, inputScale: 0.01, filterScales: [0.5], outputScale: 0.01, channelCount: 8,
                zeroPoint: 10, range: .uint8, floatProduct: true)
        }
        let xnnpack = make(.xnnpack)
        let reference = make(.reference)
        let low = SIMD4<Int32>(5, 7, -5, -7)
        let high = SIMD4<Int32>(600, -600, 0, 1)
        var out = [UInt8](repeating: 0, count: 8)
        out.withUnsafeMutableBufferPointer { xnnpack.store(low, high, channel: 0, to: $0.baseAddress!, width: 8) }
        // 2.5 → 2, 3.5 → 4, -2.5 → -2, -3.5 → -4 (nearest even); 300 and -300 clamp; + 10.
        #expect(out == [12, 14, 8, 6, 255, 0, 10, 10])
        out.withUnsafeMutableBufferPointer { reference.store(low, high, channel: 0, to: $0.baseAddress!, width: 8) }
        // gemmlowp: 2.5 → 3, 3.5 → 4, -2.5 → -2, -3.5 → -3; 0.5 → 1.
        #expect(out == [13, 14, 8, 7, 255, 0, 10, 11])
        #expect(xnnpack.requantize(5, channel: 3) == 12 && reference.requantize(5, channel: 3) == 13)
    }

    @Test func perChannelScalesApplyPerOutputChannel() {
        let requantizer = Requantizer(
            arithmetic: .xnnpack, inputScale: 1, filterScales: [1, 0.5, 0.25, 2], outputScale: 1,
            channelCount: 4, zeroPoint: 0, range: .int8, floatProduct: false)
        var out = [Int8](repeating: 0, count: 4)
        out.withUnsafeMutableBufferPointer {
            requantizer.store(SIMD4(repeating: 12), SIMD4(repeating: 12), channel: 0, to: $0.baseAddress!, width: 4)
        }
        #expect(out == [12, 6, 3, 24])
    }

    @Test func xnnpackAdditionUsesTwentyBitMultipliers() {
        let a = AffineQuantization(scale: 0.05, zeroPoint: 130)
        let b = AffineQuantization(scale: 0.07, zeroPoint: 120)
        let y = AffineQuantization(scale: 0.1, zeroPoint: 128)
        let form = QuantizedBinaryKernel.form(.add, a: a, b: b, output: y, arithmetic: .xnnpack)
        // r_a = 0.5, r_b = 0.7 (float32): max exponent -1 → shift 21; M_a = 0.5·2^21, M_b = lrintf(0.7f·2^21).
        let rb = Float(0.07) / Float(0.1)
        let mb = Int32((rb * 2_097_152).rounded(.toNearestOrEven))
        #expect(
            form
                == .xnnpackAdd(
                    multiplierA: 1_048_576, multiplierB: mb,
                    bias: (1 << 20) - 1_048_576 * 130 - mb * 120, shift: 21))
        // a = 150 (1.0), b = 134 (0.98): 1.98 / 0.1 = 19.8 → 148 (+ zero point 128).
        let kernel = QuantizedBinaryKernel(
            form: form, a: UnsafeMutableRawPointer(bitPattern: 64)!, b: UnsafeMutableRawPointer(bitPattern: 64)!,
            output: UnsafeMutableRawPointer(bitPattern: 64)!, isSigned: false,
            shape: BroadcastShape([1], [1])!, zeroPoints: (130, 120, 128), range: .uint8)
        #expect(kernel.combine(150, 134) == 148)
        // Reference: TFLite's 20-bit left shift with three multipliers gives the same here.
        let reference = QuantizedBinaryKernel(
            form: QuantizedBinaryKernel.form(.add, a: a, b: b, output: y, arithmetic: .reference),
            a: UnsafeMutableRawPointer(bitPattern: 64)!, b: UnsafeMutableRawPointer(bitPattern: 64)!,
            output: UnsafeMutableRawPointer(bitPattern: 64)!, isSigned: false,
            shape: BroadcastShape([1], [1])!, zeroPoints: (130, 120, 128), range: .uint8)
        #expect(reference.combine(150, 134) == 148)
    }

    @Test func xnnpackLimitsFallBackToTheReferenceForm() {
        let tiny = AffineQuantization(scale: 0.0001, zeroPoint: 0)
        let unit = AffineQuantization(scale: 1, zeroPoint: 0)
        // r_b = 1e-4 < 1/1024: XNNPACK does not take the ADD.
        guard
            case .referenceAdd = QuantizedBinaryKernel.form(.add, a: unit, b: tiny, output: unit, arithmetic: .xnnpack)
        else {
            Issue.record("expected the reference form")
            return
        }
        // Product ratio 1e-8 < 1/65536: nor the MUL.
        guard
            case .referenceMul = QuantizedBinaryKernel.form(.mul, a: tiny, b: tiny, output: unit, arithmetic: .xnnpack)
        else {
            Issue.record("expected the reference form")
            return
        }
        #expect(
            QuantizedBinaryKernel.form(.mul, a: unit, b: unit, output: unit, arithmetic: .xnnpack)
                == .xnnpackMul(scale: 1))
    }

    @Test func xnnpackBilinearWeightsAreQ11AndRoundTheQ22Sum() {
        // 2 → 4 with half-pixel centres: sources -0.25 and 1.25 are clamped to 0 and 1; 0.25, 0.75.
        let taps = QuantizedResizeKernel.xnnpackAxis(2, 4, alignCorners: false, halfPixelCenters: true)
        #expect(taps.map(\.lower) == [0, 0, 0, 1])
        #expect(taps.map(\.upper) == [1, 1, 1, 1])
        #expect(taps.map(\.weight) == [0, 512, 1536, 0])
        // TFLite's integer reference keeps the negative source position (-0.25 · 1024 = -256).
        let integer = QuantizedResizeKernel.integerAxis(2, 4, alignCorners: false, halfPixelCenters: true)
        #expect(integer.map(\.weight) == [-256, 256, 768, 1280])
        #expect(integer.map(\.lower) == [0, 0, 0, 1] && integer.map(\.upper) == [0, 1, 1, 1])
    }

    @Test func resizeOfOneRowInterpolatesLikeXNNPACK() {
        let h = KernelHarness()
        let input = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 + 16)
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: 4 + 16)
        defer {
            input.deallocate()
            output.deallocate()
        }
        input[0] = 0
        input[1] = 100
        let kernel = QuantizedResizeKernel(
            mode: .xnnpack, input: UnsafeMutableRawPointer(input), output: UnsafeMutableRawPointer(output),
            isSigned: false,
            inputShape: NHWC(batch: 1, height: 1, width: 2, channels: 1),
            outputShape: NHWC(batch: 1, height: 1, width: 4, channels: 1),
            ys: QuantizedResizeKernel.xnnpackAxis(1, 1, alignCorners: false, halfPixelCenters: true),
            xs: QuantizedResizeKernel.xnnpackAxis(2, 4, alignCorners: false, halfPixelCenters: true))
        h.run(kernel)
        // 100 · 512/2048 = 25 and 100 · 1536/2048 = 75, each (x·2^22 + 2^21) >> 22; the last
        // position clamps to the last pixel.
        #expect(Array(UnsafeBufferPointer(start: output, count: 4)) == [0, 25, 75, 100])
    }

    @Test func int8AveragePoolingRoundsNegativeSumsAwayFromZero() {
        let h = KernelHarness()
        let input = UnsafeMutablePointer<Int8>.allocate(capacity: 4 + 16)
        let output = UnsafeMutablePointer<Int8>.allocate(capacity: 2 + 16)
        defer {
            input.deallocate()
            output.deallocate()
        }
        // Two 1×2 windows: (-2, -3) sums to -5 → (-5 - 1) / 2 = -3; (2, 3) → (5 + 1) / 2 = 3.
        for (i, v) in [Int8(-2), -3, 2, 3].enumerated() { input[i] = v }
        let rows = WindowAxis(input: 1, filter: 1, stride: 1, dilation: 1, padding: .valid)!
        let columns = WindowAxis(input: 4, filter: 2, stride: 2, dilation: 1, padding: .valid)!
        h.run(
            QuantizedPool2DKernel(
                kind: .average, input: UnsafeMutableRawPointer(input), output: UnsafeMutableRawPointer(output),
                isSigned: true, inputShape: NHWC(batch: 1, height: 1, width: 4, channels: 1),
                outputShape: NHWC(batch: 1, height: 1, width: 2, channels: 1), rows: rows, columns: columns,
                range: .int8))
        #expect(output[0] == -3 && output[1] == 3)
    }

    @Test func packedWeightsFoldTheInputZeroPointIntoTheBias() {
        // Two output channels of k = 3 UINT8 weights with zero point 128: w' = w - 128.
        let weights: [UInt8] = [129, 130, 127, 128, 128, 138]
        let bias: [Int32] = [100, -7]
        let packed = weights.withUnsafeBytes { w in
            bias.withUnsafeBufferPointer { b in
                QuantizedPackedWeights(
                    weights: w.baseAddress!, signed: false, zeroPoints: [128], bias: b.baseAddress, n: 2, k: 3,
                    inputZeroPoint: 5)
            }
        }
        #expect(packed.pairCount == 2 && packed.panelCount == 1)
        let data = packed.data.bound(to: Int16.self)
        // Panels of 16 channels, 32 values per pair. Pair 0 of channels 0 and 1: (1, 2), (0, 0);
        // pair 1: (-1, 0 padding), (10, 0 padding); channels 2...15 are zero.
        #expect(Array(UnsafeBufferPointer(start: data, count: 4)) == [1, 2, 0, 0])
        #expect(Array(UnsafeBufferPointer(start: data + 32, count: 4)) == [-1, 0, 10, 0])
        #expect(UnsafeBufferPointer(start: data + 4, count: 28).allSatisfy { $0 == 0 })
        let b = packed.bias.bound(to: Int32.self)
        // bias - 5 · Σ w': 100 - 5 · 2 = 90; -7 - 5 · 10 = -57.
        #expect(b[0] == 90 && b[1] == -57 && b[2] == 0)
    }
}
