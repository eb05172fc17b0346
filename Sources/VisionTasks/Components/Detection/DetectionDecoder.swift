import Foundation
import Imaging

/// Turns raw SSD output tensors into detections like MediaPipe's `TensorsToDetectionsCalculator`
/// on its two-tensor path (mediapipe/calculators/tensor/tensors_to_detections_calculator.cc,
/// ../shared/spec/PIPELINES.md §1.9).
enum DetectionDecoder {
    /// Decodes `boxes` ([numBoxes × numCoords]) and `scores` ([numBoxes × numClasses]) against
    /// `anchors`. Detections come out in anchor order with relative boxes and keypoints.
    static func decode(
        boxes: UnsafeBufferPointer<Float>, scores: UnsafeBufferPointer<Float>, anchors: [Anchor],
        options: DetectionDecoderOptions
    ) throws(TasksError) -> [PipelineDetection] {
        let boxCount = options.numBoxes
        let coords = options.numCoords
        let classes = options.numClasses
        guard options.isConsistent else { throw .internalError("detection decoder: inconsistent options") }
        guard boxes.count >= boxCount * coords, scores.count >= boxCount * classes, anchors.count >= boxCount else {
            throw .invalidModel(
                "detector outputs have \(boxes.count) box values and \(scores.count) scores for \(anchors.count) "
                    + "anchors; expected \(boxCount) boxes of \(coords) values and \(classes) classes")
        }
        var detections: [PipelineDetection] = []
        for index in 0..<boxCount {
            if options.maxResults > 0, detections.count == options.maxResults { break }
            guard let (score, classIndex) = bestClass(scores, box: index, options: options) else { continue }
            if let threshold = options.minScoreThreshold, score < threshold { continue }
            let anchor = anchors[index]
            let base = index * coords
            guard let box = decodeBox(boxes, at: base + options.boxCoordOffset, anchor: anchor, options: options)
            else { continue }
            var keypoints: [SIMD2<Float>] = []
            keypoints.reserveCapacity(options.numKeypoints)
            for keypoint in 0..<options.numKeypoints {
                let offset = base + options.keypointCoordOffset + keypoint * options.numValuesPerKeypoint
                let first = boxes[offset]
                let second = boxes[offset + 1]
                let (rawX, rawY) = options.boxFormat == .yxhw ? (second, first) : (first, second)
                keypoints.append(
                    SIMD2(
                        rawX / options.xScale * anchor.width + anchor.xCenter,
                        rawY / options.yScale * anchor.height + anchor.yCenter))
            }
            detections.append(PipelineDetection(score: score, classIndex: classIndex, box: box, keypoints: keypoints))
        }
        return detections
    }

    /// The best allowed class of a box and its score after optional clipping and sigmoid, or
    /// `nil` when no class is allowed (or every score is NaN).
    private static func bestClass(
        _ scores: UnsafeBufferPointer<Float>, box: Int, options: DetectionDecoderOptions
    ) -> (Float, Int)? {
        var bestScore = -Float.greatestFiniteMagnitude
        var bestClass = -1
        let base = box * options.numClasses
        for classIndex in 0..<options.numClasses where options.classFilter.allows(classIndex) {
            var score = scores[base + classIndex]
            if options.sigmoidScore {
                if let clip = options.scoreClippingThreshold {
                    score = score < -clip ? -clip : score
                    score = score > clip ? clip : score
                }
                score = sigmoid(score)
            }
            // Strictly greater: the first of equal scores wins, as upstream.
            if bestScore < score {
                bestScore = score
                bestClass = classIndex
            }
        }
        return bestClass < 0 ? nil : (bestScore, bestClass)
    }

    /// The relative box of one raw box, or `nil` when its size is negative or NaN.
    private static func decodeBox(
        _ boxes: UnsafeBufferPointer<Float>, at offset: Int, anchor: Anchor, options: DetectionDecoderOptions
    ) -> RelativeBox? {
        let v0 = boxes[offset]
        let v1 = boxes[offset + 1]
        let v2 = boxes[offset + 2]
        let v3 = boxes[offset + 3]
        var xCenter: Float
        var yCenter: Float
        var width: Float
        var height: Float
        switch options.boxFormat {
        case .yxhw:
            (yCenter, xCenter, height, width) = (v0, v1, v2, v3)
        case .xywh:
            (xCenter, yCenter, width, height) = (v0, v1, v2, v3)
        case .xyxy:
            xCenter = (-v0 + v2) / 2
            yCenter = (-v1 + v3) / 2
            width = v2 + v0
            height = v3 + v1
        }
        xCenter = xCenter / options.xScale * anchor.width + anchor.xCenter
        yCenter = yCenter / options.yScale * anchor.height + anchor.yCenter
        if options.applyExponentialOnBoxSize {
            height = CorrectlyRounded.exp(height / options.hScale) * anchor.height
            width = CorrectlyRounded.exp(width / options.wScale) * anchor.width
        } else {
            height = height / options.hScale * anchor.height
            width = width / options.wScale * anchor.width
        }
        let yMin = yCenter - height / 2
        let xMin = xCenter - width / 2
        let yMax = yCenter + height / 2
        let xMax = xCenter + width / 2
        let box = RelativeBox(xMin: xMin, yMin: yMin, width: xMax - xMin, height: yMax - yMin)
        if box.width < 0 || box.height < 0 || box.width.isNaN || box.height.isNaN { return nil }
        return box
    }
}
