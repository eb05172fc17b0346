import Foundation

/// A one-line progress bar on standard error — done/total, rate and time left — drawn only
/// when standard error is a terminal, so pipes and logs never see it.
package struct ProgressBar {
    private let console: Console
    private let total: Int
    private let start = DispatchTime.now().uptimeNanoseconds
    private let enabled: Bool
    private var lastDrawn: UInt64 = 0

    package init(total: Int, console: Console) {
        self.console = console
        self.total = total
        enabled = console.errorIsTerminal && total > 1
    }

    /// Seconds since the bar was created.
    package var elapsedSeconds: Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Redraws the bar for `done` finished items (at most ten times a second, and at the end).
    package mutating func update(done: Int) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard done == total || now - lastDrawn >= 100_000_000 else { return }
        lastDrawn = now
        console.status(ProgressBar.line(done: done, total: total, seconds: elapsedSeconds))
    }

    /// Clears the bar's line.
    package func finish() {
        if enabled { console.status("") }
    }

    /// `[#####-----] 12/40  3.1/s  ETA 9s`.
    package static func line(done: Int, total: Int, seconds: Double, width: Int = 24) -> String {
        let fraction = total > 0 ? Double(done) / Double(total) : 1
        let filled = min(width, Int((fraction * Double(width)).rounded(.down)))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let eta = rate > 0 ? "ETA \(Int((Double(total - done) / rate).rounded(.up)))s" : "ETA ?"
        return "[\(bar)] \(done)/\(total)  " + String(format: "%.1f/s", rate) + "  " + eta
    }
}
