import Testing

@testable import VisionTasks

@Suite("FlowState")
struct FlowStateTests {
    @Test func limiterKeepsOneInFlightAndOneWaiting() {
        var state = FlowState<Int>()
        let startsFirst = state.enqueue(1)
        let startsSecond = state.enqueue(2)  // waits
        let startsThird = state.enqueue(3)  // replaces 2
        #expect(startsFirst && !startsSecond && !startsThird)
        #expect(state.droppedFrameCount == 1)
        let next = state.next()
        #expect(next == 3)
        #expect(state.isProcessing)
        let afterThat = state.next()
        #expect(afterThat == nil)
        #expect(!state.isProcessing)
        let startsFourth = state.enqueue(4)
        #expect(startsFourth)
    }

    @Test func timestampsMustStrictlyIncrease() throws {
        var state = FlowState<Int>()
        try state.accept(timestamp: -5)
        var copy = state
        #expect(throws: TasksError.nonIncreasingTimestamp(previous: -5, received: -5)) {
            try copy.accept(timestamp: -5)
        }
        try state.accept(timestamp: 0)
        #expect(state.lastTimestamp == 0)
    }

    @Test func closingDiscardsTheWaitingFrameAndStopsStarting() {
        var state = FlowState<Int>()
        _ = state.enqueue(1)
        _ = state.enqueue(2)
        state.close()
        let next = state.next()
        let starts = state.enqueue(3)
        #expect(next == nil)
        #expect(!starts)
    }
}
