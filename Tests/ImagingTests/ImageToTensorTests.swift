import Foundation
import Imaging
import Testing

/// Behaviour of the image → tensor conversion that does not need reference data: layouts,
/// borders, value ranges, geometry outputs and argument checks.
@Suite struct ImageToTensorTests {
    static func bitmap(layout: Bitmap.Layout = .rgb8) throws -> Bitmap {
        let rgb = try OrientationTests.sampleBitmap(width: 40, height: 30)
        guard layout != .rgb8 else { return rgb }
        var bytes: [UInt8] = []
        for index in 0..<(40 * 30) {
            let (r, g, b) = (rgb.bytes[3 * index], rgb.bytes[3 * index + 1], rgb.bytes[3 * index + 2])
            bytes += layout == .rgba8 ? [r, g, b, 77] : [b, g, r, 0]
        }
        return try Bitmap(width: 40, height: 30, layout: layout, bytes: bytes)
    }

    private func floats(
        _ bitmap: Bitmap, region: NormalizedRect = .fullImage, options: TensorConversionOptions
    ) throws -> [Float] {
        var output = [Float](repeating: .nan, count: options.elementCount)
        _ = try output.withUnsafeMutableBufferPointer {
            try ImageToTensor.convert(bitmap, region: region, options: options, into: $0)
        }
        return output
    }

    @Test func sameSizeStretchCopiesThePixels() throws {
        let source = try Self.bitmap()
        let options = TensorConversionOptions(width: 40, height: 30, valueRange: .bytes)
        let values = try floats(source, options: options)
        #expect(values == source.bytes.map(Float.init))
    }

    @Test func rgbaAndBGRAGiveTheSameTensorAsRGB() throws {
        let options = TensorConversionOptions(width: 33, height: 21, keepAspectRatio: true, borderMode: .zero)
        let region = NormalizedRect(xCenter: 0.4, yCenter: 0.6, width: 0.7, height: 0.5, rotation: 0.3)
        let expected = try floats(Self.bitmap(), region: region, options: options)
        #expect(try floats(Self.bitmap(layout: .rgba8), region: region, options: options) == expected)
        #expect(try floats(Self.bitmap(layout: .bgra8), region: region, options: options) == expected)
    }

    @Test func zeroBorderOutsideTheImageGivesTheRangeMinimum() throws {
        let options = TensorConversionOptions(width: 16, height: 16, borderMode: .zero, valueRange: .minusOneToOne)
        let outside = NormalizedRect(xCenter: 3, yCenter: -2, width: 0.5, height: 0.5)
        #expect(try floats(Self.bitmap(), region: outside, options: options).allSatisfy { $0 == -1 })
    }

    @Test func replicateBorderOutsideTheImageRepeatsTheEdge() throws {
        let source = try Self.bitmap()
        let options = TensorConversionOptions(width: 8, height: 8, borderMode: .replicate, valueRange: .bytes)
        // Far right of the image, vertically centered on row 15: every sample clamps to x = 39.
        let region = NormalizedRect(xCenter: 5, yCenter: 15.0 / 30, width: 0.01, height: 0.0001)
        let values = try floats(source, region: region, options: options)
        let edge = try #require(source.rgb(x: 39, y: 15))
        for pixel in 0..<64 {
            #expect(values[3 * pixel] == Float(edge.red) && values[3 * pixel + 2] == Float(edge.blue))
        }
    }

    @Test func floatAndByteOutputsAgree() throws {
        let source = try Self.bitmap()
        let options = TensorConversionOptions(
            width: 50, height: 20, keepAspectRatio: true, borderMode: .zero,
            valueRange: .zeroToOne)
        let region = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.9, height: 0.8, rotation: -1)
        let values = try floats(source, region: region, options: options)
        var bytes = [UInt8](repeating: 0, count: options.elementCount)
        _ = try bytes.withUnsafeMutableBufferPointer {
            try ImageToTensor.convert(source, region: region, options: options, into: $0)
        }
        for (value, byte) in zip(values, bytes) {
            #expect(value == Float(byte) * options.valueRange.scale + options.valueRange.offset)
        }
    }

    @Test func letterboxPaddingAndProjectionAreConsistent() throws {
        // A landscape 640 × 427 image in a square tensor: vertical padding.
        let geometry = try ImageToTensor.geometry(
            imageWidth: 640, imageHeight: 427, region: .fullImage,
            options: TensorConversionOptions(width: 192, height: 192, keepAspectRatio: true))
        let expectedPadding = (1 - Float(427) / 640) / 2
        #expect(geometry.letterboxPadding.left == 0 && geometry.letterboxPadding.right == 0)
        #expect(abs(geometry.letterboxPadding.top - expectedPadding) < 1e-6)
        #expect(geometry.region.width == 640 && geometry.region.height == 640)
        // The tensor point at the top of the image content maps to the top image edge.
        let top = geometry.imagePoint(fromTensor: 0.5, expectedPadding)
        #expect(abs(top.x - 0.5) < 1e-6 && abs(top.y) < 1e-5)
        // Letterbox removal gives the same normalized image coordinates for an unrotated crop.
        let removed = geometry.letterboxPadding.removing(x: 0.25, y: 0.4)
        let projected = geometry.imagePoint(fromTensor: 0.25, 0.4)
        #expect(abs(removed.x - projected.x) < 1e-5 && abs(removed.y - projected.y) < 1e-5)
        #expect(abs(geometry.letterboxPadding.scale.y - Float(427) / 640) < 1e-6)
    }

    @Test func portraitImageGetsHorizontalPadding() throws {
        let geometry = try ImageToTensor.geometry(
            imageWidth: 958, imageHeight: 1358, region: .fullImage,
            options: TensorConversionOptions(width: 224, height: 224, keepAspectRatio: true))
        #expect(abs(geometry.letterboxPadding.left - (1 - Float(958) / 1358) / 2) < 1e-6)
        #expect(geometry.letterboxPadding.top == 0)
    }

    @Test func rotatedCropMatrixMapsTensorCornersToRectangleCorners() throws {
        let region = NormalizedRect(xCenter: 0.5, yCenter: 0.4, width: 0.3, height: 0.2, rotation: Float.pi / 2)
        let geometry = try ImageToTensor.geometry(
            imageWidth: 100, imageHeight: 200, region: region, options: TensorConversionOptions(width: 10, height: 10))
        // Center maps to the center; the tensor's x axis turns toward +y (clockwise).
        let center = geometry.imagePoint(fromTensor: 0.5, 0.5)
        #expect(abs(center.x - 0.5) < 1e-6 && abs(center.y - 0.4) < 1e-6)
        let right = geometry.imagePoint(fromTensor: 1, 0.5)
        #expect(abs(right.x - 0.5) < 1e-5)
        #expect(abs(right.y - (0.4 + 0.15 * 100 / 200)) < 1e-5)
    }

    @Test func invalidRegionsAndOutputsAreTypedErrors() throws {
        let source = try Self.bitmap()
        let options = TensorConversionOptions(width: 8, height: 8)
        var output = [Float](repeating: 0, count: options.elementCount)
        output.withUnsafeMutableBufferPointer { buffer in
            for region in [
                NormalizedRect(xCenter: .nan, yCenter: 0.5, width: 1, height: 1),
                NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0, height: 0),
                NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: -1, height: 1),
                NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 1, height: .infinity),
            ] {
                #expect(throws: ImageError.self) {
                    try ImageToTensor.convert(source, region: region, options: options, into: buffer)
                }
            }
            let small = UnsafeMutableBufferPointer(rebasing: buffer[0..<10])
            #expect(throws: ImageError.self) {
                try ImageToTensor.convert(source, options: options, into: small)
            }
            #expect(throws: ImageError.self) {
                try ImageToTensor.convert(source, options: TensorConversionOptions(width: 0, height: 8), into: buffer)
            }
        }
    }

    @Test func normalizationOptionsGiveValueRanges() throws {
        #expect(try ValueRange(normalizationMean: [127.5], std: [127.5]) == .minusOneToOne)
        #expect(try ValueRange(normalizationMean: [0, 0, 0], std: [255, 255, 255]) == .zeroToOne)
        #expect(throws: ImageError.self) { try ValueRange(normalizationMean: [0, 1, 0], std: [255, 255, 255]) }
        #expect(throws: ImageError.self) { try ValueRange(normalizationMean: [0], std: [0]) }
        #expect(throws: ImageError.self) { try ValueRange(normalizationMean: [0, 0], std: [1]) }
        #expect(throws: ImageError.self) { try ValueRange(normalizationMean: [], std: []) }
        #expect(ValueRange.minusOneToOne.scale == Float(2) / 255)
    }

    @Test func landmarkProjectionFollowsTheRectangle() {
        let rect = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.2, height: 0.4, rotation: 0)
        let projected = rect.projecting(x: 1, y: 0, z: 0.5)
        #expect(abs(projected.x - 0.6) < 1e-6 && abs(projected.y - 0.3) < 1e-6 && abs(projected.z - 0.1) < 1e-6)
        let turned = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.2, height: 0.2, rotation: Float.pi / 2)
        let point = turned.projecting(x: 1, y: 0.5)
        #expect(abs(point.x - 0.5) < 1e-6 && abs(point.y - 0.6) < 1e-6)
    }

    @Test func mediaPipeOrientationRectangleSwapsQuarterTurns() throws {
        let rect = try #require(
            NormalizedRect.mediaPipeFullImage(orientation: .right, imageWidth: 1280, imageHeight: 720))
        #expect(rect.rotation == 3 * Float.pi / 2)
        #expect(abs(rect.width - 720.0 / 1280) < 1e-6 && abs(rect.height - 1280.0 / 720) < 1e-6)
        #expect(NormalizedRect.mediaPipeFullImage(orientation: .leftMirrored, imageWidth: 10, imageHeight: 10) == nil)
        #expect(NormalizedRect.mediaPipeFullImage(orientation: .down, imageWidth: 10, imageHeight: 20)?.width == 1)
    }
}
