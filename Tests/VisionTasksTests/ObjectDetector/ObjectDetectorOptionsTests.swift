import Testing

@testable import VisionTasks

@Suite("ObjectDetectorOptions")
struct ObjectDetectorOptionsTests {
    final class Receiver: ObjectDetectorLiveStreamDelegate {
        func objectDetector(
            _ objectDetector: ObjectDetector, didFinishDetection result: ObjectDetectorResult?,
            timestampInMilliseconds: Int, error: (any Error)?
        ) {}
    }

    @Test func copyIsIndependentAndKeepsEveryValue() {
        let receiver = Receiver()
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = "a.tflite"
        options.baseOptions.threadCount = 1
        options.runningMode = .liveStream
        options.objectDetectorLiveStreamDelegate = receiver
        options.displayNamesLocale = "fr"
        options.maxResults = 3
        options.scoreThreshold = 0.25
        options.categoryAllowlist = ["cat"]
        options.categoryDenylist = ["dog"]
        options.labels = ["cat", "dog"]
        options.inputNormalization = InputNormalization(mean: [127.5], std: [127.5])
        let copy = options.copy()
        options.baseOptions.modelAssetPath = "b.tflite"
        options.maxResults = 4
        options.categoryAllowlist = []
        options.labels = nil
        #expect(copy !== options)
        #expect(copy.baseOptions.modelAssetPath == "a.tflite")
        #expect(copy.baseOptions.threadCount == 1)
        #expect(copy.runningMode == .liveStream)
        #expect(copy.objectDetectorLiveStreamDelegate === receiver)
        #expect(copy.displayNamesLocale == "fr")
        #expect(copy.maxResults == 3)
        #expect(copy.scoreThreshold == 0.25)
        #expect(copy.categoryAllowlist == ["cat"] && copy.categoryDenylist == ["dog"])
        #expect(copy.labels == ["cat", "dog"])
        #expect(copy.inputNormalization == InputNormalization(mean: [127.5], std: [127.5]))
    }
}
