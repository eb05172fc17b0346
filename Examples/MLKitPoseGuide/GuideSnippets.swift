// The Swift snippets of ML Kit's iOS pose detection guide
// (https://developers.google.com/ml-kit/vision/pose-detection/ios), steps 1–4, written against
// `import PoseDetection`. They are kept as the guide has them except where noted "Adapted":
// - the guide's `guard !detectedPoses.isEmpty` on the `[Pose]?` the completion receives uses
//   `guard let`, without which it does not compile (against ML Kit either);
// - the orientation switch has an `@unknown default`, which Swift 6 requires.
// The UIKit / AVFoundation parts compile only where UIKit exists (on Linux they are type-checked
// against stub modules by scripts/platforms/apple-typecheck.sh); there `VisionImage.orientation`
// is a `UIImage.Orientation`, as in ML Kit, so the guide's orientation code is unchanged.
import PoseDetection
import VisionTasks

#if canImport(UIKit) && canImport(AVFoundation)
    import AVFoundation
    import UIKit
#endif

// MARK: 1. Create an instance of PoseDetector

/// Base pose detector with streaming, when depending on the PoseDetection SDK.
func makeBaseStreamingDetector() -> PoseDetector {
    let options = PoseDetectorOptions()
    options.detectorMode = .stream
    let poseDetector = PoseDetector.poseDetector(options: options)
    return poseDetector
}

/// Accurate pose detector on static images, when depending on the PoseDetectionAccurate SDK.
func makeAccurateSingleImageDetector() -> PoseDetector {
    let options = AccuratePoseDetectorOptions()
    options.detectorMode = .singleImage
    let poseDetector = PoseDetector.poseDetector(options: options)
    return poseDetector
}

// MARK: 2. Prepare the input image

#if canImport(UIKit) && canImport(AVFoundation)
    /// A `UIImage`, with its own orientation.
    func visionImage(from image: UIImage) -> VisionImage {
        let visionImage = VisionImage(image: image)
        visionImage.orientation = image.imageOrientation
        return visionImage
    }

    /// A camera frame, with the orientation the device and camera give it.
    @MainActor
    func visionImage(from sampleBuffer: CMSampleBuffer, cameraPosition: AVCaptureDevice.Position) -> VisionImage {
        let image = VisionImage(buffer: sampleBuffer)
        image.orientation = imageOrientation(
            deviceOrientation: UIDevice.current.orientation,
            cameraPosition: cameraPosition)
        return image
    }

    /// The guide's orientation table; the front camera's frames get the mirrored orientations.
    func imageOrientation(
        deviceOrientation: UIDeviceOrientation,
        cameraPosition: AVCaptureDevice.Position
    ) -> UIImage.Orientation {
        switch deviceOrientation {
        case .portrait:
            return cameraPosition == .front ? .leftMirrored : .right
        case .landscapeLeft:
            return cameraPosition == .front ? .downMirrored : .up
        case .portraitUpsideDown:
            return cameraPosition == .front ? .rightMirrored : .left
        case .landscapeRight:
            return cameraPosition == .front ? .upMirrored : .down
        case .faceDown, .faceUp, .unknown:
            return .up
        @unknown default:  // Adapted: Swift 6 requires it for an Objective-C enum (a warning in Swift 5).
            return .up
        }
    }
#endif

// MARK: 3. Process the image

/// Asynchronous processing: the completion handler receives the poses or an error.
func detectAsynchronously(_ image: VisionImage, with poseDetector: PoseDetector, done: @escaping () -> Void) {
    poseDetector.process(image) { detectedPoses, error in
        defer { done() }
        guard error == nil else {
            // Error.
            print("Failed to detect pose with error: \(error?.localizedDescription ?? "").")
            return
        }
        guard let detectedPoses, !detectedPoses.isEmpty else {  // Adapted: `guard let`.
            // No pose detected.
            print("Pose detector returned no results.")
            return
        }
        // Success. Get pose landmarks here.
        describe(detectedPoses)
    }
}

/// Synchronous processing (ML Kit requires a background thread for this call).
func detectSynchronously(_ image: VisionImage, with poseDetector: PoseDetector) -> [Pose]? {
    var results: [Pose]?
    do {
        results = try poseDetector.results(in: image)
    } catch let error {
        print("Failed to detect pose with error: \(error.localizedDescription).")
        return nil
    }
    guard let detectedPoses = results, !detectedPoses.isEmpty else {
        print("Pose detector returned no results.")
        return nil
    }
    // Success. Get pose landmarks here.
    return detectedPoses
}

// MARK: 4. Get information about the detected pose

/// Prints the left ankle of each pose when it is likely inside the frame.
func describe(_ detectedPoses: [Pose]) {
    for pose in detectedPoses {
        let leftAnkleLandmark = pose.landmark(ofType: .leftAnkle)
        if leftAnkleLandmark.inFrameLikelihood > 0.5 {
            let position = leftAnkleLandmark.position
            print("leftAnkle at (\(position.x), \(position.y), \(position.z))")
        } else {
            print("leftAnkle out of frame (likelihood \(leftAnkleLandmark.inFrameLikelihood))")
        }
    }
}
