/// Filter weights of a quantized matrix product `acc[m][n] = bias[n] + Σ_k (a[m][k] - a_zp) ·
/// (w[n][k] - w_zp[n])`, packed once at load time for ``QuantizedGemm``.
///
/// The weights are stored with their zero point removed as int16 (`w - w_zp` fits for UINT8
/// and INT8 weights), in panels of 8 output channels: for each pair of `k` values, the 16
/// values `w[c][k], w[c][k+1]` for the panel's channels `c` side by side, so that a 16-bit
/// multiply-add of a broadcast activation pair with half a row yields four channels' partial
/// sums (SSE2 `pmaddwd`, AVX2 `vpmaddwd` on the same layout). `k` is padded to an even count
/// with zero weights. The activation zero point is folded into the bias:
/// `bias'[n] = bias[n] - a_zp · Σ_k (w[n][k] - w_zp[n])`, so the kernel multiplies raw
/// activations and padded positions must hold `a_zp`.
final class QuantizedPackedWeights {
    static let panelWidth = 8

    let n: Int
    let k: Int
    /// `(k + 1) / 2`.
    let pairCount: Int
    let panelCount: Int
    /// `panelCount × pairCount × 16` int16 values.
    let data: AlignedBuffer
    /// `panelCount × 8` int32 folded biases (zero beyond `n`).
    let bias: AlignedBuffer

    /// - Parameters:
    ///   - weights: `n` rows of `k` UINT8 (`signed == false`) or INT8 values.
    ///   - zeroPoints: one filter zero point, or one per row.
    ///   - bias: `n` int32 values, or `nil`.
    init(weights: UnsafeRawPointer, signed: Bool, zeroPoints: [Int32], bias: UnsafePointer<Int32>?,
         n: Int, k: Int, inputZeroPoint: Int32) {
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
            let panel = row / width, lane = row % width
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

/// The register-blocked quantized micro-kernel: four rows of int16 activations times every
/// panel of ``QuantizedPackedWeights``, int32 accumulation, requantized on store.
///
/// The boundary to a native micro-kernel is ``tile(_:_:_:_:rows:weights:requantizer:out:outStride:)``:
/// broadcast activation pairs and the packed panels in, int32 sums per (row, channel) out.
enum QuantizedGemm {
    /// Rows per tile.
    static let tileRows = 4

    /// Four channels' dot-product contributions of one activation pair: lanes `2i` and
    /// `2i + 1` of `a` and `w` multiplied and summed (SSE2 `pmaddwd`).
    @inline(__always)
    static func multiplyAdd(_ a: SIMD8<Int16>, _ w: SIMD8<Int16>) -> SIMD4<Int32> {
        QuantizedVector.multiplyAdd(a, w)
    }

    /// Rewrites one row of `2 · pairCount` int16 activations as `pairCount` vectors that repeat
    /// the pair `a[2p], a[2p + 1]` in all four 32-bit lanes (the broadcast operand of
    /// ``multiplyAdd(_:_:)``), so the micro-kernel reads them with plain aligned loads.
    @inline(__always)
    static func broadcastPairs(_ row: UnsafePointer<Int16>, pairCount: Int, into destination: UnsafeMutableRawPointer) {
        let source = UnsafeRawPointer(row)
        for p in 0..<pairCount {
            let bits = source.loadUnaligned(fromByteOffset: p * 4, as: Int32.self)
            destination.storeBytes(of: SIMD4<Int32>(repeating: bits), toByteOffset: p * 16, as: SIMD4<Int32>.self)
        }
    }

    /// Computes `rows` (1...4) output rows for every panel. `a0...a3` point at the rows'
    /// broadcast pairs (``broadcastPairs(_:pairCount:into:)``, 16-byte aligned; unused rows may
    /// repeat a valid row); row `r`'s outputs go to `out + r * outStride`.
    @inline(__always)
    static func tile<T: QuantizedElement>(
        _ a0: UnsafeRawPointer, _ a1: UnsafeRawPointer, _ a2: UnsafeRawPointer, _ a3: UnsafeRawPointer,
        rows: Int, weights: QuantizedPackedWeights, requantizer: Requantizer,
        out: UnsafeMutablePointer<T>, outStride: Int
    ) {
        let pairs = weights.pairCount, n = weights.n
        let packed = UnsafeRawPointer(weights.data.raw)
        let biases = UnsafeRawPointer(weights.bias.raw)
        let panelBytes = pairs * 32
        for panel in 0..<weights.panelCount {
            let b0 = biases.load(fromByteOffset: panel * 32, as: SIMD4<Int32>.self)
            let b1 = biases.load(fromByteOffset: panel * 32 + 16, as: SIMD4<Int32>.self)
            var c00 = b0, c01 = b1, c10 = b0, c11 = b1, c20 = b0, c21 = b1, c30 = b0, c31 = b1
            var w = packed + panel * panelBytes
            var offset = 0
            for _ in 0..<pairs {
                let w0 = w.load(as: SIMD8<Int16>.self)
                let w1 = w.load(fromByteOffset: 16, as: SIMD8<Int16>.self)
                let x0 = a0.load(fromByteOffset: offset, as: SIMD8<Int16>.self)
                c00 &+= multiplyAdd(x0, w0)
                c01 &+= multiplyAdd(x0, w1)
                let x1 = a1.load(fromByteOffset: offset, as: SIMD8<Int16>.self)
                c10 &+= multiplyAdd(x1, w0)
                c11 &+= multiplyAdd(x1, w1)
                let x2 = a2.load(fromByteOffset: offset, as: SIMD8<Int16>.self)
                c20 &+= multiplyAdd(x2, w0)
                c21 &+= multiplyAdd(x2, w1)
                let x3 = a3.load(fromByteOffset: offset, as: SIMD8<Int16>.self)
                c30 &+= multiplyAdd(x3, w0)
                c31 &+= multiplyAdd(x3, w1)
                w += 32
                offset += 16
            }
            let column = panel * 8
            let width = Swift.min(8, n - column)
            requantizer.store(c00, c01, channel: column, to: out + column, width: width)
            if rows > 1 { requantizer.store(c10, c11, channel: column, to: out + outStride + column, width: width) }
            if rows > 2 { requantizer.store(c20, c21, channel: column, to: out + 2 * outStride + column, width: width) }
            if rows > 3 { requantizer.store(c30, c31, channel: column, to: out + 3 * outStride + column, width: width) }
        }
    }
}
