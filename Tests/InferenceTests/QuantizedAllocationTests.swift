import AllocationCounter
import ModelFile
import TestSupport
import Testing

@testable import Inference

/// Quantized kernels and TFLite_Detection_PostProcess allocate nothing per invoke either, in
/// both arithmetics (measured one at a time with the other allocation tests).
@Suite(.serialized) struct QuantizedAllocationTests {
    static func steadyStateAllocations(_ model: TFLiteModel, arithmetic: QuantizedArithmetic, threads: Int) throws
        -> Int
    {
        let interpreter = try Interpreter(
            model: model, options: InterpreterOptions(threadCount: threads, quantizedArithmetic: arithmetic))
        for i in 0..<interpreter.inputCount {
            try interpreter.withInputBytes(i) { buffer in
                for j in 0..<buffer.count { buffer[j] = UInt8(truncatingIfNeeded: j &* 31) }
            }
        }
        for _ in 0..<2 { try interpreter.invoke() }
        interpreter.forEachThread { _ in allocation_counter_track_this_thread(1) }
        let before = allocation_counter_total()
        for _ in 0..<3 { try interpreter.invoke() }
        let allocations = allocation_counter_total() - before
        interpreter.forEachThread { _ in allocation_counter_track_this_thread(0) }
        return Int(allocations)
    }

    @Test(arguments: [QuantizedArithmetic.xnnpack, .reference], [1, 2])
    func quantizedInvokeAllocatesNothingAfterWarmUp(_ arithmetic: QuantizedArithmetic, threads: Int) throws {
        try AllocationMeasurement.exclusively {
            try measureQuantizedInvokeAllocatesNothingAfterWarmUp(arithmetic, threads: threads)
        }
    }

    private func measureQuantizedInvokeAllocatesNothingAfterWarmUp(_ arithmetic: QuantizedArithmetic, threads: Int)
        throws
    {
        guard allocation_counter_is_active() != 0 else {
            print("skipping: allocations cannot be counted on this platform (needs glibc)")
            return
        }
        var models: [(String, TFLiteModel)] = []
        if let path = SharedData.path("models/ssd_mobilenet_v1.tflite") {
            models.append(("ssd_mobilenet_v1", try TFLiteModel(contentsOfFile: path)))
        }
        for name in [
            "efficientdet-like-int8-block", "postprocess-regular-uint8-ties", "resize-bilinear-i8-5x7-to-10x14-a0-h1",
            "concatenation-u8-rescaled-axis3", "requantize-u8-i8-0.02-0.5-250",
        ] {
            models.append((name, try QuantizedGolden.model(try QuantizedGolden.testCase(named: name))))
        }
        for (name, model) in models {
            let allocations = try Self.steadyStateAllocations(model, arithmetic: arithmetic, threads: threads)
            #expect(
                allocations == 0, "\(name), \(arithmetic), \(threads) threads: \(allocations) allocations in 3 invokes")
        }
    }
}
