import Foundation

/// Idle task instances for stateless requests, kept per task and option set. A request takes an
/// instance, uses it alone and gives it back, so no instance is ever used by two threads at once;
/// with W workers at most W instances of one option set are ever made.
final class TaskPool: @unchecked Sendable {
    // @unchecked: every field is touched only under `lock`; an instance is owned by one request
    // between take and giveBack.
    private let lock = NSLock()
    private var idle: [String: [any FrameRunner]] = [:]
    /// Option sets, most recently used last.
    private var recent: [String] = []
    private let instancesPerKey: Int
    private let keys: Int

    /// Keeps at most `instancesPerKey` idle instances of one option set and `keys` option sets.
    init(instancesPerKey: Int, keys: Int = 16) {
        self.instancesPerKey = max(1, instancesPerKey)
        self.keys = max(1, keys)
    }

    /// An idle instance for `key`, or `nil` when the caller has to make one.
    func take(_ key: String) -> (any FrameRunner)? {
        lock.lock()
        defer { lock.unlock() }
        touch(key)
        return idle[key]?.popLast()
    }

    /// Returns an instance after use.
    func giveBack(_ runner: any FrameRunner, key: String) {
        lock.lock()
        defer { lock.unlock() }
        touch(key)
        if idle[key, default: []].count < instancesPerKey { idle[key, default: []].append(runner) }
        while recent.count > keys {
            idle[recent.removeFirst()] = nil
        }
    }

    /// The number of idle instances (for tests).
    var idleCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return idle.values.reduce(0) { $0 + $1.count }
    }

    private func touch(_ key: String) {
        if let index = recent.firstIndex(of: key) { recent.remove(at: index) }
        recent.append(key)
    }
}
