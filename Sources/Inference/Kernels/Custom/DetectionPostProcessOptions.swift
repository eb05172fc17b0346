import ModelFile

/// The custom options of `TFLite_Detection_PostProcess`, read from the operator's flexbuffer
/// map (tflite/kernels/detection_postprocess.cc, `Init`).
struct DetectionPostProcessOptions: Equatable {
    var maxDetections: Int
    var maxClassesPerDetection: Int
    /// Regular NMS only; 100 when absent (`kNumDetectionsPerClass`).
    var detectionsPerClass: Int
    var useRegularNonMaxSuppression: Bool
    var scoreThreshold: Float
    var iouThreshold: Float
    var classCount: Int
    /// Box decoding scales, in the order y, x, h, w.
    var yScale: Float
    var xScale: Float
    var hScale: Float
    var wScale: Float

    /// Decodes the flexbuffer map. Keys the upstream op reads without a default must be
    /// present; `detections_per_class` and `use_regular_nms` take their defaults.
    init(_ options: FlexValue) throws {
        guard case .map = options else {
            throw DetectionPostProcessOptions.error("custom options are not a flexbuffer map")
        }
        func number(_ key: String) throws -> Double {
            guard let value = options[key] else {
                throw DetectionPostProcessOptions.error("custom option '\(key)' is missing")
            }
            guard let number = value.doubleValue, number.isFinite else {
                throw DetectionPostProcessOptions.error("custom option '\(key)' is not a number")
            }
            return number
        }
        func integer(_ key: String) throws -> Int {
            let value = try number(key)
            guard value >= -2_147_483_648, value <= 2_147_483_647 else {
                throw DetectionPostProcessOptions.error("custom option '\(key)' = \(value) is out of range")
            }
            // flexbuffers' AsInt32 truncates a stored float.
            return Int(value.rounded(.towardZero))
        }
        maxDetections = try integer("max_detections")
        maxClassesPerDetection = try integer("max_classes_per_detection")
        if let value = options["detections_per_class"], value != .null {
            guard value.doubleValue != nil else {
                throw DetectionPostProcessOptions.error("custom option 'detections_per_class' is not a number")
            }
            detectionsPerClass = try integer("detections_per_class")
        } else {
            detectionsPerClass = 100
        }
        if let value = options["use_regular_nms"], value != .null {
            // flexbuffers' AsBool: non-zero after truncation to an integer.
            guard let flag = value.boolValue ?? value.doubleValue.map({ $0.rounded(.towardZero) != 0 }) else {
                throw DetectionPostProcessOptions.error("custom option 'use_regular_nms' is not a boolean")
            }
            useRegularNonMaxSuppression = flag
        } else {
            useRegularNonMaxSuppression = false
        }
        scoreThreshold = Float(try number("nms_score_threshold"))
        iouThreshold = Float(try number("nms_iou_threshold"))
        classCount = try integer("num_classes")
        yScale = Float(try number("y_scale"))
        xScale = Float(try number("x_scale"))
        hScale = Float(try number("h_scale"))
        wScale = Float(try number("w_scale"))
        guard maxDetections >= 0 else {
            throw DetectionPostProcessOptions.error("max_detections \(maxDetections) is negative")
        }
        guard maxClassesPerDetection > 0 else {
            throw DetectionPostProcessOptions.error(
                "max_classes_per_detection \(maxClassesPerDetection) must be positive")
        }
        guard classCount > 0 else {
            throw DetectionPostProcessOptions.error("num_classes \(classCount) must be positive")
        }
        guard iouThreshold > 0, iouThreshold <= 1 else {
            throw DetectionPostProcessOptions.error("nms_iou_threshold \(iouThreshold) must be in (0, 1]")
        }
        if useRegularNonMaxSuppression, Swift.min(detectionsPerClass, maxDetections) <= 0 {
            throw DetectionPostProcessOptions.error(
                "regular NMS needs positive detections_per_class and max_detections")
        }
    }

    /// Entries of each output: `max_detections · max_classes_per_detection`.
    var outputCount: Int { maxDetections * maxClassesPerDetection }

    private static func error(_ message: String) -> DetectionPostProcessOptionsError {
        DetectionPostProcessOptionsError(message: message)
    }
}

/// A problem with `TFLite_Detection_PostProcess` options (turned into an ``InferenceError``).
struct DetectionPostProcessOptionsError: Error {
    let message: String
}
