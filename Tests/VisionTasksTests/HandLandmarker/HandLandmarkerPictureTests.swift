import Foundation
import Imaging
import TestSupport
import Testing

@testable import VisionTasks

/// Pictures made in memory: orientations, mirroring and handedness, RGBA input, two hands.
@Suite("HandLandmarker pictures", .serialized)
struct HandLandmarkerPictureTests {
    /// hand_thumb_up.png: one left hand, palm towards the camera (MediaPipe 1.2.3: "Left" 0.95,
    /// the true side).
    static func thumbUp() throws -> MPImage? {
        guard let path = SharedData.path("images/decoded/hand_thumb_up.png") else {
            skipWithoutSharedData("images/decoded/hand_thumb_up.png")
            return nil
        }
        return try MPImage(contentsOfFile: path)
    }

    static func landmarker(numHands: Int = 1) throws -> HandLandmarker? {
        guard let path = SharedData.path("models/hand_landmarker.task") else { return nil }
        let options = HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = path
        options.numHands = numHands
        return try HandLandmarker(options: options)
    }

    /// The RGB bytes of `bitmap` mirrored left–right.
    static func mirroredBytes(_ bitmap: Bitmap) -> [UInt8] {
        let rgb = bitmap.convertedToRGB()
        var output = rgb.bytes
        for y in 0..<rgb.height {
            for x in 0..<rgb.width {
                for channel in 0..<3 {
                    output[(y * rgb.width + x) * 3 + channel] =
                        rgb.bytes[(y * rgb.width + rgb.width - 1 - x) * 3 + channel]
                }
            }
        }
        return output
    }

    /// The stored pixels that `orientation` turns into `upright`.
    static func stored(_ upright: Bitmap, for orientation: ImageOrientation) throws -> Bitmap {
        let inverse: ImageOrientation =
            switch orientation {
            case .left: .right
            case .right: .left
            default: orientation
            }
        let stored = upright.applying(inverse)
        #expect(stored.applying(orientation) == upright.convertedToRGB())
        return stored
    }

    @Test func everyOrientationGivesTheResultOfTheUprightPicture() throws {
        guard let image = try Self.thumbUp(), let landmarker = try Self.landmarker() else { return }
        let expected = try landmarker.detect(image: image)
        #expect(expected.landmarks.count == 1)
        for orientation in ImageOrientation.allCases where orientation != .up {
            let stored = try Self.stored(image.bitmap, for: orientation)
            let turned = try MPImage(
                pixels: stored.bytes, width: stored.width, height: stored.height, bytesPerRow: stored.bytesPerRow,
                format: .rgb8, orientation: orientation)
            let result = try landmarker.detect(image: turned)
            // Bit for bit: the tensors are read through the orientation from the same pixels.
            #expect(result.landmarks == expected.landmarks, "\(orientation)")
            #expect(result.worldLandmarks == expected.worldLandmarks, "\(orientation)")
            #expect(result.handedness == expected.handedness, "\(orientation)")
        }
    }

    @Test func aMirroredOrientationReportsTheSideSeenInTheUprightPicture() throws {
        // The photo's pixels declared a mirrored capture (`.upMirrored`): the upright picture is
        // the photo mirrored, which shows a right hand. MediaPipe 1.2.3 on that picture (mirrored
        // in memory, fed upright) says "Right" 0.97658, wrist (0.72034, 0.70003), index tip
        // (0.56732, 0.50701) (scripts/reference/hand_synthetic_expectations.py).
        guard let image = try Self.thumbUp(), let landmarker = try Self.landmarker() else { return }
        let bitmap = image.bitmap
        let mirrored = try MPImage(
            pixels: bitmap.bytes, width: bitmap.width, height: bitmap.height, bytesPerRow: bitmap.bytesPerRow,
            format: .rgb8, orientation: .upMirrored)
        let result = try landmarker.detect(image: mirrored)
        let side = try #require(result.handedness.first?.first)
        #expect(side.categoryName == "Right" && side.displayName == "Right" && side.index == 0)
        #expect(close(side.score, 0.9765796661376953, HandResultComparison.handednessScore))
        let hand = try #require(result.landmarks.first)
        #expect(close(hand[0].x, 0.7203372716903687, 2e-3) && close(hand[0].y, 0.7000331878662109, 2e-3))
        #expect(close(hand[8].x, 0.5673182606697083, 2e-3) && close(hand[8].y, 0.5070064067840576, 2e-3))
        #expect(close(hand[8].z, -0.1011274978518486, 5e-3))

        // The photo itself: the left hand it shows.
        let upright = try landmarker.detect(image: image)
        #expect(upright.handedness.first?.first?.categoryName == "Left")
    }

    @Test func aMirroredCaptureShownMirroredReportsTheTrueSide() throws {
        // A mirror-like capture of the left hand (the photo mirrored in memory) with the
        // orientation that undoes the mirror: exactly the photo's result, "Left".
        guard let image = try Self.thumbUp(), let landmarker = try Self.landmarker() else { return }
        let bitmap = image.bitmap
        let flipped = try MPImage(
            pixels: Self.mirroredBytes(bitmap), width: bitmap.width, height: bitmap.height,
            bytesPerRow: bitmap.width * 3, format: .rgb8, orientation: .upMirrored)
        let expected = try landmarker.detect(image: image)
        let result = try landmarker.detect(image: flipped)
        #expect(result.handedness.first?.first?.categoryName == "Left")
        #expect(result.handedness == expected.handedness)
        #expect(result.landmarks == expected.landmarks)
        #expect(result.worldLandmarks == expected.worldLandmarks)
    }

    @Test(arguments: [true, false])
    func fourChannelInputIgnoresAlpha(blueFirst: Bool) throws {
        let format: VisionTasks.PixelFormat = blueFirst ? .bgra8 : .rgba8
        guard let path = SharedData.path("images/decoded/hand_test_image.png"),
            let landmarker = try Self.landmarker()
        else { return skipWithoutSharedData("hand_test_image.png") }
        let image = try MPImage(contentsOfFile: path)
        let rgb = image.bitmap.convertedToRGB()
        var random = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: rgb.width * rgb.height * 4)
        for index in 0..<(rgb.width * rgb.height) {
            let (r, g, b) = (rgb.bytes[3 * index], rgb.bytes[3 * index + 1], rgb.bytes[3 * index + 2])
            let alpha = index % 3 == 0 ? 0 : UInt8.random(in: 0...255, using: &random)
            let pixel: [UInt8] = format == .bgra8 ? [b, g, r, alpha] : [r, g, b, alpha]
            bytes.replaceSubrange((4 * index)..<(4 * index + 4), with: pixel)
        }
        let fourChannel = try MPImage(
            pixels: bytes, width: rgb.width, height: rgb.height, bytesPerRow: rgb.width * 4, format: format)
        let expected = try landmarker.detect(image: image)
        let result = try landmarker.detect(image: fourChannel)
        #expect(!expected.landmarks.isEmpty)
        #expect(result.landmarks == expected.landmarks)
        #expect(result.worldLandmarks == expected.worldLandmarks)
        #expect(result.handedness == expected.handedness)
    }

    /// hand_thumb_up.png beside its mirror image: a left and a right hand.
    static func sideBySide() throws -> MPImage? {
        guard let image = try thumbUp() else { return nil }
        let rgb = image.bitmap.convertedToRGB()
        let mirrored = mirroredBytes(rgb)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rgb.bytes.count * 2)
        for y in 0..<rgb.height {
            let row = (y * rgb.width * 3)..<((y + 1) * rgb.width * 3)
            bytes += rgb.bytes[row]
            bytes += mirrored[row]
        }
        return try MPImage(
            pixels: bytes, width: rgb.width * 2, height: rgb.height, bytesPerRow: rgb.width * 6, format: .rgb8)
    }

    @Test func twoHandsAreFoundWithNumHandsTwoAndOneWithTheDefault() throws {
        // MediaPipe 1.2.3 on the same picture (scripts/reference/hand_synthetic_expectations.py):
        // hand 0 "Left" 0.95137, wrist (0.13112, 0.72346), index tip (0.21843, 0.49910);
        // hand 1 "Right" 0.98405, wrist (0.84507, 0.70586), index tip (0.78227, 0.49261);
        // with numHands 1 only hand 0.
        guard let picture = try Self.sideBySide(), let two = try Self.landmarker(numHands: 2),
            let one = try Self.landmarker(numHands: 1)
        else { return }
        let expected: [(String, Float, SIMD2<Float>, SIMD2<Float>)] = [
            (
                "Left", 0.9513674974441528, SIMD2(0.1311212033033371, 0.7234624624252319),
                SIMD2(0.2184322327375412, 0.4990993142127991)
            ),
            (
                "Right", 0.9840541481971741, SIMD2(0.8450676202774048, 0.7058559656143188),
                SIMD2(0.782268226146698, 0.49261462688446045)
            ),
        ]
        let result = try two.detect(image: picture)
        #expect(result.landmarks.count == 2 && result.worldLandmarks.count == 2 && result.handedness.count == 2)
        for (hand, (side, score, wrist, tip)) in expected.enumerated() where hand < result.landmarks.count {
            let category = try #require(result.handedness[hand].first)
            #expect(category.categoryName == side)
            #expect(close(category.score, score, HandResultComparison.handednessScore))
            let landmarks = result.landmarks[hand]
            #expect(landmarks.count == 21 && result.worldLandmarks[hand].count == 21)
            #expect(close(SIMD2(landmarks[0].x, landmarks[0].y), wrist, HandResultComparison.landmarkXY))
            #expect(close(SIMD2(landmarks[8].x, landmarks[8].y), tip, HandResultComparison.landmarkXY))
        }
        let single = try one.detect(image: picture)
        #expect(single.landmarks.count == 1)
        #expect(single.landmarks.first == result.landmarks.first)
    }

    @Test(arguments: [(1, 1), (1, 700), (900, 2), (17, 13)])
    func tinyAndExtremePicturesGiveEmptyResults(width: Int, height: Int) throws {
        guard let landmarker = try Self.landmarker(numHands: 2) else { return }
        let pixels = (0..<(width * height * 3)).map { UInt8(truncatingIfNeeded: $0 * 37) }
        let image = try MPImage(pixels: pixels, width: width, height: height, bytesPerRow: width * 3, format: .rgb8)
        let result = try landmarker.detect(image: image)
        #expect(result.landmarks.isEmpty && result.worldLandmarks.isEmpty && result.handedness.isEmpty)
    }
}
