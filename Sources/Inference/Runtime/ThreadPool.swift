#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

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

/// A fixed set of persistent worker threads with a fork-join `run`.
///
/// The calling thread takes the first share of every job, so a pool of `threadCount` threads
/// starts `threadCount - 1` workers; with one thread everything runs inline. `run` neither
/// allocates nor copies: the job is a class instance that lives in the interpreter.
final class ThreadPool {
    /// Number of threads that share a job, the caller included.
    let threadCount: Int
    private let shared: Shared

    init(threadCount: Int) {
        self.threadCount = max(1, threadCount)
        shared = Shared(threadCount: self.threadCount)
        for worker in 1..<self.threadCount {
            let shared = self.shared
            let thread = Thread { shared.workerLoop(index: worker) }
            thread.name = "Inference worker \(worker)"
            thread.start()
        }
    }

    deinit { shared.shutDown() }

    /// Runs `taskCount` tasks of `job`, split into one contiguous range per thread, and
    /// returns when all are done.
    func run(_ job: ParallelJob, taskCount: Int) {
        guard taskCount > 0 else { return }
        if threadCount == 1 || taskCount == 1 {
            job.run(tasks: 0..<taskCount, thread: 0)
            return
        }
        shared.run(job, taskCount: taskCount)
    }

    /// The range of tasks that thread `thread` of `threadCount` takes out of `taskCount`.
    static func share(of taskCount: Int, thread: Int, threadCount: Int) -> Range<Int> {
        (taskCount * thread / threadCount)..<(taskCount * (thread + 1) / threadCount)
    }

    /// State shared with the worker threads; outlives the pool until every worker has left.
    private final class Shared: @unchecked Sendable {
        // @unchecked: every mutable field is read and written under `mutex`, except `job`
        // and `taskCount`, which workers read after observing a new generation under the
        // mutex and which the caller does not change until every worker has reported back.
        let threadCount: Int
        let mutex: UnsafeMutablePointer<pthread_mutex_t>
        let wake: UnsafeMutablePointer<pthread_cond_t>
        let done: UnsafeMutablePointer<pthread_cond_t>
        var generation = 0
        var stopping = false
        var running = 0
        var alive: Int
        var job: ParallelJob?
        var taskCount = 0

        init(threadCount: Int) {
            self.threadCount = threadCount
            alive = threadCount - 1
            mutex = .allocate(capacity: 1)
            wake = .allocate(capacity: 1)
            done = .allocate(capacity: 1)
            pthread_mutex_init(mutex, nil)
            pthread_cond_init(wake, nil)
            pthread_cond_init(done, nil)
        }

        deinit {
            pthread_cond_destroy(done)
            pthread_cond_destroy(wake)
            pthread_mutex_destroy(mutex)
            done.deallocate()
            wake.deallocate()
            mutex.deallocate()
        }

        func run(_ job: ParallelJob, taskCount: Int) {
            pthread_mutex_lock(mutex)
            self.job = job
            self.taskCount = taskCount
            running = threadCount - 1
            generation &+= 1
            pthread_cond_broadcast(wake)
            pthread_mutex_unlock(mutex)

            job.run(tasks: ThreadPool.share(of: taskCount, thread: 0, threadCount: threadCount), thread: 0)

            pthread_mutex_lock(mutex)
            while running > 0 { pthread_cond_wait(done, mutex) }
            self.job = nil
            pthread_mutex_unlock(mutex)
        }

        func workerLoop(index: Int) {
            pthread_mutex_lock(mutex)
            var seen = 0  // generation starts at 0: a job posted before this thread started is not missed
            while true {
                while generation == seen && !stopping { pthread_cond_wait(wake, mutex) }
                if stopping { break }
                seen = generation
                guard let job else { continue }
                let count = taskCount
                pthread_mutex_unlock(mutex)
                let range = ThreadPool.share(of: count, thread: index, threadCount: threadCount)
                if !range.isEmpty { job.run(tasks: range, thread: index) }
                pthread_mutex_lock(mutex)
                running -= 1
                if running == 0 { pthread_cond_signal(done) }
            }
            alive -= 1
            pthread_cond_broadcast(done)
            pthread_mutex_unlock(mutex)
        }

        func shutDown() {
            pthread_mutex_lock(mutex)
            stopping = true
            pthread_cond_broadcast(wake)
            while alive > 0 { pthread_cond_wait(done, mutex) }
            pthread_mutex_unlock(mutex)
        }
    }
}
