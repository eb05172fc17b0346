// The Swift snippets of MediaPipe's Pose Landmarker guide for iOS
// (https://ai.google.dev/edge/mediapipe/solutions/vision/pose_landmarker/ios): creating the task in the
// image, video and live-stream running modes (with the guide's live-stream delegate class), preparing the
// data and running the task, written against `import VisionTasks`. Each snippet is a function here: the
// constants the guide leaves undefined (`minPoseDetectionConfidence`, …, `numPoses`, `timestamp`) and the
// objects it starts from (`image`, `pixelBuffer`, `sampleBuffer`, `poseLandmarker`) are its parameters,
// and it returns what it makes. The snippets are kept as the guide has them except where noted "Adapted":
// - the model path falls back to pose_landmarker_lite.task in the models folder (`$VISION_TASKS_MODELS`,
//   else ./Models) when `Bundle.main` has no pose_landmarker.task, as a command-line tool has no app
//   bundle (the guide's file name is that of the sample app's download script).
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
func makeImagePoseLandmarker(
    minPoseDetectionConfidence: Float, minPosePresenceConfidence: Float, minTrackingConfidence: Float,
    numPoses: Int
) throws -> PoseLandmarker {
    let modelPath =
        Bundle.main.path(
            forResource: "pose_landmarker",
            ofType: "task")
        ?? modelsFolderPath("pose_landmarker_lite.task")  // Adapted: no app bundle on the command line.

    let options = PoseLandmarkerOptions()
    options.baseOptions.modelAssetPath = modelPath
    options.runningMode = .image
    options.minPoseDetectionConfidence = minPoseDetectionConfidence
    options.minPosePresenceConfidence = minPosePresenceConfidence
    options.minTrackingConfidence = minTrackingConfidence
    options.numPoses = numPoses

    let poseLandmarker = try PoseLandmarker(options: options)
    return poseLandmarker
}

/// Video mode: the frames of a video, in order, with their timestamps.
func makeVideoPoseLandmarker(
    minPoseDetectionConfidence: Float, minPosePresenceConfidence: Float, minTrackingConfidence: Float,
    numPoses: Int
) throws -> PoseLandmarker {
    let modelPath =
        Bundle.main.path(
            forResource: "pose_landmarker",
            ofType: "task")
        ?? modelsFolderPath("pose_landmarker_lite.task")  // Adapted: no app bundle on the command line.

    let options = PoseLandmarkerOptions()
    options.baseOptions.modelAssetPath = modelPath
    options.runningMode = .video
    options.minPoseDetectionConfidence = minPoseDetectionConfidence
    options.minPosePresenceConfidence = minPosePresenceConfidence
    options.minTrackingConfidence = minTrackingConfidence
    options.numPoses = numPoses

    let poseLandmarker = try PoseLandmarker(options: options)
    return poseLandmarker
}

// Class that conforms to the `PoseLandmarkerLiveStreamDelegate` protocol and
// implements the method that the pose landmarker calls once it finishes
// performing pose landmark detection in each input frame.
class PoseLandmarkerResultProcessor: NSObject, PoseLandmarkerLiveStreamDelegate {

    func poseLandmarker(
        _ poseLandmarker: PoseLandmarker,
        didFinishDetection result: PoseLandmarkerResult?,
        timestampInMilliseconds: Int,
        error: Error?
    ) {

        // Process the pose landmarker result or errors here.
        describe(result, error: error, timestampInMilliseconds: timestampInMilliseconds)
    }
}

/// Live-stream mode: camera frames, results delivered to the processor. The landmarker holds its
/// delegate weakly (as MediaPipe's does), so the processor is returned for the caller to keep.
func makeLiveStreamPoseLandmarker(
    minPoseDetectionConfidence: Float, minPosePresenceConfidence: Float, minTrackingConfidence: Float,
    numPoses: Int
) throws -> (PoseLandmarker, PoseLandmarkerResultProcessor) {
    let modelPath =
        Bundle.main.path(
            forResource: "pose_landmarker",
            ofType: "task")
        ?? modelsFolderPath("pose_landmarker_lite.task")  // Adapted: no app bundle on the command line.

    let options = PoseLandmarkerOptions()
    options.baseOptions.modelAssetPath = modelPath
    options.runningMode = .liveStream
    options.minPoseDetectionConfidence = minPoseDetectionConfidence
    options.minPosePresenceConfidence = minPosePresenceConfidence
    options.minTrackingConfidence = minTrackingConfidence
    options.numPoses = numPoses

    // Assign an object of the class to the `poseLandmarkerLiveStreamDelegate`
    // property.
    let processor = PoseLandmarkerResultProcessor()
    options.poseLandmarkerLiveStreamDelegate = processor

    let poseLandmarker = try PoseLandmarker(options: options)
    return (poseLandmarker, processor)
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
func detect(image: MPImage, with poseLandmarker: PoseLandmarker) throws -> PoseLandmarkerResult {
    let result = try poseLandmarker.detect(image: image)
    return result
}

/// Video (video mode): blocks until the frame's result is ready.
func detect(videoFrame image: MPImage, timestamp: Int, with poseLandmarker: PoseLandmarker) throws
    -> PoseLandmarkerResult
{
    let result = try poseLandmarker.detect(
        videoFrame: image,
        timestampInMilliseconds: timestamp)
    return result
}

/// Live stream (live-stream mode): returns at once; the result goes to the delegate.
func detectAsync(image: MPImage, timestamp: Int, with poseLandmarker: PoseLandmarker) throws {
    try poseLandmarker.detectAsync(
        image: image,
        timestampInMilliseconds: timestamp)
}

// MARK: Handle and display results (not guide code: the guide shows the output, not code)

/// Prints a result in the layout of the guide's sample output: the first landmark and world landmark
/// of each pose, and the number of segmentation masks.
func describe(_ result: PoseLandmarkerResult?, error: Error?, timestampInMilliseconds: Int) {
    guard let result else {
        print("no result at \(timestampInMilliseconds) ms: \(error.map { "\($0)" } ?? "no error")")
        return
    }
    print("PoseLandmarkerResult (\(timestampInMilliseconds) ms):")
    for (pose, landmarks) in result.landmarks.enumerated() {
        print("  Landmarks (pose #\(pose)):")
        for (index, landmark) in landmarks.prefix(1).enumerated() {
            printLandmark(index, landmark.x, landmark.y, landmark.z, landmark.visibility, landmark.presence)
        }
        print("    ... (\(landmarks.count) landmarks per pose)")
    }
    for (pose, landmarks) in result.worldLandmarks.enumerated() {
        print("  WorldLandmarks (pose #\(pose)):")
        for (index, landmark) in landmarks.prefix(1).enumerated() {
            printLandmark(index, landmark.x, landmark.y, landmark.z, landmark.visibility, landmark.presence)
        }
        print("    ... (\(landmarks.count) world landmarks per pose)")
    }
    print("  SegmentationMasks: \(result.segmentationMasks.count)")
}

private func printLandmark(_ index: Int, _ x: Float, _ y: Float, _ z: Float, _ visibility: Float?, _ presence: Float?) {
    print("    Landmark #\(index):")
    print("      x            : \(x)")
    print("      y            : \(y)")
    print("      z            : \(z)")
    print("      visibility   : \(visibility.map { "\($0)" } ?? "nil")")
    print("      presence     : \(presence.map { "\($0)" } ?? "nil")")
}

// MARK: Models (not guide code)

/// `fileName` in the models folder: `$VISION_TASKS_MODELS` when set and not empty, else ./Models
/// (the rule of the package's command-line tool and of `PoseDetector`).
func modelsFolderPath(_ fileName: String) -> String {
    let folder = ProcessInfo.processInfo.environment["VISION_TASKS_MODELS"].flatMap { $0.isEmpty ? nil : $0 }
    return ((folder ?? "Models") as NSString).appendingPathComponent(fileName)
}
