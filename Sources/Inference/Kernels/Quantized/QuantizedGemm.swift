import CVisionKernels

/// Filter weights of a quantized matrix product `acc[m][n] = bias[n] + Σ_k (a[m][k] - a_zp) ·
/// (w[n][k] - w_zp[n])`, packed once at load time for ``QuantizedGemm``.
///
/// The weights are stored with their zero point removed as int16 (`w - w_zp` fits for UINT8
/// and INT8 weights), in panels of 16 output channels: for each pair of `k` values, the 32
/// values `w[c][k], w[c][k+1]` for the panel's channels `c` side by side, so that a 16-bit
/// multiply-add of a broadcast activation pair with the panel yields its channels' partial
/// sums (AVX-512 `vpdpwssd` / `vpmaddwd`, AVX2 `vpmaddwd` on half a panel). `k` is padded to
/// an even count with zero weights. The activation zero point is folded into the bias:
/// `bias'[n] = bias[n] - a_zp · Σ_k (w[n][k] - w_zp[n])`, so the kernel multiplies raw
/// activations and padded positions must hold `a_zp`.
final class QuantizedPackedWeights {
    static let panelWidth = 16

    let n: Int
    let k: Int
    /// `(k + 1) / 2`.
    let pairCount: Int
    let panelCount: Int
    /// `panelCount × pairCount × 32` int16 values.
    let data: AlignedBuffer
    /// `panelCount × 16` int32 folded biases (zero beyond `n`).
    let bias: AlignedBuffer

    /// - Parameters:
    ///   - weights: `n` rows of `k` UINT8 (`signed == false`) or INT8 values.
    ///   - zeroPoints: one filter zero point, or one per row.
    ///   - bias: `n` int32 values, or `nil`.
    init(
        weights: UnsafeRawPointer, signed: Bool, zeroPoints: [Int32], bias: UnsafePointer<Int32>?,
        n: Int, k: Int, inputZeroPoint: Int32
    ) {
        self.n = n
        self.k = k
        pairCount = (k + 1) / 2
        let width = QuantizedPackedWeights.panelWidth
        panelCount = (n + width - 1) / width
        data = AlignedBuffer(byteCount: panelCount * pairCount * 2 * width * MemoryLayout<Int16>.stride)
        self.bias = AlignedBuffer(byteCount: panelCount * width * MemoryLayout<Int32>.stride)
        let packed = data.bound(to: Int16.self)
        let packedBias = self.bias.bound(to: Int32.self)
        let bytes = weights.assumingMemoryBound(to: UInt8.self)
        for row in 0..<n {
            let zeroPoint = zeroPoints.count == 1 ? zeroPoints[0] : zeroPoints[row]
            let panel = row / width
            let lane = row % width
            let destination = packed + panel * pairCount * 2 * width + lane * 2
            var sum: Int32 = 0
            for kk in 0..<k {
                let raw = bytes[row * k + kk]
                let value = (signed ? Int32(Int8(bitPattern: raw)) : Int32(raw)) - zeroPoint
                sum += value
                destination[(kk / 2) * 2 * width + kk % 2] = Int16(value)
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
            weights: UnsafePointer(weights.data.bound(to: Int16.self)),
            bias: UnsafePointer(weights.bias.bound(to: Int32.self)), n: weights.n, pair_count: weights.pairCount,
            scales: requantizer.arithmetic == .xnnpack ? UnsafePointer(requantizer.scales.floats) : nil,
            lower: Float(range.lower - requantizer.zeroPoint), upper: Float(range.upper - requantizer.zeroPoint),
            zero_point: requantizer.zeroPoint, is_signed: isSigned ? 1 : 0)
    }

    /// Int32 scratch values ``run(rows:count:stride:out:sums:)`` needs for `count` rows
    /// (only the reference arithmetic uses it).
    func sumCount(rows: Int) -> Int { requantizer.arithmetic == .xnnpack ? 0 : rows * weights.n }

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
