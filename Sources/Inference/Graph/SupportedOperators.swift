import ModelFile

/// The operators the engine implements and the highest version of each whose float
/// semantics it covers. Versions are those of TFLite's op registrations
/// (tensorflow/lite/kernels/register.cc and tensorflow/lite/tools/versioning/op_version.cc):
/// later versions only add integer or hybrid variants, which the kernels reject by type.
enum SupportedOperators {
    static let maximumVersion: [BuiltinOperator: Int] = [
        .add: 5, .sub: 5, .mul: 7, .div: 2, .maximum: 4, .minimum: 4,
        .averagePool2D: 3, .maxPool2D: 3,
        .concatenation: 4,
        .conv2D: 8, .depthwiseConv2D: 7, .fullyConnected: 13,
        .depthToSpace: 2, .dequantize: 6, .densify: 1,
        .logistic: 3, .tanh: 3, .relu: 3, .relu6: 3, .reluN1To1: 2, .hardSwish: 1, .leakyRelu: 2,
        .prelu: 1, .softmax: 3,
        .reshape: 1, .squeeze: 1, .expandDims: 1,
        .pad: 4, .padV2: 4,
        .mean: 3, .sum: 2,
        .resizeBilinear: 4, .resizeNearestNeighbor: 4,
        .quantize: 2,
        .negate: 1, .squareRoot: 1, .reciprocalSquareRoot: 1, .squaredDifference: 1,
        .stridedSlice: 4, .transpose: 4,
    ]

    /// Custom operators by `custom_code`, with the highest version implemented.
    static let customMaximumVersion: [String: Int] = [
        DetectionPostProcessKernel.customCode: 1,
        TransposeConvolutionBiasKernel.customCode: 1,
    ]
}

extension BuiltinOperator {
    static let reluN1To1 = BuiltinOperator(rawValue: 20)
    static let expandDims = BuiltinOperator(rawValue: 70)
    static let sum = BuiltinOperator(rawValue: 74)
    static let negate = BuiltinOperator(rawValue: 59)
    static let squareRoot = BuiltinOperator(rawValue: 75)
    static let reciprocalSquareRoot = BuiltinOperator(rawValue: 76)
    static let squaredDifference = BuiltinOperator(rawValue: 99)
}

/// Whether the engine implements an operator, for tools that report on a model before running
/// it (`vision-tasks inspect`); creating an interpreter checks the same and fails on the first
/// operator it lacks.
package enum EngineOperators {
    /// Whether `code`, at its version, has a kernel.
    package static func implements(_ code: OperatorCode) -> Bool {
        (try? KernelFactory.validate(code, index: 0)) != nil
    }
}
