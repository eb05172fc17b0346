import CVisionKernels

/// Filter weights of a quantized matrix product `acc[m][n] = bias[n] + Σ_k (a[m][k] - a_zp) ·
/// (w[n][k] - w_zp[n])`, packed once at load time for ``QuantizedGemm``.
///
/// In the ``Layout/pairs`` layout the weights are stored with their zero point removed as int16
/// (`w - w_zp` fits for UINT8 and INT8 weights), in panels of 16 output channels: for each pair of
/// `k` values, the 32 values `w[c][k], w[c][k+1]` for the panel's channels `c` side by side, so
/// that a 16-bit multiply-add of a broadcast activation pair with the panel yields its channels'
/// partial sums (AVX-512 `vpdpwssd` / `vpmaddwd`, AVX2 `vpmaddwd` on half a panel). `k` is padded
/// to an even count with zero weights. The ``Layout/quads`` layout is described there. In both,
/// the activation zero point is folded into the bias:
/// `bias'[n] = bias[n] - a_zp · Σ_k (w[n][k] - w_zp[n])`, so the kernel multiplies raw
/// activations and padded positions must hold `a_zp`.
final class QuantizedPackedWeights {
    /// How the weights are stored.
    enum Layout {
        /// int16 `w - w_zp`, pairs of `k` per channel (``QuantizedGemm/run(rows:count:stride:out:sums:)``).
        case pairs
        /// UINT8 weights only, for AVX512-VNNI's `vpdpbusd` (``QuantizedGemm/runBytes(rows:count:stride:out:sums:)``):
        /// per panel of 16 channels and group of 4 `k`, 64 int8 with channel `c`'s `w - 128` for those `k`
        /// at bytes `4c ... 4c + 3` (zero for `k` padded to a multiple of 4 and beyond `n`), and per channel the
        /// factor `128 - w_zp` of the row's activation sum, since
        /// `Σ x · (w - w_zp) = Σ x · (w - 128) + (128 - w_zp) · Σ x`.
        case quads
    }

    static let panelWidth = 16

    let layout: Layout
    let n: Int
    let k: Int
    /// `(k + 1) / 2`.
    let pairCount: Int
    /// `(k + 3) / 4`.
    let quadCount: Int
    let panelCount: Int
    /// ``Layout/pairs``: `panelCount × pairCount × 32` int16 values; ``Layout/quads``:
    /// `panelCount × quadCount × 64` int8 values.
    let data: AlignedBuffer
    /// `panelCount × 16` int32 folded biases (zero beyond `n`).
    let bias: AlignedBuffer
    /// ``Layout/quads`` only (otherwise empty): `panelCount × 16` int32 factors `128 - w_zp` (zero beyond `n`).
    let rowSumFactors: AlignedBuffer

    /// Bytes of all the buffers.
    var byteCount: Int { data.byteCount + bias.byteCount + rowSumFactors.byteCount }

    /// Whether CONV_2D should use ``Layout/quads``: UINT8 models on AVX-512 CPUs with AVX512-VNNI.
    static func layout(signed: Bool, instructionSet: InstructionSet) -> Layout {
        !signed && instructionSet == .avx512 && vk_qgemm_uses_vnni(instructionSet.isa) != 0 ? .quads : .pairs
    }

    /// - Parameters:
    ///   - weights: `n` rows of `k` UINT8 (`signed == false`) or INT8 values.
    ///   - zeroPoints: one filter zero point, or one per row.
    ///   - bias: `n` int32 values, or `nil`.
    ///   - layout: ``Layout/quads`` needs `signed == false`.
    init(
        weights: UnsafeRawPointer, signed: Bool, zeroPoints: [Int32], bias: UnsafePointer<Int32>?,
        n: Int, k: Int, inputZeroPoint: Int32, layout: Layout = .pairs
    ) {
        precondition(layout == .pairs || !signed, "the quads layout is for UINT8 weights")
        self.layout = layout
        self.n = n
        self.k = k
        pairCount = (k + 1) / 2
        quadCount = (k + 3) / 4
        let width = QuantizedPackedWeights.panelWidth
        panelCount = (n + width - 1) / width
        switch layout {
        case .pairs:
            data = AlignedBuffer(byteCount: panelCount * pairCount * 2 * width * MemoryLayout<Int16>.stride)
            rowSumFactors = AlignedBuffer(byteCount: 0)
        case .quads:
            data = AlignedBuffer(byteCount: panelCount * quadCount * 4 * width)
            rowSumFactors = AlignedBuffer(byteCount: panelCount * width * MemoryLayout<Int32>.stride)
        }
        self.bias = AlignedBuffer(byteCount: panelCount * width * MemoryLayout<Int32>.stride)
        let packedBias = self.bias.bound(to: Int32.self)
        let bytes = weights.assumingMemoryBound(to: UInt8.self)
        for row in 0..<n {
            let zeroPoint = zeroPoints.count == 1 ? zeroPoints[0] : zeroPoints[row]
            let panel = row / width
            let lane = row % width
            var sum: Int32 = 0
            switch layout {
            case .pairs:
                let destination = data.bound(to: Int16.self) + panel * pairCount * 2 * width + lane * 2
                for kk in 0..<k {
                    let raw = bytes[row * k + kk]
                    let value = (signed ? Int32(Int8(bitPattern: raw)) : Int32(raw)) - zeroPoint
                    sum += value
                    destination[(kk / 2) * 2 * width + kk % 2] = Int16(value)
                }
            case .quads:
                let destination = data.bound(to: Int8.self) + panel * quadCount * 4 * width + lane * 4
                for kk in 0..<k {
                    let raw = Int32(bytes[row * k + kk])
                    sum += raw - zeroPoint
                    destination[(kk / 4) * 4 * width + kk % 4] = Int8(raw - 128)
                }
                rowSumFactors.bound(to: Int32.self)[row] = 128 - zeroPoint
            }
            packedBias[row] = (bias?[row] ?? 0) &- inputZeroPoint &* sum
        }
    }
}

/// The quantized matrix product over ``QuantizedPackedWeights``: CVisionKernels' `vk_qgemm_run`
/// (AVX-512 with or without VNNI, AVX2, or portable C, chosen at load), exact int32 sums, then
/// the ``Requantizer``'s float32 rule in the kernel's store step (``QuantizedArithmetic/xnnpack``)
/// or the int32 sums handed back for the fixed-point rule (``QuantizedArithmetic/reference``).
struct QuantizedGemm {
    /// Rows per task: the AVX-512 micro-kernel's register block.
    static let tileRows = 8

    let weights: QuantizedPackedWeights
    let requantizer: Requantizer
    private let description: vk_qgemm

    init(weights: QuantizedPackedWeights, requantizer: Requantizer, isSigned: Bool, instructionSet: InstructionSet) {
        self.weights = weights
        self.requantizer = requantizer
        let range = requantizer.range
        description = vk_qgemm(
            isa: instructionSet.isa, vnni: vk_qgemm_uses_vnni(instructionSet.isa),
            weights: weights.layout == .pairs ? UnsafePointer(weights.data.bound(to: Int16.self)) : nil,
            bias: UnsafePointer(weights.bias.bound(to: Int32.self)), n: weights.n, pair_count: weights.pairCount,
            scales: requantizer.arithmetic == .xnnpack ? UnsafePointer(requantizer.scales.floats) : nil,
            lower: Float(range.lower - requantizer.zeroPoint), upper: Float(range.upper - requantizer.zeroPoint),
            zero_point: requantizer.zeroPoint, is_signed: isSigned ? 1 : 0,
            quads: weights.layout == .quads ? UnsafePointer(weights.data.bound(to: Int8.self)) : nil,
            quad_count: weights.quadCount,
            row_sum_factors: weights.layout == .quads ? UnsafePointer(weights.rowSumFactors.bound(to: Int32.self)) : nil
        )
    }

    /// Int32 scratch values ``run(rows:count:stride:out:sums:)`` needs for `count` rows
    /// (only the reference arithmetic uses it).
    func sumCount(rows: Int) -> Int { requantizer.arithmetic == .xnnpack ? 0 : rows * weights.n }

    /// Computes `count` output rows from raw UINT8 activations over ``QuantizedPackedWeights/Layout/quads``
    /// weights: row `m`'s `4 · quadCount` bytes (zero beyond `k`) at `rows + m · stride`, its `n`
    /// outputs at `out + m · n`. The same exact sums, so the same outputs, as
    /// ``run(rows:count:stride:out:sums:)`` over ``QuantizedPackedWeights/Layout/pairs`` weights.
    @inline(__always)
    func runBytes(
        rows: UnsafePointer<UInt8>, count: Int, stride: Int, out: UnsafeMutablePointer<UInt8>,
        sums: UnsafeMutablePointer<Int32>
    ) {
        let n = weights.n
        withUnsafePointer(to: description) { g in
            if requantizer.arithmetic == .xnnpack {
                vk_qgemm8_run(g, rows, stride, count, out, n, nil, 0)
                return
            }
            vk_qgemm8_run(g, rows, stride, count, nil, 0, sums, n)
            for i in 0..<(count * n) {
                out[i] = UInt8(truncatingIfNeeded: requantizer.requantize(sums[i], channel: i % n))
            }
        }
    }

    /// Computes `count` output rows: row `m`'s `2 · pairCount` int16 activations at
    /// `rows + m · stride`, its `n` outputs at `out + m · n`.
    @inline(__always)
    func run<T: QuantizedElement>(
        rows: UnsafePointer<Int16>, count: Int, stride: Int, out: UnsafeMutablePointer<T>,
        sums: UnsafeMutablePointer<Int32>
    ) {
        let n = weights.n
        withUnsafePointer(to: description) { g in
            if requantizer.arithmetic == .xnnpack {
                vk_qgemm_run(g, rows, stride, count, out, n, nil, 0)
                return
            }
            vk_qgemm_run(g, rows, stride, count, nil, 0, sums, n)
            for i in 0..<(count * n) {
                out[i] = T(truncatingIfNeeded: requantizer.requantize(sums[i], channel: i % n))
            }
        }
    }
}
