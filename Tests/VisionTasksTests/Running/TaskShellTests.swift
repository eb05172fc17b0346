import Foundation
import Testing

@testable import VisionTasks

/// The shell every task is built on: options checked in one place, the same way for every task
/// and before any model is opened, and live-stream results handed to the task's delegate adapter.
@Suite("TaskShell")
struct TaskShellTests {
    /// A pipeline that echoes the image width, optionally blocking on a gate or failing.
    struct EchoProcessor: FrameProcessor {
        var gate: Gate?
        var failAt: Int?

        mutating func process(_ input: MPImage, timestampInMilliseconds: Int) throws -> String {
            gate?.waitInside()
            if timestampInMilliseconds == failAt { throw TasksError.internalError("frame \(timestampInMilliseconds)") }
            return "\(Int(input.width))@\(timestampInMilliseconds)"
        }
    }

    /// Options of a test task with one rule of each kind that takes a value.
    final class EchoOptions: TaskOptions, VisionTaskOptions, @unchecked Sendable {
        var runningMode: RunningMode = .image
        var delegate: AnyObject?
        var count = 1
        var confidence: Float = 0.5
        var liveStreamDelegate: AnyObject? { delegate }
        var optionRules: [OptionRule] {
            [
                .resultCount(count, option: "count"),
                .confidence(confidence, option: "confidence", protoName: "confidence"),
            ]
        }
    }

    /// The task a shell delivers for.
    final class EchoTask {}

    /// What the delivery adapter saw.
    final class Deliveries: @unchecked Sendable {
        private let lock = NSLock()
        private var _calls: [(task: EchoTask, result: String?, timestamp: Int, error: TasksError?)] = []
        var calls: [(task: EchoTask, result: String?, timestamp: Int, error: TasksError?)] { lock.withLock { _calls } }
        func record(_ task: EchoTask, _ result: String?, _ timestamp: Int, _ error: TasksError?) {
            lock.withLock { _calls.append((task, result, timestamp, error)) }
        }
    }

    private static let image = try! MPImage(
        pixels: [UInt8](repeating: 9, count: 4 * 3 * 2), width: 4, height: 2, bytesPerRow: 12, format: .rgb8)

    private func shell(
        _ options: EchoOptions, processor: EchoProcessor = EchoProcessor(), deliveries: Deliveries = Deliveries(),
        made: Locked<Bool> = Locked(false)
    ) throws(TasksError) -> TaskShell<EchoProcessor, EchoTask> {
        try TaskShell(
            options: options, taskName: "echo",
            makeProcessor: {
                made.withLock { $0 = true }
                return processor
            },
            deliver: { task, delegate, result, timestamp, error in
                deliveries.record(task, result, timestamp, error)
            })
    }

    @Test func optionsAreCheckedBeforeTheProcessorIsMade() {
        let made = Locked(false)
        let options = EchoOptions()
        options.count = 0
        #expect(throws: TasksError.self) { try shell(options, made: made) }
        options.count = 1
        options.confidence = 7
        #expect { try shell(options, made: made) } throws: { error in
            guard case .invalidOption(let option, _) = error as? TasksError else { return false }
            return option == "confidence"
        }
        #expect(made.withLock { $0 } == false)
    }

    @Test func delegateIsCheckedFirstThenTheRulesInOrder() {
        let options = EchoOptions()
        options.delegate = EchoTask()
        options.count = 0
        options.confidence = 7
        #expect(throws: TasksError.delegateNotAllowed(runningMode: .image)) { try shell(options) }
        options.delegate = nil
        #expect { try shell(options) } throws: { error in
            guard case .invalidOption(let option, _) = error as? TasksError else { return false }
            return option == "count"
        }
        options.runningMode = .liveStream
        options.count = 1
        options.confidence = 0.5
        #expect(throws: TasksError.delegateMissing) { try shell(options) }
    }

    @Test func processorErrorsBecomeTasksErrors() {
        struct Unreadable: Error {}
        #expect(throws: TasksError.self) {
            _ = try TaskShell<EchoProcessor, EchoTask>(
                options: EchoOptions(), taskName: "echo", makeProcessor: { throw Unreadable() },
                deliver: { _, _, _, _, _ in })
        }
    }

    /// Live-stream options with `delegate` set.
    private func liveStreamOptions(delegate: AnyObject) -> EchoOptions {
        let options = EchoOptions()
        options.runningMode = .liveStream
        options.delegate = delegate
        return options
    }

    @Test func liveStreamResultsAndErrorsReachTheAttachedTask() throws {
        let delegate = EchoTask()
        let options = liveStreamOptions(delegate: delegate)
        let deliveries = Deliveries()
        let shell = try shell(options, processor: EchoProcessor(failAt: 20), deliveries: deliveries)
        let task = EchoTask()
        shell.attach(task)
        for timestamp in [10, 20, 30] {
            try shell.processLiveStreamFrame(Self.image, timestampInMilliseconds: timestamp)
            shell.waitUntilIdle()
        }
        let calls = deliveries.calls
        #expect(calls.map(\.timestamp) == [10, 20, 30])
        #expect(calls.map(\.result) == ["4@10", nil, "4@30"])
        #expect(calls[1].error == .internalError("frame 20") && calls[0].error == nil)
        #expect(calls.allSatisfy { $0.task === task })
        #expect(throws: TasksError.runningModeMismatch(expected: .image, actual: .liveStream)) {
            try shell.processImage(Self.image)
        }
    }

    @Test func nothingIsDeliveredOnceTheTaskIsGone() throws {
        let delegate = EchoTask()
        let options = liveStreamOptions(delegate: delegate)
        let deliveries = Deliveries()
        let gate = Gate()
        let shell = try shell(options, processor: EchoProcessor(gate: gate), deliveries: deliveries)
        var task: EchoTask? = EchoTask()
        shell.attach(task!)
        try shell.processLiveStreamFrame(Self.image, timestampInMilliseconds: 1)
        gate.waitUntilEntered()
        task = nil  // the frame is in flight; its task goes away
        gate.open()
        shell.waitUntilIdle()
        #expect(deliveries.calls.isEmpty)
    }

    @Test func everyTaskChecksItsOptionsBeforeOpeningItsModel() {
        // No model exists at this path: an option error proves the options were checked first.
        let missing = "/nonexistent/model.task"
        let pose = PoseLandmarkerOptions()
        pose.baseOptions.modelAssetPath = missing
        pose.minPoseDetectionConfidence = 7
        let hands = HandLandmarkerOptions()
        hands.baseOptions.modelAssetPath = missing
        hands.minHandDetectionConfidence = 7
        let objects = ObjectDetectorOptions()
        objects.baseOptions.modelAssetPath = missing
        objects.maxResults = 0
        func option(_ body: () throws -> Void) -> String? {
            do {
                try body()
                return nil
            } catch let TasksError.invalidOption(option, _) {
                return option
            } catch {
                return "\(error)"
            }
        }
        #expect(option { _ = try PoseLandmarker(options: pose) } == "minPoseDetectionConfidence")
        #expect(option { _ = try HandLandmarker(options: hands) } == "minHandDetectionConfidence")
        #expect(option { _ = try ObjectDetector(options: objects) } == "maxResults")
    }

    @Test func everyTaskRejectsADelegateOutsideLiveStreamFirst() {
        final class Receiver: PoseLandmarkerLiveStreamDelegate, HandLandmarkerLiveStreamDelegate,
            ObjectDetectorLiveStreamDelegate
        {
            func poseLandmarker(
                _ poseLandmarker: PoseLandmarker, didFinishDetection result: PoseLandmarkerResult?,
                timestampInMilliseconds: Int, error: (any Error)?
            ) {}
            func handLandmarker(
                _ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?,
                timestampInMilliseconds: Int, error: (any Error)?
            ) {}
            func objectDetector(
                _ objectDetector: ObjectDetector, didFinishDetection result: ObjectDetectorResult?,
                timestampInMilliseconds: Int, error: (any Error)?
            ) {}
        }
        let receiver = Receiver()
        let pose = PoseLandmarkerOptions()
        pose.poseLandmarkerLiveStreamDelegate = receiver
        pose.numPoses = 0
        let hands = HandLandmarkerOptions()
        hands.handLandmarkerLiveStreamDelegate = receiver
        hands.numHands = 0
        let objects = ObjectDetectorOptions()
        objects.objectDetectorLiveStreamDelegate = receiver
        objects.maxResults = 0
        let expected = TasksError.delegateNotAllowed(runningMode: .image)
        #expect(throws: expected) { try PoseLandmarker(options: pose) }
        #expect(throws: expected) { try HandLandmarker(options: hands) }
        #expect(throws: expected) { try ObjectDetector(options: objects) }
    }
}
