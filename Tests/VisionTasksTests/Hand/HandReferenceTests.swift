import Foundation
import Imaging
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
            guard let json = try ReferenceData.json("reference/hand_landmarker/\(name).json") else { return }
            let runs = try #require(json["runs"] as? [String: [String: Any]])
            for (_, run) in runs {
                let result = try #require(run["result"] as? [String: Any])
                let handedness = try #require(result["handedness"] as? [[[String: Any]]])
                for categories in handedness {
                    let category = try #require(categories.first)
                    let index = try #require(category["index"] as? Int)
                    let score = Float(try #require(category["score"] as? Double))
                    let raw = index == 0 ? score : 1 - score
                    let ours = Handedness.category(score: raw)
                    #expect(ours.index == index)
                    #expect(ours.categoryName == category["category_name"] as? String)
                    #expect(ours.displayName == category["display_name"] as? String)
                    #expect(close(ours.score, score, 1e-6))
                    #expect(score >= 0.5)
                    checked += 1
                }
            }
        }
        #expect(checked == 9)
    }

    /// Maps an image-normalized point into the ROI's own normalized frame (the inverse of
    /// ``LandmarkProjection``).
    private func intoROI(_ point: NormalizedLandmark, _ roi: NormalizedRect) -> SIMD2<Float> {
        let a = (point.x - roi.xCenter) / roi.width, b = (point.y - roi.yCenter) / roi.height
        let c = cosf(roi.rotation), s = sinf(roi.rotation)
        return SIMD2(c * a + s * b + 0.5, -s * a + c * b + 0.5)
    }

    @Test func trackedROIFromOneFrameFramesTheHandOfTheNext() throws {
        // In video mode with one hand the detector does not run once a hand is tracked: frame
        // i's landmarks come from the ROI built from frame i−1's landmarks (no smoothing for
        // hands). So in that ROI's frame the next hand must sit inside, upright (wrist below the
        // middle-finger MCP, within a small angle) — which checks the subset, the rotation sign
        // and the expansion.
        guard let json = try ReferenceData.json("reference/video/hand_landmarker/hand_test_video.json") else { return }
        let video = try #require(json["video"] as? [String: Any])
        let image = ImageSize(width: try #require(video["width"] as? Int), height: try #require(video["height"] as? Int))
        let runs = try #require(json["runs"] as? [String: [String: Any]])
        let frames = try #require(runs["default"]?["frames"] as? [[String: Any]])
        var pairs = 0
        for (previous, current) in zip(frames, frames.dropFirst()) {
            let before = ReferenceData.hands(previous["hand_landmarks"])
            let after = ReferenceData.hands(current["hand_landmarks"])
            guard before.count == 1, after.count == 1 else { continue }
            let roi = try HandRegions.nextFrameRegion(landmarks: before[0], imageSize: image)
            let points = after[0].map { intoROI($0, roi) }
            #expect(points.allSatisfy { $0.x > 0 && $0.x < 1 && $0.y > 0 && $0.y < 1 },
                    "frame \(current["frame_index"] ?? "?") leaves its ROI")
            // Wrist (0) to middle MCP (9) should point up in the ROI: angle from −y within 20°.
            let axis = points[9] - points[0]
            let angle = atan2f(axis.x, -axis.y)
            #expect(abs(angle) < 20 * .pi / 180, "frame \(current["frame_index"] ?? "?") hand tilted by \(angle) rad")
            pairs += 1
        }
        #expect(pairs == 29)
    }
}
