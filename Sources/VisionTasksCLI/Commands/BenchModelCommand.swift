import Foundation
import Inference

/// `vision-tasks bench-model MODEL [--member NAME] [--threads N] [--iterations N] [--json]`:
/// times one `invoke()` of the engine after warm-up. `--profile` also prints the median time of
/// each operator type, `--profile-kernels` of each kernel in order, with the dense multiply-adds
/// of the operators it runs (counted as `inspect` counts them) and the rate they ran at. `--isa NAME` runs the
/// kernels of another supported instruction set (avx512, avx2, neon, portable) to compare;
/// `--arithmetic xnnpack|reference` chooses the arithmetic of quantized models.
/// `--paired-threads N` times a second interpreter of the same model with N threads, invoke for
/// invoke alternating with the first (each timed invoke right after an untimed one of the same
/// interpreter), and reports the median of the per-pair time ratios: on a shared machine whose
/// speed drifts over tenths of seconds, adjacent invokes see the same conditions, so this
/// measures thread scaling far more steadily than two separate runs. `--paired-tuning
/// NAME=VALUE[,NAME=VALUE…]` gives the second interpreter other ``EngineTuning`` thresholds
/// (same thread count unless `--paired-threads` is given too), so that a fusion or band-size
/// choice is timed the same way; the two interpreters' outputs are compared bit for bit.
/// `--driven` leaves the timing to a driver on standard input (``DrivenBench``): after warm-up
/// it writes a ready line with the arena and weight bytes, threads and instruction set, then
/// times as many invokes as each input line asks for.
package enum BenchModelCommand: Command {
    package static let name = "bench-model"
    package static let summary = "time the engine on one model: median, min and max ms per invoke, arena bytes"
    package static let usage =
        "vision-tasks bench-model MODEL [--member NAME] [--threads N] [--iterations N] [--json] [--profile] "
        + "[--profile-kernels] [--isa NAME] [--arithmetic xnnpack|reference] [--paired-threads N] "
        + "[--paired-tuning NAME=VALUE[,NAME=VALUE...]] [--driven]"

    /// Untimed invokes before measuring, as many as the task benchmarks make.
    static let warmUp = BenchTimer.standardWarmUp

    package static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try Arguments(
            arguments, flags: ["json", "profile", "profile-kernels", "driven"],
            options: ["member", "threads", "iterations", "isa", "arithmetic", "paired-threads", "paired-tuning"])
        guard parsed.positionals.count == 1, let file = parsed.positionals.first else {
            throw CLIError.usage("bench-model takes exactly one MODEL")
        }
        let iterations = try parsed.integer("iterations", in: 1...100_000) ?? 50
        func load(threads: Int?, tuning: EngineTuning = .standard) throws -> Interpreter {
            try ModelLoading.interpreter(
                path: context.absolute(file), member: parsed.value("member"), threads: threads,
                instructionSet: parsed.value("isa"),
                arithmetic: try ModelLoading.arithmetic(parsed.value("arithmetic")),
                tuning: tuning)
        }
        let interpreter = try load(threads: try parsed.integer("threads", in: 1...256))
        let pairedThreads = try parsed.integer("paired-threads", in: 1...256)
        let tuningText = parsed.value("paired-tuning")
        let pairedTuning = try tuningText.map(tuning)
        let paired =
            pairedThreads != nil || pairedTuning != nil
            ? try load(threads: pairedThreads ?? interpreter.threadCount, tuning: pairedTuning ?? .standard) : nil
        for engine in [interpreter] + (paired.map { [$0] } ?? []) {
            try fillInputs(engine)
            for _ in 0..<warmUp { try engine.invoke() }
        }
        if parsed.flag("driven") {
            guard paired == nil, !parsed.flag("profile"), !parsed.flag("profile-kernels") else {
                throw CLIError.usage("--driven times one interpreter: no --paired-*, --profile or --profile-kernels")
            }
            var driven = DrivenBench(input: context.standardInput, console: context.console)
            try driven.serve(details: description(of: interpreter)) { try milliseconds(interpreter) }
            return 0
        }
        let sameOutputs = try paired.map { try identicalOutputs(interpreter, $0) }
        var times: [Double] = []
        var pairedTimes: [Double] = []
        times.reserveCapacity(iterations)
        pairedTimes.reserveCapacity(paired == nil ? 0 : iterations)
        for _ in 0..<iterations {
            if let paired {
                // An untimed invoke before each timed one, so that each is timed as in a run of
                // its own (its pool's workers awake, its data in cache) rather than right after
                // the other interpreter.
                try interpreter.invoke()
                times.append(try milliseconds(interpreter))
                try paired.invoke()
                pairedTimes.append(try milliseconds(paired))
            } else {
                times.append(try milliseconds(interpreter))
            }
        }
        // Per-pair ratios before sorting: each compares two adjacent invokes.
        let ratioMedian = BenchTimer.median(ofSorted: zip(times, pairedTimes).map { $0 / $1 }.sorted())
        times.sort()
        pairedTimes.sort()
        let pairedMedian = BenchTimer.median(ofSorted: pairedTimes)
        let median = BenchTimer.median(ofSorted: times)
        let minimum = times.first ?? 0
        let maximum = times.last ?? 0
        if parsed.flag("profile") || parsed.flag("profile-kernels") {
            // With a paired interpreter, the two are profiled alternately (as they are timed).
            var runs: [[(label: String, milliseconds: Double)]] = []
            var pairedRuns = runs
            for _ in 0..<Swift.min(iterations, paired == nil ? 20 : 100) {
                if let paired {
                    try interpreter.invoke()
                    runs.append(interpreter.profile())
                    try paired.invoke()
                    pairedRuns.append(paired.profile())
                } else {
                    runs.append(interpreter.profile())
                }
            }
            // Each interpreter's kernels, by label, with their median times. The two may run
            // different kernels (another tuning fuses differently): they are matched by label.
            func medians(_ runs: [[(label: String, milliseconds: Double)]]) -> [(label: String, ms: Double)] {
                guard let first = runs.first else { return [] }
                return first.indices.map { k in
                    (first[k].label, BenchTimer.median(ofSorted: runs.map { $0[k].milliseconds }.sorted()))
                }
            }
            // One row: the time of each interpreter that runs `label` (`–` for one that does not),
            // and their ratio when both do; the second column only with a paired interpreter.
            func line(_ row: (label: String, ms: Double?, pairedMs: Double?), width: Int) -> String {
                func cell(_ value: Double?) -> String { value.map { String(format: "%8.3f ms", $0) } ?? "       – ms" }
                var text = row.label.padding(toLength: width, withPad: " ", startingAt: 0) + cell(row.ms)
                guard paired != nil else { return text }
                text += cell(row.pairedMs)
                if let ms = row.ms, let pairedMs = row.pairedMs {
                    text += String(format: " %6.2f×", ms / Swift.max(pairedMs, 1e-9))
                }
                return text
            }
            let kernels = medians(runs)
            let pairedKernels = medians(pairedRuns)
            if parsed.flag("profile-kernels") {
                // Each kernel's dense multiply-adds and the rate they ran at (the first side's time
                // where it runs the kernel): what share of the core's peak each kernel reaches.
                var multiplyAdds: [String: Int] = [:]
                for engine in [paired, interpreter].compactMap({ $0 }) {
                    for (label, count) in zip(engine.kernelLabels, engine.kernelMultiplyAdds) {
                        multiplyAdds[label] = count
                    }
                }
                for row in Self.matched(kernels, pairedKernels) {
                    var text = line(row, width: 28)
                    if let count = multiplyAdds[row.label], count > 0, let ms = row.ms ?? row.pairedMs {
                        text += Self.rate(multiplyAdds: count, milliseconds: ms)
                    }
                    context.console.log(text)
                }
                // Their sum, as a row of its own.
                let ms = kernels.reduce(0) { $0 + $1.ms }
                let pairedMs: Double? = pairedKernels.reduce(0) { $0 + $1.ms }
                context.console.log(
                    line((label: "all kernels", ms: ms, pairedMs: pairedMs), width: 28)
                        + Self.rate(multiplyAdds: interpreter.kernelMultiplyAdds.reduce(0, +), milliseconds: ms))
            }
            // Per operator type: sum over its kernels of each kernel's median time.
            func totals(_ kernels: [(label: String, ms: Double)]) -> [(label: String, ms: Double)] {
                var sums: [(label: String, ms: Double)] = []
                for kernel in kernels {
                    let name = Self.operatorName(of: kernel.label)
                    if let at = sums.firstIndex(where: { $0.label == name }) {
                        sums[at].ms += kernel.ms
                    } else {
                        sums.append((name, kernel.ms))
                    }
                }
                return sums
            }
            let types = Self.matched(totals(kernels), totals(pairedKernels), ordered: false)
            for total in types.sorted(by: { ($0.ms ?? 0) > ($1.ms ?? 0) }) {
                context.console.log(line(total, width: 20))
            }
        }
        if parsed.flag("json") {
            var fields: [(String, JSONValue)] =
                [("medianMs", .double(median)), ("minMs", .double(minimum)), ("maxMs", .double(maximum))]
                + description(of: interpreter)
            if let paired {
                fields.append(
                    (
                        "paired",
                        .object([
                            ("threads", .int(paired.threadCount)), ("medianMs", .double(pairedMedian)),
                            ("minMs", .double(pairedTimes.first ?? 0)), ("maxMs", .double(pairedTimes.last ?? 0)),
                            ("medianRatio", .double(ratioMedian)), ("tuning", tuningText.map { .string($0) } ?? .null),
                            ("sameOutputs", .bool(sameOutputs ?? false)),
                        ])
                    ))
            }
            context.console.print(json: .object(fields))
        } else {
            context.console.print(
                String(
                    format:
                        "median %.3f ms, min %.3f ms, max %.3f ms over %d invokes (%d threads, %@); arena %d bytes, "
                        + "weights %d bytes",
                    median, minimum, maximum, iterations, interpreter.threadCount,
                    interpreter.instructionSet.description, interpreter.arenaByteCount,
                    interpreter.packedWeightByteCount))
            if let paired {
                let tuned = tuningText.map { ", tuning \($0)" } ?? ""
                let label = tuningText == nil ? "" : "tuned "
                context.console.print(
                    String(
                        format:
                            "paired with %d threads%@: median %.3f ms, min %.3f ms; median ratio (%d threads / %@%d "
                            + "threads) %.3f; outputs %@",
                        paired.threadCount, tuned, pairedMedian, pairedTimes.first ?? 0,
                        interpreter.threadCount, label, paired.threadCount, ratioMedian,
                        sameOutputs == true ? "bit-identical" : "DIFFER"))
            }
        }
        return 0
    }

    /// The ``EngineTuning`` of a `--paired-tuning` value: the standard thresholds with the listed
    /// ones changed.
    static func tuning(_ text: String) throws -> EngineTuning {
        var tuning = EngineTuning.standard
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let value = Int(parts[1]), tuning.set(String(parts[0]), to: value) else {
                throw CLIError.usage(
                    "--paired-tuning takes NAME=VALUE pairs (values of at least 1) separated by commas; "
                        + "'\(item)' is not one (names: \(EngineTuning.names.joined(separator: ", ")))")
            }
        }
        return tuning
    }

    /// Whether the two interpreters' outputs have the same bytes.
    private static func identicalOutputs(_ a: Interpreter, _ b: Interpreter) throws -> Bool {
        guard a.outputCount == b.outputCount else { return false }
        for index in 0..<a.outputCount {
            let same = try a.withOutputBytes(index) { x in try b.withOutputBytes(index) { y in x.elementsEqual(y) } }
            if !same { return false }
        }
        return true
    }

    /// Fixed inputs: float tensors uniform in [0, 1) from a seeded SplitMix64 sequence, as
    /// `scripts/benchmarks/litert_bench.py` gives LiteRT (its own generator, the same
    /// distribution), bytes a repeating ramp. The time depends on the values a little: the 1×1
    /// convolutions after a RELU leave out the steps at which a whole tile of their input is zero
    /// (on the hand landmark model, uniform inputs leave out 9.84 % of the 1×1 multiply-adds and
    /// a hand crop of business-person.png 9.88 %: `scripts/benchmarks/zero_steps.py`).
    private static func fillInputs(_ interpreter: Interpreter) throws {
        for index in 0..<interpreter.inputCount {
            if try interpreter.inputType(index) == .float32 {
                try interpreter.withInputBuffer(index) { buffer in
                    var generator = SplitMix64(seed: 0)
                    for i in 0..<buffer.count { buffer[i] = Float(generator.next() >> 40) / Float(1 << 24) }
                }
            } else {
                try interpreter.withInputBytes(index) { buffer in
                    for i in 0..<buffer.count { buffer[i] = UInt8(i % 251) }
                }
            }
        }
    }

    /// The wall time of one invoke.
    private static func milliseconds(_ interpreter: Interpreter) throws -> Double {
        try BenchTimer.milliseconds { try interpreter.invoke() }
    }

    /// The JSON fields that describe the interpreter: arena and packed weight bytes, threads,
    /// instruction set.
    private static func description(of interpreter: Interpreter) -> [(String, JSONValue)] {
        [
            ("arenaBytes", .int(interpreter.arenaByteCount)),
            ("weightBytes", .int(interpreter.packedWeightByteCount)),
            ("threads", .int(interpreter.threadCount)),
            ("instructionSet", .string(interpreter.instructionSet.description)),
        ]
    }

    /// The operator name of a kernel label (`CONV_2D#17` → `CONV_2D`).
    static func operatorName(of label: String) -> String {
        guard let hash = label.lastIndex(of: "#") else { return label }
        return String(label[..<hash])
    }

    /// `count` multiply-adds in `milliseconds`, as millions and billions per second.
    static func rate(multiplyAdds count: Int, milliseconds: Double) -> String {
        String(
            format: "  %9.2f M multiply-adds %7.1f G/s", Double(count) / 1e6,
            Double(count) / Swift.max(milliseconds, 1e-9) / 1e6)
    }

    /// `ours` and `paired` joined by label: every label of either, with its time on each side
    /// (`nil` where that side has no such kernel). With `ordered`, in operator order (the index
    /// after `#`, the order both interpreters run in); otherwise ours first, then the paired
    /// side's others.
    static func matched(
        _ ours: [(label: String, ms: Double)], _ paired: [(label: String, ms: Double)], ordered: Bool = true
    ) -> [(label: String, ms: Double?, pairedMs: Double?)] {
        let pairedByLabel = Dictionary(paired.map { ($0.label, $0.ms) }, uniquingKeysWith: { first, _ in first })
        let ourLabels = Set(ours.map(\.label))
        var rows: [(label: String, ms: Double?, pairedMs: Double?)] = ours.map {
            ($0.label, $0.ms, pairedByLabel[$0.label])
        }
        rows += paired.filter { !ourLabels.contains($0.label) }.map { ($0.label, nil, $0.ms) }
        guard ordered else { return rows }
        func index(_ label: String) -> Int {
            label.lastIndex(of: "#").flatMap { Int(label[label.index(after: $0)...]) } ?? Int.max
        }
        return rows.enumerated().sorted { (index($0.element.label), $0.offset) < (index($1.element.label), $1.offset) }
            .map(\.element)
    }
}
