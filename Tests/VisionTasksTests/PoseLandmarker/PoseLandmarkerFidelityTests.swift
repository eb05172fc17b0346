import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// Runs the pose pipeline on the exact pixels MediaPipe was fed and compares every result with
/// MediaPipe's own (../shared/reference, IMAGE mode): every image × option set, for the full and
/// the lite model, every value at the issue's IMAGE tolerance (``PoseComparison``). The engine
/// reproduces XNNPACK's arithmetic bit for bit, so the measured differences are 0.
@Suite("PoseLandmarker fidelity (IMAGE mode)", .serialized)
struct PoseLandmarkerFidelityTests {
    static let tasks = ["pose_landmarker_full", "pose_landmarker_lite"]

    @Test(arguments: tasks)
    func everyImageAndOptionSetMatchesMediaPipe(task: String) throws {
        guard let model = SharedData.path("models/\(task).task") else {
            return skipWithoutSharedData("models/\(task).task")
        }
        let names = References.imageNames(task: task)
        try #require(!names.isEmpty, "no references for \(task)")
        var references: [(ImageReference, MPImage)] = []
        for name in names {
            let reference = try #require(try References.image(task: task, name: name))
            let path = try #require(SharedData.path(reference.image.decodedPng))
            references.append((reference, try MPImage(contentsOfFile: path)))
        }
        let optionSets = Set(references.flatMap { $0.0.runs.keys }).sorted()
        for optionSet in optionSets {
            let optionSetOptions = references.compactMap { reference, _ in reference.runs[optionSet]?.options }
            let options = try #require(optionSetOptions.first)
            let landmarker = try PoseLandmarker(options: poseOptions(model: model, reference: options))
            var comparison = PoseComparison(tolerance: .image)
            for (reference, image) in references {
                guard let run = reference.runs[optionSet] else { continue }
                let result = try landmarker.detect(image: image)
                let expected = run.result
                let label = "\(task)/\(reference.image.name)/\(optionSet)"
                try #require(
                    result.landmarks.count == expected.numPoses,
                    "\(label): \(result.landmarks.count) poses, MediaPipe \(expected.numPoses ?? -1)")
                #expect(result.worldLandmarks.count == result.landmarks.count)
                #expect(
                    result.landmarks.allSatisfy { $0.count == 33 }
                        && result.worldLandmarks.allSatisfy { $0.count == 33 })
                if let masks = expected.segmentationMasks {
                    #expect(result.segmentationMasks.count == masks.count, "\(label): mask count")
                    for (mask, expectedMask) in zip(result.segmentationMasks, masks) {
                        #expect(
                            mask.width == expectedMask.shape[1] && mask.height == expectedMask.shape[0],
                            "\(label): mask size")
                    }
                } else {
                    #expect(result.segmentationMasks.isEmpty, "\(label): masks without shouldOutputSegmentationMasks")
                }
                comparison.compare(
                    result, landmarks: expected.poseLandmarks ?? [], world: expected.poseWorldLandmarks ?? [],
                    masks: expected.segmentationMasks, label: label)
            }
            print("\(task)/\(optionSet): \(comparison)")
            #expect(comparison.failures.isEmpty, "\(comparison.failures.joined(separator: "\n"))")
            // Beyond the issue's mask-mean check: the masks agree cell by cell (16×16 grid) within
            // the same 1e-2.
            #expect(comparison.worstMaskCell <= 1e-2)
        }
    }
}
