import CVisionKernels

/// Work that a ``ThreadPool`` splits over its threads: `taskCount` independent tasks, handed
/// out as contiguous ranges.
///
/// Tasks must write disjoint outputs and must not depend on which thread runs them or on
/// how the tasks are grouped into ranges; that is what makes results identical for any
/// thread count.
protocol ParallelJob: AnyObject {
    /// Runs tasks `range` on thread number `thread` (0 is the calling thread).
    func run(tasks range: Range<Int>, thread: Int)
}

/// A fixed set of persistent worker threads with a fork-join `run` (CVisionKernels' `vk_pool`).
///
/// The calling thread takes part in every job, so a pool of `threadCount` threads starts
/// `threadCount - 1` workers; with one thread everything runs inline. Tasks are handed out
/// in chunks to whichever thread is free. After a job the workers poll for the next one for a
/// fraction of a millisecond (the next kernel of an invoke starts without a wake-up), then
/// sleep. `run` neither allocates nor copies: the job is a class instance that lives in the
/// interpreter.
final class ThreadPool {
    /// Number of threads that share a job, the caller included.
    let threadCount: Int
    private let pool: OpaquePointer?
    /// The job being run, read by the C callback.
    private let slot: UnsafeMutablePointer<JobSlot>
    /// What the slot holds between jobs.
    private let idle = ClosureJob { _ in }

    /// The job as the callbacks read it (`run` keeps it alive until the job is done).
    private struct JobSlot {
        unowned(unsafe) var job: ParallelJob
        var pool: OpaquePointer?
    }

    /// Work below which a job runs on the calling thread (``EngineTuning/minimumParallelWork``).
    let minimumParallelWork: Int

    init(threadCount: Int, minimumParallelWork: Int = EngineTuning.standard.minimumParallelWork) {
        self.minimumParallelWork = minimumParallelWork
        let requested = max(1, threadCount)
        let pool = requested > 1 ? vk_pool_create(requested) : nil
        // Without workers (one thread, or threads could not start) everything runs inline.
        self.pool = pool
        self.threadCount = pool == nil ? 1 : requested
        slot = .allocate(capacity: 1)
        slot.initialize(to: JobSlot(job: idle, pool: pool))
    }

    deinit {
        if let pool { vk_pool_destroy(pool) }
        slot.deinitialize(count: 1)
        slot.deallocate()
    }

    private static let callback: vk_task_fn = { context, begin, end, thread in
        guard let context else { return }
        context.assumingMemoryBound(to: JobSlot.self).pointee.job.run(tasks: begin..<end, thread: thread)
    }

    /// One call per thread and job: the job's reference is taken once, then chunks are claimed
    /// until none is left (a reference count touched per chunk by two threads costs
    /// microseconds per job).
    private static let entry: vk_entry_fn = { context, thread in
        guard let slot = context?.assumingMemoryBound(to: JobSlot.self), let pool = slot.pointee.pool else { return }
        let job = slot.pointee.job
        var begin = 0
        var end = 0
        while vk_pool_claim(pool, thread, &begin, &end) != 0 { job.run(tasks: begin..<end, thread: thread) }
    }

    /// Runs `taskCount` tasks of `job` and returns when all are done. `work` estimates the
    /// job's multiply-adds (or elements); tiny jobs run inline.
    func run(_ job: ParallelJob, taskCount: Int, work: Int = .max) {
        guard taskCount > 0 else { return }
        guard let pool, taskCount > 1, taskCount < Int(UInt32.max), work >= minimumParallelWork else {
            job.run(tasks: 0..<taskCount, thread: 0)
            return
        }
        slot.pointee.job = job
        withExtendedLifetime(job) { vk_pool_run_claiming(pool, ThreadPool.entry, slot, taskCount) }
        slot.pointee.job = idle
    }

    /// Workers asleep at this moment (0 without workers).
    var sleepingWorkers: Int { pool.map { Int(vk_pool_sleeping($0)) } ?? 0 }

    /// Runs `job` once on every thread `t` of the pool, as task `t`.
    func runOnEachThread(_ job: ParallelJob) {
        guard let pool else {
            job.run(tasks: 0..<1, thread: 0)
            return
        }
        slot.pointee.job = job
        withExtendedLifetime(job) { vk_pool_run_on_each_thread(pool, ThreadPool.callback, slot) }
        slot.pointee.job = idle
    }
}

/// A job that calls a closure with the thread number for each of its tasks' threads.
final class ClosureJob: ParallelJob {
    private let body: (Int) -> Void

    init(_ body: @escaping (Int) -> Void) { self.body = body }

    func run(tasks range: Range<Int>, thread: Int) { body(thread) }
}

/// A job that hands its task ranges to a closure set for the length of one `run`.
final class RangeJob: ParallelJob {
    var body: ((Range<Int>) -> Void)?

    func run(tasks range: Range<Int>, thread: Int) { body?(range) }
}
