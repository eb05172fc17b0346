/// Places buffers with known lifetimes in one arena so that buffers alive at the same time
/// never overlap.
///
/// Greedy by size, as TFLite's `simple_memory_arena` / `ArenaPlanner` "greedy by size"
/// strategy (tensorflow/lite/arena_planner.cc): the largest buffer is placed first, each at the
/// lowest aligned offset that does not overlap any already placed buffer whose lifetime
/// intersects its own.
struct MemoryPlanner {
    struct Request {
        /// Caller's identifier.
        let id: Int
        let byteCount: Int
        /// First and last operator positions (inclusive) during which the buffer is live.
        let first: Int
        let last: Int
    }

    /// Offsets by request id, and the arena size.
    static func plan(_ requests: [Request], alignment: Int) -> (offsets: [Int: Int], byteCount: Int) {
        func align(_ n: Int) -> Int { (n + alignment - 1) / alignment * alignment }
        let ordered = requests.sorted { ($0.byteCount, -$0.id) > ($1.byteCount, -$1.id) }
        var placed: [(offset: Int, end: Int, first: Int, last: Int)] = []
        var offsets: [Int: Int] = [:]
        var total = 0
        for request in ordered {
            let size = align(Swift.max(request.byteCount, 1))
            let conflicts =
                placed
                .filter { $0.first <= request.last && request.first <= $0.last }
                .sorted { $0.offset < $1.offset }
            var offset = 0
            for other in conflicts {
                if offset + size <= other.offset { break }
                offset = Swift.max(offset, other.end)
            }
            placed.append((offset, offset + size, request.first, request.last))
            offsets[request.id] = offset
            total = Swift.max(total, offset + size)
        }
        return (offsets, total)
    }
}
