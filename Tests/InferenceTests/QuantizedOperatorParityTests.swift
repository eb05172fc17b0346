import Foundation
import ModelFile
import Testing

@testable import Inference

/// Tiny UINT8 / INT8 models of every quantized operator (and TFLite_Detection_PostProcess),
/// built from TFLite's schema by scripts/reference/make_quantized_golden.py, give exactly
/// LiteRT's outputs: with ``QuantizedArithmetic/xnnpack`` those of LiteRT's default XNNPACK
/// path, with ``QuantizedArithmetic/reference`` those of its reference kernels.
@Suite struct QuantizedOperatorParityTests {
    @Test func goldenDocumentCoversEveryOperator() throws {
        let cases = try QuantizedGolden.document.get().cases
        let prefixes = [
            "conv2d-u8", "conv2d-i8-per-tensor", "conv2d-i8-per-channel", "depthwise-u8", "depthwise-i8-per-channel",
            "add-u8", "add-i8", "mul-u8", "mul-i8", "concatenation-u8", "concatenation-i8", "logistic-u8",
            "logistic-i8", "quantize-f32-u8", "quantize-f32-i8", "requantize-u8-i8", "requantize-i8-i8",
            "dequantize-u8", "dequantize-i8", "maxpool-i8", "avgpool-u8", "avgpool-i8",
            "resize-nearest-i8", "resize-bilinear-u8", "resize-bilinear-i8", "efficientdet-like-int8-block",
            "postprocess-fast", "postprocess-regular",
        ]
        for prefix in prefixes {
            #expect(cases.contains { $0.name.hasPrefix(prefix) }, "no golden case for \(prefix)")
        }
    }

    @Test(arguments: QuantizedGolden.caseNames)
    func outputsEqualLiteRT(_ name: String) throws {
        let testCase = try QuantizedGolden.testCase(named: name)
        let model = try QuantizedGolden.model(testCase)
        let inputs = testCase.inputs.map(\.bytes)
        for (path, arithmetic) in [("xnnpack", QuantizedArithmetic.xnnpack), ("reference", .reference)] {
            guard let expected = testCase.outputs[path] else {
                Issue.record("\(name): no \(path) outputs")
                continue
            }
            let actual = try QuantizedGolden.run(model, inputs: inputs, arithmetic: arithmetic)
            #expect(actual.count == expected.count)
            for (o, (mine, reference)) in zip(actual, expected).enumerated() {
                let difference = QuantizedGolden.maximumDifference(mine, reference.bytes, type: reference.type)
                let detail =
                    difference.map { "max difference \($0)" }
                    ?? "\(mine.count) bytes instead of \(reference.bytes.count)"
                #expect(difference == 0, "\(name) [\(path)] output \(o): \(detail)")
            }
        }
    }

    @Test func resultsDoNotDependOnTheThreadCount() throws {
        for name in [
            "conv2d-i8-per-channel-k5-many-channels", "depthwise-u8-per-tensor-k3-s2-d1-same-act3",
            "efficientdet-like-int8-block", "resize-bilinear-i8-5x7-to-10x14-a0-h1",
        ] {
            let testCase = try QuantizedGolden.testCase(named: name)
            let model = try QuantizedGolden.model(testCase)
            let inputs = testCase.inputs.map(\.bytes)
            for arithmetic in [QuantizedArithmetic.xnnpack, .reference] {
                let one = try QuantizedGolden.run(model, inputs: inputs, arithmetic: arithmetic, threads: 1)
                let two = try QuantizedGolden.run(model, inputs: inputs, arithmetic: arithmetic, threads: 2)
                #expect(one == two, "\(name) \(arithmetic)")
            }
        }
    }
}
