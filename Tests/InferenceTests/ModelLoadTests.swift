import Foundation
import Testing
import ModelFile
import TestSupport
@testable import Inference

@Suite struct ModelLoadTests {
    static let members: [(bundle: String, member: String)] = [
        ("pose_landmarker_full.task", "pose_detector.tflite"),
        ("pose_landmarker_full.task", "pose_landmarks_detector.tflite"),
        ("pose_landmarker_lite.task", "pose_detector.tflite"),
        ("pose_landmarker_lite.task", "pose_landmarks_detector.tflite"),
        ("hand_landmarker.task", "hand_detector.tflite"),
        ("hand_landmarker.task", "hand_landmarks_detector.tflite"),
    ]

    @Test func loadsAndRunsEverySharedFloatModel() throws {
        for (bundle, member) in Self.members {
            guard let path = SharedData.path("models/\(bundle)") else {
                print("skipping: ../shared/models/\(bundle) is absent")
                return
            }
            let model = try ModelContainer(contentsOfFile: path).model(named: member)
            let start = Date()
            let interpreter = try Interpreter(model: model, options: InterpreterOptions(threadCount: 1))
            let loaded = Date()
            try interpreter.withInputBuffer(0) { buffer in
                for i in 0..<buffer.count { buffer[i] = Float(i % 255) / 255 }
            }
            try interpreter.invoke()
            let ran = Date()
            print(bundle, member, "kernels", interpreter.kernelCount, "arena", interpreter.arenaByteCount,
                  "load ms", Int(loaded.timeIntervalSince(start) * 1000), "invoke ms", Int(ran.timeIntervalSince(loaded) * 1000))
            for o in 0..<interpreter.outputCount {
                let values = try interpreter.output(o)
                print("  output", o, try interpreter.outputShape(o), values.prefix(4))
            }
        }
    }
}
