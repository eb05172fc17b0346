import Foundation

/// The server's tracking sessions: one VIDEO-mode task instance each, used by one request at a
/// time, closed after `idleSeconds` without a frame (counted from the end of the last one).
final class SessionStore: @unchecked Sendable {
    // @unchecked: `sessions` is guarded by `lock`; a session's runner by the session's own lock.
    final class Session: @unchecked Sendable {
        let id: String
        let task: String
        let options: [(name: String, value: String)]
        let runner: any FrameRunner
        let lock = NSLock()
        var lastUsed: Date

        init(
            id: String, task: String, options: [(name: String, value: String)], runner: any FrameRunner, now: Date
        ) {
            self.id = id
            self.task = task
            self.options = options
            self.runner = runner
            lastUsed = now
        }
    }

    static let limit = 64
    private let lock = NSLock()
    private var sessions: [String: Session] = [:]
    let idleSeconds: TimeInterval
    /// The time now (``VisionService/Configuration/clock``).
    private let clock: @Sendable () -> Date

    init(idleSeconds: TimeInterval, clock: @escaping @Sendable () -> Date) {
        self.idleSeconds = idleSeconds
        self.clock = clock
    }

    /// Adds a session, after closing idle ones; refuses when `limit` are open.
    func add(task: String, options: [(name: String, value: String)], runner: any FrameRunner) throws -> Session {
        lock.lock()
        defer { lock.unlock() }
        expire()
        guard sessions.count < Self.limit else { throw ServerError.tooManySessions(Self.limit) }
        let session = Session(
            id: UUID().uuidString.lowercased(), task: task, options: options, runner: runner, now: clock())
        sessions[session.id] = session
        return session
    }

    /// The open session `id`.
    func session(_ id: String) throws -> Session {
        lock.lock()
        defer { lock.unlock() }
        expire()
        guard let session = sessions[id] else { throw ServerError.notFound("No open session '\(id)'.") }
        session.lastUsed = clock()
        return session
    }

    /// Marks `session` used now: called when a frame is done, so that the idle time counts from
    /// the end of the last frame, however long that frame took.
    func touch(_ session: Session) {
        lock.lock()
        defer { lock.unlock() }
        session.lastUsed = clock()
    }

    /// Closes session `id`.
    func remove(_ id: String) throws {
        lock.lock()
        defer { lock.unlock() }
        guard sessions.removeValue(forKey: id) != nil else { throw ServerError.notFound("No open session '\(id)'.") }
    }

    /// The number of open sessions.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        expire()
        return sessions.count
    }

    private func expire() {
        let cutoff = clock().addingTimeInterval(-idleSeconds)
        sessions = sessions.filter { $0.value.lastUsed >= cutoff }
    }
}
