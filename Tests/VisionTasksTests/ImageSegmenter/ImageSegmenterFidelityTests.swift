import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// ImageSegmenter against MediaPipe 1.2.3's own masks (../shared/reference/image_segmenter and
/// reference/video/image_segmenter) on the exact decoded pixels: every confidence-mask pixel
/// within 1e-4, the category mask identical (at most 1 pixel in 10,000 may differ), the same
/// labels (issue #24).
@Suite("ImageSegmenter fidelity", .serialized)
struct ImageSegmenterFidelityTests {
    static var modelPath: String? { SharedData.path("models/selfie_segmenter.tflite") }

    static func segmenter(_ mode: RunningMode = .image, confidence: Bool, category: Bool) throws -> ImageSegmenter? {
        guard let path = modelPath else { return nil }
        let options = ImageSegmenterOptions()
        options.baseOptions.modelAssetPath = path
        options.runningMode = mode
        options.shouldOutputConfidenceMasks = confidence
        options.shouldOutputCategoryMask = category
        return try ImageSegmenter(options: options)
    }

    /// Worst confidence difference, bit-identical pixels and differing category pixels of one
    /// result against MediaPipe's files `<prefix>.confidence_<i>.npz` / `<prefix>.category.png`.
    struct Comparison {
        var worstConfidence = 0.0
        var identical = 0
        var compared = 0
        var differingCategories = 0
        var categoryPixels = 0
    }

    static func compare(
        _ result: ImageSegmenterResult, expected: [String: Any], prefix: String, label: String,
        into comparison: inout Comparison
    ) throws {
        let expectedMasks = expected["confidence_masks"] as? [[String: Any]]
        #expect((result.confidenceMasks == nil) == (expectedMasks == nil), "\(label): confidence masks on/off")
        for (index, mask) in (result.confidenceMasks ?? []).enumerated() {
            guard let path = SharedData.path("\(prefix).confidence_\(index).npz") else {
                Issue.record("\(label): no reference file for confidence mask \(index)")
                continue
            }
            let reference = try SegmentationReference.confidenceMask(npz: path)
            #expect(mask.width == reference.width && mask.height == reference.height, "\(label) mask \(index) size")
            #expect(mask.dataType == .float32)
            mask.withUnsafeFloat32Buffer { values in
                for (ours, theirs) in zip(values, reference.values) {
                    comparison.worstConfidence = max(comparison.worstConfidence, Double(abs(ours - theirs)))
                    if ours.bitPattern == theirs.bitPattern { comparison.identical += 1 }
                }
                comparison.compared += min(values.count, reference.values.count)
            }
        }
        #expect(result.confidenceMasks?.count ?? 0 == expectedMasks?.count ?? 0, "\(label): mask count")
        let expectsCategory = expected["category_mask"] is [String: Any]
        #expect((result.categoryMask != nil) == expectsCategory, "\(label): category mask on/off")
        if let mask = result.categoryMask, let path = SharedData.path("\(prefix).category.png") {
            let reference = try SegmentationReference.categoryMask(png: path)
            #expect(mask.width == reference.width && mask.height == reference.height, "\(label) category size")
            #expect(mask.dataType == .uInt8)
            mask.withUnsafeUInt8Buffer { values in
                comparison.differingCategories += zip(values, reference.values).filter { $0 != $1 }.count
                comparison.categoryPixels += values.count
            }
        }
        #expect(result.qualityScores?.map(\.floatValue) == [1], "\(label): quality scores")
    }

    @Test func everyImageAndOptionSetMatchesMediaPipe() throws {
        let names = References.imageNames(task: "image_segmenter")
        guard Self.modelPath != nil, !names.isEmpty else {
            return skipWithoutSharedData("selfie_segmenter.tflite and reference/image_segmenter")
        }
        var comparison = Comparison()
        var runs = 0
        for (config, confidence, category) in [
            ("confidence_masks", true, false), ("category_mask", false, true), ("both", true, true),
        ] {
            guard let segmenter = try Self.segmenter(confidence: confidence, category: category) else { return }
            #expect(segmenter.labels == ["selfie"])
            for name in names {
                let document = try #require(try SegmentationReference.json("reference/image_segmenter/\(name).json"))
                let runsByName = try #require(document["runs"] as? [String: Any])
                guard let run = runsByName[config] as? [String: Any] else { continue }
                let expected = try #require(run["result"] as? [String: Any])
                #expect(expected["labels"] as? [String] == segmenter.labels)
                let imageInfo = try #require(document["image"] as? [String: Any])
                let decoded = try #require(imageInfo["decoded_png"] as? String)
                let png = try #require(SharedData.path(decoded))
                let result = try segmenter.segment(image: try MPImage(contentsOfFile: png))
                try Self.compare(
                    result, expected: expected, prefix: "reference/image_segmenter/\(name).\(config)",
                    label: "\(name) \(config)", into: &comparison)
                runs += 1
            }
        }
        #expect(runs >= 3 * names.count - names.count, "only \(runs) runs compared")
        #expect(comparison.worstConfidence <= 1e-4, "confidence masks differ by up to \(comparison.worstConfidence)")
        #expect(
            comparison.differingCategories * 10_000 <= comparison.categoryPixels,
            "\(comparison.differingCategories) of \(comparison.categoryPixels) category pixels differ")
        print(
            "image segmenter: \(runs) runs, confidence max |d| \(comparison.worstConfidence), "
                + "\(comparison.identical) of \(comparison.compared) confidence pixels bit-identical, "
                + "\(comparison.differingCategories) of \(comparison.categoryPixels) category pixels differ")
    }

    @Test(arguments: ["gesture_test_video", "hand_test_video"])
    func videoSequencesMatchMediaPipeFrameByFrame(_ sequence: String) throws {
        guard Self.modelPath != nil,
            let document = try SegmentationReference.json("reference/video/image_segmenter/\(sequence).json")
        else { return skipWithoutSharedData("reference/video/image_segmenter/\(sequence)") }
        let video = try #require(document["video"] as? [String: Any])
        let directory = try #require(video["frames_png_dir"] as? String)
        let runsByName = try #require(document["runs"] as? [String: Any])
        var comparison = Comparison()
        for (config, value) in runsByName {
            let run = try #require(value as? [String: Any])
            let options = try #require(run["options"] as? [String: Any])
            let confidence = options["output_confidence_masks"] as? Bool ?? true
            let category = options["output_category_mask"] as? Bool ?? false
            guard let segmenter = try Self.segmenter(.video, confidence: confidence, category: category) else { return }
            let frames = try #require(run["frames"] as? [[String: Any]])
            for frame in frames {
                let index = try #require(frame["frame_index"] as? Int)
                let timestamp = try #require(frame["timestamp_ms"] as? Int)
                let png = try #require(SharedData.path(String(format: "\(directory)/%03d.png", index)))
                let result = try segmenter.segment(
                    videoFrame: try MPImage(contentsOfFile: png), timestampInMilliseconds: timestamp)
                #expect(result.timestampInMilliseconds == timestamp)
                try Self.compare(
                    result, expected: frame,
                    prefix: String(format: "reference/video/image_segmenter/\(sequence).\(config).%03d", index),
                    label: "\(sequence) frame \(index)", into: &comparison)
            }
        }
        #expect(
            comparison.worstConfidence <= 1e-4, "\(sequence): confidence masks differ by \(comparison.worstConfidence)")
        #expect(
            comparison.differingCategories * 10_000 <= comparison.categoryPixels,
            "\(sequence): \(comparison.differingCategories) of \(comparison.categoryPixels) category pixels differ")
        print(
            "\(sequence): confidence max |d| \(comparison.worstConfidence), \(comparison.identical) of "
                + "\(comparison.compared) pixels bit-identical, \(comparison.differingCategories) category pixels "
                + "differ"
        )
    }

    /// The orientation is applied to the model's input and not undone (as upstream): the masks
    /// have the stored image's size, and their content is the upright picture's, stretched.
    @Test func anOrientedImageGivesMasksOfTheStoredSizeFromTheUprightPicture() throws {
        guard let png = SharedData.path("images/decoded/business-person.png"),
            let segmenter = try Self.segmenter(confidence: true, category: true)
        else { return skipWithoutSharedData("business-person.png") }
        let oriented = try MPImage(contentsOfFile: png, orientation: .right)
        let upright = oriented.bitmap.convertedToRGB().applying(.right)
        let turned = try MPImage(
            pixels: upright.bytes, width: upright.width, height: upright.height, bytesPerRow: upright.bytesPerRow,
            format: .rgb8)
        let rotated = try segmenter.segment(image: oriented)
        let reference = try segmenter.segment(image: turned)
        let mask = try #require(rotated.confidenceMasks?.first)
        let referenceMask = try #require(reference.confidenceMasks?.first)
        #expect(mask.width == 958 && mask.height == 1358 && rotated.categoryMask?.width == 958)
        #expect(referenceMask.width == 1358 && referenceMask.height == 958)
        // The same model output stretched to two sizes: the same mean within resampling.
        func mean(_ mask: Mask) -> Double {
            mask.withUnsafeFloat32Buffer { $0.reduce(0.0) { $0 + Double($1) } / Double($0.count) }
        }
        #expect(abs(mean(mask) - mean(referenceMask)) <= 1e-3, "\(mean(mask)) vs \(mean(referenceMask))")
    }
}
