// Runs the guide's snippets (GuideSnippets.swift) on an image file:
//   swift run MLKitPoseGuide IMAGE
// Models come from $VISION_TASKS_MODELS or ./Models (pose_landmarker_lite.task for the
// streaming detector; pose_landmarker_heavy.task or pose_landmarker_full.task for the accurate one).
import Foundation
import PoseDetection
import VisionTasks

let arguments = CommandLine.arguments.dropFirst()
guard let path = arguments.first else {
    print("usage: MLKitPoseGuide IMAGE")
    exit(2)
}
let file: MPImage
do {
    file = try MPImage(contentsOfFile: path)
} catch {
    print("cannot read \(path): \(error)")
    exit(1)
}
let image = VisionImage(image: file)

print("accurate detector, single image, synchronous:")
let accurate = makeAccurateSingleImageDetector()
if let poses = detectSynchronously(image, with: accurate) {
    describe(poses)
}

print("base detector, stream, completion handler:")
let streaming = makeBaseStreamingDetector()
await withCheckedContinuation { continuation in
    detectAsynchronously(image, with: streaming) { continuation.resume() }
}

print("base detector, stream, async:")
do {
    describe(try await streaming.process(image))
} catch {
    print("Failed to detect pose with error: \(error.localizedDescription).")
}
