/// OpenCV's `cv::resize` with `INTER_LINEAR` on one float plane, as MediaPipe's segmenter resizes
/// each confidence mask to the image (tensors_to_segmentation_calculator.cc; the generic float
/// path of opencv/modules/imgproc/src/resize.cpp): half-pixel sample positions, float weights,
/// a horizontal pass over every source row, then a vertical blend of two of those rows.
///
/// Per axis, output `d` samples `f = (d + 0.5) · src/dst − 0.5` (in double, then float), from
/// source `s = ⌊f⌋` with weights `1 − (f − s)` and `f − s`. Horizontally a position left of the
/// first column or on the last takes that column alone; vertically the weights are kept and both
/// rows are clamped into the image, as OpenCV does.
struct LinearMaskResize {
    /// Per output column: the left source column and the two weights.
    private var columns: [Int] = []
    private var columnWeights: [SIMD2<Float>] = []
    /// Per output row: the two source rows and their weights.
    private var rows: [SIMD2<Int32>] = []
    private var rowWeights: [SIMD2<Float>] = []
    /// The sizes the tables above are for.
    private var sizes = (sourceWidth: 0, sourceHeight: 0, width: 0, height: 0)
    /// The horizontally resized source rows.
    private var wideRows: [Float] = []

    /// Resizes the `sourceWidth × sourceHeight` plane read at `source[(y · sourceWidth + x) ·
    /// stride]` into `target` (`width × height`, row-major), output rows shared out to `threads`.
    mutating func resize(
        source: UnsafePointer<Float>, stride: Int, sourceWidth: Int, sourceHeight: Int,
        into target: UnsafeMutableBufferPointer<Float>, width: Int, height: Int,
        threads: TaskThreads
    ) {
        prepare(sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height)
        guard let output = target.baseAddress, target.count >= width * height else { return }
        columns.withUnsafeBufferPointer { columns in
            columnWeights.withUnsafeBufferPointer { columnWeights in
                rows.withUnsafeBufferPointer { rows in
                    rowWeights.withUnsafeBufferPointer { rowWeights in
                        wideRows.withUnsafeMutableBufferPointer { wide in
                            guard let columns = columns.baseAddress, let columnWeights = columnWeights.baseAddress,
                                let rows = rows.baseAddress, let rowWeights = rowWeights.baseAddress,
                                let wide = wide.baseAddress
                            else { return }
                            // Horizontal pass: every source row to the output width.
                            threads.run { thread in
                                for y in threads.rows(sourceHeight, thread: thread) {
                                    let from = source + y * sourceWidth * stride
                                    let to = wide + y * width
                                    for x in 0..<width {
                                        let left = columns[x]
                                        let right = Swift.min(left + 1, sourceWidth - 1)
                                        let w = columnWeights[x]
                                        to[x] = from[left * stride] * w.x + from[right * stride] * w.y
                                    }
                                }
                            }
                            // Vertical pass: each output row blends two wide rows.
                            threads.run { thread in
                                for y in threads.rows(height, thread: thread) {
                                    let pair = rows[y]
                                    let w = rowWeights[y]
                                    let top = wide + Int(pair.x) * width
                                    let bottom = wide + Int(pair.y) * width
                                    let to = output + y * width
                                    for x in 0..<width { to[x] = top[x] * w.x + bottom[x] * w.y }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// OpenCV's sample of output `d` of `count` from `source` values: `f = (d + 0.5) · scale − 0.5`
    /// in double, rounded to float, split into `⌊f⌋` and the fraction.
    private static func sample(_ d: Int, count: Int, source: Int) -> (index: Int, fraction: Float) {
        let scale = 1.0 / (Double(count) / Double(source))
        let f = Float((Double(d) + 0.5) * scale - 0.5)
        let s = Int(f.rounded(.down))
        return (s, f - Float(s))
    }

    /// Builds the tables for these sizes (kept while the sizes repeat, as in a video).
    private mutating func prepare(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        guard sizes != (sourceWidth, sourceHeight, width, height) else { return }
        sizes = (sourceWidth, sourceHeight, width, height)
        columns = []
        columnWeights = []
        for x in 0..<width {
            var (s, f) = LinearMaskResize.sample(x, count: width, source: sourceWidth)
            if s < 0 {
                (s, f) = (0, 0)
            }
            if s >= sourceWidth - 1 {
                (s, f) = (sourceWidth - 1, 0)
            }
            columns.append(s)
            columnWeights.append(SIMD2(1 - f, f))
        }
        rows = []
        rowWeights = []
        for y in 0..<height {
            let (s, f) = LinearMaskResize.sample(y, count: height, source: sourceHeight)
            let top = Swift.min(Swift.max(s, 0), sourceHeight - 1)
            let bottom = Swift.min(Swift.max(s + 1, 0), sourceHeight - 1)
            rows.append(SIMD2(Int32(top), Int32(bottom)))
            rowWeights.append(SIMD2(1 - f, f))
        }
        wideRows = [Float](repeating: 0, count: sourceHeight * width)
    }
}
