import ModelFile
import TestSupport
import Testing

@testable import Inference

@Suite struct EngineTuningTests {
    @Test func setsKnownSettingsAndRejectsUnknownNamesAndValuesBelowOne() {
        var tuning = EngineTuning.standard
        let accepted = [
            tuning.set("fused-expansion-bytes", to: 512 * 1024), tuning.set("fused-pointwise-bytes", to: 1),
            tuning.set("pointwise-band-bytes", to: 65536), tuning.set("minimum-parallel-work", to: 7),
        ]
        #expect(accepted == [true, true, true, true])
        #expect(tuning.fusedExpansionBytes == 512 * 1024)
        #expect(
            tuning.fusedPointwiseBytes == 1 && tuning.pointwiseBandBytes == 65536 && tuning.minimumParallelWork == 7)
        let before = tuning
        let rejected = [
            tuning.set("band-bytes", to: 4), tuning.set("minimum-parallel-work", to: 0),
            tuning.set("fused-expansion-bytes", to: -5),
        ]
        #expect(rejected == [false, false, false])
        #expect(tuning == before)
        // Every listed name is settable.
        for name in EngineTuning.names {
            var copy = EngineTuning.standard
            let set = copy.set(name, to: 3)
            #expect(set && copy != .standard, "\(name)")
        }
    }

    @Test func lowerExpansionThresholdFusesMoreHandLandmarkBlocksWithTheSameBits() throws {
        // The hand landmark model's 56×56×144 (1.8 MB) and 28×28×240 (0.75 MB) expansions stay
        // kernels of their own under the standard 2 MB and join their blocks at 512 KB.
        guard let model = try sharedModel("hand_landmarker.task", member: "hand_landmarks_detector.tflite") else {
            return
        }
        var tuning = EngineTuning.standard
        _ = tuning.set("fused-expansion-bytes", to: 512 * 1024)
        let input = RandomInput.values(seed: 5, count: 224 * 224 * 3, low: 0, high: 1)
        let standard = try outputs(model, input: input, threads: 1, tuning: .standard)
        for threads in [1, 2] {
            let tuned = try outputs(model, input: input, threads: threads, tuning: tuning)
            #expect(tuned.kernels < standard.kernels)
            #expect(tuned.bits == standard.bits, "\(threads) threads")
        }
    }

    @Test func bandSizesAndTheParallelThresholdLeaveThePoseDetectorsBitsAlone() throws {
        // The pose detector's 1×1 → depthwise layers cut into many more bands (64 KB of 1×1
        // output each instead of 1 MB), and every job shared between the threads however small.
        guard let model = try sharedModel("pose_landmarker_full.task", member: "pose_detector.tflite") else { return }
        var tuning = EngineTuning.standard
        _ = tuning.set("pointwise-band-bytes", to: 64 * 1024)
        _ = tuning.set("minimum-parallel-work", to: 1)
        let input = RandomInput.values(seed: 9, count: 224 * 224 * 3, low: -1, high: 1)
        try expectSameBitsInLessArena(model, input: input, tuning: tuning)
    }

    @Test func depthwiseBandBudgetsAndTaskSizesLeaveTheHandLandmarkModelsBitsAlone() throws {
        // The depthwise → 1×1 kernels (one with its expansion fused) cut into smaller bands, and
        // smaller tasks at several threads.
        guard let model = try sharedModel("hand_landmarker.task", member: "hand_landmarks_detector.tflite") else {
            return
        }
        var tuning = EngineTuning.standard
        _ = tuning.set("depthwise-band-bytes", to: 32 * 1024)
        _ = tuning.set("expansion-band-bytes", to: 128 * 1024)
        _ = tuning.set("minimum-task-pixels", to: 7)
        let input = RandomInput.values(seed: 21, count: 224 * 224 * 3, low: 0, high: 1)
        try expectSameBitsInLessArena(model, input: input, tuning: tuning)
    }

    @Test func gemmTaskSizesAndFusionRowsLeaveThePoseLandmarkModelsBitsAlone() throws {
        // With every 1×1 → depthwise pair fused whatever its size, the fewest rows (8 instead of
        // 24) also takes in the 16×16 and 8×8 layers' pairs (fewer kernels); and the matrix
        // products cut into small tasks of small weight groups, at one to three threads.
        guard let model = try sharedModel("pose_landmarker_lite.task", member: "pose_landmarks_detector.tflite")
        else { return }
        var anySize = EngineTuning.standard
        _ = anySize.set("fused-pointwise-bytes", to: 1)
        var tuning = anySize
        for (name, value) in [
            ("fused-pointwise-rows", 8), ("gemm-task-work", 2048), ("gemm-group-bytes", 8192),
            ("gemm-minimum-tasks", 64),
        ] {
            let accepted = tuning.set(name, to: value)
            #expect(accepted, "\(name)")
        }
        let input = RandomInput.values(seed: 13, count: 256 * 256 * 3, low: 0, high: 1)
        let standard = try outputs(model, input: input, threads: 1, tuning: .standard)
        let rowsKept = try outputs(model, input: input, threads: 1, tuning: anySize)
        #expect(rowsKept.bits == standard.bits)
        for threads in [1, 2, 3] {
            let tuned = try outputs(model, input: input, threads: threads, tuning: tuning)
            #expect(tuned.kernels < rowsKept.kernels)
            #expect(tuned.bits == standard.bits, "\(threads) threads")
        }
    }

    @Test func gemmTilingCutsSmallerTasksAndKeepsTheFewestTasksItIsGiven() {
        // 1 000 rows of 16 → 32 channels (2 KB of packed weights): one weight group, several
        // row tiles per task.
        withPackedWeights(n: 32, k: 16) { weights in
            let standard = GemmTiling(rowCount: 1000, weights: weights)
            var tuning = EngineTuning.standard
            _ = tuning.set("gemm-task-work", to: EngineTuning.standard.gemmTaskWork / 4)
            let smaller = GemmTiling(rowCount: 1000, weights: weights, tuning: tuning)
            #expect(standard.groupCount == 1 && smaller.groupCount == 1)
            #expect(smaller.taskCount > standard.taskCount)
            // Every row is covered once, with all panels, in either order.
            for tiling in [standard, smaller] {
                for rowMajor in [false, true] {
                    var covered = [Int](repeating: 0, count: tiling.rowCount)
                    for task in 0..<tiling.taskCount {
                        let (rows, panels) = tiling.task(task, rowMajor: rowMajor)
                        #expect(panels == 0..<tiling.panelCount)
                        for row in rows { covered[row] += 1 }
                    }
                    #expect(covered.allSatisfy { $0 == 1 })
                }
            }
        }
        // Eight rows of 64 → 512 channels: too few row tiles (one with AVX-512's 8-row tiles, two
        // with AVX2's 6-row ones), so the weights split into panel groups to give the tasks asked
        // for — 16 panels of 32, enough for twice the standard count on either.
        withPackedWeights(n: 512, k: 64) { weights in
            var many = EngineTuning.standard
            _ = many.set("gemm-minimum-tasks", to: 16)
            let standard = GemmTiling(rowCount: 8, weights: weights)
            let split = GemmTiling(rowCount: 8, weights: weights, tuning: many)
            #expect(split.groupCount > standard.groupCount)
            #expect(split.taskCount >= Swift.min(16, split.panelCount))
        }
    }

    private func withPackedWeights(n: Int, k: Int, _ body: (PackedWeights) -> Void) {
        var filter = (0..<(n * k)).map { Float($0 % 7) - 3 }
        filter.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            body(PackedWeights(weights: base, bias: nil, n: n, k: k))
        }
    }

    /// `tuning` (smaller bands) at one to three threads gives the standard tuning's bits, and at
    /// one thread a smaller arena (smaller band buffers).
    private func expectSameBitsInLessArena(_ model: TFLiteModel, input: [Float], tuning: EngineTuning) throws {
        let standard = try outputs(model, input: input, threads: 1, tuning: .standard)
        for threads in [1, 2, 3] {
            let tuned = try outputs(model, input: input, threads: threads, tuning: tuning)
            #expect(tuned.bits == standard.bits, "\(threads) threads")
            if threads == 1 { #expect(tuned.arenaBytes < standard.arenaBytes) }
        }
    }

    private func outputs(
        _ model: TFLiteModel, input: [Float], threads: Int, tuning: EngineTuning
    ) throws -> (bits: [[UInt32]], kernels: Int, arenaBytes: Int) {
        let options = InterpreterOptions(threadCount: threads)
        options.tuning = tuning
        let interpreter = try Interpreter(model: model, options: options)
        try interpreter.copyInput(0, from: input)
        try interpreter.invoke()
        let bits = try (0..<interpreter.outputCount).map { try interpreter.output($0).map(\.bitPattern) }
        return (bits, interpreter.kernelLabels.count, interpreter.arenaByteCount)
    }
}
