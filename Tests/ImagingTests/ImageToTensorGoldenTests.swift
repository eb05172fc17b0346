import Foundation
import Imaging
import TestSupport
import Testing

/// Our tensors against the golden MediaPipe preprocessing tensors (pose detector, pose
/// landmarks, palm detector, hand landmarks, SSD; letterbox, rotation, both border modes).
@Suite struct ImageToTensorGoldenTests {
    static let golden = try? GoldenTensors.load()

    @Test func goldenFileLoads() throws {
        let golden = try #require(Self.golden)
        #expect(golden.cases.count >= 10)
        #expect(golden.cases.contains { $0.verifiedWithMediapipe })
    }

    @Test(arguments: (golden?.cases ?? []).map(\.name))
    func tensorMatchesMediaPipePreprocessing(caseName: String) throws {
        let golden = try #require(Self.golden?.cases.first { $0.name == caseName })
        guard let path = SharedData.path(golden.image) else {
            print("skipping \(caseName): \(golden.image) not found (../shared absent)")
            return
        }
        let bitmap = try ImageDecoder.decodeFile(atPath: path).bitmap
        let options = try golden.tensor.options()
        let rect = golden.rect.normalizedRect

        var floats = [Float](repeating: .nan, count: options.elementCount)
        let geometry = try floats.withUnsafeMutableBufferPointer {
            try ImageToTensor.convert(bitmap, region: rect, options: options, into: $0)
        }
        var bytes = [UInt8](repeating: 0, count: options.elementCount)
        _ = try bytes.withUnsafeMutableBufferPointer {
            try ImageToTensor.convert(bitmap, region: rect, options: options, into: $0)
        }

        // Sampled values of the normalized tensor: max difference ≤ 1e-3.
        let scale = options.valueRange.scale
        let offset = options.valueRange.offset
        let samples = golden.samples
        #expect(samples.count == (options.elementCount + golden.sampleStride - 1) / golden.sampleStride)
        var maxDifference: Float = 0
        for (index, expected) in samples.enumerated() {
            let value = floats[index * golden.sampleStride]
            maxDifference = max(maxDifference, abs(value - (Float(expected) * scale + offset)))
        }
        #expect(maxDifference <= 1e-3, "max difference \(maxDifference) on sampled values")

        // Whole-tensor checksums of the normalized values.
        var sum = 0.0
        var absSum = 0.0
        for value in floats {
            sum += Double(value)
            absSum += Double(abs(value))
        }
        let mean = sum / Double(floats.count)
        #expect(abs(mean - golden.checksums.mean) <= 1e-5 * max(1, abs(golden.checksums.mean)))
        #expect(abs(absSum - golden.checksums.absSum) <= 1e-5 * max(1, golden.checksums.absSum))

        // Every 8-bit value equal to MediaPipe's.
        let hash = bytes.withUnsafeBufferPointer { fnv1a64($0) }
        #expect(hash == golden.checksums.fnv1a64, "8-bit tensor differs from the reference")
        for (index, value) in bytes.enumerated() where index % 997 == 0 {
            #expect(abs(Float(value) * scale + offset - floats[index]) <= 1e-5)
        }

        // Geometry outputs.
        let padding = geometry.letterboxPadding
        for (side, value) in [padding.left, padding.top, padding.right, padding.bottom].enumerated() {
            #expect(abs(value - golden.letterboxPadding[side]) <= 1e-6)
        }
        let matrix = geometry.matrix
        for index in 0..<16 {
            #expect(abs(matrix[index] - golden.matrix[index]) <= 1e-5, "MATRIX[\(index)]")
        }
    }
}
