import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// Options, their validation and the errors of task creation.
@Suite("HandLandmarker options and creation errors")
struct HandLandmarkerOptionsTests {
    static var modelPath: String? { SharedData.path("models/hand_landmarker.task") }

    final class Receiver: HandLandmarkerLiveStreamDelegate {
        func handLandmarker(
            _ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?,
            timestampInMilliseconds: Int, error: (any Error)?
        ) {}
    }

    static func options(_ path: String, _ mode: RunningMode = .image) -> HandLandmarkerOptions {
        let options = HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = path
        options.runningMode = mode
        return options
    }

    @Test func defaultsAreMediaPipes() {
        let options = HandLandmarkerOptions()
        #expect(options.runningMode == .image)
        #expect(options.numHands == 1)
        #expect(options.minHandDetectionConfidence == 0.5)
        #expect(options.minHandPresenceConfidence == 0.5)
        #expect(options.minTrackingConfidence == 0.5)
        #expect(options.handLandmarkerLiveStreamDelegate == nil)
        #expect(options.baseOptions.modelAssetPath == nil)
    }

    @Test func copyIsIndependentAndKeepsEveryValue() {
        let receiver = Receiver()
        let options = HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = "a.task"
        options.baseOptions.threadCount = 1
        options.runningMode = .liveStream
        options.handLandmarkerLiveStreamDelegate = receiver
        options.numHands = 3
        options.minHandDetectionConfidence = 0.1
        options.minHandPresenceConfidence = 0.2
        options.minTrackingConfidence = 0.3
        let copy = options.copy()
        options.baseOptions.modelAssetPath = "b.task"
        options.numHands = 4
        #expect(copy.baseOptions.modelAssetPath == "a.task")
        #expect(copy.baseOptions.threadCount == 1)
        #expect(copy.runningMode == .liveStream)
        #expect(copy.handLandmarkerLiveStreamDelegate === receiver)
        #expect(copy.numHands == 3)
        #expect(copy.minHandDetectionConfidence == 0.1)
        #expect(copy.minHandPresenceConfidence == 0.2)
        #expect(copy.minTrackingConfidence == 0.3)
    }

    @Test func connectionListsAreMediaPipes() {
        #expect(HandLandmarker.handConnections.count == 21)
        #expect(
            HandLandmarker.handConnections
                == HandLandmarker.handPalmConnections + HandLandmarker.handThumbConnections
                + HandLandmarker.handIndexFingerConnections + HandLandmarker.handMiddleFingerConnections
                + HandLandmarker.handRingFingerConnections + HandLandmarker.handPinkyConnections)
        #expect(
            HandLandmarker.handRingFingerConnections.map { [$0.start, $0.end] } == [[13, 14], [14, 15], [15, 16]])
        #expect(HandLandmark.pinkyTip.rawValue == 20 && HandLandmark.wrist.rawValue == 0)
    }

    @Test func numHandsBelowOneIsAnInvalidArgument() throws {
        guard let path = Self.modelPath else { return skipWithoutSharedData("hand_landmarker.task") }
        for count in [0, -1] {
            let options = Self.options(path)
            options.numHands = count
            #expect { try HandLandmarker(options: options) } throws: { error in
                guard case .invalidOption(let option, let message) = error as? TasksError else { return false }
                return option == "numHands" && message.contains("max_vec_size")
                    && (error as? TasksError)?.code == .invalidArgumentError
            }
        }
    }

    @Test func presenceConfidenceOutsideZeroToOneIsAnInvalidArgument() throws {
        guard let path = Self.modelPath else { return skipWithoutSharedData("hand_landmarker.task") }
        for value: Float in [-0.1, 1.5, .nan] {
            let options = Self.options(path)
            options.minHandPresenceConfidence = value
            #expect { try HandLandmarker(options: options) } throws: { error in
                guard case .invalidOption(let option, let message) = error as? TasksError else { return false }
                return option == "minHandPresenceConfidence"
                    && message.hasPrefix(
                        "Invalid `min_detection_confidence` option: value must be in the range [0.0, 1.0]")
            }
        }
        let edge = Self.options(path)
        edge.minHandPresenceConfidence = 1
        edge.minHandDetectionConfidence = 0
        _ = try HandLandmarker(options: edge)
    }

    @Test func detectionConfidenceOutsideZeroToOneIsAnInvalidArgument() throws {
        // MediaPipe takes any value here (a palm threshold of 7 silently finds nothing); checked
        // like every other confidence (docs/DIFFERENCES.md). No model is needed: options are
        // checked before the bundle is opened.
        for value: Float in [-0.1, 7, .nan] {
            let options = Self.options("/nonexistent/hand_landmarker.task")
            options.minHandDetectionConfidence = value
            #expect { try HandLandmarker(options: options) } throws: { error in
                guard case .invalidOption(let option, let message) = error as? TasksError else { return false }
                return option == "minHandDetectionConfidence"
                    && message.hasPrefix(
                        "Invalid `min_detection_confidence` option: value must be in the range [0.0, 1.0]")
            }
        }
    }

    @Test(arguments: [RunningMode.video, .liveStream])
    func trackingConfidenceOutsideZeroToOneIsATypedErrorWhenTracking(mode: RunningMode) throws {
        // MediaPipe aborts the process here (a CHECK in hand_association_calculator.cc).
        guard let path = Self.modelPath else { return skipWithoutSharedData("hand_landmarker.task") }
        let receiver = Receiver()
        for value: Float in [0, -0.5, 1.01] {
            let options = Self.options(path, mode)
            if mode == .liveStream { options.handLandmarkerLiveStreamDelegate = receiver }
            options.minTrackingConfidence = value
            #expect { try HandLandmarker(options: options) } throws: { error in
                guard case .invalidOption(let option, _) = error as? TasksError else { return false }
                return option == "minTrackingConfidence" && (error as? TasksError)?.code == .invalidArgumentError
            }
        }
        let one = Self.options(path, mode)
        if mode == .liveStream { one.handLandmarkerLiveStreamDelegate = receiver }
        one.minTrackingConfidence = 1
        _ = try HandLandmarker(options: one)
    }

    @Test func trackingConfidenceIsNotCheckedInImageMode() throws {
        guard let path = Self.modelPath else { return skipWithoutSharedData("hand_landmarker.task") }
        let options = Self.options(path)
        options.minTrackingConfidence = 0
        _ = try HandLandmarker(options: options)
    }

    @Test func theDelegateMustBeSetInLiveStreamModeOnly() throws {
        guard let path = Self.modelPath else { return skipWithoutSharedData("hand_landmarker.task") }
        let receiver = Receiver()
        for mode in [RunningMode.image, .video] {
            let options = Self.options(path, mode)
            options.handLandmarkerLiveStreamDelegate = receiver
            #expect(throws: TasksError.delegateNotAllowed(runningMode: mode)) { try HandLandmarker(options: options) }
        }
        #expect(throws: TasksError.delegateMissing) { try HandLandmarker(options: Self.options(path, .liveStream)) }
    }

    @Test func modelFileErrorsAreTyped() throws {
        #expect(throws: TasksError.missingModelPath) { try HandLandmarker(options: HandLandmarkerOptions()) }
        #expect(throws: TasksError.missingModelPath) { try HandLandmarker(modelPath: "") }
        #expect { try HandLandmarker(modelPath: "/nonexistent/hand_landmarker.task") } throws: { error in
            (error as? TasksError)?.code == .notFoundError
        }
        guard let pose = SharedData.path("models/pose_landmarker_lite.task"),
            let png = SharedData.path("images/decoded/hand_test_image.png"),
            let ssd = SharedData.path("models/ssd_mobilenet_v1.tflite")
        else { return skipWithoutSharedData("models") }
        #expect { try HandLandmarker(modelPath: pose) } throws: { error in
            guard case .bundleMemberNotFound(let name, let members) = error as? TasksError else { return false }
            return name == "hand_detector.tflite" && members.contains("pose_detector.tflite")
        }
        #expect { try HandLandmarker(modelPath: png) } throws: { error in
            (error as? TasksError)?.code == .invalidArgumentError
        }
        // A .tflite with its label file appended is a zip with one member, as for MediaPipe.
        #expect(throws: TasksError.bundleMemberNotFound(name: "hand_detector.tflite", members: ["labelmap.txt"])) {
            try HandLandmarker(modelPath: ssd)
        }
    }
}
