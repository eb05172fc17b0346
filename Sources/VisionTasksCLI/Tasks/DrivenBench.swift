import Foundation

/// The `--driven` mode of `bench-model` and `bench TASK`: another program decides when this one
/// times its calls, so that it can alternate them call for call with another runtime's.
///
/// On a shared machine the speed of a core changes in phases of a fraction of a second to a few
/// seconds (a neighbour's load on the same physical core or cache). Two runtimes timed one after
/// the other for a few seconds each then see different phases; alternating single calls, and
/// comparing each pair of adjacent calls, compares them under the same conditions
/// (`scripts/benchmarks/litert_bench.py --ours`, `scripts/benchmarks/mediapipe_bench.py --ours`).
///
/// The exchange is line by line. After loading and warming up, the command writes one JSON object
/// (its `ready` line: `{"ready":true,…}` with what it knows of itself). Then each line it reads
/// holds a count N: it makes N calls and answers with one line, a JSON array of the N times in
/// milliseconds. The driver usually asks for 2 and keeps the second, so that the timed call
/// follows a call of the same runtime (its data back in cache, its threads awake) rather than the
/// other runtime's. An empty line is ignored; end of input or `quit` ends the command.
package struct DrivenBench {
    /// The most calls one request may ask for.
    package static let maximumCalls = 10_000

    private let input: FileHandle
    private let console: Console
    /// Bytes read but not yet consumed as a line.
    private var pending: [UInt8] = []
    private var ended = false

    package init(input: FileHandle, console: Console) {
        self.input = input
        self.console = console
    }

    /// Writes the ready line (`{"ready":true}` followed by `details`), then answers requests until
    /// the driver ends; `call` makes one call and returns its milliseconds (``BenchTimer/milliseconds(_:)``).
    package mutating func serve(details: [(String, JSONValue)], call: () throws -> Double) throws {
        console.print(json: .object([("ready", .bool(true))] + details))
        while let line = nextLine() {
            let request = line.trimmingCharacters(in: .whitespaces)
            if request.isEmpty { continue }
            if request == "quit" { return }
            guard let count = Int(request), (1...Self.maximumCalls).contains(count) else {
                throw CLIError.usage(
                    "--driven reads a count of calls (1...\(Self.maximumCalls)) or 'quit' per line, not '\(request)'")
            }
            var times: [JSONValue] = []
            times.reserveCapacity(count)
            for _ in 0..<count {
                let milliseconds = try call()
                times.append(.double((milliseconds * 1000).rounded() / 1000))
            }
            console.print(json: .array(times))
        }
    }

    /// The next line of input without its newline (a last line without one counts), or nil at the
    /// end. Reads only what is available, so it waits for the driver between requests.
    private mutating func nextLine() -> String? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            if ended {
                guard !pending.isEmpty else { return nil }
                defer { pending.removeAll() }
                return String(decoding: pending, as: UTF8.self)
            }
            let chunk = input.availableData
            if chunk.isEmpty { ended = true } else { pending.append(contentsOf: chunk) }
        }
    }
}
