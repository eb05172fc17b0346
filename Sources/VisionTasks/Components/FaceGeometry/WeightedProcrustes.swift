/// The weighted orthogonal Procrustes problem of MediaPipe's face geometry
/// (mediapipe/tasks/cc/vision/face_geometry/libs/procrustes_solver.cc): the uniform scale `k`,
/// rotation `R` and translation `T` that best map source points `s` onto target points `t` under
/// weights `w` — `W = Σw`, `c = Σ w·s / W`, `D = Σ w·t·(s − c)ᵀ`, `D = UΣVᵀ` with U's third column
/// negated when `det U · det V < 0`, `R = UVᵀ`, `k = Σ w·(R(s − c))·t / Σ w·(s − c)·s`,
/// `T = Σ w·(t − kR·s) / W`. Computed in double.
enum WeightedProcrustes {
    /// `kR` (rows) and `T`.
    struct Transform {
        var rotationAndScale: [[Double]]
        var translation: [Double]

        /// The scale: the norm of `kR`'s first column.
        var scale: Double {
            (0..<3).map { rotationAndScale[$0][0] * rotationAndScale[$0][0] }.reduce(0, +).squareRoot()
        }
    }

    enum Failure: Error { case degenerate(String) }

    /// Solves the problem for `sources[i] → targets[i]` under `weights[i]` (only entries with a
    /// positive weight count).
    static func solve(sources: [SIMD3<Double>], targets: [SIMD3<Double>], weights: [Double]) throws -> Transform {
        let total = weights.reduce(0, +)
        guard total > 1e-9 else { throw Failure.degenerate("total weight") }
        var center = SIMD3<Double>(repeating: 0)
        for (s, w) in zip(sources, weights) { center += w * s }
        center /= total
        var design = [[Double]](repeating: [0, 0, 0], count: 3)
        for ((s, t), w) in zip(zip(sources, targets), weights) {
            let centered = s - center
            for row in 0..<3 {
                for column in 0..<3 { design[row][column] += w * t[row] * centered[column] }
            }
        }
        let norm = design.flatMap { $0 }.map { $0 * $0 }.reduce(0, +).squareRoot()
        guard norm > 1e-9 else { throw Failure.degenerate("design matrix") }
        let (u, v, sigma) = singularVectors(design)
        var uFixed = u
        if determinant(u) * determinant(v) < 0, let smallest = sigma.indices.min(by: { sigma[$0] < sigma[$1] }) {
            for row in 0..<3 { uFixed[row][smallest] = -uFixed[row][smallest] }
        }
        // R = U Vᵀ.
        var rotation = [[Double]](repeating: [0, 0, 0], count: 3)
        for row in 0..<3 {
            for column in 0..<3 {
                rotation[row][column] = (0..<3).map { uFixed[row][$0] * v[column][$0] }.reduce(0, +)
            }
        }
        func rotate(_ p: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(
                (0..<3).map { rotation[0][$0] * p[$0] }.reduce(0, +),
                (0..<3).map { rotation[1][$0] * p[$0] }.reduce(0, +),
                (0..<3).map { rotation[2][$0] * p[$0] }.reduce(0, +))
        }
        var numerator = 0.0
        var denominator = 0.0
        for ((s, t), w) in zip(zip(sources, targets), weights) {
            let centered = s - center
            numerator += w * (rotate(centered) * t).sum()
            denominator += w * (centered * s).sum()
        }
        guard abs(denominator) > 1e-9 else { throw Failure.degenerate("scale denominator") }
        let scale = numerator / denominator
        guard abs(scale) > 1e-9 else { throw Failure.degenerate("scale") }
        var translation = SIMD3<Double>(repeating: 0)
        for ((s, t), w) in zip(zip(sources, targets), weights) { translation += w * (t - scale * rotate(s)) }
        translation /= total
        return Transform(
            rotationAndScale: rotation.map { $0.map { scale * $0 } },
            translation: [translation.x, translation.y, translation.z])
    }

    private static func determinant(_ m: [[Double]]) -> Double {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    }

    /// U, V and the singular values (in no particular order) of the SVD `A = UΣVᵀ` of a 3×3
    /// matrix, by one-sided Jacobi rotations: columns of `A·V` are made orthogonal; their norms
    /// are the singular values and, normalized, U's columns (a vanishing one completed by the
    /// cross product of the others).
    static func singularVectors(_ a: [[Double]]) -> (u: [[Double]], v: [[Double]], sigma: [Double]) {
        var work = a
        var v: [[Double]] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
        for _ in 0..<60 {
            var rotated = false
            for p in 0..<2 {
                for q in (p + 1)..<3 {
                    var alpha = 0.0
                    var beta = 0.0
                    var gamma = 0.0
                    for i in 0..<3 {
                        alpha += work[i][p] * work[i][p]
                        beta += work[i][q] * work[i][q]
                        gamma += work[i][p] * work[i][q]
                    }
                    guard abs(gamma) > 1e-15 * (alpha * beta).squareRoot(), gamma != 0 else { continue }
                    rotated = true
                    let zeta = (beta - alpha) / (2 * gamma)
                    let t = (zeta >= 0 ? 1.0 : -1.0) / (abs(zeta) + (1 + zeta * zeta).squareRoot())
                    let c = 1 / (1 + t * t).squareRoot()
                    let s = c * t
                    for i in 0..<3 {
                        let wp = work[i][p]
                        let wq = work[i][q]
                        work[i][p] = c * wp - s * wq
                        work[i][q] = s * wp + c * wq
                        let vp = v[i][p]
                        let vq = v[i][q]
                        v[i][p] = c * vp - s * vq
                        v[i][q] = s * vp + c * vq
                    }
                }
            }
            if !rotated { break }
        }
        var u = [[Double]](repeating: [0, 0, 0], count: 3)
        var norms = [Double](repeating: 0, count: 3)
        for column in 0..<3 {
            norms[column] = (0..<3).map { work[$0][column] * work[$0][column] }.reduce(0, +).squareRoot()
            for row in 0..<3 { u[row][column] = norms[column] > 1e-300 ? work[row][column] / norms[column] : 0 }
        }
        // A rank-deficient column: complete U to an orthonormal basis.
        if let weakest = norms.indices.min(by: { norms[$0] < norms[$1] }), norms[weakest] <= 1e-12 * (norms.max() ?? 1)
        {
            let others = (0..<3).filter { $0 != weakest }
            let a = SIMD3(u[0][others[0]], u[1][others[0]], u[2][others[0]])
            let b = SIMD3(u[0][others[1]], u[1][others[1]], u[2][others[1]])
            let cross = SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
            for row in 0..<3 { u[row][weakest] = cross[row] }
        }
        return (u, v, norms)
    }
}
