/// Runs a task command over its inputs: each failure is reported on standard error and the
/// run goes on; the exit status says whether anything failed (../shared/spec/CONTRACT.md).
package struct BatchReport {
    package private(set) var succeeded = 0
    package private(set) var failed = 0

    package init() {}

    /// Runs `body` for `input`, logging `error: <input>: <message>` when it throws.
    package mutating func run(_ input: String, console: Console, _ body: () throws -> Void) {
        do {
            try body()
            succeeded += 1
        } catch {
            failed += 1
            console.log("error: \(input): \(CLI.message(for: error))")
        }
    }

    /// 0 when every input succeeded, else 1.
    package var exitStatus: Int32 { failed == 0 ? 0 : 1 }
}
