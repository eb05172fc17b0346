import Testing

@testable import VisionTasks

@Suite("In-model detection decoding")
struct InModelDetectionDecoderTests {
    // Three entries in (ymin, xmin, ymax, xmax) order, like SSD MobileNet's `location` output.
    private let boxes: [Float] = [
        0.1, 0.2, 0.5, 0.6,
        0.0, 0.0, 1.0, 1.0,
        0.3, 0.3, 0.2, 0.4,
    ]  // negative height
    private let classes: [Float] = [17, 0, 3]
    private let scores: [Float] = [0.75, 0.5, 0.9]

    private func decode(count: Float, _ change: (inout InModelDetectionDecoder.Options) -> Void = { _ in })
        throws -> [ObjectDetectionCandidate]
    {
        var options = InModelDetectionDecoder.Options()
        options.boxIndices = [1, 0, 3, 2]
        change(&options)
        return try boxes.withUnsafeBufferPointer { b in
            try classes.withUnsafeBufferPointer { c in
                try scores.withUnsafeBufferPointer { s in
                    try InModelDetectionDecoder.decode(boxes: b, classes: c, scores: s, count: count, options: options)
                }
            }
        }
    }

    @Test func readsBoxesInMetadataOrderAndKeepsModelOrder() throws {
        let result = try decode(count: 3)
        #expect(result.count == 2)  // the third box has a negative height
        #expect(close(result[0].box, RelativeBox(xMin: 0.2, yMin: 0.1, width: 0.4, height: 0.4)))
        #expect(result[0].categories == [.init(classIndex: 17, score: 0.75)])
        #expect(result[1].categories == [.init(classIndex: 0, score: 0.5)])
    }

    @Test func countThresholdFilterAndMaxResultsApply() throws {
        #expect(try decode(count: 1).count == 1)
        #expect(try decode(count: 0).isEmpty)
        #expect(try decode(count: .nan).isEmpty)
        #expect(try decode(count: 1e9).count == 2)  // never beyond the tensors
        #expect(try decode(count: 3) { $0.scoreThreshold = 0.5 }.count == 2)  // 0.5 is kept
        #expect(try decode(count: 3) { $0.scoreThreshold = 0.51 }.count == 1)
        #expect(try decode(count: 3) { $0.classFilter = .ignore([17]) }.map(\.categories.first?.classIndex) == [0])
        #expect(try decode(count: 3) { $0.maxResults = 1 }.count == 1)
    }

    @Test func groupsCollectSeveralClassesPerBox() throws {
        // Two entries per detection: the box of the group's first entry, both classes.
        let result = try decode(count: 1) { $0.classesPerDetection = 2 }
        #expect(result.count == 1)
        #expect(result[0].categories.map(\.classIndex) == [17, 0])
    }

    @Test func badBoxIndicesAreAnError() {
        #expect(throws: TasksError.self) { try decode(count: 1) { $0.boxIndices = [0, 0, 1, 2] } }
    }
}
