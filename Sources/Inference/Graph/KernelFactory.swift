import ModelFile

/// Chooses and builds the kernel of one operator. This is the only place that maps operator
/// codes to kernels: a quantized kernel slots in here by looking at the input descriptors'
/// types and quantization.
enum KernelFactory {
    /// Whether an operator only reinterprets its input's shape (its output can share memory).
    static func isReshape(_ code: BuiltinOperator) -> Bool {
        code == .reshape || code == .squeeze || code == .expandDims
    }

    /// Checks that the engine implements `code` at `version`.
    static func validate(_ code: OperatorCode, index: Int) throws {
        let maximum =
            code.builtinCode == .custom
            ? code.customCode.flatMap { SupportedOperators.customMaximumVersion[$0] }
            : SupportedOperators.maximumVersion[code.builtinCode]
        guard let maximum, code.version <= maximum
        else { throw InferenceError.unsupportedOperator(name: code.name, version: code.version, index: index) }
    }

    /// The output shapes an operator sets itself (TFLite resizes them when it prepares the
    /// operator; the model may record none), or `nil` to use the recorded shapes.
    static func outputShapes(_ code: OperatorCode, customOptions: ByteRange?) -> [[Int]]? {
        guard code.builtinCode == .custom, code.customCode == DetectionPostProcessKernel.customCode else { return nil }
        return DetectionPostProcessKernel.outputShapes(customOptions: customOptions)
    }

    /// Whether input `i` of the operator is a UINT8 or INT8 tensor (a quantized kernel runs it).
    private static func isQuantized(_ ctx: OperatorContext, input i: Int = 0) -> Bool {
        ctx.hasInput(i) && ctx.descriptors[ctx.inputIndices[i]].type.isQuantized8Bit
    }

    static func make(_ ctx: OperatorContext) throws -> Kernel {
        if let kernel = try makeQuantized(ctx) { return kernel }
        switch ctx.code.builtinCode {
        case .conv2D: return try Conv2DKernel.make(ctx)
        case .depthwiseConv2D: return try DepthwiseConv2DKernel.make(ctx)
        case .fullyConnected: return try FullyConnectedKernel.make(ctx)
        case .add where ctx.fusedLayerNorm: return try LayerNormKernel.make(ctx)
        case .add:
            // Equal shapes (the residual connections): the vectorised kernel that also takes
            // a folded channel PAD, a fused PRELU and a fused channel scale.
            if ctx.channelPaddedInput || ctx.preluAlpha != nil || ctx.scaledFirstInput
                || (ctx.inputCount == 2 && ctx.hasInput(0) && ctx.hasInput(1)
                    && ctx.descriptors[ctx.inputIndices[0]].shape
                        == ctx.descriptors[ctx.inputIndices[1]].shape
                    && !ctx.descriptors[ctx.inputIndices[0]].shape.isEmpty)
            {
                return try AddKernel.make(ctx)
            }
            return try BinaryKernel.make(ctx, operation: .add)
        case .sub: return try BinaryKernel.make(ctx, operation: .sub)
        case .mul: return try BinaryKernel.make(ctx, operation: .mul)
        case .div: return try BinaryKernel.make(ctx, operation: .div)
        case .maximum: return try BinaryKernel.make(ctx, operation: .maximum)
        case .minimum: return try BinaryKernel.make(ctx, operation: .minimum)
        case .prelu: return try BinaryKernel.make(ctx, operation: .prelu)
        case .squaredDifference: return try BinaryKernel.make(ctx, operation: .squaredDifference)
        case .negate: return try UnaryKernel.make(ctx, operation: .negate)
        case .squareRoot: return try UnaryKernel.make(ctx, operation: .squareRoot)
        case .reciprocalSquareRoot: return try UnaryKernel.make(ctx, operation: .reciprocalSquareRoot)
        case .transpose where ctx.fusedTokenMixing != nil: return try TokenMixingKernel.make(ctx)
        case .transpose: return try StridedCopyKernel.makeTranspose(ctx)
        case .stridedSlice: return try StridedCopyKernel.makeStridedSlice(ctx)
        case .concatenation: return try ConcatenationKernel.make(ctx)
        case .pad, .padV2: return try PadKernel.make(ctx)
        case .maxPool2D: return try Pool2DKernel.make(ctx, kind: .max)
        case .averagePool2D: return try Pool2DKernel.make(ctx, kind: .average)
        case .mean: return try ReduceKernel.make(ctx, kind: .mean)
        case .sum: return try ReduceKernel.make(ctx, kind: .sum)
        case .logistic: return try UnaryKernel.make(ctx, operation: .logistic)
        case .tanh: return try UnaryKernel.make(ctx, operation: .tanh)
        case .relu:
            return try UnaryKernel.make(
                ctx, operation: .clamp(ActivationClamp(lower: 0, upper: .infinity, function: .none)))
        case .relu6:
            return try UnaryKernel.make(ctx, operation: .clamp(ActivationClamp(lower: 0, upper: 6, function: .none)))
        case .reluN1To1:
            return try UnaryKernel.make(ctx, operation: .clamp(ActivationClamp(lower: -1, upper: 1, function: .none)))
        case .hardSwish: return try UnaryKernel.make(ctx, operation: .hardSwish)
        case .leakyRelu:
            guard case .leakyRelu(let alpha) = ctx.options else { throw ctx.invalid("missing LeakyReluOptions") }
            return try UnaryKernel.make(ctx, operation: .leakyRelu(alpha: alpha))
        case .softmax: return try SoftmaxKernel.make(ctx)
        case .resizeBilinear: return try ResizeKernel.make(ctx, bilinear: true)
        case .resizeNearestNeighbor: return try ResizeKernel.make(ctx, bilinear: false)
        case .depthToSpace: return try DepthToSpaceKernel.make(ctx)
        case .dequantize: return try DequantizeKernel.make(ctx)
        case .reshape, .squeeze, .expandDims: return try makeReshape(ctx)
        case .densify: throw ctx.unsupported("DENSIFY of a tensor that is not a sparse constant")
        case .quantize: return try QuantizeKernel.make(ctx)
        case .custom where ctx.code.customCode == DetectionPostProcessKernel.customCode:
            return try DetectionPostProcessKernel.make(ctx)
        case .custom where ctx.code.customCode == TransposeConvolutionBiasKernel.customCode:
            return try TransposeConvolutionBiasKernel.make(ctx)
        default: throw InferenceError.unsupportedOperator(name: ctx.name, version: ctx.version, index: ctx.index)
        }
    }

    /// The quantized kernel of an operator whose data input is UINT8 or INT8, or `nil`.
    private static func makeQuantized(_ ctx: OperatorContext) throws -> Kernel? {
        guard isQuantized(ctx) else { return nil }
        switch ctx.code.builtinCode {
        case .conv2D: return try QuantizedConv2DKernel.make(ctx)
        case .depthwiseConv2D: return try QuantizedDepthwiseConv2DKernel.make(ctx)
        case .add: return try QuantizedBinaryKernel.make(ctx, operation: .add)
        case .mul: return try QuantizedBinaryKernel.make(ctx, operation: .mul)
        case .concatenation: return try QuantizedConcatenationKernel.make(ctx)
        case .logistic: return try LookupTableKernel.makeLogistic(ctx)
        case .maxPool2D: return try QuantizedPool2DKernel.make(ctx, kind: .max)
        case .averagePool2D: return try QuantizedPool2DKernel.make(ctx, kind: .average)
        case .resizeBilinear: return try QuantizedResizeKernel.make(ctx, bilinear: true)
        case .resizeNearestNeighbor: return try QuantizedResizeKernel.make(ctx, bilinear: false)
        default: return nil
        }
    }

    /// RESHAPE, SQUEEZE, EXPAND_DIMS: a copy (used when folding constants; at run time the
    /// output shares its input's memory instead).
    static func makeReshape(_ ctx: OperatorContext) throws -> Kernel {
        try validateReshape(ctx)
        let x = try ctx.input(0)
        return CopyKernel(
            source: ctx.address(ctx.inputIndices[0]), destination: ctx.address(ctx.outputIndices[0]),
            byteCount: x.byteCount ?? 0)
    }

    /// Checks that a reshape keeps the element count and type. Static shapes make the output
    /// tensor's recorded shape authoritative; the shape operand and options need not be read.
    static func validateReshape(_ ctx: OperatorContext) throws {
        guard ctx.inputCount >= 1, ctx.outputCount == 1 else { throw ctx.invalid("needs one input and one output") }
        let x = try ctx.input(0)
        let y = ctx.output(0)
        guard x.type == y.type, x.byteCount != nil else { throw ctx.unsupported("type \(x.type) to \(y.type)") }
        guard x.elementCount == y.elementCount else {
            throw ctx.invalid(
                "cannot reshape \(x.shapeText) (\(x.elementCount) elements) to \(y.shapeText) (\(y.elementCount))")
        }
    }
}
