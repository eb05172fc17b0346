/// The results of a sequence of frames, produced one by one as the sequence is iterated.
///
/// Tasks return this from their `results(for:)` methods (an addition to MediaPipe's API). Each
/// frame is processed only when the consumer asks for the next result; an error thrown by a
/// frame ends the iteration.
public struct TaskResultSequence<Frames: AsyncSequence, Result: Sendable>: AsyncSequence {
    /// Each element is the result of one frame, in frame order.
    public typealias Element = Result

    private let frames: Frames
    private let process: @Sendable (Frames.Element) async throws -> Result

    init(frames: Frames, process: @escaping @Sendable (Frames.Element) async throws -> Result) {
        self.frames = frames
        self.process = process
    }

    /// Creates an iterator over the results.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: frames.makeAsyncIterator(), process: process)
    }

    /// Pulls a frame, processes it and returns its result.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var base: Frames.AsyncIterator
        private let process: @Sendable (Frames.Element) async throws -> Result

        init(base: Frames.AsyncIterator, process: @escaping @Sendable (Frames.Element) async throws -> Result) {
            self.base = base
            self.process = process
        }

        /// The next result, or `nil` when the frames are exhausted.
        public mutating func next() async throws -> Result? {
            guard let frame = try await base.next() else { return nil }
            return try await process(frame)
        }
    }
}

extension TaskResultSequence: Sendable where Frames: Sendable {}
