import TestSupport
import Testing

/// The reference data set decodes completely, so the task tests can rely on it.
@Suite struct ReferencesTests {
    @Test(arguments: ["pose_landmarker_full", "pose_landmarker_lite", "hand_landmarker", "object_detector"])
    func imageReferencesDecode(task: String) throws {
        let names = References.imageNames(task: task)
        guard !names.isEmpty else {
            print("skipped \(task): ../shared is not available")
            return
        }
        #expect(names.count == 7)
        for name in names {
            let reference = try #require(try References.image(task: task, name: name))
            #expect(reference.image.width > 0)
            #expect(SharedData.path(reference.image.decodedPng) != nil)
            for (_, run) in reference.runs {
                if task.hasPrefix("pose") {
                    #expect(run.result.poseLandmarks?.count == run.result.numPoses)
                    #expect(run.result.poseLandmarks?.allSatisfy { $0.count == 33 } == true)
                } else if task == "hand_landmarker" {
                    #expect(run.result.handLandmarks?.allSatisfy { $0.count == 21 } == true)
                    #expect(run.result.handedness?.count == run.result.numHands)
                } else {
                    #expect(run.result.detections?.count == run.result.numDetections)
                }
            }
        }
    }

    @Test func videoAndErrorReferencesDecode() throws {
        guard let video = try References.video(task: "pose_landmarker_full", sequence: "gesture_test_video") else {
            print("skipped: ../shared is not available")
            return
        }
        #expect(video.video.numFrames == 30)
        for (_, run) in video.runs {
            #expect(run.frames.count == 30)
            #expect(run.frames.enumerated().allSatisfy { $0.element.timestampMs == $0.offset * 33 })
        }
        let hands = try #require(try References.video(task: "hand_landmarker", sequence: "hand_test_video"))
        #expect(hands.runs.count == 3)
        let errors = try #require(try References.errors())
        #expect(
            errors["object_detector_model_without_metadata"]?.message
                == "Object detection models require TFLite Model Metadata but none was found")
    }
}
