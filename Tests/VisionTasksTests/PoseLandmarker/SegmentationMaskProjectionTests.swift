import Imaging
import Testing

@testable import VisionTasks

@Suite("Segmentation mask projection")
struct SegmentationMaskProjectionTests {
    /// Logits of a 2×2 mask whose sigmoids are [0.5, 1, 0, 0.5].
    private let logits: [Float] = [0, 100, -100, 0]

    private func project(rotation: Float, image: ImageSize) throws -> [Float] {
        let roi = RotatedPixelRect(
            centerX: Float(image.width) / 2, centerY: Float(image.height) / 2,
            width: Float(image.width), height: Float(image.height), rotation: rotation)
        return try logits.withUnsafeBufferPointer {
            try SegmentationMaskProjection.project(
                logits: $0, maskWidth: 2, maskHeight: 2,
                matrix: CropMatrix(region: roi, imageWidth: image.width, imageHeight: image.height),
                imageSize: image)
        }
    }

    @Test func warpsTheSigmoidMaskOntoTheImageWithZeroBorder() throws {
        // Output pixel X samples mask column X/2 (no half-pixel shift); past the last column
        // the border is 0.
        let mask = try project(rotation: 0, image: ImageSize(width: 4, height: 4))
        let rows = stride(from: 0, to: 16, by: 4).map { Array(mask[$0..<$0 + 4]) }
        #expect(rows[0].enumerated().allSatisfy { close($0.element, [0.5, 0.75, 1, 0.5][$0.offset]) })
        #expect(rows[1].enumerated().allSatisfy { close($0.element, [0.25, 0.5, 0.75, 0.375][$0.offset]) })
        #expect(rows[2].enumerated().allSatisfy { close($0.element, [0, 0.25, 0.5, 0.25][$0.offset]) })
    }

    @Test func rotatedROIRotatesTheMask() throws {
        // Rotated by π the mask's last pixel (row 1, column 1 → 0.5) lands near the image origin
        // and its first row (0.5, 1) at the bottom.
        let image = ImageSize(width: 4, height: 4)
        let mask = try project(rotation: .pi, image: image)
        let upright = try project(rotation: 0, image: image)
        #expect(mask != upright)
        #expect(close(mask[2 * 4 + 2], 0.5, 1e-4))  // (2, 2) is the centre: the mask's (1, 1)
        #expect(mask.allSatisfy { $0 >= 0 && $0 <= 1 })
    }

    @Test func badSizesAreErrors() {
        #expect(throws: TasksError.self) {
            try logits.withUnsafeBufferPointer {
                try SegmentationMaskProjection.project(
                    logits: $0, maskWidth: 3, maskHeight: 3, matrix: .identity,
                    imageSize: ImageSize(width: 4, height: 4))
            }
        }
    }

    @Test func poseMasksBecomeFloatMasks() throws {
        let values = try project(rotation: 0, image: ImageSize(width: 4, height: 4))
        let mask = try #require(Mask(float32Values: values, width: 4, height: 4))
        #expect(mask.dataType == .float32)
        #expect(mask.float32Data[1] == values[1])
        #expect(mask.uint8Data[1] == UInt8(values[1] * 255))
    }
}
