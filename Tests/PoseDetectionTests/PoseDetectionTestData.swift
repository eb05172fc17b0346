import Foundation
import Imaging
import TestSupport
import VisionTasks

@testable import PoseDetection

/// Inputs and helpers of the PoseDetection tests; the shared paths are `nil` when ../shared is
/// absent.
enum PoseDetectionTestData {
    static var liteModel: String? { SharedData.path("models/pose_landmarker_lite.task") }
    static var fullModel: String? { SharedData.path("models/pose_landmarker_full.task") }

    /// The decoded reference images (exact pixels), by name.
    static let imageNames = [
        "astronaut", "business-person", "camera", "grace_hopper", "hand_test_image", "hand_thumb_up", "od_test_image",
    ]

    static func imagePath(_ name: String) -> String? { SharedData.path("images/decoded/\(name).png") }

    /// The first `count` frames of the gesture video, in order.
    static func videoFrames(_ count: Int) -> [String]? {
        let paths = (0..<count).map { SharedData.path(String(format: "images/frames/gesture_test_video/%03d.png", $0)) }
        let found = paths.compactMap { $0 }
        return found.count == count ? found : nil
    }

    /// Options running `model` in `mode`.
    static func options(
        _ model: String, _ mode: PoseDetectorMode, accurate: Bool = false
    ) -> CommonPoseDetectorOptions {
        let options: CommonPoseDetectorOptions = accurate ? AccuratePoseDetectorOptions() : PoseDetectorOptions()
        options.detectorMode = mode
        options.modelPath = model
        return options
    }

    /// The PoseLandmarker result converted by hand the documented way: x × width, y × height,
    /// z × width, presence as likelihood.
    static func expectedPoses(_ landmarks: [[NormalizedLandmark]], width: Int, height: Int) -> [Pose] {
        landmarks.map { pose in
            Pose(
                landmarks: zip(PoseLandmarkType.allTypes, pose).map { type, landmark in
                    PoseLandmark(
                        type: type,
                        position: Vision3DPoint(
                            x: CGFloat(landmark.x) * CGFloat(width), y: CGFloat(landmark.y) * CGFloat(height),
                            z: CGFloat(landmark.z) * CGFloat(width)),
                        inFrameLikelihood: landmark.presence ?? -1)
                })
        }
    }

    /// The largest coordinate difference between two single-pose results, in pixels; infinity
    /// when their shapes differ or a type differs.
    static func largestDifference(_ lhs: [Pose], _ rhs: [Pose]) -> CGFloat {
        guard lhs.count == rhs.count else { return .infinity }
        var largest: CGFloat = 0
        for (left, right) in zip(lhs, rhs) {
            guard left.landmarks.count == right.landmarks.count else { return .infinity }
            for (a, b) in zip(left.landmarks, right.landmarks) {
                guard a.type == b.type else { return .infinity }
                largest = max(largest, abs(a.position.x - b.position.x), abs(a.position.y - b.position.y))
            }
        }
        return largest
    }

    /// Writes the upright pixels of `image` mirrored as `orientation` describes (a mirrored
    /// orientation is its own inverse, so applying it stores the picture mirrored) to a PNG.
    static func writeMirrored(_ image: MPImage, as orientation: ImageOrientation, to path: String) throws {
        let upright = image.bitmap.convertedToRGB().applying(image.orientation)
        let stored = upright.applying(orientation)
        try Data(ImageEncoder.png(stored)).write(to: URL(fileURLWithPath: path))
    }

    /// A fresh empty folder in the temporary directory.
    static func temporaryFolder(_ label: String) throws -> String {
        let path = NSTemporaryDirectory() + "pose-detection-tests-\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func skip(_ what: String) {
        print("skipping: shared reference data not found (\(what))")
    }
}

/// A fake stream clock: 0, `step`, 2 × `step`, … milliseconds, one value per reading.
final class SteppingClock: @unchecked Sendable {
    // @unchecked: `next` is touched only under `lock`.
    private let lock = NSLock()
    private var next = 0
    private let step: Int

    init(step: Int) { self.step = step }

    /// The reading function to give a detector.
    var reading: @Sendable () -> Int {
        { [self] in
            lock.lock()
            defer { lock.unlock() }
            let value = next
            next += step
            return value
        }
    }
}
