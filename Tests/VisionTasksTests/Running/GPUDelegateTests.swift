import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// A task asked for the GPU runs on the CPU, says so, and gives the CPU's results: no user is led
/// to believe a GPU is used (issue #27).
@Suite("GPU delegate", .serialized)
struct GPUDelegateTests {
    @Test func everyTaskAskedForTheGPUReportsTheCPUAndGivesItsResults() throws {
        guard let models = SharedData.path("models"), let picture = SharedData.path("images/decoded/astronaut.png")
        else { return skipWithoutSharedData("models") }
        let image = try MPImage(contentsOfFile: picture)
        func base(_ file: String, _ delegate: Delegate) -> BaseOptions {
            BaseOptions(modelAssetPath: "\(models)/\(file)", delegate: delegate)
        }

        var results: [Delegate: [String]] = [:]
        for delegate in [Delegate.CPU, .GPU] {
            let pose = PoseLandmarkerOptions()
            pose.baseOptions = base("pose_landmarker_lite.task", delegate)
            let poseTask = try PoseLandmarker(options: pose)
            let hands = HandLandmarkerOptions()
            hands.baseOptions = base("hand_landmarker.task", delegate)
            let handTask = try HandLandmarker(options: hands)
            let objects = ObjectDetectorOptions()
            objects.baseOptions = base("ssd_mobilenet_v1.tflite", delegate)
            let objectTask = try ObjectDetector(options: objects)
            let faces = FaceDetectorOptions()
            faces.baseOptions = base("blaze_face_short_range.tflite", delegate)
            let faceTask = try FaceDetector(options: faces)
            let mesh = FaceLandmarkerOptions()
            mesh.baseOptions = base("face_landmarker.task", delegate)
            let meshTask = try FaceLandmarker(options: mesh)
            let segmenter = ImageSegmenterOptions()
            segmenter.baseOptions = base("selfie_segmenter.tflite", delegate)
            let segmenterTask = try ImageSegmenter(options: segmenter)

            let active = [
                poseTask.activeDelegate, handTask.activeDelegate, objectTask.activeDelegate, faceTask.activeDelegate,
                meshTask.activeDelegate, segmenterTask.activeDelegate,
            ]
            #expect(active.allSatisfy { $0 == .CPU }, "asked for \(delegate): \(active)")
            let mask = try segmenterTask.segment(image: image).confidenceMasks?.first
            results[delegate] = [
                "\(try poseTask.detect(image: image).landmarks)", "\(try handTask.detect(image: image).landmarks)",
                "\(try objectTask.detect(image: image).detections)", "\(try faceTask.detect(image: image).detections)",
                "\(try meshTask.detect(image: image).faceLandmarks)",
                "\(mask.map { $0.withUnsafeFloat32Buffer { Array($0) } } ?? [])",
            ]
        }
        #expect(results[.GPU] == results[.CPU])
    }
}
