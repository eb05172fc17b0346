import Foundation
import Testing
import ModelFile
import TestSupport
@testable import Inference

/// Every output element of the six float models agrees with LiteRT (XNNPACK, the reference)
/// within 1e-4 absolute, or 1e-4 relative for values above 1, on seeded random inputs and a
/// real image — or, on the pose-model outputs where LiteRT's own result moves by more than
/// that under rounding-level changes, within twice that movement. Golden data and the
/// reasoning: scripts/reference/make_inference_golden.py.
@Suite struct LiteRTParityTests {
    static let models: [String] = [
        "pose_landmarker_full.task/pose_detector.tflite",
        "pose_landmarker_full.task/pose_landmarks_detector.tflite",
        "pose_landmarker_lite.task/pose_detector.tflite",
        "pose_landmarker_lite.task/pose_landmarks_detector.tflite",
        "hand_landmarker.task/hand_detector.tflite",
        "hand_landmarker.task/hand_landmarks_detector.tflite",
    ]

    @Test(arguments: models)
    func outputsMatchLiteRT(_ name: String) throws {
        let parts = name.split(separator: "/").map(String.init)
        guard let path = SharedData.path("models/\(parts[0])") else {
            print("skipping \(name): ../shared/models/\(parts[0]) is absent")
            return
        }
        let golden = try GoldenModel.load(bundle: parts[0], member: parts[1])
        let model = try ModelContainer(contentsOfFile: path).model(named: parts[1])
        // Debug builds run the image case only (the random cases take much longer unoptimised).
        let cases = SharedData.isDebugBuild ? golden.cases.filter { $0.input.kind == "image" } : golden.cases
        let interpreter = try Interpreter(model: model, options: InterpreterOptions(threadCount: 2))
        #expect(try interpreter.inputShape(0) == golden.inputShape)
        var worst = 0.0
        var beyondStrict = 0
        for testCase in cases {
            try interpreter.copyInput(0, from: try GoldenModel.input(testCase.input, shape: golden.inputShape))
            try interpreter.invoke()
            #expect(interpreter.outputCount == testCase.outputs.count)
            for (o, expected) in testCase.outputs.enumerated() where o < interpreter.outputCount {
                #expect(try interpreter.outputShape(o) == expected.shape)
                let actual = try interpreter.output(o)
                let values = try GoldenModel.decodeFloats(expected.values)
                let indices = try expected.indices.map(GoldenModel.decodeIndices) ?? Array(0..<values.count)
                #expect(indices.count == values.count)
                var failures = 0
                for (index, reference) in zip(indices, values) {
                    guard index < actual.count else { failures += 1; continue }
                    let error = Double(abs(actual[index] - reference)) / max(1, Double(abs(reference)))
                    worst = max(worst, error)
                    if error > golden.tolerance { beyondStrict += 1 }
                    if !(error <= expected.tolerance) {
                        failures += 1
                        if failures <= 3 {
                            Issue.record("\(name) \(testCase.name) output \(o)[\(index)]: \(actual[index]) vs LiteRT \(reference)")
                        }
                    }
                }
                #expect(failures == 0, "\(name) \(testCase.name) output \(o): \(failures) elements out of tolerance")
                // Whole-tensor checksums cover the elements not sampled.
                let sum = actual.reduce(0.0) { $0 + Double($1) }
                let absSum = actual.reduce(0.0) { $0 + Double(abs($1)) }
                #expect(abs(sum - expected.sum) <= expected.sumTolerance, "\(name) \(testCase.name) output \(o) sum \(sum) vs \(expected.sum)")
                #expect(abs(absSum - expected.absSum) <= expected.sumTolerance, "\(name) \(testCase.name) output \(o) abs sum \(absSum) vs \(expected.absSum)")
            }
        }
        print("\(name): max scaled error vs LiteRT \(worst) over \(cases.count) cases, \(beyondStrict) compared elements beyond 1e-4; arena \(interpreter.arenaByteCount) bytes")
    }
}
