import Foundation
import Imaging
import TestSupport
import Testing

/// An image rotated or mirrored on disk, read with its orientation, gives exactly the tensor of
/// the upright image.
@Suite struct OrientationTests {
    /// The orientation that undoes `orientation`.
    static func inverse(of orientation: ImageOrientation) -> ImageOrientation {
        switch orientation {
        case .right: return .left
        case .left: return .right
        default: return orientation  // half turn, flips and transposes are their own inverse
        }
    }

    /// A deterministic, non-symmetric RGB test image.
    static func sampleBitmap(width: Int = 97, height: Int = 61) throws -> Bitmap {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 3
                bytes[index] = UInt8((x * 7 + y * y) % 256)
                bytes[index + 1] = UInt8((x * x + y * 3) % 256)
                bytes[index + 2] = UInt8((x * y + 17) % 256)
            }
        }
        return try Bitmap(width: width, height: height, layout: .rgb8, bytes: bytes)
    }

    /// The upright image for the tensor tests: a shared photo when available.
    static func uprightImage() throws -> Bitmap {
        if let path = SharedData.path("images/decoded/hand_test_image.png") {
            return try ImageDecoder.decodeFile(atPath: path).bitmap
        }
        return try sampleBitmap()
    }

    static let regions: [(NormalizedRect, TensorConversionOptions)] = [
        (
            .fullImage,
            TensorConversionOptions(
                width: 224, height: 224, keepAspectRatio: true, borderMode: .zero,
                valueRange: .minusOneToOne)
        ),
        (
            NormalizedRect(xCenter: 0.55, yCenter: 0.45, width: 0.5, height: 0.6, rotation: 0.7),
            TensorConversionOptions(width: 256, height: 256, borderMode: .replicate, valueRange: .zeroToOne)
        ),
        (
            NormalizedRect(xCenter: 0.1, yCenter: 0.9, width: 0.8, height: 0.5, rotation: -2.4),
            TensorConversionOptions(
                width: 96, height: 64, keepAspectRatio: true, borderMode: .zero,
                valueRange: .zeroToOne)
        ),
    ]

    @Test(arguments: ImageOrientation.allCases)
    func storedImageShownWithOrientationIsTheUprightImage(orientation: ImageOrientation) throws {
        let upright = try Self.sampleBitmap()
        let stored = upright.applying(Self.inverse(of: orientation))
        #expect(stored.applying(orientation) == upright)
        if orientation != .up && orientation != .down && orientation != .upMirrored && orientation != .downMirrored {
            #expect(stored.width == upright.height && stored.height == upright.width)
        }
    }

    @Test(arguments: ImageOrientation.allCases)
    func rotatedFileWithOrientationGivesUprightTensor(orientation: ImageOrientation) throws {
        let upright = try Self.uprightImage()
        let stored = upright.applying(Self.inverse(of: orientation))
        // Through a PNG file that carries the orientation in its eXIf chunk.
        let file = try ImageEncoder.png(stored, orientation: orientation)
        let decoded = try file.withUnsafeBytes { try ImageDecoder.decode($0) }
        #expect(decoded.orientation == orientation)
        #expect(decoded.bitmap == stored)

        for (region, options) in Self.regions {
            var expected = [Float](repeating: 0, count: options.elementCount)
            var actual = [Float](repeating: 1, count: options.elementCount)
            let uprightGeometry = try expected.withUnsafeMutableBufferPointer {
                try ImageToTensor.convert(upright, region: region, options: options, into: $0)
            }
            let orientedGeometry = try actual.withUnsafeMutableBufferPointer {
                try ImageToTensor.convert(
                    decoded.bitmap, orientation: try #require(decoded.orientation), region: region,
                    options: options, into: $0)
            }
            #expect(actual == expected, "\(orientation) \(region)")
            #expect(orientedGeometry == uprightGeometry)
        }
    }

    @Test(arguments: [ImageOrientation.right, .leftMirrored, .down])
    func exifOrientationOfAJPEGIsHonoured(orientation: ImageOrientation) throws {
        let upright = try Self.sampleBitmap()
        let stored = upright.applying(Self.inverse(of: orientation))
        let file = try ImageEncoder.jpeg(stored, quality: 92, orientation: orientation)
        let decoded = try file.withUnsafeBytes { try ImageDecoder.decode($0) }
        #expect(decoded.orientation == orientation)
        // Lossy, so compare with the same pixels read back without metadata.
        let options = TensorConversionOptions(width: 64, height: 64)
        var fromFile = [Float](repeating: 0, count: options.elementCount)
        var explicit = [Float](repeating: 1, count: options.elementCount)
        _ = try fromFile.withUnsafeMutableBufferPointer {
            try ImageToTensor.convert(decoded.bitmap, orientation: orientation, options: options, into: $0)
        }
        _ = try explicit.withUnsafeMutableBufferPointer {
            try ImageToTensor.convert(decoded.bitmap.applying(orientation), options: options, into: $0)
        }
        #expect(fromFile == explicit)
    }

    @Test(arguments: ImageOrientation.allCases)
    func pointMappingsAreInverse(orientation: ImageOrientation) {
        for (x, y) in [(Float(0.1), Float(0.7)), (0.5, 0.5), (0.93, 0.02)] {
            let stored = orientation.storedPoint(fromUpright: x, y)
            let back = orientation.uprightPoint(fromStored: stored.x, stored.y)
            #expect(abs(back.x - x) < 1e-6 && abs(back.y - y) < 1e-6)
        }
    }

    @Test(arguments: ImageOrientation.allCases)
    func pointMappingAgreesWithPixelMapping(orientation: ImageOrientation) throws {
        let width = 9
        let height = 5
        let map = orientation.storedPixelMap(width: width, height: height)
        let upright = orientation.uprightSize(width: width, height: height)
        for (x, y) in [(0, 0), (3, 1), (upright.width - 1, upright.height - 1)] {
            let storedX = map.origin.x + x * map.xStep.x + y * map.yStep.x
            let storedY = map.origin.y + x * map.xStep.y + y * map.yStep.y
            // Pixel centers in normalized coordinates.
            let point = orientation.storedPoint(
                fromUpright: (Float(x) + 0.5) / Float(upright.width), (Float(y) + 0.5) / Float(upright.height))
            #expect(abs(point.x * Float(width) - 0.5 - Float(storedX)) < 1e-4)
            #expect(abs(point.y * Float(height) - 0.5 - Float(storedY)) < 1e-4)
        }
    }

    @Test func exifValuesRoundTrip() {
        for orientation in ImageOrientation.allCases {
            #expect(ImageOrientation(exifValue: orientation.exifValue) == orientation)
        }
        #expect(ImageOrientation(exifValue: 0) == nil)
        #expect(ImageOrientation(exifValue: 9) == nil)
        #expect(ImageOrientation.right.mediaPipeRotation == 3 * Float.pi / 2)
        #expect(ImageOrientation.upMirrored.mediaPipeRotation == nil)
    }
}
