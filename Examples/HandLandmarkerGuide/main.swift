// Runs the guide's snippets (GuideSnippets.swift) on an image file:
//   swift run HandLandmarkerGuide IMAGE
// The image is read with `MPImage(contentsOfFile:)` where the guide has a `UIImage`. The model is
// hand_landmarker.task from the app bundle, or else from $VISION_TASKS_MODELS or ./Models. The video and
// live-stream modes get the image as two frames 33 ms apart.
import Foundation
import VisionTasks

let arguments = CommandLine.arguments.dropFirst()
guard let path = arguments.first else {
    print("usage: HandLandmarkerGuide IMAGE")
    exit(2)
}
let image: MPImage
do {
    image = try MPImage(contentsOfFile: path)
} catch {
    print("cannot read \(path): \(error)")
    exit(1)
}

// The guide's undefined constants: MediaPipe's default values, but two hands.
let minHandDetectionConfidence: Float = 0.5
let minHandPresenceConfidence: Float = 0.5
let minHandTrackingConfidence: Float = 0.5
let numHands = 2

do {
    print("image mode, detect(image:):")
    let imageLandmarker = try makeImageHandLandmarker(
        minHandDetectionConfidence: minHandDetectionConfidence, minHandPresenceConfidence: minHandPresenceConfidence,
        minHandTrackingConfidence: minHandTrackingConfidence, numHands: numHands)
    describe(try detect(image: image, with: imageLandmarker), error: nil, timestampInMilliseconds: 0)

    print("video mode, detect(videoFrame:timestampInMilliseconds:):")
    let videoLandmarker = try makeVideoHandLandmarker(
        minHandDetectionConfidence: minHandDetectionConfidence, minHandPresenceConfidence: minHandPresenceConfidence,
        minHandTrackingConfidence: minHandTrackingConfidence, numHands: numHands)
    for timestamp in [0, 33] {
        let result = try detect(videoFrame: image, timestamp: timestamp, with: videoLandmarker)
        describe(result, error: nil, timestampInMilliseconds: timestamp)
    }

    print("live-stream mode, detectAsync(image:timestampInMilliseconds:), results to the delegate:")
    let (liveLandmarker, processor) = try makeLiveStreamHandLandmarker(
        minHandDetectionConfidence: minHandDetectionConfidence, minHandPresenceConfidence: minHandPresenceConfidence,
        minHandTrackingConfidence: minHandTrackingConfidence, numHands: numHands)
    for timestamp in [0, 33] {
        try detectAsync(image: image, timestamp: timestamp, with: liveLandmarker)
        // VisionTasks' addition (MediaPipe has none): wait for the delegate call, so that no frame is
        // dropped as it would be while the previous one is still being processed.
        liveLandmarker.waitUntilIdle()
    }
    withExtendedLifetime(processor) {}
} catch {
    print("Failed to detect hands with error: \(error).")
    exit(1)
}
