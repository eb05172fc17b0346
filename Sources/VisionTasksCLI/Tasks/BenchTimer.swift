import Foundation

/// Times repeated calls for the `bench` commands: warm-up, then median, minimum and maximum.
package struct BenchTimer {
    package var warmUp: Int
    package var iterations: Int

    package init(warmUp: Int = 5, iterations: Int) {
        self.warmUp = warmUp
        self.iterations = iterations
    }

    /// Milliseconds per call of `body` (called `warmUp + iterations` times, with the call index).
    package func measure(_ body: (Int) throws -> Void) rethrows -> (median: Double, min: Double, max: Double) {
        for index in 0..<warmUp { try body(index) }
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for index in 0..<iterations {
            let start = DispatchTime.now().uptimeNanoseconds
            try body(warmUp + index)
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        samples.sort()
        let middle = samples.count / 2
        let median = samples.count % 2 == 1 ? samples[middle] : (samples[middle - 1] + samples[middle]) / 2
        return (median, samples.first ?? 0, samples.last ?? 0)
    }

    /// The `bench` output: `{"medianMs","minMs","maxMs"}` with `--json`, else a line of text.
    package static func report(_ timing: (median: Double, min: Double, max: Double), label: String, json: Bool, console: Console) {
        func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
        if json {
            console.print(json: .object([
                ("medianMs", .double(rounded(timing.median))), ("minMs", .double(rounded(timing.min))),
                ("maxMs", .double(rounded(timing.max))),
            ]))
        } else {
            console.print(String(format: "%@: median %.2f ms, min %.2f ms, max %.2f ms", label, timing.median, timing.min, timing.max))
        }
    }
}
