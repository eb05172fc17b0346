import Foundation

/// MediaPipe 1.2.3's own outputs in ../shared/reference (schema "mediapipe-oracle/1"; see
/// ../shared/oracle/README.md), decoded for tests. Numbers are the float32 values MediaPipe
/// returned.
public enum References {
    /// The IMAGE-mode reference of `task` (`pose_landmarker_full`, `pose_landmarker_lite`,
    /// `hand_landmarker`, `object_detector`) for image `name`, or `nil` when ../shared is absent.
    public static func image(task: String, name: String) throws -> ImageReference? {
        guard let path = SharedData.path("reference/\(task)/\(name).json") else { return nil }
        return try decode(ImageReference.self, path: path)
    }

    /// An IMAGE-mode reference in the same schema stored elsewhere (a test fixture).
    public static func image(atPath path: String) throws -> ImageReference {
        try decode(ImageReference.self, path: path)
    }

    /// The names of the images that have references for `task` (empty without ../shared).
    public static func imageNames(task: String) -> [String] {
        guard let directory = SharedData.path("reference/\(task)") else { return [] }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// The VIDEO-mode reference of `task` (`pose_landmarker_full`, `hand_landmarker`) for `sequence`.
    public static func video(task: String, sequence: String) throws -> VideoReference? {
        guard let path = SharedData.path("reference/video/\(task)/\(sequence).json") else { return nil }
        return try decode(VideoReference.self, path: path)
    }

    /// A VIDEO-mode reference in the same schema stored elsewhere (a test fixture).
    public static func video(atPath path: String) throws -> VideoReference {
        try decode(VideoReference.self, path: path)
    }

    /// The error cases of `errors.json`.
    public static func errors() throws -> [String: ErrorCase]? {
        guard let path = SharedData.path("reference/errors.json") else { return nil }
        return try decode(ErrorFile.self, path: path).cases
    }

    private static func decode<T: Decodable>(_ type: T.Type, path: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(T.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

/// One IMAGE-mode reference file.
public struct ImageReference: Decodable, Sendable {
    public struct Image: Decodable, Sendable {
        public var name: String
        public var width: Int
        public var height: Int
        /// Relative to ../shared: the exact pixels MediaPipe was fed.
        public var decodedPng: String
    }
    public var task: String
    public var image: Image
    /// Results by option-set name (`default`, `ios_test_options`, …).
    public var runs: [String: Run]
}

/// One VIDEO-mode reference file.
public struct VideoReference: Decodable, Sendable {
    public struct Video: Decodable, Sendable {
        public var name: String
        /// Relative to ../shared.
        public var framesPngDir: String
        public var numFrames: Int
        public var width: Int
        public var height: Int
    }
    public struct FrameRun: Decodable, Sendable {
        public var options: ReferenceOptions
        public var frames: [Frame]
    }
    public struct Frame: Decodable, Sendable {
        public var frameIndex: Int
        public var timestampMs: Int
        public var numPoses: Int?
        public var poseLandmarks: [[ReferenceLandmark]]?
        public var poseWorldLandmarks: [[ReferenceLandmark]]?
        public var segmentationMasks: [ReferenceMask]?
        public var numHands: Int?
        public var handedness: [[ReferenceCategory]]?
        public var handLandmarks: [[ReferenceLandmark]]?
        public var handWorldLandmarks: [[ReferenceLandmark]]?
        public var numDetections: Int?
        public var detections: [ReferenceDetection]?
    }
    public var task: String
    public var video: Video
    public var runs: [String: FrameRun]
}

/// One option set and its result.
public struct Run: Decodable, Sendable {
    public var options: ReferenceOptions
    public var result: ReferenceResult
}

/// The effective options as MediaPipe's Python API reported them.
public struct ReferenceOptions: Decodable, Sendable {
    public var runningMode: String?
    public var numPoses: Int?
    public var minPoseDetectionConfidence: Float?
    public var minPosePresenceConfidence: Float?
    public var minTrackingConfidence: Float?
    public var outputSegmentationMasks: Bool?
    public var numHands: Int?
    public var minHandDetectionConfidence: Float?
    public var minHandPresenceConfidence: Float?
    public var maxResults: Int?
    public var scoreThreshold: Float?
    public var categoryAllowlist: [String]?
    public var categoryDenylist: [String]?
    public var displayNamesLocale: String?
    public var minDetectionConfidence: Float?
    public var minSuppressionThreshold: Float?
}

/// The result fields of any task (only the task's own fields are present).
public struct ReferenceResult: Decodable, Sendable {
    public var numPoses: Int?
    public var poseLandmarks: [[ReferenceLandmark]]?
    public var poseWorldLandmarks: [[ReferenceLandmark]]?
    public var segmentationMasks: [ReferenceMask]?
    public var numHands: Int?
    public var handedness: [[ReferenceCategory]]?
    public var handLandmarks: [[ReferenceLandmark]]?
    public var handWorldLandmarks: [[ReferenceLandmark]]?
    public var numDetections: Int?
    public var detections: [ReferenceDetection]?
}

public struct ReferenceLandmark: Decodable, Sendable {
    public var x: Float
    public var y: Float
    public var z: Float
    public var visibility: Float?
    public var presence: Float?
}

/// A summary of a segmentation mask at input-image resolution.
public struct ReferenceMask: Decodable, Sendable {
    public var shape: [Int]
    public var mean: Float
    public var min: Float
    public var max: Float
    /// `cv2.resize(mask, (16, 16), interpolation=INTER_AREA)`, `[row][column]`.
    public var downsampled16x16: [[Float]]

    enum CodingKeys: String, CodingKey {
        case shape, mean, min, max
        case downsampled16x16 = "downsampled16X16"  // how convertFromSnakeCase spells "downsampled_16x16"
    }
}

public struct ReferenceCategory: Decodable, Sendable {
    public var index: Int?
    public var score: Float
    public var categoryName: String?
    public var displayName: String?
}

public struct ReferenceDetection: Decodable, Sendable {
    public struct Box: Decodable, Sendable {
        public var originX: Int
        public var originY: Int
        public var width: Int
        public var height: Int
    }
    public struct Keypoint: Decodable, Sendable {
        public var x: Float
        public var y: Float
        public var label: String?
        public var score: Float?
    }
    public var categories: [ReferenceCategory]
    public var boundingBox: Box
    public var keypoints: [Keypoint]?
}

/// One case of errors.json.
public struct ErrorCase: Decodable, Sendable {
    public struct Attempt: Decodable, Sendable {
        public var call: String?
        public var raised: Bool?
        public var exception: String?
        public var message: String?
        public var abslStatus: String?
    }
    public var call: String?
    public var raised: Bool?
    public var exception: String?
    public var message: String?
    public var abslStatus: String?
    public var instanceUsableAfterwards: Bool?
    /// Timestamp cases: whether the task accepted a later frame (at 133 ms) after the errors.
    public var instanceUsableAfterwardsWithTs133: Bool?
    public var equalTimestamp: Attempt?
    public var smallerTimestamp: Attempt?
    /// Cases MediaPipe accepts: what the task found on errors.json's `image_used`.
    public var resultOnImageUsed: ResultSummary?

    /// The size of an accepted case's result.
    public struct ResultSummary: Decodable, Sendable {
        public var numFaces: Int?
    }
}

private struct ErrorFile: Decodable {
    var cases: [String: ErrorCase]
}
