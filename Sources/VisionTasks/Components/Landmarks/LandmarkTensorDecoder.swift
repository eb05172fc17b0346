/// MediaPipe's `TensorsToLandmarksCalculator`: a flat tensor of `count × d` values becomes
/// `count` landmarks with x, y, z and, when `d` > 3 / > 4, visibility and presence
/// (mediapipe/calculators/tensor/tensors_to_landmarks_calculator.cc).
enum LandmarkTensorDecoder {
    /// What is applied to the raw visibility and presence values.
    enum Activation: Sendable {
        case none
        case sigmoid

        func callAsFunction(_ value: Float) -> Float {
            switch self {
            case .none: return value
            case .sigmoid: return VisionTasks.sigmoid(value)
            }
        }
    }

    /// Landmarks normalized by the model input size: x/W, y/H, z/W/`normalizeZ`.
    static func normalized(
        _ values: UnsafeBufferPointer<Float>, count: Int, inputWidth: Int, inputHeight: Int,
        normalizeZ: Float = 1, visibility: Activation = .none, presence: Activation = .none
    ) throws(TasksError) -> [NormalizedLandmark] {
        let dimensions = try Self.dimensions(values.count, count: count)
        let width = Float(inputWidth)
        let height = Float(inputHeight)
        var landmarks: [NormalizedLandmark] = []
        landmarks.reserveCapacity(count)
        for index in 0..<count {
            let offset = index * dimensions
            var landmark = NormalizedLandmark(
                x: values[offset] / width,
                y: dimensions > 1 ? values[offset + 1] / height : 0,
                z: dimensions > 2 ? values[offset + 2] / width / normalizeZ : 0)
            if dimensions > 3 { landmark.visibility = visibility(values[offset + 3]) }
            if dimensions > 4 { landmark.presence = presence(values[offset + 4]) }
            landmarks.append(landmark)
        }
        return landmarks
    }

    /// Landmarks as they are (world landmarks).
    static func absolute(_ values: UnsafeBufferPointer<Float>, count: Int) throws(TasksError) -> [Landmark] {
        let dimensions = try Self.dimensions(values.count, count: count)
        var landmarks: [Landmark] = []
        landmarks.reserveCapacity(count)
        for index in 0..<count {
            let offset = index * dimensions
            var landmark = Landmark(
                x: values[offset], y: dimensions > 1 ? values[offset + 1] : 0,
                z: dimensions > 2 ? values[offset + 2] : 0)
            if dimensions > 3 { landmark.visibility = values[offset + 3] }
            if dimensions > 4 { landmark.presence = values[offset + 4] }
            landmarks.append(landmark)
        }
        return landmarks
    }

    /// Values per landmark: the element count divided by the landmark count, at least 1.
    private static func dimensions(_ total: Int, count: Int) throws(TasksError) -> Int {
        guard count > 0, total / count > 0 else {
            throw .invalidModel("landmark tensor has \(total) values for \(count) landmarks")
        }
        return total / count
    }
}
