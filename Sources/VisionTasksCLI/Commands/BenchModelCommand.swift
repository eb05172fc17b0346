import Foundation
import Inference

/// `vision-tasks bench-model MODEL [--member NAME] [--threads N] [--iterations N] [--json]`:
/// times one `invoke()` of the engine after warm-up. `--profile` also prints the median time of
/// each operator type, `--profile-kernels` of each kernel in order. `--isa NAME` runs the
/// kernels of another supported instruction set (avx512, avx2, neon, portable) to compare;
/// `--arithmetic xnnpack|reference` chooses the arithmetic of quantized models.
package enum BenchModelCommand: Command {
    package static let name = "bench-model"
    package static let summary = "time the engine on one model: median, min and max ms per invoke, arena bytes"
    package static let usage = "vision-tasks bench-model MODEL [--member NAME] [--threads N] [--iterations N] [--json] [--profile] [--profile-kernels] [--isa NAME] [--arithmetic xnnpack|reference]"

    /// Untimed invokes before measuring.
    static let warmUp = 5

    package static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try Arguments(arguments, flags: ["json", "profile", "profile-kernels"],
                                   options: ["member", "threads", "iterations", "isa", "arithmetic"])
        guard parsed.positionals.count == 1, let file = parsed.positionals.first else {
            throw CLIError.usage("bench-model takes exactly one MODEL")
        }
        let iterations = try parsed.integer("iterations", in: 1...100_000) ?? 50
        let interpreter = try ModelLoading.interpreter(
            path: context.absolute(file), member: parsed.value("member"),
            threads: try parsed.integer("threads", in: 1...256), instructionSet: parsed.value("isa"),
            arithmetic: try ModelLoading.arithmetic(parsed.value("arithmetic")))
        // A fixed, input-range-neutral pattern: timing does not depend on values.
        for index in 0..<interpreter.inputCount {
            if try interpreter.inputType(index) == .float32 {
                try interpreter.withInputBuffer(index) { buffer in
                    for i in 0..<buffer.count { buffer[i] = Float(i % 251) / 251 }
                }
            } else {
                try interpreter.withInputBytes(index) { buffer in
                    for i in 0..<buffer.count { buffer[i] = UInt8(i % 251) }
                }
            }
        }
        for _ in 0..<warmUp { try interpreter.invoke() }
        var times: [Double] = []
        times.reserveCapacity(iterations)
        for _ in 0..<iterations {
            let start = DispatchTime.now().uptimeNanoseconds
            try interpreter.invoke()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        times.sort()
        let median = times.count % 2 == 1
            ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
        let minimum = times.first ?? 0, maximum = times.last ?? 0
        if parsed.flag("profile") || parsed.flag("profile-kernels") {
            let runs = (0..<Swift.min(iterations, 20)).map { _ in interpreter.profile() }
            if parsed.flag("profile-kernels") {
                for k in runs[0].indices {
                    let median = runs.map { $0[k].milliseconds }.sorted()[runs.count / 2]
                    context.console.log(runs[0][k].label.padding(toLength: 28, withPad: " ", startingAt: 0) + String(format: "%8.3f ms", median))
                }
            }
            // Per operator type: sum over its kernels of each kernel's median time.
            var totals: [(String, Double)] = []
            for k in runs[0].indices {
                let name = String(runs[0][k].label.split(separator: "#")[0])
                let median = runs.map { $0[k].milliseconds }.sorted()[runs.count / 2]
                if let at = totals.firstIndex(where: { $0.0 == name }) { totals[at].1 += median } else { totals.append((name, median)) }
            }
            for (name, ms) in totals.sorted(by: { $0.1 > $1.1 }) {
                context.console.log(name.padding(toLength: 20, withPad: " ", startingAt: 0) + String(format: "%8.3f ms", ms))
            }
        }
        if parsed.flag("json") {
            context.console.print(json: .object([
                ("medianMs", .double(median)), ("minMs", .double(minimum)), ("maxMs", .double(maximum)),
                ("arenaBytes", .int(interpreter.arenaByteCount)),
                ("weightBytes", .int(interpreter.packedWeightByteCount)),
                ("threads", .int(interpreter.threadCount)),
                ("instructionSet", .string(interpreter.instructionSet.description)),
            ]))
        } else {
            context.console.print(String(format: "median %.3f ms, min %.3f ms, max %.3f ms over %d invokes (%d threads, %@); arena %d bytes, weights %d bytes",
                                         median, minimum, maximum, iterations, interpreter.threadCount,
                                         interpreter.instructionSet.description, interpreter.arenaByteCount,
                                         interpreter.packedWeightByteCount))
        }
        return 0
    }
}
