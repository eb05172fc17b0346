import TestSupport

@testable import VisionTasks

/// The largest differences between a ``HandLandmarkerResult`` and MediaPipe's reference, over
/// every hand and landmark compared, and whether the hand counts and sides agree.
struct HandResultComparison: CustomStringConvertible {
    /// The issue's tolerances: landmarks 2e-3 in x and y, 5e-3 in z; world landmarks 5e-3;
    /// handedness score 1e-2.
    static let landmarkXY: Float = 2e-3
    static let landmarkZ: Float = 5e-3
    static let world: Float = 5e-3
    static let handednessScore: Float = 1e-2

    var handCountsMatch = true
    var handednessLabelsMatch = true
    var hands = 0
    var maxXY: Float = 0
    var maxZ: Float = 0
    var maxWorld: Float = 0
    var maxHandednessScore: Float = 0
    /// Where the first mismatch happened, for messages.
    var firstMismatch: String?

    var withinTolerance: Bool {
        handCountsMatch && handednessLabelsMatch && maxXY <= Self.landmarkXY && maxZ <= Self.landmarkZ
            && maxWorld <= Self.world && maxHandednessScore <= Self.handednessScore
    }

    var description: String {
        "\(hands) hand(s), max |Δxy| \(maxXY), |Δz| \(maxZ), |Δworld| \(maxWorld), |Δscore| \(maxHandednessScore)"
            + (firstMismatch.map { "; mismatch: \($0)" } ?? "")
    }

    /// Adds one image or frame to the comparison.
    mutating func add(
        _ result: HandLandmarkerResult, landmarks: [[ReferenceLandmark]], world: [[ReferenceLandmark]],
        handedness: [[ReferenceCategory]], label: String
    ) {
        guard result.landmarks.count == landmarks.count, result.worldLandmarks.count == world.count,
            result.handedness.count == handedness.count
        else {
            handCountsMatch = false
            firstMismatch = firstMismatch ?? "\(label): \(result.landmarks.count) hands, MediaPipe \(landmarks.count)"
            return
        }
        for hand in landmarks.indices {
            hands += 1
            let ours = result.landmarks[hand]
            let theirs = landmarks[hand]
            guard ours.count == theirs.count, result.worldLandmarks[hand].count == world[hand].count else {
                handCountsMatch = false
                firstMismatch = firstMismatch ?? "\(label): landmark count differs"
                continue
            }
            for (a, b) in zip(ours, theirs) {
                maxXY = max(maxXY, abs(a.x - b.x), abs(a.y - b.y))
                maxZ = max(maxZ, abs(a.z - b.z))
            }
            for (a, b) in zip(result.worldLandmarks[hand], world[hand]) {
                maxWorld = max(maxWorld, abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
            }
            guard let category = result.handedness[hand].first, let expected = handedness[hand].first,
                result.handedness[hand].count == 1
            else {
                handednessLabelsMatch = false
                continue
            }
            if category.categoryName != expected.categoryName || category.displayName != expected.displayName
                || category.index != expected.index
            {
                handednessLabelsMatch = false
                firstMismatch =
                    firstMismatch
                    ?? "\(label): hand \(hand) is \(category.categoryName ?? "-"), MediaPipe "
                    + "\(expected.categoryName ?? "-")"
            }
            maxHandednessScore = max(maxHandednessScore, abs(category.score - expected.score))
        }
    }

    /// Adds an IMAGE-mode reference result.
    mutating func add(_ result: HandLandmarkerResult, reference: ReferenceResult, label: String) {
        add(
            result, landmarks: reference.handLandmarks ?? [], world: reference.handWorldLandmarks ?? [],
            handedness: reference.handedness ?? [], label: label)
    }

    /// Adds a VIDEO-mode reference frame.
    mutating func add(_ result: HandLandmarkerResult, reference: VideoReference.Frame, label: String) {
        add(
            result, landmarks: reference.handLandmarks ?? [], world: reference.handWorldLandmarks ?? [],
            handedness: reference.handedness ?? [], label: label)
    }

    /// Merges another comparison into this one.
    mutating func merge(_ other: HandResultComparison) {
        handCountsMatch = handCountsMatch && other.handCountsMatch
        handednessLabelsMatch = handednessLabelsMatch && other.handednessLabelsMatch
        hands += other.hands
        maxXY = max(maxXY, other.maxXY)
        maxZ = max(maxZ, other.maxZ)
        maxWorld = max(maxWorld, other.maxWorld)
        maxHandednessScore = max(maxHandednessScore, other.maxHandednessScore)
        firstMismatch = firstMismatch ?? other.firstMismatch
    }
}

extension ReferenceOptions {
    /// These options as ``HandLandmarkerOptions`` for the bundle at `modelPath`.
    func handLandmarkerOptions(modelPath: String, runningMode: RunningMode) -> HandLandmarkerOptions {
        let options = HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = modelPath
        options.runningMode = runningMode
        if let numHands { options.numHands = numHands }
        if let minHandDetectionConfidence { options.minHandDetectionConfidence = minHandDetectionConfidence }
        if let minHandPresenceConfidence { options.minHandPresenceConfidence = minHandPresenceConfidence }
        if let minTrackingConfidence { options.minTrackingConfidence = minTrackingConfidence }
        return options
    }
}
