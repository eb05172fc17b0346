import Foundation

/// Turns object detection candidates into public ``Detection`` values: labels, pixel boxes and
/// the merge of identical boxes (../shared/spec/PIPELINES.md §4.6, §4.7).
enum DetectionOutput {
    /// The box in whole pixels of an image of `imageSize`: each of x, y, width and height is
    /// truncated toward zero and clamped to the image size on its own, so x + width may exceed
    /// the width (mediapipe/calculators/util/detection_transformation_calculator.cc).
    static func pixelBox(_ box: RelativeBox, imageSize: ImageSize) -> CGRect {
        func pixels(_ value: Float, _ limit: Int) -> Int {
            let scaled = value * Float(limit)
            guard scaled.isFinite else { return scaled == .infinity ? limit : 0 }
            return min(max(Int(scaled.rounded(.towardZero).clamped(to: -1e9...1e9)), 0), limit)
        }
        return CGRect(
            x: pixels(box.xMin, imageSize.width), y: pixels(box.yMin, imageSize.height),
            width: pixels(box.width, imageSize.width), height: pixels(box.height, imageSize.height))
    }

    /// Public detections for candidates in image-normalized coordinates.
    ///
    /// With `labels`, a class found in them gets its label (and display name, if given) and
    /// index −1, as MediaPipe drops the numeric id once a text label is attached
    /// (DetectionLabelIdToText, `keep_label_id = false`); other classes keep their index and no
    /// name. Detections with identical pixel boxes merge into the first one, their categories
    /// appended (mediapipe/calculators/util/detections_deduplicate_calculator.cc).
    static func detections(
        _ candidates: [ObjectDetectionCandidate], imageSize: ImageSize, labels: [String]?, displayNames: [String]?
    ) -> [Detection] {
        var output: [Detection] = []
        var indexByBox: [BoxKey: Int] = [:]
        for candidate in candidates {
            let box = pixelBox(candidate.box, imageSize: imageSize)
            let categories = candidate.categories.map { category(for: $0, labels: labels, displayNames: displayNames) }
            let key = BoxKey(box)
            if let existing = indexByBox[key] {
                output[existing].categories += categories
            } else {
                indexByBox[key] = output.count
                output.append(Detection(categories: categories, boundingBox: box, keypoints: nil))
            }
        }
        return output
    }

    private static func category(
        for category: ObjectDetectionCandidate.Category, labels: [String]?, displayNames: [String]?
    ) -> ResultCategory {
        guard let labels, labels.indices.contains(category.classIndex) else {
            return ResultCategory(
                index: category.classIndex, score: category.score, categoryName: nil, displayName: nil)
        }
        let display = displayNames.flatMap { $0.indices.contains(category.classIndex) ? $0[category.classIndex] : nil }
        return ResultCategory(
            index: -1, score: category.score, categoryName: labels[category.classIndex], displayName: display)
    }

    private struct BoxKey: Hashable {
        var values: [Double]
        init(_ rect: CGRect) {
            values = [Double(rect.minX), Double(rect.minY), Double(rect.width), Double(rect.height)]
        }
    }
}

extension Float {
    fileprivate func clamped(to range: ClosedRange<Float>) -> Float {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
