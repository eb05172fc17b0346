/// How the fused kernels (``PointwiseDepthwiseKernel``, ``DepthwisePointwiseKernel``) cut an
/// image's rows into bands, one task each (and ``SparseConvKernel`` its pixels into tiles on
/// several threads): band `i` of `count` holds rows
/// `i * height / count ..< (i + 1) * height / count`, so sizes differ by at most one row, and
/// with several threads the count is a multiple of the thread count, so that the pool's equal
/// shares of tasks (`vk_pool_share`) are equal shares of rows. (Uneven cuts left one of two threads idle at the end
/// of a job: 17 + 17 + 17 + 5 rows in the pose detector, 4 + 3 bands of 2 rows in the hand
/// landmark model's 14×14 layers.)
enum RowBands {
    /// About `wanted` bands of `height` rows, none over `capacity` rows, made a multiple of
    /// `threads`: rounded down while the bands still fit `capacity`, else up (at most `height`).
    static func count(height: Int, wanted: Int, capacity: Int, threads: Int) -> Int {
        guard height > 0 else { return 1 }
        let capacity = Swift.max(1, capacity)
        let threads = Swift.max(1, threads)
        let wanted = Swift.max(wanted, (height + capacity - 1) / capacity)
        let down = wanted / threads * threads
        if down >= 1, (height + down - 1) / down <= capacity { return Swift.min(height, down) }
        return Swift.min(height, (wanted + threads - 1) / threads * threads)
    }

    /// The rows of band `index` of `count` over `height` rows.
    @inline(__always)
    static func rows(_ index: Int, of count: Int, height: Int) -> Range<Int> {
        (index * height / count)..<((index + 1) * height / count)
    }
}
