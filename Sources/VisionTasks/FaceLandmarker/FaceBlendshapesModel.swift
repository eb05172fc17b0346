import Inference
import ModelFile

/// The face landmarker's blendshapes model (mediapipe/tasks/cc/vision/face_landmarker/
/// face_blendshapes_graph.cc; ../shared/spec/PIPELINES.md §8.6): 146 of the 478 landmarks, as
/// (x·W, y·H) in pixels of the stored image, in, 52 scores out — already in (0, 1), as the model
/// ends in a sigmoid — in the order of ``names``.
final class FaceBlendshapesModel {
    /// The landmarks the model reads, in its input order (`kLandmarksSubsetIdxs`).
    static let landmarkIndices: [Int] = [
        0, 1, 4, 5, 6, 7, 8, 10, 13, 14, 17, 21, 33, 37, 39, 40, 46, 52, 53, 54, 55, 58, 61, 63, 65, 66, 67, 70, 78,
        80, 81, 82, 84, 87, 88, 91, 93, 95, 103, 105, 107, 109, 127, 132, 133, 136, 144, 145, 146, 148, 149, 150,
        152, 153, 154, 155, 157, 158, 159, 160, 161, 162, 163, 168, 172, 173, 176, 178, 181, 185, 191, 195, 197,
        234, 246, 249, 251, 263, 267, 269, 270, 276, 282, 283, 284, 285, 288, 291, 293, 295, 296, 297, 300, 308,
        310, 311, 312, 314, 317, 318, 321, 323, 324, 332, 334, 336, 338, 356, 361, 362, 365, 373, 374, 375, 377,
        378, 379, 380, 381, 382, 384, 385, 386, 387, 388, 389, 390, 397, 398, 400, 402, 405, 409, 415, 454, 466,
        468, 469, 470, 471, 472, 473, 474, 475, 476, 477,
    ]

    /// The category names of the 52 scores (`kBlendshapeNames`).
    static let names: [String] = [
        "_neutral", "browDownLeft", "browDownRight", "browInnerUp", "browOuterUpLeft", "browOuterUpRight",
        "cheekPuff", "cheekSquintLeft", "cheekSquintRight", "eyeBlinkLeft", "eyeBlinkRight", "eyeLookDownLeft",
        "eyeLookDownRight", "eyeLookInLeft", "eyeLookInRight", "eyeLookOutLeft", "eyeLookOutRight", "eyeLookUpLeft",
        "eyeLookUpRight", "eyeSquintLeft", "eyeSquintRight", "eyeWideLeft", "eyeWideRight", "jawForward", "jawLeft",
        "jawOpen", "jawRight", "mouthClose", "mouthDimpleLeft", "mouthDimpleRight", "mouthFrownLeft",
        "mouthFrownRight", "mouthFunnel", "mouthLeft", "mouthLowerDownLeft", "mouthLowerDownRight", "mouthPressLeft",
        "mouthPressRight", "mouthPucker", "mouthRight", "mouthRollLower", "mouthRollUpper", "mouthShrugLower",
        "mouthShrugUpper", "mouthSmileLeft", "mouthSmileRight", "mouthStretchLeft", "mouthStretchRight",
        "mouthUpperUpLeft", "mouthUpperUpRight", "noseSneerLeft", "noseSneerRight",
    ]

    private let interpreter: Interpreter

    /// Prepares the model.
    ///
    /// - Throws: ``TasksError`` when its input is not `[1, 146, 2]` or its output not 52 values.
    init(model: TFLiteModel, threadCount: Int?) throws(TasksError) {
        do {
            let options = InterpreterOptions()
            if let threadCount { options.threadCount = threadCount }
            interpreter = try Interpreter(model: model, options: options)
            let input = try interpreter.inputShape(0)
            let output = try interpreter.outputShape(0)
            guard input == [1, Self.landmarkIndices.count, 2], output.reduce(1, *) == Self.names.count else {
                throw TasksError.unsupportedModel(
                    "face blendshapes: expected input [1, 146, 2] and 52 outputs, the model has \(input) and \(output)")
            }
        } catch {
            throw TasksError.wrapping(error)
        }
    }

    /// The 52 scores for `landmarks` (normalized, at least 478) of an image `width × height`.
    func scores(landmarks: [SIMD3<Float>], width: Int, height: Int) throws(TasksError) -> [Float] {
        guard landmarks.count > Self.landmarkIndices.last ?? 0 else {
            throw .internalError("face blendshapes: \(landmarks.count) landmarks, 478 needed")
        }
        do {
            try interpreter.withInputBuffer(0) { input in
                for (position, index) in Self.landmarkIndices.enumerated() {
                    input[2 * position] = landmarks[index].x * Float(width)
                    input[2 * position + 1] = landmarks[index].y * Float(height)
                }
            }
            try interpreter.invoke()
            return try interpreter.withOutputBuffer(0) { Array($0.prefix(Self.names.count)) }
        } catch {
            throw TasksError.wrapping(error)
        }
    }
}
