import ModelFile
import Testing

@testable import Inference

/// TFLite_Detection_PostProcess on hand-built inputs, its options and its sorting rules.
@Suite struct DetectionPostProcessTests {
    static let baseOptions: [(String, FlexValue)] = [
        ("h_scale", .double(5)), ("max_classes_per_detection", .int(1)), ("max_detections", .int(3)),
        ("nms_iou_threshold", .double(0.5)), ("nms_score_threshold", .double(0.25)), ("num_classes", .int(2)),
        ("w_scale", .double(5)), ("x_scale", .double(10)), ("y_scale", .double(10)),
    ]

    static func options(_ changes: [(String, FlexValue?)] = []) throws -> DetectionPostProcessOptions {
        var entries = baseOptions
        for (key, value) in changes {
            entries.removeAll { $0.0 == key }
            if let value { entries.append((key, value)) }
        }
        return try DetectionPostProcessOptions(.map(entries.sorted { $0.0 < $1.0 }))
    }

    @Test func optionsTakeUpstreamDefaults() throws {
        let options = try Self.options()
        #expect(options.detectionsPerClass == 100)
        #expect(!options.useRegularNonMaxSuppression)
        #expect(options.outputCount == 3)
        #expect(DetectionPostProcessKernel.outputShapes(options) == [[1, 3, 4], [1, 3], [1, 3], [1]])
        let regular = try Self.options([
            ("use_regular_nms", .bool(true)), ("detections_per_class", .int(2)),
            ("max_classes_per_detection", .double(2.9)),
        ])
        #expect(regular.useRegularNonMaxSuppression && regular.detectionsPerClass == 2)
        // flexbuffers' AsInt32 truncates a stored float.
        #expect(regular.maxClassesPerDetection == 2 && regular.outputCount == 6)
    }

    @Test func invalidOptionsAreRejected() {
        #expect(throws: DetectionPostProcessOptionsError.self) { try Self.options([("num_classes", nil)]) }
        #expect(throws: DetectionPostProcessOptionsError.self) { try Self.options([("nms_iou_threshold", .double(0))]) }
        #expect(throws: DetectionPostProcessOptionsError.self) {
            try Self.options([("nms_iou_threshold", .double(1.5))])
        }
        #expect(throws: DetectionPostProcessOptionsError.self) {
            try Self.options([("max_classes_per_detection", .int(0))])
        }
        #expect(throws: DetectionPostProcessOptionsError.self) { try Self.options([("y_scale", .string("ten"))]) }
        #expect(throws: DetectionPostProcessOptionsError.self) { try DetectionPostProcessOptions(.vector([])) }
        #expect(DetectionPostProcessKernel.outputShapes(customOptions: nil) == nil)
    }

    @Test func stableSortKeepsTheOrderOfEqualScores() {
        let values: [Float] = [0.5, 0.9, 0.5, 0.1, 0.9, 0.5]
        var indices: [Int32] = [0, 1, 2, 3, 4, 5]
        var scratch = [Int32](repeating: 0, count: 6)
        values.withUnsafeBufferPointer { v in
            indices.withUnsafeMutableBufferPointer { i in
                scratch.withUnsafeMutableBufferPointer { s in
                    DetectionPostProcessKernel.stableSortDescending(
                        i.baseAddress!, count: 6, by: v.baseAddress!, scratch: s.baseAddress!)
                }
            }
        }
        #expect(indices == [1, 4, 0, 2, 5, 3])
    }

    @Test func partialSortPutsTheTopScoresFirstInLibstdcxxOrder() {
        // std::partial_sort(first, first + 2, last, greater): heap select over [0.3, 0.7, 0.7, 0.1, 0.7]
        // keeps indices 1 and 2 — a later equal value does not displace the heap's top — and sort_heap
        // orders the two equal ones as the heap leaves them: index 2 before index 1.
        let values: [Float] = [0.3, 0.7, 0.7, 0.1, 0.7]
        var indices: [Int32] = [0, 1, 2, 3, 4]
        values.withUnsafeBufferPointer { v in
            indices.withUnsafeMutableBufferPointer { i in
                DetectionPostProcessKernel.partialSortDescending(
                    i.baseAddress!, middle: 2, count: 5, by: v.baseAddress!)
            }
        }
        #expect(Array(indices[0..<2]) == [2, 1])
        // Distinct values: the top three in descending order.
        let distinct: [Float] = [0.2, 0.8, 0.5, 0.9, 0.1]
        var order: [Int32] = [0, 1, 2, 3, 4]
        distinct.withUnsafeBufferPointer { v in
            order.withUnsafeMutableBufferPointer { i in
                DetectionPostProcessKernel.partialSortDescending(
                    i.baseAddress!, middle: 3, count: 5, by: v.baseAddress!)
            }
        }
        #expect(Array(order[0..<3]) == [3, 1, 2])
    }

    /// Three anchors (y, x, h, w): two overlapping ones (IoU 0.6) and a separate one; zero box
    /// encodings decode to the anchors' corners. Scores per anchor: background, class 0, class 1.
    func run(_ options: DetectionPostProcessOptions) -> [[Float]] {
        let anchors: [Float] = [0.5, 0.5, 0.2, 0.2, 0.5, 0.55, 0.2, 0.2, 0.2, 0.2, 0.1, 0.1]
        let boxes = [Float](repeating: 0, count: 12)
        let scores: [Float] = [0, 0.9, 0.1, 0, 0.2, 0.95, 0, 0.3, 0.6]
        let h = KernelHarness()
        let m = options.outputCount
        let outputs = [h.output(m * 4), h.output(m), h.output(m), h.output(1)]
        func source(_ values: [Float]) -> DetectionPostProcessKernel.Source {
            DetectionPostProcessKernel.Source(
                pointer: UnsafeMutableRawPointer(h.buffer(values)), isQuantized: false, scale: 1, zeroPoint: 0)
        }
        let kernel = DetectionPostProcessKernel(
            options: options, boxes: source(boxes), scores: source(scores), anchors: source(anchors),
            anchorCount: 3, boxLength: 4, columns: 3, labelOffset: 1, outputs: outputs)
        h.run(kernel)
        return [values(outputs[0], m * 4), values(outputs[1], m), values(outputs[2], m), values(outputs[3], 1)]
    }

    static func corners(_ y: Float, _ x: Float, _ h: Float, _ w: Float) -> [Float] {
        let halfH = Float(0.5 * Double(h))
        let halfW = Float(0.5 * Double(w))
        return [y - halfH, x - halfW, y + halfH, x + halfW]
    }

    @Test func fastNonMaxSuppressionKeepsEachAnchorsBestClass() throws {
        let result = run(try Self.options())
        // Best scores: anchor 1 (class 1, 0.95) suppresses anchor 0 (0.9, IoU 0.6 > 0.5); anchor 2 (class 1, 0.6).
        #expect(result[3] == [2])
        #expect(result[1] == [1, 1, 0])
        #expect(result[2] == [0.95, 0.6, 0])
        #expect(result[0] == Self.corners(0.5, 0.55, 0.2, 0.2) + Self.corners(0.2, 0.2, 0.1, 0.1) + [0, 0, 0, 0])
    }

    @Test func regularNonMaxSuppressionRunsPerClassAndMergesByScore() throws {
        let result = run(try Self.options([("use_regular_nms", .bool(true))]))
        // Class 0 keeps anchors 0 (0.9) and 2 (0.3); class 1 keeps anchors 1 (0.95) and 2 (0.6);
        // anchor 1's 0.2 is below the threshold. The best three overall:
        #expect(result[3] == [3])
        #expect(result[1] == [1, 0, 1])
        #expect(result[2] == [0.95, 0.9, 0.6])
        #expect(Array(result[0][4..<8]) == Self.corners(0.5, 0.5, 0.2, 0.2))
    }

    @Test func anIouThresholdOfOneSuppressesNothing() throws {
        let result = run(try Self.options([("nms_iou_threshold", .double(1))]))
        #expect(result[3] == [3])
        #expect(result[2] == [0.95, 0.9, 0.6])
    }
}
