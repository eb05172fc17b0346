import Foundation
import TestSupport

@testable import VisionTasks

/// Compares our detections with MediaPipe's (../shared/reference/object_detector) under the issue's
/// tolerances — same detections in the same order, each box edge within 1 px, scores within 0.01,
/// the same category indices, names and display names — and records the largest differences seen.
struct DetectionComparison: CustomStringConvertible {
    static let boxTolerance = 1.0
    static let scoreTolerance: Float = 0.01

    /// The largest score difference accepted (the raw-output references ask for 1e-5).
    var maxScoreDifference: Float = Self.scoreTolerance
    private(set) var failures: [String] = []
    private(set) var detectionCount = 0
    private(set) var worstBox = 0.0
    private(set) var worstScore: Float = 0

    /// Compares `ours` with MediaPipe's `expected` detections; `label` names the case in failures.
    mutating func compare(_ ours: [Detection], _ expected: [ReferenceDetection], label: String) {
        guard ours.count == expected.count else {
            failures.append("\(label): \(ours.count) detections, MediaPipe \(expected.count): ours \(summary(ours))")
            return
        }
        for (position, (detection, reference)) in zip(ours, expected).enumerated() {
            let place = "\(label) detection \(position)"
            detectionCount += 1
            let box = detection.boundingBox
            let theirs = reference.boundingBox
            let differences = [
                abs(Double(box.minX) - Double(theirs.originX)), abs(Double(box.minY) - Double(theirs.originY)),
                abs(Double(box.width) - Double(theirs.width)), abs(Double(box.height) - Double(theirs.height)),
            ]
            let boxDifference = differences.max() ?? 0
            worstBox = max(worstBox, boxDifference)
            if boxDifference > Self.boxTolerance {
                failures.append("\(place): box \(box), MediaPipe \(theirs)")
            }
            guard detection.categories.count == reference.categories.count else {
                failures.append(
                    "\(place): \(detection.categories.count) categories, MediaPipe \(reference.categories.count)")
                continue
            }
            for (category, theirs) in zip(detection.categories, reference.categories) {
                // MediaPipe's Python API reports a missing index as None; iOS and our API as -1.
                if category.index != (theirs.index ?? -1) {
                    failures.append("\(place): index \(category.index), MediaPipe \(String(describing: theirs.index))")
                }
                if category.categoryName != theirs.categoryName || category.displayName != theirs.displayName {
                    failures.append(
                        "\(place): names \(String(describing: category.categoryName))/"
                            + "\(String(describing: category.displayName)), "
                            + "MediaPipe \(String(describing: theirs.categoryName))/"
                            + "\(String(describing: theirs.displayName))"
                    )
                }
                let scoreDifference = abs(category.score - theirs.score)
                worstScore = max(worstScore, scoreDifference)
                if !(scoreDifference <= maxScoreDifference) {
                    failures.append("\(place): score \(category.score), MediaPipe \(theirs.score)")
                }
            }
        }
    }

    var description: String {
        "\(detectionCount) detections compared, largest box difference \(worstBox) px, largest score difference "
            + "\(worstScore)"
    }

    private func summary(_ detections: [Detection]) -> String {
        detections.prefix(8).map {
            "\($0.categories.first?.categoryName ?? "?") \($0.categories.first?.score ?? 0) \($0.boundingBox)"
        }
        .joined(separator: "; ") + (detections.count > 8 ? "; …" : "")
    }
}

/// The object detector's shared test data: the SSD models, the reference images and their option sets.
enum ObjectDetectorTestData {
    static var model: String? { SharedData.path("models/ssd_mobilenet_v1.tflite") }
    static var modelWithoutMetadata: String? { SharedData.path("models/ssd_mobilenet_v1_no_metadata.tflite") }

    /// Every IMAGE-mode reference with the decoded pixels MediaPipe was fed. A debug build keeps
    /// two images (the unoptimized engine is slow); release builds check all of them.
    static func references() throws -> [(reference: ImageReference, image: MPImage)] {
        var names = References.imageNames(task: "object_detector")
        if SharedData.isDebugBuild { names = names.filter { ["astronaut", "od_test_image"].contains($0) } }
        return try names.map { name in
            guard let reference = try References.image(task: "object_detector", name: name),
                let path = SharedData.path(reference.image.decodedPng)
            else { throw TasksError.internalError("reference \(name) is incomplete") }
            return (reference, try MPImage(contentsOfFile: path))
        }
    }

    /// Detector options equal to a reference run's effective options.
    static func options(model: String, reference: ReferenceOptions, runningMode: RunningMode = .image)
        -> ObjectDetectorOptions
    {
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = model
        options.runningMode = runningMode
        options.maxResults = reference.maxResults ?? -1
        options.scoreThreshold = reference.scoreThreshold ?? 0
        options.categoryAllowlist = reference.categoryAllowlist ?? []
        options.categoryDenylist = reference.categoryDenylist ?? []
        if let locale = reference.displayNamesLocale { options.displayNamesLocale = locale }
        return options
    }
}
