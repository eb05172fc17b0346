/// How two tensors broadcast against each other, reduced to the fewest dimensions.
///
/// TFLite's rule (tensorflow/lite/kernels/kernel_util.cc, `CalculateShapeForBroadcast`):
/// shapes are aligned on the right; each pair of dimensions must be equal or contain a 1, and
/// the output takes the larger. Adjacent dimensions in which both operands broadcast the same
/// way are merged, so a same-shape operation becomes one flat loop.
struct BroadcastShape: Equatable {
    /// The output shape.
    let outputShape: [Int]
    /// Merged dimensions, outermost first (at least one).
    let dims: [Int]
    /// Element strides of each operand per merged dimension (0 where it broadcasts).
    let stridesA: [Int]
    let stridesB: [Int]

    /// `nil` when the shapes do not broadcast.
    init?(_ a: [Int], _ b: [Int]) {
        let rank = Swift.max(a.count, b.count)
        let pa = Array(repeating: 1, count: rank - a.count) + a
        let pb = Array(repeating: 1, count: rank - b.count) + b
        var output: [Int] = []
        // (size, a broadcasts, b broadcasts) for every output dimension larger than 1.
        var merged: [(size: Int, aOne: Bool, bOne: Bool)] = []
        for d in 0..<rank {
            let x = pa[d]
            let y = pb[d]
            guard x == y || x == 1 || y == 1 else { return nil }
            let size = x == 1 ? y : x
            output.append(size)
            guard size != 1 else { continue }
            let aOne = x == 1
            let bOne = y == 1
            if let last = merged.last, last.aOne == aOne, last.bOne == bOne {
                merged[merged.count - 1].size *= size
            } else {
                merged.append((size, aOne, bOne))
            }
        }
        if merged.isEmpty { merged = [(1, false, false)] }
        outputShape = output
        dims = merged.map(\.size)
        var sa = Array(repeating: 0, count: merged.count)
        var sb = sa
        var runA = 1
        var runB = 1
        for d in stride(from: merged.count - 1, through: 0, by: -1) {
            if !merged[d].aOne {
                sa[d] = runA
                runA *= merged[d].size
            }
            if !merged[d].bOne {
                sb[d] = runB
                runB *= merged[d].size
            }
        }
        stridesA = sa
        stridesB = sb
    }

    /// The element offsets in each operand of row `row`, a row being one position of every merged
    /// dimension but the innermost. Two merged dimensions (a channel vector over the pixels of an
    /// image, as squeeze-and-excitation scales are) need no division: with one per 16-channel row,
    /// the selfie segmenter's 128 × 128 × 16 MUL took 0.14 ms at one thread.
    @inline(__always)
    func rowOffsets(_ row: Int) -> (a: Int, b: Int) {
        let last = dims.count - 1
        if last == 1 { return (row * stridesA[0], row * stridesB[0]) }
        var offsetA = 0
        var offsetB = 0
        var rest = row
        var d = last - 1
        while d >= 0 {
            let index = rest % dims[d]
            rest /= dims[d]
            offsetA += index * stridesA[d]
            offsetB += index * stridesB[d]
            d -= 1
        }
        return (offsetA, offsetB)
    }

    /// Chunk `chunk` (of `chunkLength` innermost elements) of row `row`: where it starts in a, b
    /// and the output, and how many elements it holds.
    @inline(__always)
    func span(row: Int, chunk: Int, chunkLength: Int) -> (a: Int, b: Int, output: Int, count: Int) {
        let last = dims.count - 1
        let inner = dims[last]
        let start = chunk * chunkLength
        let (offsetA, offsetB) = rowOffsets(row)
        return (
            offsetA + start * stridesA[last], offsetB + start * stridesB[last], row * inner + start,
            Swift.min(chunkLength, inner - start)
        )
    }
}
