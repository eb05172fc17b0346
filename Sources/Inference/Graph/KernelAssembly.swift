import ModelFile

/// Load-time pass 4 (after ``MemoryPlanner``): one kernel per operator left to run, with the
/// neighbours ``GraphFusion`` merged into it, each reading and writing its tensors where the plan
/// put them (an arena slot, or a constant's own buffer).
final class KernelAssembly {
    /// The kernels in run order.
    private(set) var kernels: [Kernel] = []
    /// Operator name and index of each kernel, for profiles.
    private(set) var labels: [String] = []
    /// Dense multiply-adds of each kernel (``ModelSummary``'s convention, summed over the operators
    /// fused into it), for profiles.
    private(set) var multiplyAdds: [Int] = []
    /// Constants whose memory kernels read in place (kept alive by the interpreter).
    private(set) var retained: [ConstantTensor] = []

    private let lifetimes: TensorLifetimes
    private let offsets: [Int: Int]
    private let arena: AlignedBuffer
    private let store: ConstantStore

    /// Builds the kernels of `runtimeOperators` (aliased reshapes run no kernel).
    ///
    /// - Throws: ``InferenceError`` from a kernel that rejects its operator.
    init(
        model: TFLiteModel, runtimeOperators: [Int], fusion: GraphFusion, lifetimes: TensorLifetimes,
        offsets: [Int: Int], arena: AlignedBuffer, descriptors: [TensorDescriptor], store: ConstantStore,
        arithmetic: QuantizedArithmetic, instructionSet: InstructionSet, demand: DemandAnalysis,
        tuning: EngineTuning = .standard
    ) throws {
        self.lifetimes = lifetimes
        self.offsets = offsets
        self.arena = arena
        self.store = store
        let graph = model.mainSubgraph
        // Tensors written clamped below at 0, for the 1×1 convolutions that read them.
        var clampedAtZero = Set<Int>()
        for index in runtimeOperators where fusion.clampsAtZero(index, graph.operators[index], graph.operators) {
            clampedAtZero.formUnion(fusion.outputs(of: index, graph.operators[index]).filter { $0 >= 0 })
        }
        func context(_ index: Int) -> OperatorContext {
            let op = graph.operators[index]
            let outputs = fusion.outputs(of: index, op)
            var ctx = OperatorContext(
                index: index, code: model.operatorCodes[op.opcodeIndex], options: fusion.options(of: index, op),
                inputIndices: fusion.inputs(of: index, op), outputIndices: outputs,
                descriptors: descriptors, constants: store, address: { self.address(of: $0) },
                arithmetic: arithmetic, customOptions: op.customOptions, instructionSet: instructionSet,
                inputPadding: fusion.padding[index],
                channelPaddedInput: fusion.channelPadded.contains(index), preluAlpha: fusion.prelu[index],
                residualOptions: fusion.residual[index].map { fusion.options(of: $0.add, graph.operators[$0.add]) },
                residualChannelPadded: fusion.residual[index]?.channelPadded ?? false,
                fusedHardSwish: fusion.hardSwish.contains(index))
            ctx.fusedLayerNorm = fusion.layerNorm.contains(index)
            ctx.residualFromPointwise = fusion.residualFromPointwise.contains(index)
            ctx.tuning = tuning
            ctx.scaledFirstInput = fusion.scaledAdd.contains(index)
            if let input = ctx.inputIndices.first, input >= 0 { ctx.inputClampedAtZero = clampedAtZero.contains(input) }
            if outputs.count == 1, outputs[0] >= 0 { ctx.outputDemand = demand.demand(of: outputs[0]) }
            return ctx
        }
        func macs(of index: Int) -> Int {
            let op = graph.operators[index]
            return ModelSummary.macs(of: op, name: model.operatorCodes[op.opcodeIndex].name, in: graph)
        }
        for index in runtimeOperators where !lifetimes.aliased.contains(index) {
            var ctx = context(index)
            // The operators this kernel runs that multiply: its own and those fused into it.
            var multiplying = [index]
            if let producer = fusion.depthwise[index] {
                // The fused depthwise convolution's output lives in the convolution's scratch, and
                // so does its input when a 1×1 convolution computes it (the three fused).
                var depthwiseContext = context(producer)
                multiplying.append(producer)
                if let expansion = fusion.pointwise[producer] {
                    depthwiseContext.fusedPointwise = try PointwiseDepthwiseKernel.stage(context(expansion))
                    multiplying.append(expansion)
                }
                switch try DepthwiseConv2DKernel.make(depthwiseContext) {
                case let stage as DepthwiseConv2DKernel:
                    ctx.fusedDepthwise = stage
                case let stages as PointwiseDepthwiseKernel:
                    ctx.fusedDepthwise = stages.depthwise
                    ctx.fusedExpansion = stages.stage
                default:
                    throw InferenceError.invalidModel("operator \(producer) cannot be fused into operator \(index)")
                }
            }
            if let producer = fusion.pointwise[index] {
                // The fused 1×1 convolution's output lives in the depthwise convolution's scratch.
                ctx.fusedPointwise = try PointwiseDepthwiseKernel.stage(context(producer))
                multiplying.append(producer)
            }
            var label = "\(ctx.name)#\(index)"
            if let mixing = fusion.tokenMixing[index] {
                ctx.fusedTokenMixing = (
                    try TokenMixingKernel.Product(context(mixing.first)),
                    try TokenMixingKernel.Product(context(mixing.second))
                )
                // Labelled as the second convolution: the kernel's time is the two products'.
                label = "CONV_2D#\(mixing.second)"
                multiplying += [mixing.first, mixing.second]
            }
            kernels.append(try KernelFactory.make(ctx))
            labels.append(label)
            multiplyAdds.append(multiplying.reduce(0) { $0 + macs(of: $1) })
        }
    }

    /// Where tensor `tensor`'s data lives at run time: its representative's arena slot, or the
    /// buffer of a constant (then retained).
    func address(of tensor: Int) -> UnsafeMutableRawPointer {
        let r = lifetimes.representative(of: tensor)
        if let offset = offsets[r] { return arena.raw + offset }
        if let value = try? store.value(of: tensor) {
            retained.append(value)
            return value.buffer.raw
        }
        // Not reachable for a validated graph; a readable dummy keeps kernels memory-safe.
        return arena.raw
    }
}
