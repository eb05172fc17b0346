/// MediaPipe's `RefineLandmarksFromHeatmapCalculator`: moves each landmark to the
/// confidence-weighted centre of the heatmap around it
/// (mediapipe/calculators/util/refine_landmarks_from_heatmap_calculator.cc, ../shared/spec/PIPELINES.md §2.4).
enum HeatmapRefinement {
    /// The pose landmarker's settings (pose_landmarks_detector_graph.cc): a 7×7 window,
    /// refined only when the window's best sigmoid confidence is at least 0.5.
    static let poseKernelSize = 7
    static let poseMinConfidence: Float = 0.5

    /// Refines `landmarks` (tensor-normalized) in place from an HWC heatmap with one channel
    /// per landmark. Visibility and presence are left alone.
    ///
    /// Returns each landmark's best confidence in its window, which decided whether it moved
    /// (`nil` for a landmark outside the heatmap).
    @discardableResult
    static func refine(
        _ landmarks: inout [NormalizedLandmark], heatmap: UnsafeBufferPointer<Float>,
        height: Int, width: Int, channels: Int,
        kernelSize: Int = poseKernelSize, minConfidence: Float = poseMinConfidence
    ) throws(TasksError) -> [Float?] {
        guard channels == landmarks.count, height > 0, width > 0, heatmap.count >= height * width * channels else {
            throw .invalidModel(
                "heatmap of \(height)×\(width)×\(channels) (\(heatmap.count) values) does not fit "
                    + "\(landmarks.count) landmarks")
        }
        let offset = (kernelSize - 1) / 2
        let rowSize = width * channels
        var confidences = [Float?](repeating: nil, count: landmarks.count)
        for index in landmarks.indices {
            // Truncation toward zero, as the float-to-int conversion upstream.
            let column = (landmarks[index].x * Float(width)).rounded(.towardZero)
            let row = (landmarks[index].y * Float(height)).rounded(.towardZero)
            guard column >= 0, column < Float(width), row >= 0, row < Float(height) else { continue }
            let centerColumn = Int(column)
            let centerRow = Int(row)
            let beginColumn = max(0, centerColumn - offset)
            let endColumn = min(width, centerColumn + offset + 1)
            let beginRow = max(0, centerRow - offset)
            let endRow = min(height, centerRow + offset + 1)
            var sum: Float = 0
            var weightedColumn: Float = 0
            var weightedRow: Float = 0
            var maxConfidence: Float = 0
            for y in beginRow..<endRow {
                for x in beginColumn..<endColumn {
                    let confidence = sigmoid(heatmap[rowSize * y + channels * x + index])
                    sum += confidence
                    maxConfidence = max(maxConfidence, confidence)
                    weightedColumn += Float(x) * confidence
                    weightedRow += Float(y) * confidence
                }
            }
            confidences[index] = maxConfidence
            if maxConfidence >= minConfidence, sum > 0 {
                landmarks[index].x = weightedColumn / Float(width) / sum
                landmarks[index].y = weightedRow / Float(height) / sum
            }
        }
        return confidences
    }
}
