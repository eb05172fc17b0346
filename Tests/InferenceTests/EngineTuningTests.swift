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
