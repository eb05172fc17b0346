import Foundation
import ModelFile

/// Per-class score calibration from a model's metadata: a `ScoreCalibrationOptions` process unit
/// on the score tensor plus its `TENSOR_AXIS_SCORE_CALIBRATION` file, one sigmoid per class
/// (mediapipe/tasks/cc/components/calculators/score_calibration_calculator.cc and
/// score_calibration_utils.cc; ../shared/spec/PIPELINES.md §4.4 step 4).
struct ScoreCalibration: Sendable, Equatable {
    /// One line of the file: `scale,slope,offset[,minScore]`.
    struct Sigmoid: Sendable, Equatable {
        var scale: Float
        var slope: Float
        var offset: Float
        var minScore: Float?
    }

    var transformation: ScoreCalibrationOptions.Transformation
    var defaultScore: Float
    /// By class index; `nil` for an empty line (such a class always gets `defaultScore`).
    var sigmoids: [Sigmoid?]

    /// Where `log` stops: below it the log is continued by its mirror image (`kLogScoreMinimum`).
    static let logMinimum: Float = 1e-16

    /// Parses the calibration file: one line per class, split at `\n` (every line counts, an
    /// empty one included), 3 or 4 comma-separated numbers per non-empty line, a non-negative scale.
    init(options: ScoreCalibrationOptions, file: String) throws(TasksError) {
        transformation = options.transformation
        defaultScore = options.defaultScore
        guard !file.isEmpty else { throw .invalidModel("Expected non-empty score calibration file.") }
        var sigmoids: [Sigmoid?] = []
        for line in file.split(separator: "\n", omittingEmptySubsequences: false) {
            guard !line.isEmpty else {
                sigmoids.append(nil)
                continue
            }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 3 || fields.count == 4 else {
                throw .invalidModel(
                    "Expected 3 or 4 parameters per line in score calibration file, got \(fields.count).")
            }
            var values: [Float] = []
            for field in fields {
                let text = field.trimmingCharacters(in: .whitespacesAndNewlines)
                guard let value = Float(text) else {
                    throw .invalidModel("Could not parse score calibration parameter as float: \(field).")
                }
                values.append(value)
            }
            guard values[0] >= 0 else {
                throw .invalidModel("The scale parameter of the sigmoids must be positive, found \(values[0]).")
            }
            sigmoids.append(
                Sigmoid(
                    scale: values[0], slope: values[1], offset: values[2], minScore: values.count == 4 ? values[3] : nil
                ))
        }
        self.sigmoids = sigmoids
    }

    /// The calibrated score of class `classIndex`.
    ///
    /// - Throws: for a class without a line in the file (MediaPipe rejects a negative index and
    ///   reads past its list for index == count; both are errors here).
    func calibrate(_ score: Float, classIndex: Int) throws(TasksError) -> Float {
        guard sigmoids.indices.contains(classIndex) else {
            throw .invalidModel(
                "Unable to get score calibration parameters for index \(classIndex) : only \(sigmoids.count) "
                    + "sigmoids were provided."
            )
        }
        guard let sigmoid = sigmoids[classIndex] else { return defaultScore }
        if let minimum = sigmoid.minScore, score < minimum { return defaultScore }
        let transformed: Float
        switch transformation {
        case .identity:
            transformed = score
        case .log:
            transformed = Self.clampedLog(score)
        case .inverseLogistic:
            transformed = Self.clampedLog(score) - Self.clampedLog(Float(1.0 - Double(score)))
        }
        let shifted = transformed * sigmoid.slope + sigmoid.offset
        // The numerically stable halves of the logistic, as upstream evaluates them.
        let calibrated: Float
        if shifted >= 0 {
            calibrated = Float(Double(sigmoid.scale) / (1.0 + exp(Double(-shifted))))
        } else {
            let power = Float(exp(Double(shifted)))
            calibrated = Float(Double(sigmoid.scale * power) / (1.0 + Double(power)))
        }
        return max(min(calibrated, sigmoid.scale), 0)
    }

    /// `log(x)`, continued below ``logMinimum`` as `2·log(m) − log(2m − x)` so that it stays
    /// finite and increasing (ClampedLog in score_calibration_calculator.cc).
    static func clampedLog(_ x: Float) -> Float {
        if x < logMinimum {
            let threshold = Double(logMinimum)
            return Float(2.0 * log(threshold) - log(2.0 * threshold - Double(x)))
        }
        return Float(log(Double(x)))
    }
}
