import Foundation
import Imaging
import ModelFile

/// The face landmarker's per-frame work, as MediaPipe's C++ graph runs it
/// (mediapipe/tasks/cc/vision/face_landmarker/face_landmarker_graph.cc; ../shared/spec/PIPELINES.md §8):
/// the face detector when needed, the face regions (tracked ones first in video mode), the
/// landmark model on each region with its presence score, one-euro smoothing of a single face,
/// and optionally the blendshapes model and the facial transformation matrix.
///
/// Regions and landmarks live in the upright image; the blendshapes and the geometry read the
/// stored image's size, as MediaPipe's graph does.
struct FaceLandmarkerProcessor: FrameProcessor {
    /// The thresholds, counts and outputs the pipeline uses.
    struct Settings: Sendable {
        var numFaces = 1
        var minFaceDetectionConfidence: Float = 0.5
        var minFacePresenceConfidence: Float = 0.5
        var minTrackingConfidence: Float = 0.5
        var outputsBlendshapes = false
        var outputsMatrices = false
    }

    /// One frame's faces, in region order.
    struct FrameOutputs {
        var landmarks: [[NormalizedLandmark]]
        /// 52 scores per face when asked for.
        var blendshapes: [[Float]]?
        /// A 4×4 matrix (rows) per face when asked for; `nil` for a face whose landmarks
        /// collapse to a point.
        var matrices: [[[Double]]?]?
    }

    /// The bundle members (../shared/spec/PIPELINES.md §8.1).
    static let detectorMember = "face_detector.tflite"
    static let landmarksMember = "face_landmarks_detector.tflite"
    static let blendshapesMember = "face_blendshapes.tflite"
    static let geometryMember = "geometry_pipeline_metadata_landmarks.binarypb"
    static let landmarkCount = 478

    /// EXPANDED_FACE_RECTS: rotation from keypoint 0 to 1 (the eyes), ×1.5, not squared (§7.6).
    static let detectionRotation = RotationVector(start: 0, end: 1, targetAngle: 0)
    static let detectionExpansion = RectTransformation(scaleX: 1.5, scaleY: 1.5)
    /// The next frame's region: rotation from landmark 33 to 263, ×1.5, square (§8.4).
    static let trackingRotation = RotationVector(start: 33, end: 263, targetAngle: 0)
    static let trackingExpansion = RectTransformation(scaleX: 1.5, scaleY: 1.5, squareLong: true)

    private let detector: FaceDetectorProcessor
    private let landmarker: TaskModel
    private let blendshapes: FaceBlendshapesModel?
    private let geometry: FaceGeometryPipeline?
    let settings: Settings
    /// The regions carried from frame to frame; `nil` in image mode.
    private var tracker: RegionTracker?
    private var smoother = LandmarksSmoother(parameters: .poseNormalized)

    /// Loads the bundle named by `options` for the options' thresholds, outputs and running mode
    /// (the options themselves are checked by ``FaceLandmarker``). Video and live-stream mode
    /// track faces from frame to frame, as MediaPipe's C++ graph does (its iOS wrapper never
    /// asks for that; docs/DIFFERENCES.md).
    init(options: FaceLandmarkerOptions) throws(TasksError) {
        let settings = Settings(
            numFaces: options.numFaces, minFaceDetectionConfidence: options.minFaceDetectionConfidence,
            minFacePresenceConfidence: options.minFacePresenceConfidence,
            minTrackingConfidence: options.minTrackingConfidence, outputsBlendshapes: options.outputFaceBlendshapes,
            outputsMatrices: options.outputFacialTransformationMatrixes)
        try self.init(
            bundle: TaskModel.bundle(options.baseOptions), settings: settings, tracks: options.runningMode != .image,
            threadCount: options.baseOptions.threadCount)
    }

    init(bundle: ModelAssetBundle, settings: Settings, tracks: Bool, threadCount: Int?) throws(TasksError) {
        detector = try FaceDetectorProcessor(
            model: TaskModel.member(Self.detectorMember, of: bundle), minScore: settings.minFaceDetectionConfidence,
            suppressionThreshold: 0.5, threadCount: threadCount)
        landmarker = try TaskModel(
            model: TaskModel.member(Self.landmarksMember, of: bundle), name: Self.landmarksMember,
            threadCount: threadCount)
        guard landmarker.outputCount >= 2,
            try landmarker.outputShape(0).reduce(1, *) == Self.landmarkCount * 3
        else {
            throw .unsupportedModel("\(Self.landmarksMember): expected 478 × 3 landmark values and a presence score")
        }
        if settings.outputsBlendshapes {
            // face_landmarker_graph.cc refuses the BLENDSHAPES output without the model
            // (INVALID_ARGUMENT); the member's name is added.
            guard bundle.memberNames.contains(Self.blendshapesMember) else {
                throw .invalidOption(
                    option: "outputFaceBlendshapes",
                    message: "BLENDSHAPES Tag and blendshapes model must be both set. Get BLENDSHAPES is set: true, "
                        + "blendshapes model is set: false (the bundle has no \(Self.blendshapesMember); its members "
                        + "are \(bundle.memberNames.joined(separator: ", "))).")
            }
            blendshapes = try FaceBlendshapesModel(
                model: TaskModel.member(Self.blendshapesMember, of: bundle), threadCount: threadCount)
        } else {
            blendshapes = nil
        }
        if settings.outputsMatrices {
            do {
                let bytes = try bundle.data(named: Self.geometryMember)
                geometry = FaceGeometryPipeline(metadata: try GeometryPipelineMetadata(bytes: bytes))
            } catch {
                throw TasksError.wrapping(error)
            }
        } else {
            geometry = nil
        }
        self.settings = settings
        tracker = tracks ? RegionTracker(maxCount: settings.numFaces) : nil
    }

    mutating func process(_ image: MPImage, timestampInMilliseconds: Int) throws(TasksError) -> FaceLandmarkerResult {
        let output = try run(image, timestampInMilliseconds: timestampInMilliseconds)
        // MediaPipe's result: blendshapes as one unnamed head (headName "", displayName nil);
        // the matrices as column-major floats, degenerate faces skipped
        // (MPPFaceLandmarkerResult+Helpers.mm).
        let blendshapes = (output.blendshapes ?? []).map { scores in
            Classifications(
                headIndex: 0, headName: "",
                categories: zip(scores.indices, scores).map { index, score in
                    ResultCategory(
                        index: index, score: score, categoryName: FaceBlendshapesModel.names[index], displayName: nil)
                })
        }
        let matrices = (output.matrices ?? []).compactMap { rows -> TransformMatrix? in
            guard let rows else { return nil }
            let values = (0..<16).map { Float(rows[$0 % 4][$0 / 4]) }
            return TransformMatrix(columnMajorValues: values, rows: 4, columns: 4)
        }
        return FaceLandmarkerResult(
            faceLandmarks: output.landmarks, faceBlendshapes: blendshapes, facialTransformationMatrixes: matrices,
            timestampInMilliseconds: timestampInMilliseconds)
    }

    /// One frame through the pipeline, with the model outputs as the graph holds them.
    mutating func run(_ image: MPImage, timestampInMilliseconds: Int) throws(TasksError) -> FrameOutputs {
        let upright = image.uprightSize
        let imageSize = ImageSize(width: upright.width, height: upright.height)
        var detected: [NormalizedRect]?
        if tracker?.needsDetection ?? true {
            let faces = Array(try detector.detections(image).prefix(max(settings.numFaces, 0)))
            detected = try DetectionToRect.rects(
                for: faces, rotation: Self.detectionRotation, imageSize: imageSize, zeroRectWhenEmpty: false
            ).map { Self.detectionExpansion.apply(to: $0, imageSize: imageSize) }
        }
        let regions: [NormalizedRect]
        if let tracked = tracker?.previous {
            regions = RegionTracker.clip(
                RectAssociation.keepingTracked(
                    tracked, detected: detected ?? [], threshold: settings.minTrackingConfidence),
                to: settings.numFaces)
        } else {
            regions = RegionTracker.clip(detected ?? [], to: settings.numFaces)
        }

        var faces: [[NormalizedLandmark]] = []
        var next: [NormalizedRect] = []
        for region in regions {
            guard let landmarks = try landmarks(image, region: region) else { continue }
            faces.append(landmarks)
            let detection = LandmarksToDetection.detection(from: landmarks)
            let rect = try DetectionToRect.rect(for: detection, rotation: Self.trackingRotation, imageSize: imageSize)
            next.append(Self.trackingExpansion.apply(to: rect, imageSize: imageSize))
        }
        tracker?.update(nextRegions: next)

        // One face in video mode: one-euro smoothing of the results; the next frame's regions
        // come from the raw landmarks (§8.5).
        if tracker != nil && settings.numFaces == 1 {
            if let face = faces.first {
                faces[0] = smoother.smooth(
                    face, imageSize: imageSize, objectScaleROI: nil,
                    timestampInMicroseconds: Int64(timestampInMilliseconds) * 1000)
            } else {
                smoother.reset()
            }
        }

        // Blendshapes and geometry read the stored image's size (§8.6, §8.7).
        let width = image.bitmap.width
        let height = image.bitmap.height
        let points = faces.map { $0.map { SIMD3($0.x, $0.y, $0.z) } }
        var scores: [[Float]]?
        if let blendshapes {
            scores = []
            for face in points { scores?.append(try blendshapes.scores(landmarks: face, width: width, height: height)) }
        }
        var matrices: [[[Double]]?]?
        if let geometry {
            matrices = []
            for face in points {
                matrices?.append(try geometry.transformationMatrix(landmarks: face, width: width, height: height))
            }
        }
        return FrameOutputs(landmarks: faces, blendshapes: scores, matrices: matrices)
    }

    /// The landmark model on one region; `nil` when the face's presence is not above the
    /// threshold (§8.3).
    private func landmarks(
        _ image: MPImage, region: NormalizedRect
    ) throws(TasksError) -> [NormalizedLandmark]? {
        // keep_aspect_ratio = false: a non-square region is stretched; BORDER_REPLICATE.
        let geometry = try landmarker.setInput(image, region: region, keepAspectRatio: false, border: .replicate)
        try landmarker.invoke()
        let logit = try landmarker.withOutput(1) { $0.first ?? -.infinity }
        guard sigmoid(logit) > settings.minFacePresenceConfidence else { return nil }
        let width = Float(landmarker.inputWidth)
        let height = Float(landmarker.inputHeight)
        // LandmarkProjectionCalculator with IMAGE_DIMENSIONS: the crop's matrix (the one
        // ImageToTensor builds, GetRotatedSubRectToRectTransformMatrix) applied to (x, y, z) in
        // float, left to right; z scaled by the length of the projected unit x segment, its squares
        // summed in double (std::pow promotes) (landmark_projection_calculator.cc).
        let m = geometry.matrix.values
        func project(_ x: Float, _ y: Float, _ z: Float) -> (Float, Float) {
            (x * m[0] + y * m[1] + z * m[2] + m[3], x * m[4] + y * m[5] + z * m[6] + m[7])
        }
        let origin = project(0, 0, 0)
        let unit = project(1, 0, 0)
        let dx = Double(unit.0 - origin.0)
        let dy = Double(unit.1 - origin.1)
        let zScale = Float((dx * dx + dy * dy).squareRoot())
        return try landmarker.withOutput(0) { values in
            (0..<Self.landmarkCount).map { index in
                let x = values[3 * index] / width
                let y = values[3 * index + 1] / height
                let z = values[3 * index + 2] / width
                let (projectedX, projectedY) = project(x, y, z)
                return NormalizedLandmark(x: projectedX, y: projectedY, z: zScale * z)
            }
        }
    }
}
