import Foundation

@testable import VisionTasks

/// A thread-safe record of what a fake processor saw.
final class ProcessingLog: @unchecked Sendable {
    private let lock = NSLock()
    private var _timestamps: [Int] = []
    private var active = 0
    private var _maxConcurrent = 0

    var timestamps: [Int] { lock.withLock { _timestamps } }
    var maxConcurrent: Int { lock.withLock { _maxConcurrent } }

    func begin(_ timestamp: Int) {
        lock.withLock {
            _timestamps.append(timestamp)
            active += 1
            _maxConcurrent = max(_maxConcurrent, active)
        }
    }

    func end() { lock.withLock { active -= 1 } }
}

/// Collects live-stream deliveries.
final class DeliveryLog<Output: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var _results: [(Result<Output, TasksError>, Int)] = []
    private var active = 0
    private var _overlapped = false

    var results: [(Result<Output, TasksError>, Int)] { lock.withLock { _results } }
    var timestamps: [Int] { results.map(\.1) }
    var overlapped: Bool { lock.withLock { _overlapped } }

    var handler: @Sendable (Result<Output, TasksError>, Int) -> Void {
        { [self] result, timestamp in
            lock.withLock {
                active += 1
                if active > 1 { _overlapped = true }
            }
            // Give overlapping deliveries a chance to show up.
            usleep(200)
            lock.withLock {
                _results.append((result, timestamp))
                active -= 1
            }
        }
    }
}

/// Released when a test opens it; lets a processor block until then.
final class Gate: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let entered = DispatchSemaphore(value: 0)

    func waitInside() {
        entered.signal()
        semaphore.wait()
    }

    /// Blocks until a processor is waiting inside the gate.
    func waitUntilEntered() { entered.wait() }

    func open(times: Int = 1) {
        for _ in 0..<times { semaphore.signal() }
    }
}

struct FakeError: Error {}

/// Tracks whether a processor's state is still alive.
final class LifetimeToken: @unchecked Sendable {
    private let onDeinit: @Sendable () -> Void
    init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}

/// A fake task pipeline: records calls, optionally sleeps, blocks on a gate or fails.
struct FakeProcessor: FrameProcessor {
    let log: ProcessingLog
    var sleepMicroseconds: UInt32 = 0
    var gate: Gate?
    var token: LifetimeToken?
    var failure: (@Sendable (Int) -> (any Error)?)?
    var calls = 0

    init(
        log: ProcessingLog = ProcessingLog(), sleepMicroseconds: UInt32 = 0, gate: Gate? = nil,
        token: LifetimeToken? = nil, failure: (@Sendable (Int) -> (any Error)?)? = nil
    ) {
        self.log = log
        self.sleepMicroseconds = sleepMicroseconds
        self.gate = gate
        self.token = token
        self.failure = failure
    }

    mutating func process(_ input: Int, timestampInMilliseconds: Int) throws -> String {
        log.begin(timestampInMilliseconds)
        defer { log.end() }
        calls += 1
        if let gate { gate.waitInside() }
        if sleepMicroseconds > 0 { usleep(sleepMicroseconds) }
        if let error = failure?(timestampInMilliseconds) { throw error }
        return "\(input)@\(timestampInMilliseconds)#\(calls)"
    }
}
