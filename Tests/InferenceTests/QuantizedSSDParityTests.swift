import Foundation
import ModelFile
import TestSupport
import Testing

@testable import Inference

/// ssd_mobilenet_v1 (UINT8, ending in TFLite_Detection_PostProcess) on two seeded random
/// inputs and a real image: the two quantized detector heads that feed the post-process
/// ("Squeeze" boxes, "convert_scores") and the four post-processed outputs equal LiteRT's —
/// its XNNPACK path with ``QuantizedArithmetic/xnnpack``, its reference kernels with
/// ``QuantizedArithmetic/reference``. Golden data: scripts/reference/make_quantized_golden.py.
@Suite struct QuantizedSSDParityTests {
    struct Manifest: Decodable {
        struct Recipe: Decodable {
            let kind: String
            let seed: UInt64?
            let file: String?
        }

        struct Case: Decodable {
            let name: String
            let input: Recipe
        }

        let headTensors: [Int]
        let cases: [Case]
    }

    static func archive() throws -> ZipArchive {
        guard let directory = QuantizedGolden.directory else { throw GoldenError.missing("Golden/Quantized") }
        return try ZipArchive(contentsOfFile: directory.appendingPathComponent("ssd_mobilenet_v1.zip").path)
    }

    static func member(_ archive: ZipArchive, _ name: String) throws -> [UInt8] {
        guard let member = archive.member(named: name) else { throw GoldenError.missing(name) }
        return try archive.extract(member)
    }

    @Test(arguments: [QuantizedArithmetic.xnnpack, .reference])
    func headsAndDetectionsEqualLiteRT(_ arithmetic: QuantizedArithmetic) throws {
        guard let path = SharedData.path("models/ssd_mobilenet_v1.tflite") else {
            print("skipping: ../shared/models/ssd_mobilenet_v1.tflite is absent")
            return
        }
        let archive = try Self.archive()
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(try Self.member(archive, "manifest.json")))
        let model = try TFLiteModel(contentsOfFile: path)
        let interpreter = try Interpreter(
            model: model, options: InterpreterOptions(threadCount: 2, quantizedArithmetic: arithmetic),
            additionalOutputs: manifest.headTensors)
        #expect(try interpreter.inputType(0) == .uint8)
        #expect(try interpreter.outputShape(0) == [1, 10, 4])
        #expect(try interpreter.outputShape(3) == [1])
        let label = arithmetic == .xnnpack ? "xnnpack" : "reference"
        // Debug builds run the image case only.
        let cases = SharedData.isDebugBuild ? manifest.cases.filter { $0.input.kind == "image" } : manifest.cases
        for testCase in cases {
            let input: [UInt8]
            if let seed = testCase.input.seed {
                input = RandomInput.bytes(seed: seed, count: 300 * 300 * 3)
            } else if let file = testCase.input.file {
                input = try Self.member(archive, file)
            } else {
                throw GoldenError.missing("input recipe of \(testCase.name)")
            }
            try interpreter.withInputBytes(0) { $0.copyBytes(from: input) }
            try interpreter.invoke()
            let prefix = "\(testCase.name)/\(label)/"
            for (o, name) in [(4, "boxes.u8"), (5, "scores.u8")] {
                let expected = try Self.member(archive, prefix + name)
                let actual = try interpreter.withOutputBytes(o) { Array($0) }
                let quanta = QuantizedGolden.maximumDifference(actual, expected, type: "uint8") ?? .infinity
                let count = zip(actual, expected).filter { $0 != $1 }.count
                #expect(quanta == 0, "\(prefix)\(name): \(count) elements differ, by up to \(quanta) quanta")
            }
            let detections = QuantizedGolden.floats(try Self.member(archive, prefix + "detections.f32"))
            var actual: [Float] = []
            for o in 0..<4 { actual += try interpreter.output(o) }
            #expect(actual.map(\.bitPattern) == detections.map(\.bitPattern), "\(prefix) post-processed outputs")
            print(
                "ssd_mobilenet_v1 \(testCase.name) [\(label)]: heads and "
                    + "\(Int(actual[actual.count - 1])) detections equal LiteRT"
            )
        }
    }

    @Test func detectionsOfTheRealImageAreThePeopleAndObjectsInIt() throws {
        guard let path = SharedData.path("models/ssd_mobilenet_v1.tflite") else { return }
        let archive = try Self.archive()
        let interpreter = try Interpreter(
            model: try TFLiteModel(contentsOfFile: path), options: InterpreterOptions(threadCount: 1))
        let image = try Self.member(archive, "od_test_image_300.u8")
        try interpreter.withInputBytes(0) { $0.copyBytes(from: image) }
        try interpreter.invoke()
        let count = Int(try interpreter.output(3)[0])
        let scores = try interpreter.output(2)
        let boxes = try interpreter.output(0)
        #expect(count == 10)
        // Scores come from a UINT8 tensor with scale 1/256, sorted by NMS.
        for i in 0..<count {
            #expect(scores[i] * 256 == (scores[i] * 256).rounded())
            if i > 0 { #expect(scores[i] <= scores[i - 1]) }
            #expect(boxes[i * 4] <= boxes[i * 4 + 2] && boxes[i * 4 + 1] <= boxes[i * 4 + 3])
        }
        #expect(scores[0] > 0.5)
    }
}
