import Foundation
import Imaging
import TestSupport
import Testing

@testable import VisionTasks

/// The tasks on the smallest and on very large images, and images that cannot exist.
@Suite("Image size extremes", .serialized)
struct ImageSizeExtremesTests {
    private static func paths() -> (pose: String, hand: String, detector: String, person: String)? {
        guard let pose = SharedData.path("models/pose_landmarker_lite.task"),
            let hand = SharedData.path("models/hand_landmarker.task"),
            let detector = SharedData.path("models/ssd_mobilenet_v1.tflite"),
            let person = SharedData.path("images/decoded/astronaut.png")
        else { return nil }
        return (pose, hand, detector, person)
    }

    @Test func zeroSizedAndShortBuffersAreInvalidImageErrors() {
        for (width, height) in [(0, 1), (1, 0), (0, 0), (-3, 4)] {
            #expect {
                try MPImage(
                    pixels: [UInt8](repeating: 0, count: 16), width: width, height: height,
                    bytesPerRow: max(width, 1) * 3, format: .rgb8)
            } throws: { error in
                guard let error = error as? TasksError, case .invalidImage = error else { return false }
                return error.code == .invalidArgumentError
            }
        }
        #expect(throws: TasksError.self) {
            try MPImage(pixels: [UInt8](repeating: 0, count: 5), width: 2, height: 1, bytesPerRow: 6, format: .rgb8)
        }
        #expect(throws: TasksError.self) { try MPImage(data: Data()) }
        #expect(throws: TasksError.self) { try MPImage(data: Data([0x89, 0x50, 0x4E, 0x47])) }
    }

    @Test func onePixelImagesGiveEmptyResultsOrDetectionsInsideTheImage() throws {
        guard let paths = Self.paths() else { return skipWithoutSharedData("models") }
        for format in [PixelFormat.rgb8, .rgba8, .gray8] {
            let bytes = [UInt8](repeating: 128, count: 4)
            let image = try MPImage(pixels: bytes, width: 1, height: 1, bytesPerRow: 4, format: format)
            let pose = try PoseLandmarker(
                options: {
                    let options = PoseLandmarkerOptions()
                    options.baseOptions.modelAssetPath = paths.pose
                    return options
                }())
            #expect(try pose.detect(image: image).landmarks.isEmpty, "pose on a 1x1 \(format) image")
            let hands = try HandLandmarker(
                options: {
                    let options = HandLandmarkerOptions()
                    options.baseOptions.modelAssetPath = paths.hand
                    return options
                }())
            #expect(try hands.detect(image: image).landmarks.isEmpty, "hands on a 1x1 \(format) image")
            let objects = try ObjectDetector(modelPath: paths.detector).detect(image: image)
            for detection in objects.detections {
                // Boxes are in pixels of the 1x1 image: clipped to it or just around it.
                #expect(detection.boundingBox.width.isFinite && detection.boundingBox.height.isFinite)
                #expect(abs(detection.boundingBox.minX) <= 1 && abs(detection.boundingBox.minY) <= 1)
            }
        }
    }

    /// The face tasks and the segmenter on 1×1 and extremely thin images. With every threshold
    /// at 0 the face landmarker runs its landmark model, blendshapes and geometry on whatever the
    /// detector's best anchor gives: the results must stay finite and the masks the image's size.
    @Test(arguments: [(1, 1), (1, 900), (900, 1), (3, 2)])
    func faceTasksAndTheSegmenterStayFiniteOnDegenerateImages(width: Int, height: Int) throws {
        guard let faceModel = SharedData.path("models/blaze_face_short_range.tflite"),
            let bundle = SharedData.path("models/face_landmarker.task"),
            let segmenterModel = SharedData.path("models/selfie_segmenter.tflite")
        else { return skipWithoutSharedData("models") }
        let bytes = (0..<(width * height * 3)).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let image = try MPImage(pixels: bytes, width: width, height: height, bytesPerRow: width * 3, format: .rgb8)

        let faceOptions = FaceDetectorOptions()
        faceOptions.baseOptions.modelAssetPath = faceModel
        faceOptions.minDetectionConfidence = 0
        for detection in try FaceDetector(options: faceOptions).detect(image: image).detections {
            #expect(detection.boundingBox.width.isFinite && detection.boundingBox.height.isFinite)
            #expect((detection.keypoints ?? []).allSatisfy { $0.location.x.isFinite && $0.location.y.isFinite })
        }

        let meshOptions = FaceLandmarkerOptions()
        meshOptions.baseOptions.modelAssetPath = bundle
        meshOptions.minFaceDetectionConfidence = 0
        meshOptions.minFacePresenceConfidence = 0
        meshOptions.outputFaceBlendshapes = true
        meshOptions.outputFacialTransformationMatrixes = true
        let mesh = try FaceLandmarker(options: meshOptions).detect(image: image)
        #expect(mesh.faceLandmarks.count <= 1 && mesh.faceBlendshapes.count == mesh.faceLandmarks.count)
        #expect(mesh.faceLandmarks.joined().allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite })
        #expect(mesh.faceBlendshapes.allSatisfy { $0.categories.allSatisfy { $0.score.isFinite } })
        #expect(mesh.facialTransformationMatrixes.allSatisfy { $0.values.allSatisfy(\.isFinite) })

        let segmenterOptions = ImageSegmenterOptions()
        segmenterOptions.baseOptions.modelAssetPath = segmenterModel
        segmenterOptions.shouldOutputCategoryMask = true
        let masks = try ImageSegmenter(options: segmenterOptions).segment(image: image)
        for mask in (masks.confidenceMasks ?? []) + [masks.categoryMask].compactMap({ $0 }) {
            #expect(mask.width == width && mask.height == height)
        }
        #expect(masks.confidenceMasks?.first?.withUnsafeFloat32Buffer { $0.allSatisfy(\.isFinite) } == true)
    }

    @Test func aVeryLargeImageGivesTheResultOfTheSmallOne() throws {
        guard let paths = Self.paths() else { return skipWithoutSharedData("models") }
        let small = try MPImage(contentsOfFile: paths.person)
        // Nearest-neighbour upscaling by 8 (512 → 4096 pixels a side, 50 MB as RGB).
        let scale = SharedData.isDebugBuild ? 4 : 8
        let source = small.bitmap
        let width = source.width * scale
        let height = source.height * scale
        var large = [UInt8](repeating: 0, count: width * height * 3)
        source.withUnsafeBytes { pixels in
            large.withUnsafeMutableBufferPointer { output in
                for y in 0..<height {
                    let sourceRow = (y / scale) * source.bytesPerRow
                    for x in 0..<width {
                        let from = sourceRow + (x / scale) * 3
                        let to = (y * width + x) * 3
                        output[to] = pixels[from]
                        output[to + 1] = pixels[from + 1]
                        output[to + 2] = pixels[from + 2]
                    }
                }
            }
        }
        let big = try MPImage(pixels: large, width: width, height: height, bytesPerRow: width * 3, format: .rgb8)
        let options = PoseLandmarkerOptions()
        options.baseOptions.modelAssetPath = paths.pose
        let landmarker = try PoseLandmarker(options: options)
        let expected = try #require(try landmarker.detect(image: small).landmarks.first)
        let found = try #require(try landmarker.detect(image: big).landmarks.first)
        // Normalized coordinates of the clearly visible landmarks (face and shoulders) agree. The
        // hands and the hidden legs move more: bilinear sampling of the 8x-upscaled picture takes
        // whole blocks where the small one interpolates between pixels, and the model is that
        // sensitive in low-visibility areas (measured: hands up to 0.18, face within 0.014).
        let visible = zip(expected, found).filter { ($0.0.visibility ?? 0) > 0.95 }
        #expect(visible.count >= 11, "\(visible.count) clearly visible landmarks")
        let largest = visible.map { max(abs($0.x - $1.x), abs($0.y - $1.y)) }.max() ?? 1
        #expect(largest < 0.03, "largest difference of a visible landmark \(largest)")
        #expect(found.count == expected.count)
    }
}
