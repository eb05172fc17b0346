import Foundation
import Imaging
import TestSupport
import Testing

@testable import VisionTasks

/// Checks against MediaPipe's reference results that need no model.
@Suite("Hand pipeline against references")
struct HandReferenceTests {
    @Test func handednessNamesFollowIndexAndSideProbability() throws {
        // Oracle README item 3: index 0 is "Right", 1 is "Left"; display name = name; the
        // reported score is the chosen side's probability, so at least 0.5. Rebuilding the raw
        // model value from the reported side must give back the same category.
        var checked = 0
        for name in ["business-person", "hand_test_image", "hand_thumb_up"] {
            guard let reference = try References.image(task: "hand_landmarker", name: name) else {
                skipWithoutSharedData("hand_landmarker/\(name)")
                return
            }
            for run in reference.runs.values {
                for categories in run.result.handedness ?? [] {
                    let category = try #require(categories.first)
                    let index = try #require(category.index)
                    let raw = index == 0 ? category.score : 1 - category.score
                    let ours = Handedness.category(score: raw)
                    #expect(ours.index == index)
                    #expect(ours.categoryName == category.categoryName)
                    #expect(ours.displayName == category.displayName)
                    #expect(close(ours.score, category.score, 1e-6))
                    #expect(category.score >= 0.5)
                    checked += 1
                }
            }
        }
        #expect(checked == 9)
    }

    /// Maps an image-normalized point into the ROI's own normalized frame (the inverse of
    /// ``LandmarkProjection``).
    private func intoROI(_ point: NormalizedLandmark, _ roi: NormalizedRect) -> SIMD2<Float> {
        let a = (point.x - roi.xCenter) / roi.width
        let b = (point.y - roi.yCenter) / roi.height
        let c = cosf(roi.rotation)
        let s = sinf(roi.rotation)
        return SIMD2(c * a + s * b + 0.5, -s * a + c * b + 0.5)
    }

    @Test func trackedROIFromOneFrameFramesTheHandOfTheNext() throws {
        // In video mode with one hand the detector does not run once a hand is tracked: frame
        // i's landmarks come from the ROI built from frame i−1's landmarks (no smoothing for
        // hands). So in that ROI's frame the next hand must sit inside, upright (wrist below the
        // middle-finger MCP, within a small angle) — which checks the subset, the rotation sign
        // and the expansion.
        guard let reference = try References.video(task: "hand_landmarker", sequence: "hand_test_video") else {
            skipWithoutSharedData("video/hand_landmarker/hand_test_video")
            return
        }
        let image = ImageSize(width: reference.video.width, height: reference.video.height)
        let frames = try #require(reference.runs["default"]?.frames)
        var pairs = 0
        for (previous, current) in zip(frames, frames.dropFirst()) {
            let before = (previous.handLandmarks ?? []).map { $0.map(\.normalized) }
            let after = (current.handLandmarks ?? []).map { $0.map(\.normalized) }
            guard before.count == 1, after.count == 1 else { continue }
            let roi = try HandRegions.nextFrameRegion(landmarks: before[0], imageSize: image)
            let points = after[0].map { intoROI($0, roi) }
            #expect(
                points.allSatisfy { $0.x > 0 && $0.x < 1 && $0.y > 0 && $0.y < 1 },
                "frame \(current.frameIndex) leaves its ROI")
            // Wrist (0) to middle MCP (9) should point up in the ROI: angle from −y within 20°.
            let axis = points[9] - points[0]
            let angle = atan2f(axis.x, -axis.y)
            #expect(abs(angle) < 20 * .pi / 180, "frame \(current.frameIndex) hand tilted by \(angle) rad")
            pairs += 1
        }
        #expect(pairs == 29)
    }
}
