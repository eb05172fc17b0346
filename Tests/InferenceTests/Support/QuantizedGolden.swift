import Foundation
import ModelFile

@testable import Inference

/// Golden data of the quantized engine, written by scripts/reference/make_quantized_golden.py
/// into Golden/Quantized.
enum QuantizedGolden {
    /// A raw tensor: element type name as NumPy spells it, shape and base64 bytes.
    struct RawTensor: Decodable {
        let type: String
        let shape: [Int]
        let data: String

        var bytes: [UInt8] { Data(base64Encoded: data).map { [UInt8]($0) } ?? [] }
    }

    /// One tiny model with its inputs and LiteRT's outputs per path ("xnnpack", "reference").
    struct Case: Decodable {
        let name: String
        let model: String
        let inputs: [RawTensor]
        let outputs: [String: [RawTensor]]
    }

    struct Document: Decodable {
        let reference: String
        let cases: [Case]
    }

    static var directory: URL? { GoldenModel.directory?.appendingPathComponent("Quantized") }

    /// The tiny-model cases (ops.json), decoded once.
    static let document: Result<Document, Error> = Result {
        guard let directory else { throw GoldenError.missing("Golden/Quantized") }
        let data = try Data(contentsOf: directory.appendingPathComponent("ops.json"))
        return try JSONDecoder().decode(Document.self, from: data)
    }

    /// Case names, for parameterized tests (empty when the data cannot be read; the test of
    /// the document itself then fails).
    static var caseNames: [String] { (try? document.get().cases.map(\.name)) ?? [] }

    static func testCase(named name: String) throws -> Case {
        guard let found = try document.get().cases.first(where: { $0.name == name }) else {
            throw GoldenError.missing("case \(name)")
        }
        return found
    }

    static func model(_ testCase: Case) throws -> TFLiteModel {
        guard let directory else { throw GoldenError.missing("Golden/Quantized") }
        return try TFLiteModel(contentsOfFile: directory.appendingPathComponent(testCase.model).path)
    }

    /// Runs `model` on raw inputs with `arithmetic` and returns every output's raw bytes.
    static func run(
        _ model: TFLiteModel, inputs: [[UInt8]], arithmetic: QuantizedArithmetic, threads: Int = 1,
        additionalOutputs: [Int] = []
    ) throws -> [[UInt8]] {
        let interpreter = try Interpreter(
            model: model, options: InterpreterOptions(threadCount: threads, quantizedArithmetic: arithmetic),
            additionalOutputs: additionalOutputs)
        for (i, input) in inputs.enumerated() {
            try interpreter.withInputBytes(i) { buffer in
                guard buffer.count == input.count else {
                    throw GoldenError.missing("input \(i) size \(input.count) vs \(buffer.count)")
                }
                buffer.copyBytes(from: input)
            }
        }
        try interpreter.invoke()
        return try (0..<interpreter.outputCount).map { o in try interpreter.withOutputBytes(o) { Array($0) } }
    }

    /// The largest element difference of two raw tensors of NumPy type `type`, in quanta for
    /// integer types and in value for float32; `nil` when the sizes differ.
    static func maximumDifference(_ a: [UInt8], _ b: [UInt8], type: String) -> Double? {
        guard a.count == b.count else { return nil }
        switch type {
        case "uint8": return zip(a, b).map { Double(abs(Int($0) - Int($1))) }.max() ?? 0
        case "int8":
            return zip(a, b).map { Double(abs(Int(Int8(bitPattern: $0)) - Int(Int8(bitPattern: $1)))) }.max() ?? 0
        case "float32":
            let x = floats(a)
            let y = floats(b)
            return zip(x, y).map { $0 == $1 || ($0.isNaN && $1.isNaN) ? 0 : Double(abs($0 - $1)) }.max() ?? 0
        default: return a == b ? 0 : .infinity
        }
    }

    static func floats(_ bytes: [UInt8]) -> [Float] {
        bytes.withUnsafeBytes { raw in
            (0..<(raw.count / 4)).map {
                Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self)))
            }
        }
    }
}

extension RandomInput {
    /// The top 8 bits of each SplitMix64 output (`random_bytes` in make_quantized_golden.py).
    static func bytes(seed: UInt64, count: Int) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8(generator.next() >> 56) }
    }
}
