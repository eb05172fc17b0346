import ModelFile
import Testing

@testable import Inference

/// Each kernel's multiply-adds (what `bench-model --profile-kernels` divides by its time) count
/// the operators it runs, those fused into it included, each once, by `inspect`'s convention.
@Suite struct KernelMultiplyAddsTests {
    @Test(arguments: [
        ("hand_landmarker.task", "hand_landmarks_detector.tflite"),
        ("hand_landmarker.task", "hand_detector.tflite"),
        ("face_landmarker.task", "face_blendshapes.tflite"),
        ("blaze_face_short_range.tflite", nil),
        ("selfie_segmenter.tflite", nil),
    ])
    func kernelsCountEveryMultiplyAddOfTheModelOnce(file: String, member: String?) throws {
        guard let model = try sharedModel(file, member: member) else { return }
        let interpreter = try Interpreter(model: model, options: InterpreterOptions(threadCount: 1))
        #expect(interpreter.kernelMultiplyAdds.count == interpreter.kernelLabels.count)
        #expect(interpreter.kernelMultiplyAdds.allSatisfy { $0 >= 0 })
        #expect(interpreter.kernelMultiplyAdds.reduce(0, +) == (try ModelSummary(model: model)).macs)
    }

    /// The hand landmark model's 112 × 112 block runs as one kernel: its 1×1 expansion (12544 ×
    /// 16 → 64), 3×3 stride-2 depthwise convolution (56 × 56 × 64) and 1×1 projection (3136 × 64
    /// → 24); the blendshapes model's last token mixing as one kernel of its two products.
    @Test func aFusedKernelCountsTheOperatorsFusedIntoIt() throws {
        if let model = try sharedModel("hand_landmarker.task", member: "hand_landmarks_detector.tflite") {
            let interpreter = try Interpreter(model: model, options: InterpreterOptions(threadCount: 1))
            let block = try #require(interpreter.kernelLabels.firstIndex(of: "CONV_2D#17"))
            #expect(interpreter.kernelMultiplyAdds[block] == 12544 * 16 * 64 + 3136 * 64 * 9 + 3136 * 64 * 24)
        }
        if let model = try sharedModel("face_landmarker.task", member: "face_blendshapes.tflite") {
            let interpreter = try Interpreter(model: model, options: InterpreterOptions(threadCount: 1))
            let mixings = interpreter.kernelLabels.indices.filter {
                interpreter.kernels[$0] is TokenMixingKernel
            }
            #expect(!mixings.isEmpty)
            // 97 tokens × 64 channels, 97 → 384 → 97 over the tokens.
            for index in mixings { #expect(interpreter.kernelMultiplyAdds[index] == 64 * 384 * 97 * 2) }
        }
    }
}
