import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// The documented thread-safety contract under load: separate task instances on separate
/// threads, and `detectAsync` bursts on one live-stream instance, all at the same time (four
/// threads). Short in the normal suite; `VT_STRESS_ROUNDS=<n>` lengthens it, and the
/// ThreadSanitizer run in docs/RELIABILITY.md runs this suite.
@Suite("Concurrency stress", .serialized)
struct ConcurrencyStressTests {
    /// Rounds per thread: 2 by default (1 in debug builds), or `VT_STRESS_ROUNDS`.
    static var rounds: Int {
        if let text = ProcessInfo.processInfo.environment["VT_STRESS_ROUNDS"], let value = Int(text), value > 0 {
            return value
        }
        return SharedData.isDebugBuild ? 1 : 2
    }

    /// Records live-stream deliveries from the callback queue.
    final class Deliveries: PoseLandmarkerLiveStreamDelegate, @unchecked Sendable {
        // @unchecked: every field is guarded by `lock`.
        private let lock = NSLock()
        private var timestamps: [Int] = []
        private var errors: [String] = []
        private var landmarkCounts: [Int] = []

        func poseLandmarker(
            _ poseLandmarker: PoseLandmarker, didFinishDetection result: PoseLandmarkerResult?,
            timestampInMilliseconds: Int, error: (any Error)?
        ) {
            lock.withLock {
                timestamps.append(timestampInMilliseconds)
                if let error { errors.append("\(error)") }
                landmarkCounts.append(result?.landmarks.count ?? -1)
            }
        }

        var snapshot: (timestamps: [Int], errors: [String], landmarkCounts: [Int]) {
            lock.withLock { (timestamps, errors, landmarkCounts) }
        }
    }

    /// Runs each body on its own thread, all started together, and waits for all.
    static func runOnSeparateThreads(_ bodies: [@Sendable () -> Void]) {
        let group = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        for body in bodies {
            group.enter()
            let thread = Thread {
                start.wait()
                body()
                group.leave()
            }
            thread.stackSize = 1 << 22
            thread.start()
        }
        for _ in bodies { start.signal() }
        group.wait()
    }

    private struct Models {
        var pose: String
        var hand: String
        var detector: String
        var person: MPImage
        var handPicture: MPImage
        var objects: MPImage
    }

    private static func models() throws -> Models? {
        guard let pose = SharedData.path("models/pose_landmarker_lite.task"),
            let hand = SharedData.path("models/hand_landmarker.task"),
            let detector = SharedData.path("models/ssd_mobilenet_v1.tflite"),
            let person = SharedData.path("images/decoded/astronaut.png"),
            let handImage = SharedData.path("images/decoded/hand_thumb_up.png"),
            let objects = SharedData.path("images/decoded/od_test_image.png")
        else { return nil }
        return Models(
            pose: pose, hand: hand, detector: detector, person: try MPImage(contentsOfFile: person),
            handPicture: try MPImage(contentsOfFile: handImage), objects: try MPImage(contentsOfFile: objects))
    }

    private static func poseOptions(_ path: String, _ mode: RunningMode) -> PoseLandmarkerOptions {
        let options = PoseLandmarkerOptions()
        options.baseOptions.modelAssetPath = path
        options.runningMode = mode
        return options
    }

    @Test func fourThreadsWithSeparateInstancesAndAsyncBurstsAgreeWithSerialRuns() throws {
        guard let m = try Self.models() else { return skipWithoutSharedData("models") }
        // Serial baselines.
        let pose = try PoseLandmarker(options: Self.poseOptions(m.pose, .image))
        let handOptions = HandLandmarkerOptions()
        handOptions.baseOptions.modelAssetPath = m.hand
        let hands = try HandLandmarker(options: handOptions)
        let detector = try ObjectDetector(modelPath: m.detector)
        let expectedPose = try pose.detect(image: m.person).landmarks
        let expectedHands = try hands.detect(image: m.handPicture).landmarks
        let expectedObjects = try detector.detect(image: m.objects).detections
        #expect(expectedPose.count == 1 && expectedHands.count == 1 && !expectedObjects.isEmpty)

        let deliveries = Deliveries()
        let liveOptions = Self.poseOptions(m.pose, .liveStream)
        liveOptions.poseLandmarkerLiveStreamDelegate = deliveries
        let live = try PoseLandmarker(options: liveOptions)

        let rounds = Self.rounds
        let burst = 8
        let mismatches = Mismatches()
        let images = (m.person, m.handPicture, m.objects)
        Self.runOnSeparateThreads([
            {
                // Each thread its own instance, created on that thread.
                do {
                    let own = try PoseLandmarker(options: Self.poseOptions(m.pose, .image))
                    for _ in 0..<rounds where try own.detect(image: images.0).landmarks != expectedPose {
                        mismatches.add("pose")
                    }
                } catch { mismatches.add("pose: \(error)") }
            },
            {
                do {
                    let options = HandLandmarkerOptions()
                    options.baseOptions.modelAssetPath = m.hand
                    let own = try HandLandmarker(options: options)
                    for _ in 0..<rounds where try own.detect(image: images.1).landmarks != expectedHands {
                        mismatches.add("hands")
                    }
                } catch { mismatches.add("hands: \(error)") }
            },
            {
                do {
                    let own = try ObjectDetector(modelPath: m.detector)
                    for _ in 0..<rounds where try own.detect(image: images.2).detections != expectedObjects {
                        mismatches.add("objects")
                    }
                } catch { mismatches.add("objects: \(error)") }
            },
            {
                // Bursts of frames faster than the task can process them.
                do {
                    for index in 0..<(rounds * burst) {
                        try live.detectAsync(image: images.0, timestampInMilliseconds: index * 10)
                        if index % burst == burst - 1 { live.waitUntilIdle() }
                    }
                } catch { mismatches.add("live: \(error)") }
            },
        ])
        live.waitUntilIdle()
        #expect(mismatches.all.isEmpty, "\(mismatches.all)")

        // Every frame was delivered or counted as dropped, in order, with the serial result.
        let delivered = deliveries.snapshot
        #expect(delivered.timestamps.count + live.droppedFrameCount == rounds * burst)
        #expect(delivered.timestamps == delivered.timestamps.sorted())
        #expect(Set(delivered.timestamps).count == delivered.timestamps.count)
        #expect(delivered.timestamps.last == (rounds * burst - 1) * 10)
        #expect(delivered.errors.isEmpty, "\(delivered.errors)")
        #expect(delivered.landmarkCounts.allSatisfy { $0 == 1 })
    }

    @Test func concurrentCallsOnOneImageModeInstanceAreSerialized() throws {
        guard let m = try Self.models() else { return skipWithoutSharedData("models") }
        // Tasks are documented as safe to share: calls on one instance queue up.
        let detector = try ObjectDetector(modelPath: m.detector)
        let expected = try detector.detect(image: m.objects).detections
        let mismatches = Mismatches()
        let image = m.objects
        let rounds = Self.rounds
        Self.runOnSeparateThreads(
            (0..<4).map { _ in
                {
                    for _ in 0..<rounds {
                        do {
                            if try detector.detect(image: image).detections != expected { mismatches.add("differs") }
                        } catch { mismatches.add("\(error)") }
                    }
                }
            })
        #expect(mismatches.all.isEmpty, "\(mismatches.all)")
    }
}

/// A thread-safe list of problems found on worker threads.
final class Mismatches: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var items: [String] = []

    func add(_ item: String) { lock.withLock { items.append(item) } }
    var all: [String] { lock.withLock { items } }
}
