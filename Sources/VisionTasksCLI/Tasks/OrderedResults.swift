import Foundation

/// Results of a batch filled in by worker threads in any order and taken out in input order.
package final class OrderedResults<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `slots` and `nextIndex` are only touched under `condition`.
    private let condition = NSCondition()
    private var slots: [Value?]
    private var nextIndex = 0

    package init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    /// The next input index no worker has taken yet, or `nil` when all are taken.
    package func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard nextIndex < slots.count else { return nil }
        defer { nextIndex += 1 }
        return nextIndex
    }

    /// Stores the result of input `index`.
    package func store(_ value: Value, at index: Int) {
        condition.lock()
        slots[index] = value
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for the result of input `index` and takes it out.
    package func take(_ index: Int) -> Value {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let value = slots[index] {
                slots[index] = nil
                return value
            }
            condition.wait()
        }
    }
}
