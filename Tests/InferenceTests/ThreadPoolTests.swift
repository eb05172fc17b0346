import CVisionKernels
import Foundation
import Testing

@testable import Inference

/// The fork-join pool: every task runs exactly once per job, whatever the thread count, over
/// many jobs in a row (the workers poll, sleep and wake between them); an idle pool's workers
/// sleep.
@Suite struct ThreadPoolTests {
    private final class CountingJob: ParallelJob {
        let counts: UnsafeMutablePointer<Int>
        let taskCount: Int
        let threads: UnsafeMutablePointer<Int>

        init(taskCount: Int, threadCount: Int) {
            self.taskCount = taskCount
            counts = .allocate(capacity: taskCount)
            counts.initialize(repeating: 0, count: taskCount)
            threads = .allocate(capacity: threadCount)
            threads.initialize(repeating: 0, count: threadCount)
        }

        deinit {
            counts.deallocate()
            threads.deallocate()
        }

        func run(tasks range: Range<Int>, thread: Int) {
            for task in range { counts[task] += 1 }
            threads[thread] += 1
        }

        var everyTaskRanOnce: Bool { (0..<taskCount).allSatisfy { counts[$0] == 1 } }
    }

    @Test(arguments: [1, 2, 3, 4])
    func everyTaskRunsExactlyOnce(_ threadCount: Int) {
        let pool = ThreadPool(threadCount: threadCount)
        for (round, taskCount) in [1, 2, 3, 7, 64, 1000, 5, 100_000].enumerated() {
            for repetition in 0..<50 {
                let job = CountingJob(taskCount: taskCount, threadCount: pool.threadCount)
                pool.run(job, taskCount: taskCount)
                let wrong = (0..<taskCount).filter { job.counts[$0] != 1 }.count
                #expect(
                    wrong == 0,
                    "\(threadCount) threads, round \(round) repetition \(repetition): \(wrong) tasks not run once")
            }
        }
    }

    @Test func jobsBelowTheMinimumWorkRunInOneCallOnTheCaller() {
        // 64 tasks: inline, one call over all of them on thread 0; shared out, the claims take a
        // few tasks at a time, so there are several calls.
        let pool = ThreadPool(threadCount: 2, minimumParallelWork: 1000)
        let small = CountingJob(taskCount: 64, threadCount: 2)
        pool.run(small, taskCount: 64, work: 999)
        #expect(small.everyTaskRanOnce && small.threads[0] == 1 && small.threads[1] == 0)
        let large = CountingJob(taskCount: 64, threadCount: 2)
        pool.run(large, taskCount: 64, work: 1000)
        #expect(large.everyTaskRanOnce && large.threads[0] + large.threads[1] > 1)
    }

    @Test func sharesCutTheTasksIntoRangesInThreadOrderWithinOneTaskOfEachOther() {
        for threads in 1...5 {
            for count in 0...40 {
                var next = 0
                var sizes: [Int] = []
                for thread in 0..<threads {
                    var begin = 0
                    var end = 0
                    vk_pool_share(count, thread, threads, &begin, &end)
                    #expect(begin == next && end >= begin, "\(count) tasks, thread \(thread) of \(threads)")
                    next = end
                    sizes.append(end - begin)
                }
                #expect(next == count)
                #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1, "\(count) tasks, \(threads) threads")
            }
        }
    }

    @Test(arguments: [1, 2, 3])
    func runOnEachThreadCallsEveryThreadOnce(_ threadCount: Int) {
        let pool = ThreadPool(threadCount: threadCount)
        for _ in 0..<20 {
            let job = CountingJob(taskCount: pool.threadCount, threadCount: pool.threadCount)
            pool.runOnEachThread(job)
            #expect((0..<pool.threadCount).allSatisfy { job.counts[$0] == 1 && job.threads[$0] == 1 })
        }
    }

    /// Polls `condition` until it holds, for at most 30 s: a bound only a hung worker reaches (a
    /// loaded machine may take a while to run a thread, and returning early costs nothing).
    private func waitUntil(_ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(30)
        while !condition() && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
    }

    @Test func workersFallAsleepAfterAJobAndWakeForTheNext() throws {
        let pool = ThreadPool(threadCount: 2)
        try #require(pool.threadCount == 2)
        let job = CountingJob(taskCount: 16, threadCount: 2)
        pool.run(job, taskCount: job.taskCount)
        // They poll for 50 µs, then sleep.
        waitUntil { pool.sleepingWorkers == 1 }
        #expect(pool.sleepingWorkers == 1)
        #expect(job.everyTaskRanOnce)
        // And wake for the next job.
        let next = CountingJob(taskCount: 16, threadCount: 2)
        pool.run(next, taskCount: next.taskCount)
        #expect(next.everyTaskRanOnce)
    }
}
