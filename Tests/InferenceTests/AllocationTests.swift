import AllocationCounter
import ModelFile
import TestSupport
import Testing

@testable import Inference

/// Steady state: once warmed up, `invoke()` makes no heap allocation on any thread of the
/// interpreter (counted by wrapping glibc's malloc family, see Tests/AllocationCounter).
@Suite(.serialized) struct AllocationTests {
    /// This suite's counting session (QuantizedAllocationTests counts into session 1).
    static let session: Int32 = 2

    static let models = [
        "pose_landmarker_full.task/pose_landmarks_detector.tflite",
        "pose_landmarker_lite.task/pose_detector.tflite",
        "hand_landmarker.task/hand_detector.tflite",
        "hand_landmarker.task/hand_landmarks_detector.tflite",
        // The face landmark model, and the blendshapes model (its layer norms and transposed
        // token mixings).
        "face_landmarker.task/face_landmarks_detector.tflite",
        "face_landmarker.task/face_blendshapes.tflite",
        // Plain model files: BlazeFace (fused RELUs) and the selfie segmenter (the custom
        // transposed convolution, HARD_SWISH, global average pools, broadcast MUL).
        "blaze_face_short_range.tflite",
        "selfie_segmenter.tflite",
    ]

    @Test(arguments: models, [1, 2])
    func invokeAllocatesNothingAfterWarmUp(_ name: String, threads: Int) throws {
        try AllocationMeasurement.exclusively { try measureInvokeAllocatesNothingAfterWarmUp(name, threads: threads) }
    }

    private func measureInvokeAllocatesNothingAfterWarmUp(_ name: String, threads: Int) throws {
        guard allocation_counter_is_active() != 0 else {
            print("skipping: allocations cannot be counted on this platform (needs glibc)")
            return
        }
        let parts = name.split(separator: "/").map(String.init)
        guard let path = SharedData.path("models/\(parts[0])") else {
            print("skipping \(name): ../shared/models/\(parts[0]) is absent")
            return
        }
        let model = try ModelContainer(contentsOfFile: path).model(named: parts.count > 1 ? parts[1] : nil)
        let interpreter = try Interpreter(model: model, options: InterpreterOptions(threadCount: threads))
        try interpreter.withInputBuffer(0) { buffer in
            for i in 0..<buffer.count { buffer[i] = Float(i % 255) / 255 }
        }
        for _ in 0..<2 { try interpreter.invoke() }

        interpreter.forEachThread { _ in allocation_counter_track_this_thread(AllocationTests.session) }
        // The counter sees this thread's allocations (so a zero below means something).
        let probeStart = allocation_counter_session_total(AllocationTests.session)
        let probe = Array(repeating: Float(1), count: 1000 + threads)
        #expect(
            allocation_counter_session_total(AllocationTests.session) > probeStart,
            "the counter does not see allocations")
        let before = allocation_counter_session_total(AllocationTests.session)
        for _ in 0..<3 { try interpreter.invoke() }
        let allocations = allocation_counter_session_total(AllocationTests.session) - before
        interpreter.forEachThread { _ in allocation_counter_track_this_thread(0) }
        #expect(allocations == 0, "\(name), \(threads) threads: \(allocations) allocations in 3 invokes")
        #expect(probe.count > 1000)
    }
}
