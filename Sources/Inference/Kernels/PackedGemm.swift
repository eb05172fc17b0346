/// Weights of a matrix product `out[m][n] = bias[n] + Σ_k a[m][k] · w[n][k]`, packed once at
/// load time in panels of ``panelWidth`` output columns: panel `p` holds, for each `k`, the
/// weights of columns `8p ..< 8p + 8` side by side (zero beyond `n`), so the micro-kernel
/// reads one aligned vector per `k`.
///
/// CONV_2D filters (`[n, kh, kw, cin]`, TFLite's OHWI) and FULLY_CONNECTED weights (`[n, k]`)
/// are both `n` rows of `k` contiguous values, so both pack the same way.
final class PackedWeights {
    static let panelWidth = 8

    let k: Int
    let n: Int
    let panelCount: Int
    /// `panelCount × k × 8` floats.
    let data: AlignedBuffer
    /// `panelCount × 8` floats (zero when the operator has no bias).
    let bias: AlignedBuffer

    init(weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?, n: Int, k: Int) {
        self.k = k
        self.n = n
        let width = PackedWeights.panelWidth
        panelCount = (n + width - 1) / width
        data = AlignedBuffer(byteCount: panelCount * k * width * MemoryLayout<Float>.stride)
        self.bias = AlignedBuffer(byteCount: panelCount * width * MemoryLayout<Float>.stride)
        let packed = data.floats
        let packedBias = self.bias.floats
        for column in 0..<n {
            let panel = column / width, lane = column % width
            let source = weights + column * k
            let destination = packed + panel * k * width + lane
            for kk in 0..<k { destination[kk * width] = source[kk] }
            packedBias[column] = bias?[column] ?? 0
        }
    }
}

/// The register-blocked micro-kernel: four rows of `a` times one packed panel.
enum Gemm {
    /// Rows per micro-kernel tile.
    static let tileRows = 4

    /// Computes `rows` (1...4) output rows for every panel of `weights`.
    ///
    /// `a0...a3` point at the rows' `k` inputs (unused rows may repeat a valid row; their
    /// results are not stored). Row `r`'s outputs go to `out + r * outStride`. Every output is
    /// `bias + a[0]·w[0] + a[1]·w[1] + …` accumulated in this order, whatever the tile, so
    /// results do not depend on how rows are grouped.
    @inline(__always)
    static func tile(
        _ a0: UnsafePointer<Float>, _ a1: UnsafePointer<Float>, _ a2: UnsafePointer<Float>, _ a3: UnsafePointer<Float>,
        rows: Int, weights: PackedWeights, out: UnsafeMutablePointer<Float>, outStride: Int, clamp: ActivationClamp
    ) {
        let k = weights.k, n = weights.n
        let packed = UnsafeRawPointer(weights.data.raw)
        let biases = UnsafeRawPointer(weights.bias.raw)
        let lower = SIMD8<Float>(repeating: clamp.lower), upper = SIMD8<Float>(repeating: clamp.upper)
        let panelBytes = k * 8 * MemoryLayout<Float>.stride
        for panel in 0..<weights.panelCount {
            let b = biases.load(fromByteOffset: panel * 32, as: SIMD8<Float>.self)
            var c0 = b, c1 = b, c2 = b, c3 = b
            var w = packed + panel * panelBytes
            for kk in 0..<k {
                let wv = w.load(as: SIMD8<Float>.self)
                c0 += wv * a0[kk]
                c1 += wv * a1[kk]
                c2 += wv * a2[kk]
                c3 += wv * a3[kk]
                w += 32
            }
            let column = panel * 8
            let width = Swift.min(8, n - column)
            store(clamp.isTanh ? clamp.apply(c0) : clamped(c0, lower, upper), out + column, width)
            if rows > 1 { store(clamp.isTanh ? clamp.apply(c1) : clamped(c1, lower, upper), out + outStride + column, width) }
            if rows > 2 { store(clamp.isTanh ? clamp.apply(c2) : clamped(c2, lower, upper), out + 2 * outStride + column, width) }
            if rows > 3 { store(clamp.isTanh ? clamp.apply(c3) : clamped(c3, lower, upper), out + 3 * outStride + column, width) }
        }
    }

    @inline(__always)
    static func store(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>, _ width: Int) {
        if width == 8 {
            UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Float>.self)
        } else {
            for i in 0..<width { p[i] = v[i] }
        }
    }
}
