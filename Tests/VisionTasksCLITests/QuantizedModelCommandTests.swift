import Foundation
import Inference
import ModelFile
import TestSupport
import Testing

@testable import VisionTasksCLI

/// `run-model` and `bench-model` on the UINT8 ssd_mobilenet_v1: raw uint8 input, outputs in
/// their element type, `--arithmetic`.
@Suite struct QuantizedModelCommandTests {
    @Test func runModelTakesRawBytesForQuantizedInputs() throws {
        guard let path = SharedData.path("models/ssd_mobilenet_v1.tflite") else {
            print("skipping: ../shared/models/ssd_mobilenet_v1.tflite is absent")
            return
        }
        let directory = try temporaryDirectory("run-model-quantized")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let input = (0..<(300 * 300 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 / 900) }
        let inputPath = directory + "/input.u8"
        try Data(input).write(to: URL(fileURLWithPath: inputPath))
        for arithmetic in ["xnnpack", "reference"] {
            let run = runCLI([
                "run-model", path, "--input", inputPath, "--output-dir", directory + "/\(arithmetic)",
                "--threads", "1", "--arithmetic", arithmetic,
            ])
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.output.split(separator: "\n").first == "output_0 [1, 10, 4] TFLite_Detection_PostProcess")
            let interpreter = try Interpreter(
                model: try TFLiteModel(contentsOfFile: path),
                options: InterpreterOptions(
                    threadCount: 1, quantizedArithmetic: arithmetic == "xnnpack" ? .xnnpack : .reference))
            try interpreter.withInputBytes(0) { $0.copyBytes(from: input) }
            try interpreter.invoke()
            for o in 0..<4 {
                let written = try Data(contentsOf: URL(fileURLWithPath: directory + "/\(arithmetic)/output_\(o).f32"))
                let expected = try interpreter.output(o).flatMap { value in
                    withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) }
                }
                #expect([UInt8](written) == expected, "\(arithmetic) output \(o)")
            }
        }
    }

    @Test func runModelRejectsWrongQuantizedInputsAndArithmetic() throws {
        guard let path = SharedData.path("models/ssd_mobilenet_v1.tflite") else { return }
        let directory = try temporaryDirectory("run-model-quantized-bad")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let small = directory + "/small.u8"
        try Data(count: 300 * 300 * 3 * 4).write(to: URL(fileURLWithPath: small))
        let wrongSize = runCLI(["run-model", path, "--input", small, "--output-dir", directory])
        #expect(wrongSize.status == 1)
        #expect(wrongSize.errors.contains("needs \(300 * 300 * 3)"))
        let badArithmetic = runCLI([
            "run-model", path, "--input", small, "--output-dir", directory, "--arithmetic", "fast",
        ])
        #expect(badArithmetic.status == 2)
        #expect(badArithmetic.errors.contains("--arithmetic"))
    }

    @Test func benchModelTimesAQuantizedModel() throws {
        guard let path = SharedData.path("models/ssd_mobilenet_v1.tflite") else { return }
        let run = runCLI(["bench-model", path, "--iterations", "2", "--threads", "1", "--json"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("medianMs"))
    }
}
