import Foundation
import Inference
import ModelFile
import TestSupport
import Testing

@testable import VisionTasksCLI

@Suite struct ModelCommandsTests {
    @Test func runModelWritesEveryOutputAsTheInterpreterComputesIt() throws {
        guard let path = SharedData.path("models/hand_landmarker.task") else {
            print("skipping: ../shared/models/hand_landmarker.task is absent")
            return
        }
        let directory = try temporaryDirectory("run-model")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let input = (0..<(224 * 224 * 3)).map { Float($0 % 256) / 255 }
        var bytes = Data()
        for value in input { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
        let inputPath = directory + "/input.f32"
        try bytes.write(to: URL(fileURLWithPath: inputPath))

        let run = runCLI([
            "run-model", path, "--member", "hand_landmarks_detector.tflite", "--input", inputPath,
            "--output-dir", directory + "/out", "--threads", "1",
        ])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.split(separator: "\n").first == "output_0 [1, 63] Identity")

        let model = try ModelContainer(contentsOfFile: path).model(named: "hand_landmarks_detector.tflite")
        let interpreter = try Interpreter(model: model, options: InterpreterOptions(threadCount: 2))
        try interpreter.copyInput(0, from: input)
        try interpreter.invoke()
        for o in 0..<interpreter.outputCount {
            let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/out/output_\(o).f32"))
            let written = data.withUnsafeBytes { raw in
                (0..<(raw.count / 4)).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self) }
            }
            #expect(written == (try interpreter.output(o)).map(\.bitPattern))
        }
    }

    @Test func runModelRejectsWrongInputs() throws {
        guard let path = SharedData.path("models/hand_landmarker.task") else { return }
        let directory = try temporaryDirectory("run-model-bad")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let small = directory + "/small.f32"
        try Data(count: 12).write(to: URL(fileURLWithPath: small))
        let noMember = runCLI(["run-model", path, "--input", small, "--output-dir", directory])
        #expect(noMember.status == 2)
        #expect(noMember.errors.contains("--member"))
        let wrongSize = runCLI([
            "run-model", path, "--member", "hand_detector.tflite", "--input", small, "--output-dir", directory,
        ])
        #expect(wrongSize.status == 1)
        #expect(wrongSize.errors.contains("needs \(192 * 192 * 3 * 4)"))
        let twoInputs = runCLI([
            "run-model", path, "--member", "hand_detector.tflite", "--input", small, "--input", small, "--output-dir",
            directory,
        ])
        #expect(twoInputs.status == 2)
    }

    @Test func benchModelReportsTimesAndArena() throws {
        guard let path = SharedData.path("models/hand_landmarker.task") else { return }
        let run = benchModel(path, "hand_landmarks_detector.tflite", ["--iterations", "3", "--threads", "1", "--json"])
        #expect(run.status == 0, "\(run.errors)")
        let json = try run.json()
        let median = try #require(json["medianMs"] as? Double)
        let minimum = try #require(json["minMs"] as? Double)
        let maximum = try #require(json["maxMs"] as? Double)
        #expect(minimum > 0 && minimum <= median && median <= maximum)
        #expect((json["arenaBytes"] as? Int ?? 0) > 1_000_000)
        // The hand landmark model has about 2 million float weights.
        #expect((json["weightBytes"] as? Int ?? 0) > 4_000_000)
        #expect(json["threads"] as? Int == 1)
        #expect(json["instructionSet"] is String)
    }

    @Test func benchModelPairedThreadsReportsBothInterpretersAndTheirRatio() throws {
        guard let path = SharedData.path("models/hand_landmarker.task") else { return }
        let run = benchModel(
            path, "hand_detector.tflite", ["--iterations", "3", "--threads", "1", "--paired-threads", "2", "--json"])
        #expect(run.status == 0, "\(run.errors)")
        let json = try run.json()
        #expect(json["threads"] as? Int == 1)
        let paired = try #require(json["paired"] as? [String: Any])
        #expect(paired["threads"] as? Int == 2)
        let median = try #require(paired["medianMs"] as? Double)
        let minimum = try #require(paired["minMs"] as? Double)
        let maximum = try #require(paired["maxMs"] as? Double)
        #expect(minimum > 0 && minimum <= median && median <= maximum)
        // Three ratios of positive times, each between the extremes of the two series.
        let ratio = try #require(paired["medianRatio"] as? Double)
        let ours = try #require(json["minMs"] as? Double)
        let oursMax = try #require(json["maxMs"] as? Double)
        #expect(ratio >= ours / maximum && ratio <= oursMax / minimum)
        let profile = benchModel(
            path, "hand_detector.tflite", ["--iterations", "2", "--threads", "1", "--paired-threads", "2", "--profile"])
        #expect(profile.status == 0, "\(profile.errors)")
        #expect(profile.errors.contains("CONV_2D") && profile.errors.contains("×"))
        #expect(profile.output.contains("paired with 2 threads"))
        let zero = benchModel(path, "hand_detector.tflite", ["--iterations", "1", "--paired-threads", "0"])
        #expect(zero.status == 2)
    }

    @Test func benchModelPairedTuningTimesOtherThresholdsAndComparesTheOutputs() throws {
        guard let path = SharedData.path("models/hand_landmarker.task") else { return }
        let run = benchModel(
            path, "hand_landmarks_detector.tflite",
            [
                "--iterations", "2", "--threads", "1", "--paired-tuning",
                "fused-expansion-bytes=524288,minimum-parallel-work=1", "--json",
            ])
        #expect(run.status == 0, "\(run.errors)")
        let json = try run.json()
        let paired = try #require(json["paired"] as? [String: Any])
        // The same thread count as the first interpreter unless --paired-threads says otherwise.
        #expect(paired["threads"] as? Int == 1)
        #expect(paired["tuning"] as? String == "fused-expansion-bytes=524288,minimum-parallel-work=1")
        #expect(paired["sameOutputs"] as? Bool == true)
        #expect((paired["medianRatio"] as? Double ?? 0) > 0)
        let text = benchModel(
            path, "hand_landmarks_detector.tflite",
            ["--iterations", "1", "--paired-tuning", "pointwise-band-bytes=65536", "--paired-threads", "2"])
        #expect(text.status == 0, "\(text.errors)")
        #expect(text.output.contains("paired with 2 threads, tuning pointwise-band-bytes=65536"))
        #expect(text.output.contains("outputs bit-identical"))
        for wrong in ["band-bytes=4", "fused-expansion-bytes=0", "fused-expansion-bytes", "minimum-parallel-work=x"] {
            let rejected = benchModel(
                path, "hand_landmarks_detector.tflite", ["--iterations", "1", "--paired-tuning", wrong])
            #expect(rejected.status == 2, "\(wrong)")
            #expect(rejected.errors.contains("fused-expansion-bytes, "), "\(wrong)")
        }
    }

    @Test func benchModelProfilesPairedInterpretersThatRunDifferentKernelsSideBySide() throws {
        // At 512 KB the tuned interpreter fuses the 56×56×144 expansions into their blocks: its
        // kernel list is shorter, and the expansions' kernels have no tuned column.
        guard let path = SharedData.path("models/hand_landmarker.task") else { return }
        let run = benchModel(
            path, "hand_landmarks_detector.tflite",
            [
                "--iterations", "2", "--threads", "1", "--paired-tuning", "fused-expansion-bytes=524288",
                "--profile-kernels",
            ])
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.errors.split(separator: "\n").map(String.init)
        let kernels = lines.filter { $0.contains("#") }
        let fusedAway = kernels.filter { $0.contains("– ms") }
        let both = kernels.filter { $0.contains("×") }
        #expect(!fusedAway.isEmpty && !both.isEmpty)
        #expect(fusedAway.count + both.count == kernels.count)
        // Every convolution kernel shows its multiply-adds and rate, a fused one its operators'
        // together; all of them add up to the model's (331.0 M, as `inspect` counts them).
        #expect(kernels.filter { $0.hasPrefix("CONV_2D#") }.allSatisfy { $0.hasSuffix(" G/s") })
        #expect(kernels.contains { $0.hasPrefix("CONV_2D#17 ") && $0.contains(" 19.47 M multiply-adds") })
        #expect(lines.contains { $0.hasPrefix("all kernels") && $0.contains(" 330.97 M multiply-adds") })
        // In operator order, each kernel once.
        let indices = kernels.compactMap { line in
            line.split(separator: " ").first.flatMap { $0.split(separator: "#").last }.flatMap { Int($0) }
        }
        #expect(indices.count == kernels.count && indices == indices.sorted() && Set(indices).count == indices.count)
        #expect(lines.contains { $0.hasPrefix("CONV_2D ") && $0.hasSuffix("×") })
    }

    @Test func matchedJoinsKernelsByLabelInOperatorOrder() {
        let rows = BenchModelCommand.matched(
            [("CONV_2D#2", 1), ("CONV_2D#9", 2), ("ADD#12", 3)], [("CONV_2D#2", 4), ("CONV_2D#5", 5), ("ADD#12", 6)])
        #expect(rows.map(\.label) == ["CONV_2D#2", "CONV_2D#5", "CONV_2D#9", "ADD#12"])
        #expect(rows.map(\.ms) == [1, nil, 2, 3])
        #expect(rows.map(\.pairedMs) == [4, 5, nil, 6])
        #expect(
            BenchModelCommand.operatorName(of: "CUSTOM:Convolution2DTransposeBias#244")
                == "CUSTOM:Convolution2DTransposeBias")
        let types = BenchModelCommand.matched([("CONV_2D", 1)], [("ADD", 2), ("CONV_2D", 3)], ordered: false)
        #expect(types.map(\.label) == ["CONV_2D", "ADD"] && types.map(\.pairedMs) == [3, 2])
    }

    @Test func benchModelRunsAnotherInstructionSetAndRejectsUnknownOnes() throws {
        guard let path = SharedData.path("models/hand_landmarker.task") else { return }
        let portable = benchModel(path, "hand_detector.tflite", ["--iterations", "1", "--isa", "portable", "--json"])
        #expect(portable.status == 0, "\(portable.errors)")
        #expect(try portable.json()["instructionSet"] as? String == "portable")
        let unknown = benchModel(path, "hand_detector.tflite", ["--iterations", "1", "--isa", "sse9"])
        #expect(unknown.status == 2)
        #expect(unknown.errors.contains("sse9"))
    }

    /// `bench-model --driven` answers each count with that many times, skips empty lines, stops
    /// at `quit` (later lines are not read) and reports the interpreter in its ready line.
    @Test func benchModelDrivenAnswersEachRequestWithThatManyTimes() throws {
        guard let path = SharedData.path("models/hand_landmarker.task") else { return }
        let run = benchModel(
            path, "hand_detector.tflite", ["--threads", "1", "--driven"],
            standardInput: try drivenInput("2\n\n 1 \nquit\n4\n"))
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(run.output)")
        let ready = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(ready["ready"] as? Bool == true && ready["threads"] as? Int == 1)
        #expect((ready["arenaBytes"] as? Int ?? 0) > 0 && (ready["weightBytes"] as? Int ?? 0) > 0)
        #expect(ready["instructionSet"] is String)
        let times = try lines.dropFirst().map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [Double])
        }
        #expect(times.map(\.count) == [2, 1])
        #expect(times.joined().allSatisfy { $0 > 0 })
        // The end of input ends it too, a last line without its newline still counted.
        let unterminated = benchModel(
            path, "hand_detector.tflite", ["--threads", "1", "--driven"], standardInput: try drivenInput("1"))
        #expect(unterminated.status == 0 && unterminated.output.split(separator: "\n").count == 2)
    }

    @Test func benchModelDrivenRejectsBadRequestsAndOtherModes() throws {
        guard let path = SharedData.path("models/hand_landmarker.task") else { return }
        for request in ["0", "ten", "10001"] {
            let run = benchModel(path, "hand_detector.tflite", ["--driven"], standardInput: try drivenInput(request))
            #expect(run.status == 2)
            #expect(run.errors.contains("--driven reads a count of calls"), "\(run.errors)")
        }
        for other in [["--paired-threads", "2"], ["--profile"], ["--paired-tuning", "gemm-task-work=4096"]] {
            let run = benchModel(
                path, "hand_detector.tflite", ["--driven"] + other, standardInput: try drivenInput("1"))
            #expect(run.status == 2 && run.errors.contains("--driven times one interpreter"), "\(run.errors)")
        }
    }

    @Test func unsupportedModelsFailWithTheOperatorNamed() throws {
        let path = SharedData.packageRoot
            .appendingPathComponent("Tests/InferenceTests/Golden/Quantized/models/unsupported-custom-operator.tflite")
            .path
        let run = runCLI(["bench-model", path, "--iterations", "1"])
        #expect(run.status == 1)
        #expect(run.errors.contains("CUSTOM:VisionTasksUnknownOp version 1 (operator 1)"))
    }

    /// `inspect` marks the operators the engine lacks before anything runs, in text and JSON.
    @Test func inspectMarksOperatorsTheEngineLacks() throws {
        let path = SharedData.packageRoot
            .appendingPathComponent("Tests/InferenceTests/Golden/Quantized/models/unsupported-custom-operator.tflite")
            .path
        let text = runCLI(["inspect", path])
        #expect(text.status == 0, "\(text.errors)")
        let marked = text.output.split(separator: "\n").filter { $0.contains("(not implemented by the engine)") }
        #expect(marked.count == 1 && marked.first?.contains("CUSTOM:VisionTasksUnknownOp") == true, "\(text.output)")
        let json = runCLI(["inspect", path, "--json"])
        let models = try #require(try json.json()["models"] as? [[String: Any]])
        #expect(models.first?["unsupportedOps"] as? [String] == ["CUSTOM:VisionTasksUnknownOp"])
    }

    /// `vision-tasks bench-model PATH --member MEMBER ARGUMENTS`.
    private func benchModel(
        _ path: String, _ member: String, _ arguments: [String], standardInput: FileHandle = .nullDevice
    ) -> CLIRun {
        runCLI(["bench-model", path, "--member", member] + arguments, standardInput: standardInput)
    }
}
