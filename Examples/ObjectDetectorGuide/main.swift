// Runs the guide's snippets (GuideSnippets.swift) on an image file:
//   swift run ObjectDetectorGuide IMAGE
// The image is read with `MPImage(contentsOfFile:)` where the guide has a `UIImage`. The model is
// model.tflite from the app bundle, or else ssd_mobilenet_v1.tflite from $VISION_TASKS_MODELS or ./Models.
// The video and live-stream modes get the image as two frames 33 ms apart.
import Foundation
import VisionTasks

let arguments = CommandLine.arguments.dropFirst()
guard let path = arguments.first else {
    print("usage: ObjectDetectorGuide IMAGE")
    exit(2)
}
let image: MPImage
do {
    image = try MPImage(contentsOfFile: path)
} catch {
    print("cannot read \(path): \(error)")
    exit(1)
}

do {
    print("image mode, detect(image:):")
    let imageDetector = try makeImageObjectDetector()
    describe(try detect(image: image, with: imageDetector), error: nil, timestampInMilliseconds: 0)

    print("video mode, detect(videoFrame:timestampInMilliseconds:):")
    let videoDetector = try makeVideoObjectDetector()
    for timestamp in [0, 33] {
        let result = try detect(videoFrame: image, timestamp: timestamp, with: videoDetector)
        describe(result, error: nil, timestampInMilliseconds: timestamp)
    }

    print("live-stream mode, detectAsync(image:timestampInMilliseconds:), results to the delegate:")
    let (liveDetector, processor) = try makeLiveStreamObjectDetector()
    for timestamp in [0, 33] {
        try detectAsync(image: image, timestamp: timestamp, with: liveDetector)
        // VisionTasks' addition (MediaPipe has none): wait for the delegate call, so that no frame is
        // dropped as it would be while the previous one is still being processed.
        liveDetector.waitUntilIdle()
    }
    withExtendedLifetime(processor) {}
} catch {
    print("Failed to detect objects with error: \(error).")
    exit(1)
}
