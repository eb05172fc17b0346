// The Swift snippets of MediaPipe's Hand Landmarker guide for iOS
// (https://ai.google.dev/edge/mediapipe/solutions/vision/hand_landmarker/ios): creating the task in the
// image, video and live-stream running modes (with the guide's live-stream delegate class), preparing the
// data and running the task, written against `import VisionTasks`. Each snippet is a function here: the
// constants the guide leaves undefined (`minHandDetectionConfidence`, …, `numHands`, `timestamp`) and the
// objects it starts from (`image`, `pixelBuffer`, `sampleBuffer`, `handLandmarker`) are its parameters,
// and it returns what it makes. The snippets are kept as the guide has them except where noted "Adapted":
// - the model path falls back to hand_landmarker.task in the models folder (`$VISION_TASKS_MODELS`, else
//   ./Models) when `Bundle.main` has none, as a command-line tool has no app bundle.
// Not from the guide: the delegate's method prints what it receives, below the guide's placeholder
// comment, and the code after the last MARK prints results and finds models.
// The UIKit / AVFoundation parts compile only where UIKit exists (on Linux they are type-checked against
// stub modules by scripts/platforms/apple-typecheck.sh); main.swift reads the image with
// `MPImage(contentsOfFile:)` instead.
import VisionTasks

#if canImport(UIKit) && canImport(AVFoundation)
    import AVFoundation
    import UIKit
#endif

// MARK: Create the task

/// Image mode: still images, one `detect(image:)` call each.
func makeImageHandLandmarker(
    minHandDetectionConfidence: Float, minHandPresenceConfidence: Float, minHandTrackingConfidence: Float,
    numHands: Int
) throws -> HandLandmarker {
    let modelPath =
        Bundle.main.path(
            forResource: "hand_landmarker",
            ofType: "task")
        ?? modelsFolderPath("hand_landmarker.task")  // Adapted: no app bundle on the command line.

    let options = HandLandmarkerOptions()
    options.baseOptions.modelAssetPath = modelPath
    options.runningMode = .image
    options.minHandDetectionConfidence = minHandDetectionConfidence
    options.minHandPresenceConfidence = minHandPresenceConfidence
    options.minTrackingConfidence = minHandTrackingConfidence
    options.numHands = numHands

    let handLandmarker = try HandLandmarker(options: options)
    return handLandmarker
}

/// Video mode: the frames of a video, in order, with their timestamps.
func makeVideoHandLandmarker(
    minHandDetectionConfidence: Float, minHandPresenceConfidence: Float, minHandTrackingConfidence: Float,
    numHands: Int
) throws -> HandLandmarker {
    let modelPath =
        Bundle.main.path(
            forResource: "hand_landmarker",
            ofType: "task")
        ?? modelsFolderPath("hand_landmarker.task")  // Adapted: no app bundle on the command line.

    let options = HandLandmarkerOptions()
    options.baseOptions.modelAssetPath = modelPath
    options.runningMode = .video
    options.minHandDetectionConfidence = minHandDetectionConfidence
    options.minHandPresenceConfidence = minHandPresenceConfidence
    options.minTrackingConfidence = minHandTrackingConfidence
    options.numHands = numHands

    let handLandmarker = try HandLandmarker(options: options)
    return handLandmarker
}

// Class that conforms to the `HandLandmarkerLiveStreamDelegate` protocol and
// implements the method that the hand landmarker calls once it finishes
// performing landmarks detection in each input frame.
class HandLandmarkerResultProcessor: NSObject, HandLandmarkerLiveStreamDelegate {

    func handLandmarker(
        _ handLandmarker: HandLandmarker,
        didFinishDetection result: HandLandmarkerResult?,
        timestampInMilliseconds: Int,
        error: Error?
    ) {

        // Process the hand landmarker result or errors here.
        describe(result, error: error, timestampInMilliseconds: timestampInMilliseconds)
    }
}

/// Live-stream mode: camera frames, results delivered to the processor. The landmarker holds its
/// delegate weakly (as MediaPipe's does), so the processor is returned for the caller to keep.
func makeLiveStreamHandLandmarker(
    minHandDetectionConfidence: Float, minHandPresenceConfidence: Float, minHandTrackingConfidence: Float,
    numHands: Int
) throws -> (HandLandmarker, HandLandmarkerResultProcessor) {
    let modelPath =
        Bundle.main.path(
            forResource: "hand_landmarker",
            ofType: "task")
        ?? modelsFolderPath("hand_landmarker.task")  // Adapted: no app bundle on the command line.

    let options = HandLandmarkerOptions()
    options.baseOptions.modelAssetPath = modelPath
    options.runningMode = .liveStream
    options.minHandDetectionConfidence = minHandDetectionConfidence
    options.minHandPresenceConfidence = minHandPresenceConfidence
    options.minTrackingConfidence = minHandTrackingConfidence
    options.numHands = numHands

    // Assign an object of the class to the `handLandmarkerLiveStreamDelegate`
    // property.
    let processor = HandLandmarkerResultProcessor()
    options.handLandmarkerLiveStreamDelegate = processor

    let handLandmarker = try HandLandmarker(options: options)
    return (handLandmarker, processor)
}

// MARK: Prepare data

#if canImport(UIKit) && canImport(AVFoundation)
    /// A `UIImage`: still images, or video frames extracted with `AVAssetImageGenerator`.
    func mpImage(from image: UIImage) throws -> MPImage {
        // Load an image on the user's device as an iOS `UIImage` object.

        // Convert the `UIImage` object to a MediaPipe's Image object having the default
        // orientation `UIImage.Orientation.up`.
        let image = try MPImage(uiImage: image)
        return image
    }

    /// A `CVPixelBuffer`: frames made with Core Image, video frames, camera frames.
    func mpImage(from pixelBuffer: CVPixelBuffer) throws -> MPImage {
        // Obtain a CVPixelBuffer.

        // Convert the `CVPixelBuffer` object to a MediaPipe's Image object having the default
        // orientation `UIImage.Orientation.up`.
        let image = try MPImage(pixelBuffer: pixelBuffer)
        return image
    }

    /// A `CMSampleBuffer`: camera frames from `AVCaptureVideoDataOutput`.
    func mpImage(from sampleBuffer: CMSampleBuffer) throws -> MPImage {
        // Obtain a CMSampleBuffer.

        // Convert the `CMSampleBuffer` object to a MediaPipe's Image object having the default
        // orientation `UIImage.Orientation.up`.
        let image = try MPImage(sampleBuffer: sampleBuffer)
        return image
    }
#endif

// MARK: Run the task

/// Still image (image mode): blocks until the result is ready.
func detect(image: MPImage, with handLandmarker: HandLandmarker) throws -> HandLandmarkerResult {
    let result = try handLandmarker.detect(image: image)
    return result
}

/// Video (video mode): blocks until the frame's result is ready.
func detect(videoFrame image: MPImage, timestamp: Int, with handLandmarker: HandLandmarker) throws
    -> HandLandmarkerResult
{
    let result = try handLandmarker.detect(
        videoFrame: image,
        timestampInMilliseconds: timestamp)
    return result
}

/// Live stream (live-stream mode): returns at once; the result goes to the delegate.
func detectAsync(image: MPImage, timestamp: Int, with handLandmarker: HandLandmarker) throws {
    try handLandmarker.detectAsync(
        image: image,
        timestampInMilliseconds: timestamp)
}

// MARK: Handle and display results (not guide code: the guide shows the output, not code)

/// Prints a result in the layout of the guide's sample output: the handedness of each hand and its
/// first landmark and world landmark.
func describe(_ result: HandLandmarkerResult?, error: Error?, timestampInMilliseconds: Int) {
    guard let result else {
        print("no result at \(timestampInMilliseconds) ms: \(error.map { "\($0)" } ?? "no error")")
        return
    }
    print("HandLandmarkerResult (\(timestampInMilliseconds) ms):")
    for (hand, categories) in result.handedness.enumerated() {
        print("  Handedness (hand #\(hand)):")
        for (index, category) in categories.enumerated() {
            print("    Categories #\(index):")
            print("      index        : \(category.index)")
            print("      score        : \(category.score)")
            print("      categoryName : \(category.categoryName ?? "nil")")
        }
    }
    for (hand, landmarks) in result.landmarks.enumerated() {
        print("  Landmarks (hand #\(hand)):")
        for (index, landmark) in landmarks.prefix(1).enumerated() {
            printLandmark(index, landmark.x, landmark.y, landmark.z)
        }
        print("    ... (\(landmarks.count) landmarks for a hand)")
    }
    for (hand, landmarks) in result.worldLandmarks.enumerated() {
        print("  WorldLandmarks (hand #\(hand)):")
        for (index, landmark) in landmarks.prefix(1).enumerated() {
            printLandmark(index, landmark.x, landmark.y, landmark.z)
        }
        print("    ... (\(landmarks.count) world landmarks for a hand)")
    }
}

private func printLandmark(_ index: Int, _ x: Float, _ y: Float, _ z: Float) {
    print("    Landmark #\(index):")
    print("      x            : \(x)")
    print("      y            : \(y)")
    print("      z            : \(z)")
}

// MARK: Models (not guide code)

/// `fileName` in the models folder: `$VISION_TASKS_MODELS` when set and not empty, else ./Models
/// (the rule of the package's command-line tool and of `PoseDetector`).
func modelsFolderPath(_ fileName: String) -> String {
    let folder = ProcessInfo.processInfo.environment["VISION_TASKS_MODELS"].flatMap { $0.isEmpty ? nil : $0 }
    return ((folder ?? "Models") as NSString).appendingPathComponent(fileName)
}
