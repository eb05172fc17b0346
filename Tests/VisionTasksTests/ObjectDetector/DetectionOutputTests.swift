import Foundation
import Testing

@testable import VisionTasks

@Suite("Detection output")
struct DetectionOutputTests {
    private let image = ImageSize(width: 427, height: 640)

    @Test func pixelBoxesTruncateAndClampEachValue() {
        // 0.5·427 = 213.5 → 213; 0.999·640 = 639.36 → 639; width 0.6·427 = 256.2 → 256.
        let box = DetectionOutput.pixelBox(
            RelativeBox(xMin: 0.5, yMin: 0.999, width: 0.6, height: 0.3), imageSize: image)
        #expect(box == CGRect(x: 213, y: 639, width: 256, height: 192))  // x + width exceeds 427: kept
        let outside = DetectionOutput.pixelBox(
            RelativeBox(xMin: -0.1, yMin: -0.0001, width: 2, height: .nan), imageSize: image)
        #expect(outside == CGRect(x: 0, y: 0, width: 427, height: 0))
    }

    @Test func labelledClassesGetNameAndIndexMinusOne() {
        let labels = ["person", "bicycle"]
        let candidates = [
            ObjectDetectionCandidate(
                box: RelativeBox(xMin: 0, yMin: 0, width: 0.5, height: 0.5),
                categories: [.init(classIndex: 1, score: 0.8)]),
            ObjectDetectionCandidate(
                box: RelativeBox(xMin: 0.5, yMin: 0.5, width: 0.1, height: 0.1),
                categories: [.init(classIndex: 7, score: 0.6)]),
        ]
        let detections = DetectionOutput.detections(
            candidates, imageSize: image, labels: labels, displayNames: ["Personne", "Vélo"])
        #expect(
            detections[0].categories == [
                ResultCategory(index: -1, score: 0.8, categoryName: "bicycle", displayName: "Vélo")
            ])
        // A class outside the label map keeps its numeric index and has no name.
        #expect(detections[1].categories == [ResultCategory(index: 7, score: 0.6, categoryName: nil, displayName: nil)])
        #expect(detections[0].keypoints == nil)
        let unlabelled = DetectionOutput.detections(candidates, imageSize: image, labels: nil, displayNames: nil)
        #expect(unlabelled[0].categories[0].index == 1 && unlabelled[0].categories[0].categoryName == nil)
    }

    @Test func identicalPixelBoxesMergeIntoTheFirst() {
        // 0.5001 and 0.5004 of 427 px both truncate to 213.
        let candidates = [
            ObjectDetectionCandidate(
                box: RelativeBox(xMin: 0.5001, yMin: 0.2, width: 0.2, height: 0.2),
                categories: [.init(classIndex: 0, score: 0.9)]),
            ObjectDetectionCandidate(
                box: RelativeBox(xMin: 0.7, yMin: 0.7, width: 0.1, height: 0.1),
                categories: [.init(classIndex: 1, score: 0.7)]),
            ObjectDetectionCandidate(
                box: RelativeBox(xMin: 0.5004, yMin: 0.2, width: 0.2, height: 0.2),
                categories: [.init(classIndex: 1, score: 0.4)]),
        ]
        let detections = DetectionOutput.detections(
            candidates, imageSize: image, labels: ["person", "bicycle"], displayNames: nil)
        #expect(detections.count == 2)
        #expect(detections[0].categories.map(\.categoryName) == ["person", "bicycle"])
        #expect(detections[0].categories.map(\.score) == [0.9, 0.4])
        #expect(detections[1].categories.map(\.categoryName) == ["bicycle"])
    }

    @Test func projectionOfStretchedImageIsIdentity() {
        let box = RelativeBox(xMin: 0.1, yMin: 0.2, width: 0.3, height: 0.4)
        #expect(close(DetectionProjection.project(box, with: .identity), box))  // up to float rounding of ymin + height
    }
}
