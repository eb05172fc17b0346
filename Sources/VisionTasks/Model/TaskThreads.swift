/// The threads a task's per-frame work beyond its models may use (such as bringing a mask back
/// to the image's size): ``run(_:)`` calls a body once on each of ``count`` threads, passing the
/// thread's number (0 is the calling thread), and returns when all are done. A task takes its
/// model's interpreter threads (``TaskModel/threads``), which are idle between invokes.
struct TaskThreads {
    /// How many threads ``run(_:)`` uses.
    var count: Int
    /// Calls a body once per thread, concurrently.
    private var runner: (@escaping (Int) -> Void) -> Void

    init(count: Int, runner: @escaping (@escaping (Int) -> Void) -> Void) {
        self.count = count
        self.runner = runner
    }

    /// Everything on the calling thread.
    static var calling: TaskThreads { TaskThreads(count: 1) { body in body(0) } }

    /// Runs `body` once on each thread with the thread's number, all at once.
    func run(_ body: @escaping (Int) -> Void) {
        runner(body)
    }

    /// The rows `[first, end)` of `count` rows that thread `thread` takes: contiguous bands
    /// differing by at most one row.
    func rows(_ total: Int, thread: Int) -> Range<Int> {
        let threads = Swift.max(1, count)
        return (total * thread / threads)..<(total * (thread + 1) / threads)
    }
}
