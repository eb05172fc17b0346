import Foundation
import TestSupport
@testable import VisionTasks

/// The quantities compared between a pose result and MediaPipe's, in the order of
/// ``PoseReferenceNoise`` records.
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

/// MediaPipe's own spread for one case: how far its result moves when one input pixel changes
/// by one bit (scripts/reference/pose_reference_noise.py).
struct PoseReferenceSpread {
    /// Whether the pose count stayed the same under every change.
    var countIsStable: Bool
    var poseCount: Int
    /// Per pose: 33 landmarks × (xy, z, world, visibility, presence), then the mask mean.
    private var values: [[Float]]

    init?(key: String) {
        guard let encoded = PoseReferenceNoise.records[key], let data = Data(base64Encoded: encoded) else { return nil }
        let floats = data.withUnsafeBytes { raw in (0..<(data.count / 4)).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self) } }
        guard floats.count >= 2 else { return nil }
        countIsStable = floats[0] == 1
        poseCount = Int(floats[1])
        let stride = 33 * 5 + 1
        values = (0..<poseCount).map { pose in Array(floats[(2 + pose * stride)..<(2 + (pose + 1) * stride)]) }
        guard floats.count == 2 + poseCount * stride else { return nil }
    }

    func spread(pose: Int, landmark: Int, _ quantity: PoseQuantity) -> Float {
        quantity == .maskMean ? values[pose][33 * 5] : values[pose][landmark * 5 + quantity.rawValue]
    }
}

/// The comparison of a pose result with MediaPipe's, value by value.
///
/// Each value must be within `max(tolerance, 2 × spread)`, where the spread is how far
/// MediaPipe's own value moves under one-bit input changes: where MediaPipe is reproducible
/// (spread ≤ tolerance / 2) that is the tolerance itself; where it is not, no implementation
/// that differs from XNNPACK in the last bits can be held closer than MediaPipe is to itself.
/// The worst deviations of the values held to the plain tolerance are recorded separately.
///
/// A landmark whose heatmap refinement was a tie (its window's best confidence within
/// ``tieMargin`` of the 0.5 threshold) is exempt in x and y: numbers that differ from
/// MediaPipe's in the last bits may decide the other way, which moves it by up to ~0.1.
struct PoseComparison: CustomStringConvertible {
    /// How close to the refinement threshold a confidence counts as a tie: about four times
    /// the largest difference measured between this engine's and XNNPACK's confidences on the
    /// same image (2.2e-4).
    static let tieMargin: Float = 1e-3
    let tolerance: PoseTolerance
    /// Worst deviation per quantity among values where MediaPipe is reproducible.
    private(set) var worstStrict = [Float](repeating: 0, count: PoseQuantity.allCases.count)
    /// Worst deviation per quantity over all values.
    private(set) var worstAll = [Float](repeating: 0, count: PoseQuantity.allCases.count)
    private(set) var strictCount = 0
    private(set) var widenedCount = 0
    /// Landmarks exempted as refinement ties, described.
    private(set) var ties: [String] = []
    /// The largest difference of a 16×16 cell mean of a mask (OpenCV `INTER_AREA`), reported.
    private(set) var worstMaskCell: Float = 0
    /// Values outside their allowance, described.
    private(set) var failures: [String] = []

    init(tolerance: PoseTolerance) {
        self.tolerance = tolerance
    }

    /// The landmarks (0…32 pose, 33…34 auxiliary) whose refinement was a tie.
    static func refinementTies(_ pose: PoseLandmarksResultForROI) -> Set<Int> {
        Set(pose.refinementConfidences.indices.filter { index in
            guard let confidence = pose.refinementConfidences[index] else { return false }
            return abs(confidence - HeatmapRefinement.poseMinConfidence) <= tieMargin
        })
    }

    /// Compares `result` with MediaPipe's `reference` poses, pose by pose in order (the pose
    /// counts must already agree). `poses` are the landmark model's per-pose outputs behind
    /// `result`; `carriedTies` are ties of pose 0 in earlier frames that smoothing carries into
    /// this one.
    mutating func compare(
        _ result: PoseLandmarkerResult, poses: [PoseLandmarksResultForROI], landmarks: [[ReferenceLandmark]],
        world: [[ReferenceLandmark]], masks: [ReferenceMask]?, spread: PoseReferenceSpread, label: String,
        carriedTies: Set<Int> = []
    ) {
        for pose in 0..<min(result.landmarks.count, landmarks.count) {
            var tied = pose < poses.count ? Self.refinementTies(poses[pose]) : []
            if pose == 0 { tied.formUnion(carriedTies) }
            for index in 0..<33 {
                let ours = result.landmarks[pose][index], theirs = landmarks[pose][index]
                let deviation = max(abs(ours.x - theirs.x), abs(ours.y - theirs.y))
                if tied.contains(index) {
                    ties.append(String(format: "%@ pose %d landmark %d (off by %.4f)", label, pose, index, deviation))
                } else {
                    check(deviation, .xy, pose, index, spread, label)
                }
                check(abs(ours.z - theirs.z), .z, pose, index, spread, label)
                check(Self.difference(ours.visibility, theirs.visibility), .visibility, pose, index, spread, label)
                check(Self.difference(ours.presence, theirs.presence), .presence, pose, index, spread, label)
                if pose < world.count, pose < result.worldLandmarks.count {
                    let ours = result.worldLandmarks[pose][index], theirs = world[pose][index]
                    check(
                        max(abs(ours.x - theirs.x), abs(ours.y - theirs.y), abs(ours.z - theirs.z)), .world, pose, index,
                        spread, label)
                    check(Self.difference(ours.visibility, theirs.visibility), .visibility, pose, index, spread, label)
                    check(Self.difference(ours.presence, theirs.presence), .presence, pose, index, spread, label)
                }
            }
            if let masks, pose < masks.count, pose < result.segmentationMasks.count {
                check(abs(Self.mean(result.segmentationMasks[pose]) - masks[pose].mean), .maskMean, pose, 0, spread, label)
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
        _ deviation: Float, _ quantity: PoseQuantity, _ pose: Int, _ landmark: Int, _ spread: PoseReferenceSpread,
        _ label: String
    ) {
        let base = tolerance[quantity]
        let noise = spread.spread(pose: pose, landmark: landmark, quantity)
        worstAll[quantity.rawValue] = max(worstAll[quantity.rawValue], deviation)
        if noise <= base / 2 {
            strictCount += 1
            worstStrict[quantity.rawValue] = max(worstStrict[quantity.rawValue], deviation)
        } else {
            widenedCount += 1
        }
        let allowed = max(base, 2 * noise)
        if !(deviation <= allowed) {
            failures.append(
                "\(label): pose \(pose) landmark \(landmark) \(quantity) off by \(deviation) "
                    + "(allowed \(allowed); MediaPipe's own spread \(noise))")
        }
    }

    var description: String {
        let strict = PoseQuantity.allCases.map { String(format: "%@ %.5f", $0.description, worstStrict[$0.rawValue]) }
        let all = PoseQuantity.allCases.map { String(format: "%.4f", worstAll[$0.rawValue]) }
        return "where MediaPipe is reproducible (\(strictCount) values): " + strict.joined(separator: ", ")
            + "; elsewhere (\(widenedCount) values) all-value maxima " + all.joined(separator: "/")
            + (worstMaskCell > 0 ? String(format: "; mask 16×16 cells within %.4f", worstMaskCell) : "")
            + (ties.isEmpty ? "" : "; refinement ties exempt in x, y: " + ties.joined(separator: ", "))
    }

    /// A missing value on one side only counts as infinitely far.
    private static func difference(_ value: Float?, _ expected: Float?) -> Float {
        switch (value, expected) {
        case (nil, nil): return 0
        case let (value?, expected?): return abs(value - expected)
        default: return .infinity
        }
    }

    /// The mask averaged over a 16×16 grid of cells with fractional pixel coverage (what
    /// `cv2.resize(…, (16, 16), interpolation=INTER_AREA)` computes), row-major.
    static func cellMeans(_ mask: Mask) -> [Float] {
        mask.withUnsafeFloat32Buffer { values in
            let width = Double(mask.width), height = Double(mask.height)
            func coverage(_ cell: Int, _ size: Double) -> [(Int, Double)] {
                let start = Double(cell) * size / 16, end = Double(cell + 1) * size / 16
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
                    var sum = 0.0, area = 0.0
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
        bundle: try TaskModel.bundle(options.baseOptions), threadCount: options.baseOptions.threadCount)
    return try PoseLandmarkerProcessor(models: models, settings: .init(options))
}

/// Pose landmarker options from a reference's option set.
func poseOptions(model: String, reference options: ReferenceOptions, runningMode: RunningMode = .image) -> PoseLandmarkerOptions {
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
