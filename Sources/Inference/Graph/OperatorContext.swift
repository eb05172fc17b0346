import ModelFile

/// Everything a kernel builder needs about one operator: its options, the descriptors of its
/// tensors, constant values, and where each tensor lives at run time.
struct OperatorContext {
    /// Index of the operator in the main subgraph.
    let index: Int
    let code: OperatorCode
    let options: BuiltinOptions
    /// Input tensor indices (`-1` for an omitted optional input).
    let inputIndices: [Int]
    let outputIndices: [Int]
    let descriptors: [TensorDescriptor]
    let constants: ConstantStore
    /// The address of a tensor's data at run time (arena slot or constant buffer).
    let address: (Int) -> UnsafeMutableRawPointer
    /// The integer arithmetic of quantized kernels.
    var arithmetic: QuantizedArithmetic = .xnnpack
    /// The operator's raw `custom_options` (custom operators).
    var customOptions: ByteRange? = nil
    /// The instruction set kernels pack their weights for.
    var instructionSet: InstructionSet = .best
    /// How kernels cut their work (never what they compute).
    var tuning = EngineTuning.standard
    /// Zero padding of input 0 folded in from a PAD (convolutions only; see ``GraphFusion``).
    var inputPadding: ExplicitPadding? = nil
    /// Whether input 1 has fewer channels than the output, zero beyond them (a channel PAD
    /// folded into an ADD; see ``GraphFusion``).
    var channelPaddedInput = false
    /// Whether this ADD multiplies input 0 by input 2, one value per channel, before adding input
    /// 1 (a MUL fused into it; see ``GraphFusion``).
    var scaledFirstInput = false
    /// The constant slopes of a PRELU fused into this operator's store step.
    var preluAlpha: Int? = nil
    /// The options of a residual ADD fused into this convolution (the residual is input 3).
    var residualOptions: BuiltinOptions? = nil
    /// Whether that residual has fewer channels than the output (a folded channel PAD).
    var residualChannelPadded = false
    /// Whether that residual is the output of the 1×1 convolution fused into this depthwise
    /// convolution (``fusedPointwise``), added from the kernel's band: there is no input 3.
    var residualFromPointwise = false
    /// Whether a HARD_SWISH was fused into this convolution (``GraphFusion``).
    var fusedHardSwish = false
    /// Whether this ADD ends a layer normalisation that runs as one kernel (``GraphFusion``): its
    /// inputs are then `x`, `ε` and `γ`.
    var fusedLayerNorm = false
    /// The part of output 0 that is ever read (``DemandAnalysis``); a kernel may compute only
    /// that part.
    var outputDemand: DemandAnalysis.Demand = .all
    /// Whether input 0 is written clamped below at 0 (a fused RELU or RELU6; see
    /// ``GraphFusion/clampsAtZero(_:_:_:)``), so that whole columns of it are often zero.
    var inputClampedAtZero = false
    /// A depthwise convolution fused into this 1×1 convolution: it computes input 0, which is
    /// then the depthwise convolution's input.
    var fusedDepthwise: DepthwiseConv2DKernel? = nil
    /// A 1×1 convolution fused into that depthwise convolution: it computes the depthwise
    /// convolution's input from this operator's input 0, band by band.
    var fusedExpansion: PointwiseDepthwiseKernel.Stage? = nil
    /// A 1×1 convolution fused into this depthwise convolution: it computes input 0 from the
    /// stage's input, band by band.
    var fusedPointwise: PointwiseDepthwiseKernel.Stage? = nil
    /// The two 1×1 convolutions of a token mixing that this `TRANSPOSE` (the one ending it) runs
    /// transposed (``GraphFusion``, ``TokenMixingKernel``).
    var fusedTokenMixing: (first: TokenMixingKernel.Product, second: TokenMixingKernel.Product)? = nil

    var name: String { code.name }
    var version: Int { code.version }

    // MARK: Errors

    func unsupported(_ detail: String) -> InferenceError {
        .unsupportedOption(name: name, version: version, index: index, detail: detail)
    }

    func invalid(_ detail: String) -> InferenceError {
        .invalidModel("\(name) (operator \(index)): \(detail)")
    }

    // MARK: Tensors

    var inputCount: Int { inputIndices.count }
    var outputCount: Int { outputIndices.count }

    /// Checks the number of inputs (within `range`) and of outputs.
    func expect(inputs range: ClosedRange<Int>, outputs: Int) throws {
        guard range.contains(inputIndices.count) else {
            throw invalid("has \(inputIndices.count) inputs, expected \(range.lowerBound)...\(range.upperBound)")
        }
        guard outputIndices.count == outputs else {
            throw invalid("has \(outputIndices.count) outputs, expected \(outputs)")
        }
    }

    /// Whether optional input `i` is present.
    func hasInput(_ i: Int) -> Bool { i < inputIndices.count && inputIndices[i] >= 0 }

    func input(_ i: Int) throws -> TensorDescriptor {
        guard hasInput(i) else { throw invalid("input \(i) is missing") }
        return descriptors[inputIndices[i]]
    }

    func output(_ i: Int) -> TensorDescriptor { descriptors[outputIndices[i]] }

    /// The constant value of input `i`, or `nil` when it is computed at run time.
    func constantInput(_ i: Int) throws -> ConstantTensor? {
        guard hasInput(i) else { return nil }
        return try constants.value(of: inputIndices[i])
    }

    /// The constant value of input `i`; an error naming `what` when it is not constant.
    func requireConstant(_ i: Int, _ what: String) throws -> ConstantTensor {
        guard let value = try constantInput(i) else { throw unsupported("\(what) must be a constant tensor") }
        return value
    }

    /// The constant FLOAT32 bias at input `i` with `count` values, or `nil` when the input is
    /// omitted; an error when it is computed at run time or has another type or size.
    func floatBias(_ i: Int, count: Int) throws -> ConstantTensor? {
        guard let bias = try constantInput(i) else {
            if hasInput(i) { throw unsupported("the bias must be a constant tensor") }
            return nil
        }
        guard bias.descriptor.type == .float32, bias.descriptor.elementCount == count else {
            throw invalid("bias must be \(count) FLOAT32 values")
        }
        return bias
    }

    /// The integer values of constant input `i` (INT32/INT64).
    func constantIntegers(_ i: Int, _ what: String) throws -> [Int] {
        let value = try requireConstant(i, what)
        guard let integers = value.integers() else {
            throw unsupported("\(what) has type \(value.descriptor.type), expected INT32 or INT64")
        }
        return integers
    }

    /// Run-time address of input `i` as floats.
    func inputFloats(_ i: Int) -> UnsafeMutablePointer<Float> {
        address(inputIndices[i]).assumingMemoryBound(to: Float.self)
    }

    /// Run-time address of output `i` as floats.
    func outputFloats(_ i: Int) -> UnsafeMutablePointer<Float> {
        address(outputIndices[i]).assumingMemoryBound(to: Float.self)
    }

    /// Checks that every listed input and every output is FLOAT32.
    func requireFloat(inputs: [Int]) throws {
        for i in inputs {
            let d = try input(i)
            guard d.type == .float32 else {
                throw unsupported("input \(i) has type \(d.type); only FLOAT32 is supported")
            }
        }
        for o in 0..<outputIndices.count where output(o).type != .float32 {
            throw unsupported("output \(o) has type \(output(o).type); only FLOAT32 is supported")
        }
    }

    /// Checks that output `i` has `shape`.
    func requireOutputShape(_ shape: [Int], _ i: Int = 0) throws {
        guard output(i).shape == shape else {
            throw invalid(
                "output \(i) has shape \(output(i).shapeText), expected "
                    + "[\(shape.map(String.init).joined(separator: ", "))]"
            )
        }
    }

    /// The activation this operator applies to its own results: its fused `activation`, or a
    /// fused HARD_SWISH (which ``GraphFusion`` takes only for operators without an activation).
    func outputActivation(_ activation: FusedActivation) throws -> ActivationClamp {
        if fusedHardSwish {
            guard activation == .none else { throw invalid("a fused HARD_SWISH after a fused activation") }
            return .hardSwish
        }
        return try clamp(activation)
    }

    /// The fused activation as a clamp.
    func clamp(_ activation: FusedActivation) throws -> ActivationClamp {
        guard let clamp = ActivationClamp(activation) else {
            throw unsupported("fused activation \(activation.name) is not supported")
        }
        return clamp
    }
}
