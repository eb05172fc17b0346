import Testing

@testable import VisionTasks

@Suite("SSD anchors")
struct SSDAnchorGeneratorTests {
    @Test func poseDetectorHas2254AnchorsInThreeStrideGroups() throws {
        let anchors = try SSDAnchorGenerator.anchors(for: .poseDetector)
        // 28×28×2 + 14×14×2 + 7×7×6 (../shared/spec/PIPELINES.md §1.8).
        #expect(anchors.count == 2254)
        #expect(anchors[0] == Anchor(xCenter: 0.5 / 28, yCenter: 0.5 / 28, width: 1, height: 1))
        #expect(anchors[1] == anchors[0])  // aspect 1 plus the interpolated spec
        #expect(anchors[2].xCenter == 1.5 / 28)
        #expect(anchors[1568] == Anchor(xCenter: 0.5 / 14, yCenter: 0.5 / 14, width: 1, height: 1))
        #expect(anchors[1960] == Anchor(xCenter: 0.5 / 7, yCenter: 0.5 / 7, width: 1, height: 1))
        #expect(anchors[1965] == anchors[1960])  // six specs per cell in the stride-32 group
        #expect(anchors[1966].xCenter == 1.5 / 7)
        #expect(anchors[2253] == Anchor(xCenter: 6.5 / 7, yCenter: 6.5 / 7, width: 1, height: 1))
    }

    @Test func palmDetectorHas2016Anchors() throws {
        let anchors = try SSDAnchorGenerator.anchors(for: .palmDetector)
        // 24×24×2 + 12×12×6.
        #expect(anchors.count == 2016)
        #expect(anchors[1151] == Anchor(xCenter: 23.5 / 24, yCenter: 23.5 / 24, width: 1, height: 1))
        #expect(anchors[1152] == Anchor(xCenter: 0.5 / 12, yCenter: 0.5 / 12, width: 1, height: 1))
        #expect(anchors.allSatisfy { $0.width == 1 && $0.height == 1 })
    }

    @Test func mobileSSDConfigurationMatchesUpstreamGoldenAnchors() throws {
        // mediapipe/calculators/tflite/ssd_anchors_calculator_test.cc `MobileSSDConfig` and its
        // golden file testdata/anchor_golden_file_1.txt (x, y, w, h per line), tolerance 1e-5.
        let options = SSDAnchorOptions(
            inputWidth: 300, inputHeight: 300, minScale: 0.2, maxScale: 0.95, numLayers: 6,
            strides: [16, 32, 64, 128, 256, 512], aspectRatios: [1.0, 2.0, 0.5, 3.0, 0.3333],
            reduceBoxesInLowestLayer: true)
        let anchors = try SSDAnchorGenerator.anchors(for: options)
        // 19×19×3 + 10×10×6 + 5×5×6 + 3×3×6 + 2×2×6 + 1×1×6.
        #expect(anchors.count == 1917)
        let golden: [(Int, [Float])] = [
            (0, [0.0263158, 0.0263158, 0.1, 0.1]),
            (1, [0.0263158, 0.0263158, 0.282843, 0.141421]),
            (2, [0.0263158, 0.0263158, 0.141421, 0.282843]),
            (3, [0.0789474, 0.0263158, 0.1, 0.1]),
            (1083, [0.05, 0.05, 0.35, 0.35]),
            (1084, [0.05, 0.05, 0.494975, 0.247487]),
            (1085, [0.05, 0.05, 0.247487, 0.494975]),
            (1086, [0.05, 0.05, 0.606218, 0.202073]),
            (1087, [0.05, 0.05, 0.202062, 0.606248]),
            (1088, [0.05, 0.05, 0.41833, 0.41833]),
            (1089, [0.15, 0.05, 0.35, 0.35]),
        ]
        for (index, values) in golden {
            let anchor = anchors[index]
            #expect(close(anchor.xCenter, values[0]) && close(anchor.yCenter, values[1]), "anchor \(index)")
            #expect(close(anchor.width, values[2]) && close(anchor.height, values[3]), "anchor \(index)")
        }
    }

    @Test func mismatchedStrideCountIsAnError() {
        var options = SSDAnchorOptions.poseDetector
        options.strides = [8, 16]
        #expect(throws: TasksError.self) { try SSDAnchorGenerator.anchors(for: options) }
    }
}
