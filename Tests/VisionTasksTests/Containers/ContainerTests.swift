import Foundation
import Testing
import VisionTasks

@Suite("Result containers")
struct ContainerTests {
    @Test func landmarksCompareAllFields() {
        let a = NormalizedLandmark(x: 0.1, y: 0.2, z: 0.3, visibility: 0.9, presence: 0.8)
        #expect(a == NormalizedLandmark(x: 0.1, y: 0.2, z: 0.3, visibility: 0.9, presence: 0.8))
        #expect(a != NormalizedLandmark(x: 0.1, y: 0.2, z: 0.3))
        #expect(Landmark(x: 1, y: 2, z: 3).visibility == nil)
        #expect(Set([a, a]).count == 1)
    }

    @Test func detectionHoldsPixelBoxAndOptionalKeypoints() {
        let category = ResultCategory(index: -1, score: 0.75, categoryName: "cat", displayName: nil)
        let detection = Detection(
            categories: [category], boundingBox: CGRect(x: 10, y: 20, width: 30, height: 40), keypoints: nil)
        #expect(detection.categories.first?.index == -1)
        #expect(detection.boundingBox.maxX == 40)
        #expect(detection.keypoints == nil)
        let keypoint = NormalizedKeypoint(location: CGPoint(x: 0.5, y: 0.25), label: nil, score: 0)
        #expect(keypoint.location.y == 0.25)
    }

    @Test func baseOptionsDefaultsAndCopy() {
        let options = BaseOptions()
        #expect(options.modelAssetPath == nil)
        #expect(options.delegate == .CPU)
        options.modelAssetPath = "/models/pose.task"
        let copy = options.copy()
        options.modelAssetPath = "/other"
        #expect(copy.modelAssetPath == "/models/pose.task")
        #expect(TaskOptions().baseOptions.delegate == .CPU)
    }

    @Test func enumsKeepMediaPipeRawValues() {
        #expect(RunningMode.allCases.map(\.rawValue) == [0, 1, 2])
        #expect(Delegate.GPU.rawValue == 1)
        #expect(MaskDataType.float32.rawValue == 1)
        #expect(HandLandmark.allCases.count == 21)
        #expect(HandLandmark.wrist.rawValue == 0)
        #expect(HandLandmark.middleFingerMCP.rawValue == 9)
        #expect(HandLandmark.pinkyTip.rawValue == 20)
        #expect(HandLandmark.pinkyTIP == .pinkyTip)
        #expect(HandLandmark.thumbTip.rawValue == 4)
        #expect(ImageOrientation.right.rawValue == 3)
    }
}
