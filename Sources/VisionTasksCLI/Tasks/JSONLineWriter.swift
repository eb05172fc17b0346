import Foundation

/// Where a task command's JSON lines go: standard output, or the file given with `--output`
/// (one JSON object per line). Lines from several threads never interleave.
package final class JSONLineWriter: @unchecked Sendable {
    // @unchecked: `handle` is only written under `lock`.
    private let lock = NSLock()
    private let console: Console
    private let handle: FileHandle?
    private let path: String?

    /// Writes to `path` (created or truncated) when given, else to the console's output.
    package init(path: String?, context: CommandContext) throws {
        console = context.console
        guard let path else {
            handle = nil
            self.path = nil
            return
        }
        let absolute = context.absolute(path)
        guard FileManager.default.createFile(atPath: absolute, contents: nil),
            let handle = FileHandle(forWritingAtPath: absolute)
        else { throw CLIError.failed("cannot write --output file '\(path)'") }
        self.handle = handle
        self.path = path
    }

    deinit { try? handle?.close() }

    /// Writes one line.
    package func write(_ value: JSONValue) throws {
        guard let handle else { return console.print(json: value) }
        lock.lock()
        defer { lock.unlock() }
        do {
            try handle.write(contentsOf: Data((value.serialized() + "\n").utf8))
        } catch {
            throw CLIError.failed("cannot write --output file '\(path ?? "")': \(CLI.message(for: error))")
        }
    }
}
