import Foundation
import Imaging
import Testing

@testable import VisionTasks

@Suite("Palm detector post-processing")
struct PalmDetectorPostprocessorTests {
    @Test func decodesMergesAndProjectsWithTheMatrix() throws {
        let postprocessor = try PalmDetectorPostprocessor()
        // The stride-16 anchor at the centre cell (6, 6): index 1152 + (6·12 + 6)·6.
        let index = 1152 + (6 * 12 + 6) * 6
        #expect(postprocessor.anchors[index] == Anchor(xCenter: 0.5416667, yCenter: 0.5416667, width: 1, height: 1))
        var boxes = [Float](repeating: 0, count: 2016 * 18)
        var scores = [Float](repeating: -20, count: 2016)
        boxes[index * 18 + 2] = 0.2 * 192
        boxes[index * 18 + 3] = 0.2 * 192
        scores[index] = 4
        // The tensor covers the middle half of the image: x_img = 0.25 + 0.5·u.
        let matrix = CropMatrix(
            region: RotatedPixelRect(centerX: 50, centerY: 50, width: 50, height: 50, rotation: 0),
            imageWidth: 100, imageHeight: 100)
        let palms = try boxes.withUnsafeBufferPointer { boxes in
            try scores.withUnsafeBufferPointer { scores in
                try postprocessor.detections(boxes: boxes, scores: scores, minScore: 0.5, matrix: matrix)
            }
        }
        #expect(palms.count == 1)
        let centre: Float = 0.25 + 0.5 * (6.5 / 12)
        #expect(close(palms[0].box, RelativeBox(xMin: centre - 0.05, yMin: centre - 0.05, width: 0.1, height: 0.1)))
        #expect(palms[0].keypoints.count == 7)
        #expect(close(palms[0].keypoints[0], SIMD2(centre, centre)))
    }

    @Test func handRectUsesTheNinetyRadianTargetAndExpands() throws {
        // Wrist (0.5, 0.6) below middle MCP (0.5, 0.4): the vector points up (90°). With a
        // target of 90 rad the rect turns by NormalizeRadians(90 − π/2) ≈ 0.4646 rad, not 0.
        var keypoints = [SIMD2<Float>](repeating: SIMD2(0.5, 0.5), count: 7)
        keypoints[0] = SIMD2(0.5, 0.6)
        keypoints[2] = SIMD2(0.5, 0.4)
        let palm = detection(0.4, 0.4, 0.2, 0.2, keypoints: keypoints)
        let image = ImageSize(width: 100, height: 100)
        let rects = try PalmDetectorPostprocessor.regions(for: [palm], imageSize: image, numHands: 1)
        let angle = Float(Double(Float(90) - Float(Double.pi / 2)) - 2 * Double.pi * 14)
        #expect(close(rects[0].rotation, angle))
        #expect(close(angle, 0.4646, 1e-4))
        // ×2.6, square; shifted by −0.5 of the height (0.1) along the rect's rotated y-axis.
        #expect(close(rects[0].width, 0.52) && close(rects[0].height, 0.52))
        #expect(close(rects[0].xCenter, 0.5 + 0.1 * sinf(angle)))
        #expect(close(rects[0].yCenter, 0.5 - 0.1 * cosf(angle)))
    }

    @Test func noPalmGivesOneZeroPlaceholderRect() throws {
        let rects = try PalmDetectorPostprocessor.regions(
            for: [], imageSize: ImageSize(width: 10, height: 10), numHands: 2)
        #expect(rects.count == 1)
        #expect(HandRegions.isPlaceholder(rects[0]))
        #expect(rects[0] == NormalizedRect(xCenter: 0, yCenter: 0, width: 0, height: 0))
    }
}
