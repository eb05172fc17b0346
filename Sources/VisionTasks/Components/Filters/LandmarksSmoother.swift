import Imaging

/// MediaPipe's `LandmarksSmoothingCalculator`, one-euro variant: one filter per landmark and
/// axis (mediapipe/calculators/util/landmarks_smoothing_calculator.cc and
/// landmarks_smoothing_calculator_utils.cc, ../shared/spec/PIPELINES.md §1.15).
struct LandmarksSmoother: Sendable {
    /// The filter settings.
    struct Parameters: Sendable, Hashable {
        var frequency: Double = 30
        var minCutoff: Double
        var beta: Double
        var derivateCutoff: Double
        var minAllowedObjectScale: Float = 1e-6
        var disableValueScaling = false

        /// Pose normalized landmarks (../shared/spec/PIPELINES.md §2.7 step 2;
        /// mediapipe/tasks/cc/vision/pose_landmarker/pose_landmarks_detector_graph.cc).
        static let poseNormalized = Parameters(minCutoff: 0.05, beta: 80, derivateCutoff: 1)
        /// Pose world landmarks (../shared/spec/PIPELINES.md §2.7 step 4), without value scaling.
        static let poseWorld = Parameters(minCutoff: 0.1, beta: 40, derivateCutoff: 1, disableValueScaling: true)
    }

    let parameters: Parameters
    private var filters: [(x: OneEuroFilter, y: OneEuroFilter, z: OneEuroFilter)] = []

    init(parameters: Parameters) {
        self.parameters = parameters
    }

    /// Forgets all state, as when a frame has no landmarks.
    mutating func reset() {
        filters.removeAll()
    }

    /// Smooths normalized landmarks of an image of `imageSize`: they are filtered in pixels
    /// (x·W, y·H, z·W). The object scale is `(roi.w·W + roi.h·H)/2` when `objectScaleROI` is
    /// given, otherwise the mean of the landmarks' extent in x and y (in pixels).
    mutating func smooth(
        _ landmarks: [NormalizedLandmark], imageSize: ImageSize, objectScaleROI: NormalizedRect?,
        timestampInMicroseconds: Int64
    ) -> [NormalizedLandmark] {
        let width = Float(imageSize.width)
        let height = Float(imageSize.height)
        let pixels = landmarks.map { SIMD3<Float>($0.x * width, $0.y * height, $0.z * width) }
        let scale = objectScaleROI.map { ($0.width * width + $0.height * height) / 2 }
        guard let smoothed = smoothPoints(pixels, objectScale: scale, timestampInMicroseconds: timestampInMicroseconds)
        else { return landmarks }
        return zip(landmarks, smoothed).map { landmark, point in
            var result = landmark
            result.x = point.x / width
            result.y = point.y / height
            result.z = point.z / width
            return result
        }
    }

    /// Smooths world landmarks as they are.
    mutating func smooth(_ landmarks: [Landmark], timestampInMicroseconds: Int64) -> [Landmark] {
        let points = landmarks.map { SIMD3<Float>($0.x, $0.y, $0.z) }
        guard let smoothed = smoothPoints(points, objectScale: nil, timestampInMicroseconds: timestampInMicroseconds)
        else { return landmarks }
        return zip(landmarks, smoothed).map { landmark, point in
            var result = landmark
            result.x = point.x
            result.y = point.y
            result.z = point.z
            return result
        }
    }

    /// The filtered points, or `nil` when the object is too small to filter (the points pass
    /// through; the filters exist all the same, as upstream).
    private mutating func smoothPoints(
        _ points: [SIMD3<Float>], objectScale: Float?, timestampInMicroseconds: Int64
    ) -> [SIMD3<Float>]? {
        if filters.count != points.count {
            // Upstream fails on a changed landmark count; starting over is the sane reading.
            let settings = parameters
            let make = {
                OneEuroFilter(
                    frequency: settings.frequency, minCutoff: settings.minCutoff, beta: settings.beta,
                    derivateCutoff: settings.derivateCutoff)
            }
            filters = points.map { _ in (make(), make(), make()) }
        }
        var valueScale: Float = 1
        if !parameters.disableValueScaling {
            let scale = objectScale ?? Self.extentScale(points)
            if scale < parameters.minAllowedObjectScale { return nil }
            valueScale = 1 / scale
        }
        let nanoseconds = timestampInMicroseconds * 1000
        let scale = Double(valueScale)
        var output: [SIMD3<Float>] = []
        output.reserveCapacity(points.count)
        for index in points.indices {
            let point = points[index]
            let x = filters[index].x.apply(Double(point.x), nanoseconds: nanoseconds, valueScale: scale)
            let y = filters[index].y.apply(Double(point.y), nanoseconds: nanoseconds, valueScale: scale)
            let z = filters[index].z.apply(Double(point.z), nanoseconds: nanoseconds, valueScale: scale)
            output.append(SIMD3(Float(x), Float(y), Float(z)))
        }
        return output
    }

    /// ((max x − min x) + (max y − min y)) / 2.
    private static func extentScale(_ points: [SIMD3<Float>]) -> Float {
        guard let first = points.first else { return 0 }
        var low = first
        var high = first
        for point in points {
            low = pointwiseMin(low, point)
            high = pointwiseMax(high, point)
        }
        return ((high.x - low.x) + (high.y - low.y)) / 2
    }
}
