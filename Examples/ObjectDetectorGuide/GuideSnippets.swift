// The Swift snippets of MediaPipe's Object Detector guide for iOS
// (https://ai.google.dev/edge/mediapipe/solutions/vision/object_detector/ios): creating the task in the
// image, video and live-stream running modes (with the guide's live-stream delegate class), preparing the
// data and running the task, written against `import VisionTasks`. Each snippet is a function here: the
// objects it starts from (`image`, `pixelBuffer`, `sampleBuffer`, `objectDetector`, `timestamp`) are its
// parameters, and it returns what it makes. The snippets are kept as the guide has them except where noted
// "Adapted":
// - the model path falls back to ssd_mobilenet_v1.tflite in the models folder (`$VISION_TASKS_MODELS`,
//   else ./Models) when `Bundle.main` has no model.tflite, as a command-line tool has no app bundle; the
//   guide's sample app ships EfficientDet-Lite0 (efficientdet_lite0.tflite), which the shared models
//   folder does not hold, and SSD MobileNet v1 is the other model the guide's overview lists;
// - the three "run the task" lines are not Swift as the guide prints them (`let objectDetector.detect(
//   image:image)`: a `let` with no name, no `try`, and for video and live stream no timestamp, although
//   MediaPipe's `detect(videoFrame:timestampInMilliseconds:)` and `detectAsync(image:
//   timestampInMilliseconds:)` require one, as the guide's Objective-C and the pose and hand guides show);
//   they are written as those guides write them, so they compile against MediaPipe too.
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
func makeImageObjectDetector() throws -> ObjectDetector {
    let modelPath =
        Bundle.main.path(
            forResource: "model",
            ofType: "tflite")
        ?? modelsFolderPath("ssd_mobilenet_v1.tflite")  // Adapted: no app bundle; no EfficientDet-Lite0.

    let options = ObjectDetectorOptions()
    options.baseOptions.modelAssetPath = modelPath
    options.runningMode = .image
    options.maxResults = 5

    let objectDetector = try ObjectDetector(options: options)
    return objectDetector
}

/// Video mode: the frames of a video, in order, with their timestamps.
func makeVideoObjectDetector() throws -> ObjectDetector {
    let modelPath =
        Bundle.main.path(
            forResource: "model",
            ofType: "tflite")
        ?? modelsFolderPath("ssd_mobilenet_v1.tflite")  // Adapted: no app bundle; no EfficientDet-Lite0.

    let options = ObjectDetectorOptions()
    options.baseOptions.modelAssetPath = modelPath
    options.runningMode = .video
    options.maxResults = 5

    let objectDetector = try ObjectDetector(options: options)
    return objectDetector
}

// Class that conforms to the `ObjectDetectorLiveStreamDelegate` protocol and
// implements the method that the object detector calls once it
// finishes performing detection on each input frame.
class ObjectDetectorResultProcessor: NSObject, ObjectDetectorLiveStreamDelegate {

    func objectDetector(
        _ objectDetector: ObjectDetector,
        didFinishDetection objectDetectionResult: ObjectDetectorResult?,
        timestampInMilliseconds: Int,
        error: Error?
    ) {
        // Process the detection result or errors here.
        describe(objectDetectionResult, error: error, timestampInMilliseconds: timestampInMilliseconds)
    }
}

/// Live-stream mode: camera frames, results delivered to the processor. The detector holds its
/// delegate weakly (as MediaPipe's does), so the processor is returned for the caller to keep.
func makeLiveStreamObjectDetector() throws -> (ObjectDetector, ObjectDetectorResultProcessor) {
    let modelPath =
        Bundle.main.path(
            forResource: "model",
            ofType: "tflite")
        ?? modelsFolderPath("ssd_mobilenet_v1.tflite")  // Adapted: no app bundle; no EfficientDet-Lite0.

    let options = ObjectDetectorOptions()
    options.baseOptions.modelAssetPath = modelPath
    options.runningMode = .liveStream
    options.maxResults = 5

    // Assign an object of the class to the `objectDetectorLiveStreamDelegate`
    // property.
    let processor = ObjectDetectorResultProcessor()
    options.objectDetectorLiveStreamDelegate = processor

    let objectDetector = try ObjectDetector(options: options)
    return (objectDetector, processor)
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
func detect(image: MPImage, with objectDetector: ObjectDetector) throws -> ObjectDetectorResult {
    let result = try objectDetector.detect(image: image)  // Adapted: `let objectDetector.detect(image:image)`.
    return result
}

/// Video (video mode): blocks until the frame's result is ready.
func detect(videoFrame image: MPImage, timestamp: Int, with objectDetector: ObjectDetector) throws
    -> ObjectDetectorResult
{
    let result = try objectDetector.detect(  // Adapted: `let objectDetector.detect(videoFrame:image)`.
        videoFrame: image,
        timestampInMilliseconds: timestamp)  // Adapted: MediaPipe requires the timestamp.
    return result
}

/// Live stream (live-stream mode): returns at once; the result goes to the delegate.
func detectAsync(image: MPImage, timestamp: Int, with objectDetector: ObjectDetector) throws {
    try objectDetector.detectAsync(  // Adapted: `let objectDetector.detectAsync(image:image)`.
        image: image,
        timestampInMilliseconds: timestamp)  // Adapted: MediaPipe requires the timestamp.
}

// MARK: Handle and display results (not guide code: the guide shows the output, not code)

/// Prints a result in the layout of the guide's sample output: each detection's box in pixels and
/// its categories.
func describe(_ result: ObjectDetectorResult?, error: Error?, timestampInMilliseconds: Int) {
    guard let result else {
        print("no result at \(timestampInMilliseconds) ms: \(error.map { "\($0)" } ?? "no error")")
        return
    }
    print("ObjectDetectorResult (\(timestampInMilliseconds) ms):")
    for (index, detection) in result.detections.enumerated() {
        let box = detection.boundingBox
        print(" Detection #\(index):")
        print(
            "  Box: (x: \(Int(box.origin.x)), y: \(Int(box.origin.y)), "
                + "w: \(Int(box.size.width)), h: \(Int(box.size.height)))")
        print("  Categories:")
        for category in detection.categories {
            print("   index       : \(category.index)")
            print("   score       : \(category.score)")
            print("   class name  : \(category.categoryName ?? "nil")")
        }
    }
}

// MARK: Models (not guide code)

/// `fileName` in the models folder: `$VISION_TASKS_MODELS` when set and not empty, else ./Models
/// (the rule of the package's command-line tool and of `PoseDetector`).
func modelsFolderPath(_ fileName: String) -> String {
    let folder = ProcessInfo.processInfo.environment["VISION_TASKS_MODELS"].flatMap { $0.isEmpty ? nil : $0 }
    return ((folder ?? "Models") as NSString).appendingPathComponent(fileName)
}
