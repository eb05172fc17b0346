import Foundation

/// Where a command writes: standard output for results, standard error for messages.
package final class Console: @unchecked Sendable {
    // @unchecked: the sinks are only written under `lock`.
    private let lock = NSLock()
    private let writeOut: (String) -> Void
    private let writeError: (String) -> Void
    /// Whether standard error is a terminal (progress bars go there only then).
    package let errorIsTerminal: Bool

    package init(
        writeOut: @escaping (String) -> Void, writeError: @escaping (String) -> Void, errorIsTerminal: Bool = false
    ) {
        self.writeOut = writeOut
        self.writeError = writeError
        self.errorIsTerminal = errorIsTerminal
    }

    /// The process's standard output and error.
    package static func standard() -> Console {
        Console(
            writeOut: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
            writeError: { text in FileHandle.standardError.write(Data(text.utf8)) },
            errorIsTerminal: isatty(2) != 0)
    }

    /// Writes a line to standard output.
    package func print(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        writeOut(line + "\n")
    }

    /// Writes one JSON value as a line to standard output.
    package func print(json: JSONValue) {
        print(json.serialized())
    }

    /// Writes a line to standard error.
    package func log(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        writeError(line + "\n")
    }

    /// Replaces the current line of standard error with `text` (a progress bar; only for a
    /// terminal). An empty `text` clears the line.
    package func status(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        writeError("\r" + text + "\u{1B}[K")
    }
}

/// A console that records what it is given, for tests.
package final class RecordingConsole: @unchecked Sendable {
    // @unchecked: the buffers are only touched under `lock`.
    private let lock = NSLock()
    private var outBuffer = ""
    private var errorBuffer = ""

    package init() {}

    package var console: Console {
        Console(
            writeOut: { [self] text in
                lock.lock()
                outBuffer += text
                lock.unlock()
            },
            writeError: { [self] text in
                lock.lock()
                errorBuffer += text
                lock.unlock()
            })
    }

    package var standardOutput: String {
        lock.lock()
        defer { lock.unlock() }
        return outBuffer
    }
    package var standardError: String {
        lock.lock()
        defer { lock.unlock() }
        return errorBuffer
    }
}
