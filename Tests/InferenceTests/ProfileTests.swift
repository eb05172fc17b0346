import Foundation
import Testing
import ModelFile
import TestSupport
@testable import Inference

/// Prints where the time goes (run with VISION_TASKS_PROFILE=1; otherwise skipped).
@Suite struct ProfileTests {
    @Test func printsKernelProfile() throws {
        guard ProcessInfo.processInfo.environment["VISION_TASKS_PROFILE"] == "1",
              let path = SharedData.path("models/pose_landmarker_full.task") else { return }
        for member in ["pose_detector.tflite", "pose_landmarks_detector.tflite"] {
            let model = try ModelContainer(contentsOfFile: path).model(named: member)
            let interpreter = try Interpreter(model: model, options: InterpreterOptions(threadCount: 1))
            for _ in 0..<3 { try interpreter.invoke() }
            var totals: [String: Double] = [:]
            var runs: [[(label: String, milliseconds: Double)]] = []
            for _ in 0..<5 { runs.append(interpreter.profile()) }
            for i in runs[0].indices {
                let ms = runs.map { $0[i].milliseconds }.sorted()[2]
                let op = String(runs[0][i].label.split(separator: "#")[0])
                totals[op, default: 0] += ms
            }
            print(member, totals.sorted { $0.value > $1.value }.map { "\($0.key) \(String(format: "%.2f", $0.value))" })
            let top = runs[0].indices.sorted { runs[0][$0].milliseconds > runs[0][$1].milliseconds }.prefix(8)
            print(top.map { "\(runs[0][$0].label) \(String(format: "%.2f", runs[0][$0].milliseconds))" })
        }
    }
}
