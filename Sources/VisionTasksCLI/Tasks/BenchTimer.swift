import Foundation

/// Times repeated calls for the `bench` commands: warm-up, then median, minimum and maximum.
package struct BenchTimer {
    /// Untimed calls before timing, unless told otherwise.
    package static let standardWarmUp = 5

    package var warmUp: Int
    package var iterations: Int

    package init(warmUp: Int = standardWarmUp, iterations: Int) {
        self.warmUp = warmUp
        self.iterations = iterations
    }

    /// Milliseconds per call of `body` (called `warmUp + iterations` times, with the call index).
    package func measure(_ body: (Int) throws -> Void) rethrows -> (median: Double, min: Double, max: Double) {
        for index in 0..<warmUp { try body(index) }
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for index in 0..<iterations { samples.append(try Self.milliseconds { try body(warmUp + index) }) }
        samples.sort()
        return (BenchTimer.median(ofSorted: samples), samples.first ?? 0, samples.last ?? 0)
    }

    /// The wall time of one call of `body`, in milliseconds.
    package static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    /// The median of `values`, sorted in increasing order (0 for none).
    package static func median(ofSorted values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let middle = values.count / 2
        return values.count % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2
    }

    /// The `bench` output: `{"medianMs","minMs","maxMs"}` and the `extra` fields with `--json`, else a line
    /// of text.
    package static func report(
        _ timing: (median: Double, min: Double, max: Double), label: String, json: Bool, console: Console,
        extra: [(String, JSONValue)] = []
    ) {
        func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
        if json {
            console.print(
                json: .object(
                    [
                        ("medianMs", .double(rounded(timing.median))), ("minMs", .double(rounded(timing.min))),
                        ("maxMs", .double(rounded(timing.max))),
                    ] + extra))
        } else {
            let details = extra.map { ", \($0.0) \($0.1.serialized())" }.joined()
            console.print(
                String(
                    format: "%@: median %.2f ms, min %.2f ms, max %.2f ms", label, timing.median, timing.min, timing.max
                ) + details)
        }
    }
}
