import Foundation
import Testing

@testable import ModelFile
@testable import VisionTasks

/// Score calibration as MediaPipe defines it (score_calibration_calculator.cc,
/// score_calibration_utils.cc; ../shared/spec/PIPELINES.md §4.4): the expected values below are the formula
/// evaluated in double, independently of the implementation's float/double mix.
@Suite("Score calibration")
struct ScoreCalibrationTests {
    private func calibration(
        _ transformation: ScoreCalibrationOptions.Transformation, _ file: String, defaultScore: Float = 0.25
    )
        throws -> ScoreCalibration
    {
        try ScoreCalibration(
            options: ScoreCalibrationOptions(transformation: transformation, defaultScore: defaultScore), file: file)
    }

    private func sigmoid(_ t: Double, scale: Double, slope: Double, offset: Double) -> Double {
        scale / (1 + exp(-(t * slope + offset)))
    }

    @Test func parsesOneSigmoidPerLineWithEmptyLinesAsDefaults() throws {
        let parsed = try calibration(.identity, "1.0,2.0,-1.0\n\n0.5, 1, 0 ,0.3\n")
        #expect(parsed.sigmoids.count == 4)  // the trailing empty line counts, as upstream splits at every \n
        #expect(parsed.sigmoids[0] == .init(scale: 1, slope: 2, offset: -1, minScore: nil))
        #expect(parsed.sigmoids[1] == nil && parsed.sigmoids[3] == nil)
        #expect(parsed.sigmoids[2] == .init(scale: 0.5, slope: 1, offset: 0, minScore: 0.3))
    }

    @Test func malformedFilesAreRejectedWithUpstreamsFacts() {
        let cases: [(String, String)] = [
            ("", "non-empty"), ("1,2\n", "3 or 4 parameters"), ("1,2,3,4,5", "got 5"),
            ("1,x,3", "as float: x"), ("-1,2,3", "must be positive"),
        ]
        for (file, fact) in cases {
            #expect { try calibration(.identity, file) } throws: { error in
                (error as? TasksError)?.message.contains(fact) == true
                    && (error as? TasksError)?.code == .invalidArgumentError
            }
        }
    }

    @Test func identityLogAndInverseLogisticFollowTheFormula() throws {
        let line = "0.9,1.5,-0.25"
        for score: Float in [0.05, 0.3, 0.5, 0.8, 0.99] {
            let s = Double(score)
            let identity = try calibration(.identity, line).calibrate(score, classIndex: 0)
            #expect(abs(Double(identity) - sigmoid(s, scale: 0.9, slope: 1.5, offset: -0.25)) <= 1e-6)
            let logarithm = try calibration(.log, line).calibrate(score, classIndex: 0)
            #expect(abs(Double(logarithm) - sigmoid(log(s), scale: 0.9, slope: 1.5, offset: -0.25)) <= 1e-6)
            let logit = try calibration(.inverseLogistic, line).calibrate(score, classIndex: 0)
            #expect(abs(Double(logit) - sigmoid(log(s) - log(1 - s), scale: 0.9, slope: 1.5, offset: -0.25)) <= 1e-6)
        }
    }

    @Test func defaultScoreForEmptyLinesAndScoresBelowTheMinimum() throws {
        let parsed = try calibration(.identity, "1,1,0,0.4\n\n", defaultScore: 0.125)
        #expect(try parsed.calibrate(0.39, classIndex: 0) == 0.125)
        #expect(try parsed.calibrate(0.4, classIndex: 0) != 0.125)  // the minimum itself is calibrated
        #expect(try parsed.calibrate(0.9, classIndex: 1) == 0.125)
        #expect(throws: TasksError.self) { try parsed.calibrate(0.5, classIndex: 3) }
        #expect(throws: TasksError.self) { try parsed.calibrate(0.5, classIndex: -1) }
    }

    @Test func logStaysFiniteAndIncreasingAtZeroAndTheResultStaysInRange() throws {
        #expect(ScoreCalibration.clampedLog(0).isFinite && ScoreCalibration.clampedLog(-1).isFinite)
        #expect(ScoreCalibration.clampedLog(-1) < ScoreCalibration.clampedLog(0))
        #expect(ScoreCalibration.clampedLog(0) < ScoreCalibration.clampedLog(1e-10))
        let steep = try calibration(.inverseLogistic, "2,1000,0")
        for score: Float in [0, 1e-30, 0.5, 1] {
            let value = try steep.calibrate(score, classIndex: 0)
            #expect(value >= 0 && value <= 2)
        }
        #expect(try steep.calibrate(1, classIndex: 0) == 2 && steep.calibrate(0, classIndex: 0) == 0)
    }

    @Test func theDecoderCalibratesBeforeTheThreshold() throws {
        let boxes: [Float] = [0.1, 0.1, 0.5, 0.5, 0.2, 0.2, 0.6, 0.6]
        let classes: [Float] = [0, 1]
        let scores: [Float] = [0.2, 0.9]
        var options = InModelDetectionDecoder.Options()
        options.scoreThreshold = 0.5
        // Class 0: sigmoid(0.2·20 − 2) ≈ 0.88 passes; class 1 has no parameters: the default 0.1 fails.
        options.calibration = try calibration(.identity, "1,20,-2\n", defaultScore: 0.1)
        let result = try boxes.withUnsafeBufferPointer { b in
            try classes.withUnsafeBufferPointer { c in
                try scores.withUnsafeBufferPointer { s in
                    try InModelDetectionDecoder.decode(boxes: b, classes: c, scores: s, count: 2, options: options)
                }
            }
        }
        try #require(result.count == 1)
        #expect(result[0].categories[0].classIndex == 0)
        #expect(
            abs(Double(result[0].categories[0].score) - sigmoid(Double(Float(0.2)), scale: 1, slope: 20, offset: -2))
                <= 1e-6)
    }
}
