import Dispatch
import Foundation

/// Turns Ctrl-C (SIGINT) into a callback while a live run reads frames, so that the run stops
/// cleanly and still prints its summary; the previous handling is restored by ``cancel()``.
package final class InterruptSignal: @unchecked Sendable {
    // @unchecked: `source` is set once in init and cancelled once.
    private let source: any DispatchSourceSignal
    private let previous: (@convention(c) (Int32) -> Void)?

    /// Calls `action` (once per Ctrl-C) on a background queue.
    package init(action: @escaping @Sendable () -> Void) {
        // The default action would end the process: dispatch sees the signal only while it is
        // ignored.
        previous = signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler(handler: action)
        source.resume()
    }

    /// Stops listening and restores the previous handling of SIGINT.
    package func cancel() {
        source.cancel()
        signal(SIGINT, previous)
    }
}
