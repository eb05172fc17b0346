import Foundation
import Testing

@testable import VisionTasks

/// Multi-channel segmentation on tiny models written by scripts/reference/make_segmenter_fixtures.py
/// (Fixtures/Segmenter: a 1×1 convolution to 3 channels with SOFTMAX and to 2 channels with
/// SIGMOID in their SEGMENTER_METADATA, label files, pictures larger and smaller than the model
/// input), against MediaPipe 1.2.3's results on the same files: every confidence value within
/// 1e-4, the category masks identical, the labels equal.
@Suite struct ImageSegmenterMultiChannelTests {
    struct Fixtures: Decodable {
        struct Model: Decodable {
            var file: String
            var activation: Int
            var labels: [String]
            var results: [String: Result]
        }
        struct Result: Decodable {
            var width: Int
            var height: Int
            var labels: [String]
            var confidenceMasks: [String]
            var categoryMask: String
        }
        var models: [String: Model]
    }

    static var directory: URL? {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)?.appendingPathComponent("Segmenter")
    }

    static func fixtures() throws -> Fixtures {
        let directory = try #require(directory)
        let data = try Data(contentsOf: directory.appendingPathComponent("results.json"))
        return try JSONDecoder().decode(Fixtures.self, from: data)
    }

    @Test(arguments: ["softmax3", "sigmoid2"])
    func masksMatchMediaPipe(_ name: String) throws {
        let fixtures = try Self.fixtures()
        let directory = try #require(Self.directory)
        let model = try #require(fixtures.models[name])
        let options = ImageSegmenterOptions()
        options.baseOptions.modelAssetPath = directory.appendingPathComponent(model.file).path
        options.shouldOutputCategoryMask = true
        let segmenter = try ImageSegmenter(options: options)
        #expect(segmenter.labels == model.labels)
        #expect(!model.results.isEmpty)
        for (picture, expected) in model.results.sorted(by: { $0.key < $1.key }) {
            #expect(expected.labels == model.labels)
            let image = try MPImage(contentsOfFile: directory.appendingPathComponent(picture + ".png").path)
            let result = try segmenter.segment(image: image)
            let masks = try #require(result.confidenceMasks)
            #expect(masks.count == expected.confidenceMasks.count, "\(name) \(picture): mask count")
            var worst: Float = 0
            for (mask, encoded) in zip(masks, expected.confidenceMasks) {
                #expect(mask.width == expected.width && mask.height == expected.height)
                let reference = try #require(Data(base64Encoded: encoded)).withUnsafeBytes {
                    Array($0.bindMemory(to: Float.self))
                }
                mask.withUnsafeFloat32Buffer { values in
                    #expect(values.count == reference.count)
                    for (ours, theirs) in zip(values, reference) { worst = max(worst, abs(ours - theirs)) }
                }
            }
            #expect(worst <= 1e-4, "\(name) \(picture): confidence masks differ by \(worst)")
            let category = try #require(result.categoryMask)
            let referenceCategory = try #require(Data(base64Encoded: expected.categoryMask))
            category.withUnsafeUInt8Buffer { values in
                #expect(Array(values) == Array(referenceCategory), "\(name) \(picture): category mask")
            }
            #expect(result.qualityScores?.map(\.floatValue) == Array(repeating: 1, count: model.labels.count))
            print("\(name) on \(picture): confidence max |d| \(worst)")
        }
    }

    @Test func softmaxMasksSumToOneAndSigmoidMasksStayInZeroToOne() throws {
        let directory = try #require(Self.directory)
        for (name, sums) in [("softmax3", true), ("sigmoid2", false)] {
            let segmenter = try ImageSegmenter(modelPath: directory.appendingPathComponent(name + ".tflite").path)
            let image = try MPImage(contentsOfFile: directory.appendingPathComponent("gradient.png").path)
            let masks = try #require(try segmenter.segment(image: image).confidenceMasks)
            let planes = masks.map { mask in mask.withUnsafeFloat32Buffer { Array($0) } }
            for pixel in planes[0].indices {
                let values = planes.map { $0[pixel] }
                #expect(values.allSatisfy { $0 >= -1e-6 && $0 <= 1 + 1e-6 })
                if sums { #expect(abs(values.reduce(0, +) - 1) <= 1e-5) }
            }
        }
    }
}
