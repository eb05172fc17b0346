import ModelFile

/// Expands a sparse constant (TFLite's `SparsityParameters`) into its dense form, for DENSIFY.
///
/// Format (tensorflow/lite/schema/schema.fbs, `SparsityParameters`; TFLite's converter in
/// tensorflow/lite/kernels/internal/utils/sparsity_format_converter.cc): the dense shape is
/// split into the original dimensions, with each dimension listed in `block_map` divided by
/// its block size, followed by one dimension per block; `traversal_order` lists these
/// expanded dimensions from outermost to innermost storage order and `dim_metadata[i]`
/// describes the `i`-th traversed one. A dense level multiplies its parent position by its size
/// and adds the index; a CSR level lists, for parent position `p`, the entries
/// `array_segments[p] ..< array_segments[p + 1]` of `array_indices`, and the entry number
/// becomes the position. The innermost position indexes the stored values.
enum Densifier {
    /// The storage description of a sparse tensor, as the densifier reads it.
    struct Layout {
        struct Level {
            let isCompressed: Bool
            let denseSize: Int
            let segments: [Int32]
            let indices: [Int32]
        }

        let traversalOrder: [Int32]
        let blockMap: [Int32]
        let levels: [Level]

        init(traversalOrder: [Int32], blockMap: [Int32], levels: [Level]) {
            self.traversalOrder = traversalOrder
            self.blockMap = blockMap
            self.levels = levels
        }

        init(_ sparsity: SparsityParameters) {
            traversalOrder = sparsity.traversalOrder
            blockMap = sparsity.blockMap
            levels = sparsity.dimensionMetadata.map {
                Level(
                    isCompressed: $0.format == .sparseCSR, denseSize: $0.denseSize,
                    segments: $0.arraySegments, indices: $0.arrayIndices)
            }
        }
    }

    /// The dense bytes of a sparse tensor with `shape` and `elementSize`-byte elements.
    static func densify(
        values: UnsafeRawBufferPointer, sparsity: Layout, shape: [Int],
        elementSize: Int
    ) throws -> AlignedBuffer {
        func fail(_ message: String) -> InferenceError { .invalidModel("sparse tensor: \(message)") }
        let rank = shape.count
        let blockCount = sparsity.blockMap.count
        let levels = rank + blockCount
        let order = sparsity.traversalOrder.map(Int.init)
        guard order.count == levels, Set(order) == Set(0..<levels) else {
            throw fail("traversal order \(sparsity.traversalOrder) is not a permutation of \(levels) dimensions")
        }
        guard sparsity.levels.count == levels else {
            throw fail("\(sparsity.levels.count) dimension metadata entries for \(levels) dimensions")
        }
        // Block size of each original dimension (1 when not blocked) and its block dimension.
        var blockSize = Array(repeating: 1, count: rank)
        var blockDimension = Array(repeating: -1, count: rank)
        for (j, mapped) in sparsity.blockMap.enumerated() {
            let d = Int(mapped)
            guard d >= 0, d < rank, blockDimension[d] == -1 else {
                throw fail("invalid block map \(sparsity.blockMap)")
            }
            guard let level = order.firstIndex(of: rank + j) else {
                throw fail("block dimension \(j) is not traversed")
            }
            let size = sparsity.levels[level].denseSize
            guard size > 0, shape[d] % size == 0 else {
                throw fail("block size \(size) does not divide dimension \(d) of size \(shape[d])")
            }
            blockSize[d] = size
            blockDimension[d] = rank + j
        }
        var expandedSize = Array(repeating: 0, count: levels)
        for d in 0..<rank { expandedSize[d] = shape[d] / blockSize[d] }
        for d in 0..<rank where blockDimension[d] >= 0 { expandedSize[blockDimension[d]] = blockSize[d] }

        let total = shape.reduce(1, *)
        let valueCount = values.count / elementSize
        let output = AlignedBuffer(byteCount: total * elementSize)
        var denseStrides = Array(repeating: 1, count: rank)
        for d in stride(from: rank - 2, through: 0, by: -1) { denseStrides[d] = denseStrides[d + 1] * shape[d + 1] }
        var coordinate = Array(repeating: 0, count: levels)

        func visit(level: Int, position: Int) throws {
            if level == levels {
                guard position >= 0, position < valueCount else {
                    throw fail("value index \(position) beyond \(valueCount) stored values")
                }
                var offset = 0
                for d in 0..<rank {
                    var index = coordinate[d] * blockSize[d]
                    if blockDimension[d] >= 0 { index += coordinate[blockDimension[d]] }
                    offset += index * denseStrides[d]
                }
                guard let base = values.baseAddress else { return }
                (output.raw + offset * elementSize).copyMemory(
                    from: base + position * elementSize, byteCount: elementSize)
                return
            }
            let dimension = order[level]
            let metadata = sparsity.levels[level]
            let size = expandedSize[dimension]
            if !metadata.isCompressed {
                for i in 0..<size {
                    coordinate[dimension] = i
                    try visit(level: level + 1, position: position * size + i)
                }
            } else {
                let segments = metadata.segments
                let indices = metadata.indices
                guard position >= 0, position + 1 < segments.count else { throw fail("segment \(position) is missing") }
                let start = Int(segments[position])
                let end = Int(segments[position + 1])
                guard start >= 0, start <= end, end <= indices.count else {
                    throw fail("segment \(start)..<\(end) exceeds \(indices.count) indices")
                }
                for j in start..<end {
                    let index = Int(indices[j])
                    guard index >= 0, index < size else { throw fail("index \(index) exceeds dimension size \(size)") }
                    coordinate[dimension] = index
                    try visit(level: level + 1, position: j)
                }
            }
        }
        try visit(level: 0, position: 0)
        return output
    }
}
