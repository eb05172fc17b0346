import Foundation
import ModelFile

/// The custom operator `TFLite_Detection_PostProcess` (version 1): SSD box decoding and
/// non-maximum suppression, as tflite/kernels/detection_postprocess.cc defines it.
///
/// Inputs: box encodings `[1, N, ≥4]` (y, x, h, w), class scores `[1, N, C]` (C = classes or
/// classes + 1 with a leading background column), anchors `[N, 4]` (y, x, h, w); FLOAT32 or
/// UINT8 (dequantized `(float(q) - zp) · scale`; UINT8 box encodings imply UINT8 anchors, as
/// upstream). Outputs, FLOAT32 with shapes set by the operator: boxes `[1, M, 4]` (ymin, xmin,
/// ymax, xmax), classes `[1, M]`, scores `[1, M]`, count `[1]`, `M = max_detections ·
/// max_classes_per_detection`.
///
/// * Decoding, in double: `yc = y / y_scale · ah + ay`, `xc` likewise,
///   `half_h = 0.5 · exp(h / h_scale) · ah`, `half_w` likewise, stored as float corners.
/// * Fast NMS (default): per anchor the top `k = min(max_classes_per_detection, num_classes)`
///   classes (the first maximum for `k = 1`; libstdc++'s `std::partial_sort` order otherwise),
///   then single-class NMS over the anchors' best scores.
/// * Regular NMS (`use_regular_nms`): single-class NMS per class keeping
///   `min(detections_per_class, max_detections)`, merged by score (stable) into the best
///   `max_detections`.
/// * Single-class NMS: scores `≥ nms_score_threshold`, stable sort by descending score, greedy
///   selection suppressing later boxes with IoU `> nms_iou_threshold` (IoU 0 when an area is
///   ≤ 0), at most the requested count.
///
/// Output entries past the detections are zero (upstream leaves fast-NMS ones unwritten).
/// Upstream fails the invoke on a decoded box with `ymin > ymax` or `xmin > xmax`, which needs a
/// negative anchor size: constant anchors are checked when the interpreter is created, and a
/// computed one of that kind yields zero detections.
final class DetectionPostProcessKernel: Kernel {
    static let customCode = "TFLite_Detection_PostProcess"

    /// A quantized or float input.
    struct Source {
        let pointer: UnsafeMutableRawPointer
        let isQuantized: Bool
        let scale: Float
        let zeroPoint: Int32

        @inline(__always)
        func value(_ i: Int) -> Float {
            if isQuantized {
                return (Float(pointer.load(fromByteOffset: i, as: UInt8.self)) - Float(zeroPoint)) * scale
            }
            return pointer.load(fromByteOffset: i * 4, as: Float.self)
        }
    }

    let options: DetectionPostProcessOptions
    let boxes: Source
    let scores: Source
    let anchors: Source
    let anchorCount: Int
    /// Values per box encoding (≥ 4).
    let boxLength: Int
    /// Score columns per anchor.
    let columns: Int
    let labelOffset: Int
    let outputs: [UnsafeMutablePointer<Float>]

    // Preallocated working memory.
    private let decoded: UnsafeMutablePointer<Float>
    private let floatScores: UnsafeMutablePointer<Float>
    private let candidateScores: UnsafeMutablePointer<Float>
    private let keepIndices: UnsafeMutablePointer<Int32>
    private let keepScores: UnsafeMutablePointer<Float>
    private let order: UnsafeMutablePointer<Int32>
    private let orderScratch: UnsafeMutablePointer<Int32>
    private let active: UnsafeMutablePointer<Bool>
    private let selected: UnsafeMutablePointer<Int32>
    private let classOrder: UnsafeMutablePointer<Int32>
    private let mergedIndices: UnsafeMutablePointer<Int32>
    private let mergedScores: UnsafeMutablePointer<Float>
    private let mergeScratchIndices: UnsafeMutablePointer<Int32>
    private let mergeScratchScores: UnsafeMutablePointer<Float>
    private let topCount: Int
    private let selectedCapacity: Int
    private let mergedCapacity: Int

    static func make(_ ctx: OperatorContext) throws -> Kernel {
        try ctx.expect(inputs: 3...3, outputs: 4)
        guard let raw = ctx.customOptions, raw.count > 0 else { throw ctx.invalid("missing custom options") }
        let options: DetectionPostProcessOptions
        do {
            options = try DetectionPostProcessOptions(try FlexValue(bytes: raw))
        } catch let error as DetectionPostProcessOptionsError {
            throw ctx.invalid(error.message)
        } catch {
            throw ctx.invalid("custom options: \(error)")
        }
        let boxDescriptor = try ctx.input(0)
        let scoreDescriptor = try ctx.input(1)
        let anchorDescriptor = try ctx.input(2)
        guard boxDescriptor.shape.count == 3, scoreDescriptor.shape.count == 3, anchorDescriptor.shape.count == 2 else {
            throw ctx.invalid(
                "inputs must have ranks 3, 3 and 2, have \(boxDescriptor.shapeText), \(scoreDescriptor.shapeText), "
                    + "\(anchorDescriptor.shapeText)"
            )
        }
        let count = boxDescriptor.shape[1]
        guard boxDescriptor.shape[0] == 1, scoreDescriptor.shape[0] == 1 else {
            throw ctx.unsupported("batch size must be 1")
        }
        guard boxDescriptor.shape[2] >= 4, scoreDescriptor.shape[1] == count,
            anchorDescriptor.shape[0] == count, anchorDescriptor.shape[1] == 4
        else {
            throw ctx.invalid(
                "box encodings \(boxDescriptor.shapeText), class predictions \(scoreDescriptor.shapeText) and "
                    + "anchors \(anchorDescriptor.shapeText) do not match"
            )
        }
        let columns = scoreDescriptor.shape[2]
        let labelOffset = columns - options.classCount
        guard labelOffset == 0 || labelOffset == 1 else {
            throw ctx.invalid(
                "\(columns) score columns for \(options.classCount) classes (at most one background column)")
        }
        func source(_ i: Int, _ d: TensorDescriptor, allowQuantized: Bool) throws -> Source {
            switch d.type {
            case .float32:
                return Source(pointer: ctx.inputAddress(i), isQuantized: false, scale: 1, zeroPoint: 0)
            case .uint8 where allowQuantized:
                let q = try ctx.affineQuantization(of: d, "input \(i)")
                return Source(pointer: ctx.inputAddress(i), isQuantized: true, scale: q.scale, zeroPoint: q.zeroPoint)
            default:
                throw ctx.unsupported("input \(i) has type \(d.type); expected FLOAT32 or UINT8")
            }
        }
        let boxes = try source(0, boxDescriptor, allowQuantized: true)
        let scores = try source(1, scoreDescriptor, allowQuantized: true)
        // Upstream reads the anchors with the box encodings' type.
        guard anchorDescriptor.type == boxDescriptor.type else {
            throw ctx.unsupported("anchors are \(anchorDescriptor.type) but box encodings \(boxDescriptor.type)")
        }
        let anchors = try source(2, anchorDescriptor, allowQuantized: true)
        if let constant = try ctx.constantInput(2) {
            let values = Source(
                pointer: constant.buffer.raw, isQuantized: anchors.isQuantized, scale: anchors.scale,
                zeroPoint: anchors.zeroPoint)
            for a in 0..<count where !(values.value(a * 4 + 2) >= 0 && values.value(a * 4 + 3) >= 0) {
                throw ctx.invalid("anchor \(a) has a negative or undefined size")
            }
        }
        for o in 0..<4 where ctx.output(o).type != .float32 {
            throw ctx.unsupported("output \(o) has type \(ctx.output(o).type); expected FLOAT32")
        }
        let shapes = DetectionPostProcessKernel.outputShapes(options)
        for o in 0..<4 { try ctx.requireOutputShape(shapes[o], o) }
        return DetectionPostProcessKernel(
            options: options, boxes: boxes, scores: scores, anchors: anchors, anchorCount: count,
            boxLength: boxDescriptor.shape[2], columns: columns, labelOffset: labelOffset,
            outputs: (0..<4).map { ctx.outputFloats($0) })
    }

    /// The output shapes the operator sets.
    static func outputShapes(_ options: DetectionPostProcessOptions) -> [[Int]] {
        let m = options.outputCount
        return [[1, m, 4], [1, m], [1, m], [1]]
    }

    /// The output shapes for the operator's raw custom options, or `nil` when they cannot be
    /// read (the kernel then reports the problem).
    static func outputShapes(customOptions: ByteRange?) -> [[Int]]? {
        guard let raw = customOptions, raw.count > 0, let value = try? FlexValue(bytes: raw),
            let options = try? DetectionPostProcessOptions(value)
        else { return nil }
        return outputShapes(options)
    }

    init(
        options: DetectionPostProcessOptions, boxes: Source, scores: Source, anchors: Source, anchorCount: Int,
        boxLength: Int, columns: Int, labelOffset: Int, outputs: [UnsafeMutablePointer<Float>]
    ) {
        self.options = options
        self.boxes = boxes
        self.scores = scores
        self.anchors = anchors
        self.anchorCount = anchorCount
        self.boxLength = boxLength
        self.columns = columns
        self.labelOffset = labelOffset
        self.outputs = outputs
        let n = Swift.max(anchorCount, 1)
        topCount = Swift.min(options.maxClassesPerDetection, options.classCount)
        let perClass = Swift.min(options.detectionsPerClass, options.maxDetections)
        selectedCapacity = Swift.max(options.maxDetections, perClass, 1)
        mergedCapacity = Swift.max(options.maxDetections + Swift.max(perClass, 0), 1)
        decoded = .allocate(capacity: n * 4)
        floatScores = .allocate(capacity: scores.isQuantized ? n * Swift.max(columns, 1) : 1)
        candidateScores = .allocate(capacity: n)
        keepIndices = .allocate(capacity: n)
        keepScores = .allocate(capacity: n)
        order = .allocate(capacity: n)
        orderScratch = .allocate(capacity: n)
        active = .allocate(capacity: n)
        selected = .allocate(capacity: selectedCapacity)
        classOrder = .allocate(capacity: n * Swift.max(options.classCount, 1))
        mergedIndices = .allocate(capacity: mergedCapacity)
        mergedScores = .allocate(capacity: mergedCapacity)
        mergeScratchIndices = .allocate(capacity: mergedCapacity)
        mergeScratchScores = .allocate(capacity: mergedCapacity)
    }

    deinit {
        decoded.deallocate()
        floatScores.deallocate()
        candidateScores.deallocate()
        keepIndices.deallocate()
        keepScores.deallocate()
        order.deallocate()
        orderScratch.deallocate()
        active.deallocate()
        selected.deallocate()
        classOrder.deallocate()
        mergedIndices.deallocate()
        mergedScores.deallocate()
        mergeScratchIndices.deallocate()
        mergeScratchScores.deallocate()
    }

    func execute(_ context: ExecutionContext) {
        let m = options.outputCount
        outputs[0].update(repeating: 0, count: m * 4)
        outputs[1].update(repeating: 0, count: m)
        outputs[2].update(repeating: 0, count: m)
        outputs[3][0] = 0
        guard decodeBoxes() else { return }
        let classScores: UnsafePointer<Float>
        if scores.isQuantized {
            for i in 0..<(anchorCount * columns) { floatScores[i] = scores.value(i) }
            classScores = UnsafePointer(floatScores)
        } else {
            classScores = UnsafePointer(scores.pointer.assumingMemoryBound(to: Float.self))
        }
        if options.useRegularNonMaxSuppression {
            regularNonMaxSuppression(classScores)
        } else {
            fastNonMaxSuppression(classScores)
        }
    }

    /// Decodes every box into `decoded` as (ymin, xmin, ymax, xmax); `false` when a box is
    /// inverted (upstream's `ValidateBoxes` failure).
    private func decodeBoxes() -> Bool {
        let ys = Double(options.yScale)
        let xs = Double(options.xScale)
        let hs = Double(options.hScale)
        let ws = Double(options.wScale)
        for i in 0..<anchorCount {
            let y = Double(boxes.value(i * boxLength))
            let x = Double(boxes.value(i * boxLength + 1))
            let h = Double(boxes.value(i * boxLength + 2))
            let w = Double(boxes.value(i * boxLength + 3))
            let ay = Double(anchors.value(i * 4))
            let ax = Double(anchors.value(i * 4 + 1))
            let ah = Double(anchors.value(i * 4 + 2))
            let aw = Double(anchors.value(i * 4 + 3))
            let yCenter = Float(y / ys * ah + ay)
            let xCenter = Float(x / xs * aw + ax)
            let halfHeight = Float(0.5 * Foundation.exp(h / hs) * ah)
            let halfWidth = Float(0.5 * Foundation.exp(w / ws) * aw)
            let box = decoded + i * 4
            box[0] = yCenter - halfHeight
            box[1] = xCenter - halfWidth
            box[2] = yCenter + halfHeight
            box[3] = xCenter + halfWidth
            if box[0] > box[2] || box[1] > box[3] { return false }
        }
        return true
    }

    /// Upstream's `ComputeIntersectionOverUnion` on decoded boxes `i` and `j`.
    @inline(__always)
    private func intersectionOverUnion(_ i: Int, _ j: Int) -> Float {
        let a = decoded + i * 4
        let b = decoded + j * 4
        let areaA = (a[2] - a[0]) * (a[3] - a[1])
        let areaB = (b[2] - b[0]) * (b[3] - b[1])
        if areaA <= 0 || areaB <= 0 { return 0 }
        let ymin = Swift.max(a[0], b[0])
        let xmin = Swift.max(a[1], b[1])
        let ymax = Swift.min(a[2], b[2])
        let xmax = Swift.min(a[3], b[3])
        let intersection = Swift.max(ymax - ymin, 0) * Swift.max(xmax - xmin, 0)
        return intersection / (areaA + areaB - intersection)
    }

    /// Single-class NMS over `candidateScores` (one per anchor); writes the selected anchors in
    /// selection order to `selected` and returns their count.
    private func singleClassNonMaxSuppression(limit: Int) -> Int {
        var kept = 0
        for i in 0..<anchorCount where candidateScores[i] >= options.scoreThreshold {
            keepIndices[kept] = Int32(i)
            keepScores[kept] = candidateScores[i]
            kept += 1
        }
        for i in 0..<kept { order[i] = Int32(i) }
        DetectionPostProcessKernel.stableSortDescending(order, count: kept, by: keepScores, scratch: orderScratch)
        let outputSize = Swift.min(kept, limit)
        var count = 0
        var remaining = kept
        active.update(repeating: true, count: kept)
        for i in 0..<kept {
            if remaining == 0 || count >= outputSize { break }
            guard active[i] else { continue }
            let boxI = Int(keepIndices[Int(order[i])])
            selected[count] = Int32(boxI)
            count += 1
            active[i] = false
            remaining -= 1
            for j in (i + 1)..<Swift.max(kept, i + 1) where active[j] {
                if intersectionOverUnion(boxI, Int(keepIndices[Int(order[j])])) > options.iouThreshold {
                    active[j] = false
                    remaining -= 1
                }
            }
        }
        return count
    }

    private func fastNonMaxSuppression(_ classScores: UnsafePointer<Float>) {
        let classCount = options.classCount
        for row in 0..<anchorCount {
            let rowScores = classScores + row * columns + labelOffset
            let indices = classOrder + row * classCount
            if topCount == 1 {
                var best = 0
                for c in 1..<Swift.max(classCount, 1) where rowScores[c] > rowScores[best] { best = c }
                indices[0] = Int32(best)
            } else {
                for c in 0..<classCount { indices[c] = Int32(c) }
                DetectionPostProcessKernel.partialSortDescending(
                    indices, middle: topCount, count: classCount, by: rowScores)
            }
            candidateScores[row] = rowScores[Int(indices[0])]
        }
        let count = singleClassNonMaxSuppression(limit: options.maxDetections)
        let k = options.maxClassesPerDetection
        for s in 0..<count {
            let anchor = Int(selected[s])
            let rowScores = classScores + anchor * columns + labelOffset
            let indices = classOrder + anchor * classCount
            for column in 0..<topCount {
                let slot = k * s + column
                (outputs[0] + slot * 4).update(from: decoded + anchor * 4, count: 4)
                outputs[1][slot] = Float(indices[column])
                outputs[2][slot] = rowScores[Int(indices[column])]
            }
        }
        outputs[3][0] = Float(count)
    }

    private func regularNonMaxSuppression(_ classScores: UnsafePointer<Float>) {
        let perClass = Swift.min(options.detectionsPerClass, options.maxDetections)
        var size = 0
        for column in 0..<options.classCount {
            for row in 0..<anchorCount { candidateScores[row] = classScores[row * columns + column + labelOffset] }
            let count = singleClassNonMaxSuppression(limit: perClass)
            guard count > 0 else { continue }
            for i in 0..<count {
                let anchor = Int(selected[i])
                mergedScores[size + i] = candidateScores[anchor]
                mergedIndices[size + i] = Int32(anchor * columns + column + labelOffset)
            }
            mergeStable(middle: size, end: size + count)
            size = Swift.min(size + count, options.maxDetections)
        }
        for i in 0..<size {
            let index = Int(mergedIndices[i])
            let anchor = index / columns
            (outputs[0] + i * 4).update(from: decoded + anchor * 4, count: 4)
            outputs[1][i] = Float(index - anchor * columns - labelOffset)
            outputs[2][i] = mergedScores[i]
        }
        outputs[3][0] = Float(size)
    }

    /// `std::inplace_merge` of the runs `0..<middle` and `middle..<end` of the merged entries by
    /// descending score; equal scores keep the first run's entries first.
    private func mergeStable(middle: Int, end: Int) {
        guard middle > 0, end > middle else { return }
        mergeScratchIndices.update(from: mergedIndices, count: end)
        mergeScratchScores.update(from: mergedScores, count: end)
        var i = 0
        var j = middle
        var k = 0
        while i < middle || j < end {
            let takeRight = j < end && (i >= middle || mergeScratchScores[j] > mergeScratchScores[i])
            let source = takeRight ? j : i
            mergedIndices[k] = mergeScratchIndices[source]
            mergedScores[k] = mergeScratchScores[source]
            if takeRight { j += 1 } else { i += 1 }
            k += 1
        }
    }

    /// `std::stable_sort` of `count` indices by descending `values[index]` (bottom-up merge
    /// sort; equal values keep their order).
    static func stableSortDescending(
        _ indices: UnsafeMutablePointer<Int32>, count: Int, by values: UnsafePointer<Float>,
        scratch: UnsafeMutablePointer<Int32>
    ) {
        var width = 1
        var source = indices
        var destination = scratch
        while width < count {
            var start = 0
            while start < count {
                let middle = Swift.min(start + width, count)
                let end = Swift.min(start + 2 * width, count)
                var i = start
                var j = middle
                var k = start
                while i < middle || j < end {
                    if j < end && (i >= middle || values[Int(source[j])] > values[Int(source[i])]) {
                        destination[k] = source[j]
                        j += 1
                    } else {
                        destination[k] = source[i]
                        i += 1
                    }
                    k += 1
                }
                start = end
            }
            swap(&source, &destination)
            width *= 2
        }
        if source != indices { indices.update(from: source, count: count) }
    }

    /// `std::partial_sort(first, first + middle, first + count, comp)` with
    /// `comp(a, b) = values[a] > values[b]`, following libstdc++'s heap-select and heap-sort
    /// (bits/stl_algo.h, bits/stl_heap.h), so that equal scores end in the same order as
    /// LiteRT's.
    static func partialSortDescending(
        _ first: UnsafeMutablePointer<Int32>, middle: Int, count: Int,
        by values: UnsafePointer<Float>
    ) {
        @inline(__always) func less(_ a: Int32, _ b: Int32) -> Bool { values[Int(a)] > values[Int(b)] }
        func pushHeap(_ hole: Int, _ top: Int, _ value: Int32) {
            var hole = hole
            var parent = (hole - 1) / 2
            while hole > top && less(first[parent], value) {
                first[hole] = first[parent]
                hole = parent
                parent = (hole - 1) / 2
            }
            first[hole] = value
        }
        func adjustHeap(_ hole: Int, _ length: Int, _ value: Int32) {
            let top = hole
            var hole = hole
            var child = hole
            while child < (length - 1) / 2 {
                child = 2 * (child + 1)
                if less(first[child], first[child - 1]) { child -= 1 }
                first[hole] = first[child]
                hole = child
            }
            if length & 1 == 0 && child == (length - 2) / 2 {
                child = 2 * (child + 1)
                first[hole] = first[child - 1]
                hole = child - 1
            }
            pushHeap(hole, top, value)
        }
        func popHeap(_ length: Int, _ result: Int) {
            let value = first[result]
            first[result] = first[0]
            adjustHeap(0, length, value)
        }
        guard middle > 0 else { return }
        // make_heap on the first `middle` elements.
        if middle >= 2 {
            var parent = (middle - 2) / 2
            while true {
                adjustHeap(parent, middle, first[parent])
                if parent == 0 { break }
                parent -= 1
            }
        }
        for i in middle..<Swift.max(count, middle) where less(first[i], first[0]) { popHeap(middle, i) }
        // sort_heap.
        var last = middle
        while last > 1 {
            last -= 1
            popHeap(last, last)
        }
    }
}
