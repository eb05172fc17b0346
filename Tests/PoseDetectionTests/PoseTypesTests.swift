import Foundation
import Testing

@testable import PoseDetection

@Suite struct PoseTypesTests {
    @Test func landmarkTypesFollowMLKitOrderAndSpelling() {
        #expect(PoseLandmarkType.allTypes.count == 33)
        #expect(Set(PoseLandmarkType.allTypes).count == 33)
        #expect(PoseLandmarkType.allTypes.first == .nose)
        #expect(PoseLandmarkType.mouthLeft.index == 9)
        #expect(PoseLandmarkType.leftPinkyFinger.index == 17)
        #expect(PoseLandmarkType.rightIndexFinger.index == 20)
        #expect(PoseLandmarkType.leftHip.index == 23)
        #expect(PoseLandmarkType.rightToe.index == 32)
        #expect(PoseLandmarkType(rawValue: "leftAnkle") == .leftAnkle)
        #expect(PoseLandmarkType(rawValue: "tail").index == nil)
    }

    @Test func mirroringSwapsSidesOnly() {
        #expect(PoseLandmarkType.leftWrist.mirrored == .rightWrist)
        #expect(PoseLandmarkType.rightEyeOuter.mirrored == .leftEyeOuter)
        #expect(PoseLandmarkType.mouthLeft.mirrored == .mouthRight)
        #expect(PoseLandmarkType.nose.mirrored == .nose)
        for type in PoseLandmarkType.allTypes {
            #expect(type.mirrored.index != nil)
            #expect(type.mirrored.mirrored == type)
        }
    }

    @Test func landmarkOfTypeFindsEachLandmark() {
        let landmarks = PoseLandmarkType.allTypes.enumerated().map { index, type in
            PoseLandmark(type: type, position: Vision3DPoint(x: CGFloat(index), y: 2, z: 3), inFrameLikelihood: 0.5)
        }
        let pose = Pose(landmarks: landmarks)
        #expect(pose.landmark(ofType: .leftAnkle).position.x == 27)
        #expect(pose.landmark(ofType: .nose).position.x == 0)
        let unknown = pose.landmark(ofType: PoseLandmarkType(rawValue: "tail"))
        #expect(unknown.inFrameLikelihood == 0)
    }

    @Test func optionsDefaultToStreamAndPickTheirModels() {
        let base = PoseDetectorOptions()
        let accurate = AccuratePoseDetectorOptions()
        #expect(base.detectorMode == .stream)
        #expect(accurate.detectorMode == .stream)
        base.detectorMode = .singleImage
        #expect(base.detectorMode == .singleImage)
        #expect(base.defaultModelFileNames == ["pose_landmarker_lite.task"])
        #expect(accurate.defaultModelFileNames.last == "pose_landmarker_full.task")
    }
}
