import Testing

@testable import Inference

/// The 8-bit quantized product of UINT8 models (``QuantizedPackedWeights/Layout/quads``,
/// `vk_qgemm8_run`): its packing, its exact int32 sums against the integer definition, and
/// outputs identical to the int16 product's.
@Suite struct QuantizedByteProductTests {
    /// Whether this CPU runs the AVX512-VNNI byte kernel (the int16 product is then AVX-512 too).
    static let hasVNNI = QuantizedPackedWeights.layout(signed: false, instructionSet: .avx512) == .quads

    @Test func quadsLayoutStoresWeightsMinus128InGroupsOfFour() {
        // Two output channels of k = 5 UINT8 weights with zero point 120.
        let weights: [UInt8] = [129, 130, 127, 128, 0, 128, 128, 138, 255, 1]
        let bias: [Int32] = [100, -7]
        let packed = weights.withUnsafeBytes { w in
            bias.withUnsafeBufferPointer { b in
                QuantizedPackedWeights(
                    weights: w.baseAddress!, signed: false, zeroPoints: [120], bias: b.baseAddress, n: 2, k: 5,
                    inputZeroPoint: 5, layout: .quads)
            }
        }
        #expect(packed.layout == .quads && packed.quadCount == 2 && packed.panelCount == 1)
        #expect(packed.data.byteCount == 2 * 64)
        let data = packed.data.bound(to: Int8.self)
        // Group 0: channel 0's w - 128 for k = 0...3 at bytes 0...3, channel 1's at 4...7.
        #expect(Array(UnsafeBufferPointer(start: data, count: 8)) == [1, 2, -1, 0, 0, 0, 10, 127])
        #expect(UnsafeBufferPointer(start: data + 8, count: 56).allSatisfy { $0 == 0 })
        // Group 1: k = 4, then three zeros of padding per channel.
        #expect(Array(UnsafeBufferPointer(start: data + 64, count: 8)) == [-128, 0, 0, 0, -127, 0, 0, 0])
        #expect(UnsafeBufferPointer(start: data + 72, count: 56).allSatisfy { $0 == 0 })
        let factors = packed.rowSumFactors.bound(to: Int32.self)
        #expect(
            factors[0] == 8 && factors[1] == 8
                && UnsafeBufferPointer(start: factors + 2, count: 14).allSatisfy {
                    $0 == 0
                })
        // bias - 5 · Σ (w - 120): 100 - 5 · (9 + 10 + 7 + 8 - 120) = 530; -7 - 5 · (8 + 8 + 18 + 135 - 119) = -257.
        let b = packed.bias.bound(to: Int32.self)
        #expect(b[0] == 530 && b[1] == -257 && b[2] == 0)
    }

    /// Shapes (rows, n, k) with k not a multiple of 4, n not a multiple of 16 or 32, and rows not a
    /// multiple of 8, one row, one channel, and a k over 64 (a row sum with a masked tail).
    static let shapes: [(rows: Int, n: Int, k: Int)] = [
        (1, 1, 1), (1, 16, 4), (7, 17, 3), (8, 32, 8), (9, 33, 5), (13, 31, 27), (17, 48, 64), (3, 40, 130),
        (20, 65, 67), (11, 16, 257),
    ]
    static let zeroPoints: [Int32] = [0, 128, 255]

    @Test func portableByteProductSumsMatchTheIntegerDefinition() {
        checkSums(.portable)
    }

    @Test func vnniByteProductSumsMatchTheIntegerDefinition() {
        guard Self.hasVNNI else {
            print("QuantizedByteProductTests: skipped, this CPU has no AVX-512 with AVX512-VNNI")
            return
        }
        checkSums(.avx512)
    }

    /// The reference arithmetic hands the exact int32 sums back: they must be
    /// `bias + Σ (x - x_zp) · (w - w_zp)` for every shape and pair of zero points.
    private func checkSums(_ instructionSet: InstructionSet) {
        var random = SplitMix64(seed: 0xB17E_5EED)
        for shape in Self.shapes {
            for inputZeroPoint in Self.zeroPoints {
                for filterZeroPoint in Self.zeroPoints {
                    let problem = Problem(
                        shape: shape, inputZeroPoint: inputZeroPoint, filterZeroPoint: filterZeroPoint,
                        random: &random)
                    let sums = problem.byteProductSums(instructionSet)
                    let expected = problem.definition()
                    let label = "\(instructionSet) \(shape) x_zp \(inputZeroPoint) w_zp \(filterZeroPoint)"
                    #expect(sums == expected, "\(label)")
                }
            }
        }
    }

    @Test func byteAndInt16ProductsGiveIdenticalOutputs() {
        guard Self.hasVNNI else {
            print("QuantizedByteProductTests: skipped, this CPU has no AVX-512 with AVX512-VNNI")
            return
        }
        var random = SplitMix64(seed: 0x0DD5_1DE5)
        for shape in Self.shapes {
            for zeroPoints in [(Int32(0), Int32(255)), (128, 128), (255, 0), (37, 201)] {
                let problem = Problem(
                    shape: shape, inputZeroPoint: zeroPoints.0, filterZeroPoint: zeroPoints.1, random: &random)
                for arithmetic in [QuantizedArithmetic.xnnpack, .reference] {
                    let bytes = problem.outputs(arithmetic, layout: .quads)
                    let words = problem.outputs(arithmetic, layout: .pairs)
                    #expect(
                        bytes == words,
                        "\(arithmetic) rows \(shape.rows) n \(shape.n) k \(shape.k) zero points \(zeroPoints)")
                    // Not all one value: the comparison means something.
                    #expect(Set(bytes).count > 1 || shape.rows * shape.n == 1)
                }
            }
        }
    }
}

extension SplitMix64 {
    /// The top 8 bits of the next output.
    fileprivate mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next() >> 56) }
}

/// One random UINT8 product: `rows × k` activations, `n × k` weights, `n` biases.
private struct Problem {
    let rows: Int
    let n: Int
    let k: Int
    let inputZeroPoint: Int32
    let filterZeroPoint: Int32
    let activations: [UInt8]
    let weights: [UInt8]
    let bias: [Int32]

    init(shape: (rows: Int, n: Int, k: Int), inputZeroPoint: Int32, filterZeroPoint: Int32, random: inout SplitMix64) {
        rows = shape.rows
        n = shape.n
        k = shape.k
        self.inputZeroPoint = inputZeroPoint
        self.filterZeroPoint = filterZeroPoint
        activations = (0..<(rows * k)).map { _ in random.byte() }
        weights = (0..<(n * k)).map { _ in random.byte() }
        bias = (0..<n).map { _ in Int32(truncatingIfNeeded: random.next() % 40_001) - 20_000 }
    }

    /// `bias[c] + Σ_k (x[r][k] - x_zp) · (w[c][k] - w_zp)`, row-major.
    func definition() -> [Int32] {
        var sums: [Int32] = []
        for r in 0..<rows {
            for c in 0..<n {
                var sum = bias[c]
                for kk in 0..<k {
                    sum +=
                        (Int32(activations[r * k + kk]) - inputZeroPoint)
                        * (Int32(weights[c * k + kk]) - filterZeroPoint)
                }
                sums.append(sum)
            }
        }
        return sums
    }

    func packed(_ layout: QuantizedPackedWeights.Layout) -> QuantizedPackedWeights {
        weights.withUnsafeBytes { w in
            bias.withUnsafeBufferPointer { b in
                QuantizedPackedWeights(
                    weights: w.baseAddress!, signed: false, zeroPoints: [filterZeroPoint], bias: b.baseAddress, n: n,
                    k: k, inputZeroPoint: inputZeroPoint, layout: layout)
            }
        }
    }

    /// A requantization scale of `1 / (300 k)`: sums of either sign land inside the UINT8 range, spread.
    func requantizer(_ arithmetic: QuantizedArithmetic) -> Requantizer {
        Requantizer(
            arithmetic: arithmetic, inputScale: 0.02, filterScales: [0.004], outputScale: 0.024 * Float(k),
            channelCount: n,
            zeroPoint: 100, range: .uint8, floatProduct: true)
    }

    /// Row `r`'s activations at `r · stride` (a stride 4 beyond the padded length, so the kernel
    /// must follow it), zeros elsewhere.
    func byteRows(length: Int) -> (rows: [UInt8], stride: Int) {
        let stride = length + 4
        var rows = [UInt8](repeating: 0, count: self.rows * stride)
        for r in 0..<self.rows {
            for kk in 0..<k { rows[r * stride + kk] = activations[r * k + kk] }
        }
        return (rows, stride)
    }

    /// The byte product's int32 sums (reference arithmetic stores them before requantizing).
    func byteProductSums(_ instructionSet: InstructionSet) -> [Int32] {
        let weights = packed(.quads)
        let gemm = QuantizedGemm(
            weights: weights, requantizer: requantizer(.reference), isSigned: false, instructionSet: instructionSet)
        let (input, stride) = byteRows(length: weights.quadCount * 4)
        var out = [UInt8](repeating: 0, count: rows * n)
        var sums = [Int32](repeating: 0, count: rows * n)
        input.withUnsafeBufferPointer { x in
            out.withUnsafeMutableBufferPointer { o in
                sums.withUnsafeMutableBufferPointer { s in
                    gemm.runBytes(
                        rows: x.baseAddress!, count: rows, stride: stride, out: o.baseAddress!, sums: s.baseAddress!)
                }
            }
        }
        return sums
    }

    /// The requantized outputs of the AVX-512 product over `layout` (bytes, or int16 rows).
    func outputs(_ arithmetic: QuantizedArithmetic, layout: QuantizedPackedWeights.Layout) -> [UInt8] {
        let weights = packed(layout)
        let gemm = QuantizedGemm(
            weights: weights, requantizer: requantizer(arithmetic), isSigned: false, instructionSet: .avx512)
        var out = [UInt8](repeating: 0, count: rows * n)
        var sums = [Int32](repeating: 0, count: rows * n)
        out.withUnsafeMutableBufferPointer { o in
            sums.withUnsafeMutableBufferPointer { s in
                switch layout {
                case .quads:
                    let (input, stride) = byteRows(length: weights.quadCount * 4)
                    input.withUnsafeBufferPointer { x in
                        gemm.runBytes(
                            rows: x.baseAddress!, count: rows, stride: stride, out: o.baseAddress!, sums: s.baseAddress!
                        )
                    }
                case .pairs:
                    let stride = weights.pairCount * 2
                    var input = [Int16](repeating: 0, count: rows * stride)
                    for r in 0..<rows {
                        for kk in 0..<k { input[r * stride + kk] = Int16(activations[r * k + kk]) }
                    }
                    input.withUnsafeBufferPointer { x in
                        gemm.run(
                            rows: x.baseAddress!, count: rows, stride: stride, out: o.baseAddress!, sums: s.baseAddress!
                        )
                    }
                }
            }
        }
        return out
    }
}
