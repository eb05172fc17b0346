import Foundation
import Imaging
import TestSupport

@testable import VisionTasks

/// Shared inputs of the PoseLandmarker tests; `nil` when ../shared is absent.
enum PoseTestData {
    static var fullModel: String? { SharedData.path("models/pose_landmarker_full.task") }
    static var liteModel: String? { SharedData.path("models/pose_landmarker_lite.task") }

    /// A decoded reference image (the exact pixels MediaPipe was fed).
    static func image(_ name: String) throws -> MPImage? {
        guard let path = SharedData.path("images/decoded/\(name).png") else { return nil }
        return try MPImage(contentsOfFile: path)
    }

    /// Options for `model` with the given mode and defaults otherwise.
    static func options(_ model: String, _ mode: RunningMode = .image) -> PoseLandmarkerOptions {
        let options = PoseLandmarkerOptions()
        options.baseOptions.modelAssetPath = model
        options.runningMode = mode
        return options
    }

    /// The upright RGB pixels of `image`.
    static func uprightPixels(_ image: MPImage) -> Bitmap {
        image.bitmap.convertedToRGB().applying(image.orientation)
    }

    /// An image whose stored pixels, shown with `orientation`, are exactly `upright`.
    static func stored(_ upright: Bitmap, showingAs orientation: ImageOrientation) throws -> MPImage {
        let width = orientation.swapsWidthAndHeight ? upright.height : upright.width
        let height = orientation.swapsWidthAndHeight ? upright.width : upright.height
        let map = orientation.storedPixelMap(width: width, height: height)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        upright.withUnsafeBytes { source in
            for y in 0..<upright.height {
                for x in 0..<upright.width {
                    let storedX = map.origin.x + x * map.xStep.x + y * map.yStep.x
                    let storedY = map.origin.y + x * map.xStep.y + y * map.yStep.y
                    let target = (storedY * width + storedX) * 3
                    let origin = (y * upright.width + x) * 3
                    pixels[target] = source[origin]
                    pixels[target + 1] = source[origin + 1]
                    pixels[target + 2] = source[origin + 2]
                }
            }
        }
        return try MPImage(
            pixels: pixels, width: width, height: height, bytesPerRow: width * 3, format: .rgb8,
            orientation: orientation)
    }

    /// Two copies of `image` side by side: a picture with two people.
    static func sideBySide(_ image: MPImage) throws -> MPImage {
        let upright = uprightPixels(image)
        let width = upright.width * 2
        let height = upright.height
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        upright.withUnsafeBytes { source in
            for y in 0..<height {
                for copy in 0..<2 {
                    let target = (y * width + copy * upright.width) * 3
                    let origin = y * upright.width * 3
                    for offset in 0..<(upright.width * 3) { pixels[target + offset] = source[origin + offset] }
                }
            }
        }
        return try MPImage(pixels: pixels, width: width, height: height, bytesPerRow: width * 3, format: .rgb8)
    }

    /// The largest difference in x and y between two lists of poses of the same shape.
    static func largestDifference(_ a: [[NormalizedLandmark]], _ b: [[NormalizedLandmark]]) -> Float {
        var worst: Float = 0
        for (first, second) in zip(a, b) {
            for (p, q) in zip(first, second) { worst = max(worst, abs(p.x - q.x), abs(p.y - q.y)) }
        }
        return worst
    }
}
