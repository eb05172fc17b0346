import Foundation
import TestSupport

@testable import VisionTasks

/// The quantities compared between a pose result and MediaPipe's.
enum PoseQuantity: Int, CaseIterable, CustomStringConvertible {
    case xy, z, world, visibility, presence, maskMean

    var description: String { ["xy", "z", "world", "visibility", "presence", "mask mean"][rawValue] }
}

/// Tolerances per quantity.
struct PoseTolerance {
    var values: [Float]

    /// The IMAGE-mode tolerances: landmarks 2e-3 in x and y, 5e-3 in z; world
    /// landmarks 5e-3; visibility and presence 1e-2; mask mean 1e-2.
    static let image = PoseTolerance(values: [2e-3, 5e-3, 5e-3, 1e-2, 1e-2, 1e-2])
    /// VIDEO mode: every frame within 5e-3 (x, y, z, world); visibility, presence and masks as
    /// in IMAGE mode.
    static let video = PoseTolerance(values: [5e-3, 5e-3, 5e-3, 1e-2, 1e-2, 1e-2])

    subscript(_ quantity: PoseQuantity) -> Float { values[quantity.rawValue] }
}

/// The comparison of pose results with MediaPipe's, value by value: every landmark's x and y,
/// z, world landmark, visibility and presence, and every mask's mean, each held to the plain
/// tolerance of its quantity. The worst deviation per quantity is kept for the report, and
/// masks are also compared on a 16×16 grid of cell means.
struct PoseComparison: CustomStringConvertible {
    let tolerance: PoseTolerance
    /// Worst deviation per quantity.
    private(set) var worst = [Float](repeating: 0, count: PoseQuantity.allCases.count)
    private(set) var valueCount = 0
    /// The largest difference of a 16×16 cell mean of a mask (OpenCV `INTER_AREA`).
    private(set) var worstMaskCell: Float = 0
    /// Values outside their tolerance, described.
    private(set) var failures: [String] = []

    init(tolerance: PoseTolerance) {
        self.tolerance = tolerance
    }

    /// Compares `result` with MediaPipe's poses, pose by pose in order (the pose counts must
    /// already agree).
    mutating func compare(
        _ result: PoseLandmarkerResult, landmarks: [[ReferenceLandmark]], world: [[ReferenceLandmark]],
        masks: [ReferenceMask]?, label: String
    ) {
        for pose in 0..<min(result.landmarks.count, landmarks.count) {
            for index in 0..<min(result.landmarks[pose].count, landmarks[pose].count) {
                let ours = result.landmarks[pose][index]
                let theirs = landmarks[pose][index]
                check(max(abs(ours.x - theirs.x), abs(ours.y - theirs.y)), .xy, pose, index, label)
                check(abs(ours.z - theirs.z), .z, pose, index, label)
                check(Self.difference(ours.visibility, theirs.visibility), .visibility, pose, index, label)
                check(Self.difference(ours.presence, theirs.presence), .presence, pose, index, label)
                if pose < world.count, pose < result.worldLandmarks.count, index < world[pose].count,
                    index < result.worldLandmarks[pose].count
                {
                    let ours = result.worldLandmarks[pose][index]
                    let theirs = world[pose][index]
                    check(
                        max(abs(ours.x - theirs.x), abs(ours.y - theirs.y), abs(ours.z - theirs.z)), .world, pose,
                        index,
                        label)
                    check(Self.difference(ours.visibility, theirs.visibility), .visibility, pose, index, label)
                    check(Self.difference(ours.presence, theirs.presence), .presence, pose, index, label)
                }
            }
            if let masks, pose < masks.count, pose < result.segmentationMasks.count {
                check(abs(Self.mean(result.segmentationMasks[pose]) - masks[pose].mean), .maskMean, pose, 0, label)
                let cells = Self.cellMeans(result.segmentationMasks[pose])
                for (row, expected) in masks[pose].downsampled16x16.enumerated() {
                    for (column, value) in expected.enumerated() where row < 16 && column < 16 {
                        worstMaskCell = max(worstMaskCell, abs(cells[row * 16 + column] - value))
                    }
                }
            }
        }
    }

    private mutating func check(
        _ deviation: Float, _ quantity: PoseQuantity, _ pose: Int, _ landmark: Int, _ label: String
    ) {
        valueCount += 1
        worst[quantity.rawValue] = max(worst[quantity.rawValue], deviation)
        if !(deviation <= tolerance[quantity]) {
            failures.append(
                "\(label): pose \(pose) landmark \(landmark) \(quantity) off by \(deviation) (tolerance "
                    + "\(tolerance[quantity]))"
            )
        }
    }

    var description: String {
        let worst = PoseQuantity.allCases.map { String(format: "%@ %.2g", $0.description, self.worst[$0.rawValue]) }
        return "\(valueCount) values, largest differences: " + worst.joined(separator: ", ")
            + String(format: "; mask 16×16 cells within %.2g", worstMaskCell)
    }

    /// A missing value on one side only counts as infinitely far.
    private static func difference(_ value: Float?, _ expected: Float?) -> Float {
        switch (value, expected) {
        case (nil, nil): return 0
        case (let value?, let expected?): return abs(value - expected)
        default: return .infinity
        }
    }

    /// The mask averaged over a 16×16 grid of cells with fractional pixel coverage (what
    /// `cv2.resize(…, (16, 16), interpolation=INTER_AREA)` computes), row-major.
    static func cellMeans(_ mask: Mask) -> [Float] {
        mask.withUnsafeFloat32Buffer { values in
            let width = Double(mask.width)
            let height = Double(mask.height)
            func coverage(_ cell: Int, _ size: Double) -> [(Int, Double)] {
                let start = Double(cell) * size / 16
                let end = Double(cell + 1) * size / 16
                var pixels: [(Int, Double)] = []
                var pixel = Int(start.rounded(.down))
                while Double(pixel) < end {
                    let weight = min(end, Double(pixel + 1)) - max(start, Double(pixel))
                    if weight > 0 { pixels.append((pixel, weight)) }
                    pixel += 1
                }
                return pixels
            }
            var cells = [Float](repeating: 0, count: 256)
            for row in 0..<16 {
                let rows = coverage(row, height)
                for column in 0..<16 {
                    let columns = coverage(column, width)
                    var sum = 0.0
                    var area = 0.0
                    for (y, wy) in rows {
                        for (x, wx) in columns {
                            sum += Double(values[y * mask.width + x]) * wx * wy
                            area += wx * wy
                        }
                    }
                    cells[row * 16 + column] = Float(sum / area)
                }
            }
            return cells
        }
    }

    static func mean(_ mask: Mask) -> Float {
        mask.withUnsafeFloat32Buffer { values in
            Float(values.reduce(0.0) { $0 + Double($1) } / Double(max(values.count, 1)))
        }
    }
}

/// A processor with `options`: what ``PoseLandmarker`` runs inside its task runner, driven
/// directly so that tests also see the landmark model's per-pose outputs.
func poseProcessor(_ options: PoseLandmarkerOptions) throws -> PoseLandmarkerProcessor {
    let models = try PoseLandmarkerModels(
        bundle: try TaskModel.bundle(options.baseOptions), threadCount: options.baseOptions.threadCount,
        segmentationMasks: options.shouldOutputSegmentationMasks)
    return try PoseLandmarkerProcessor(models: models, settings: .init(options))
}

/// Pose landmarker options from a reference's option set.
func poseOptions(model: String, reference options: ReferenceOptions, runningMode: RunningMode = .image)
    -> PoseLandmarkerOptions
{
    let result = PoseLandmarkerOptions()
    result.baseOptions.modelAssetPath = model
    result.runningMode = runningMode
    result.numPoses = options.numPoses ?? 1
    result.minPoseDetectionConfidence = options.minPoseDetectionConfidence ?? 0.5
    result.minPosePresenceConfidence = options.minPosePresenceConfidence ?? 0.5
    result.minTrackingConfidence = options.minTrackingConfidence ?? 0.5
    result.shouldOutputSegmentationMasks = options.outputSegmentationMasks ?? false
    return result
}
