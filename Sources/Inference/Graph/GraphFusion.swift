import ModelFile

/// Zero padding that a convolution applies to its input on top of its own padding (a folded
/// `PAD`): extra rows above and below, columns left and right.
struct ExplicitPadding: Equatable {
    var top: Int
    var bottom: Int
    var left: Int
    var right: Int
}

/// Load-time rewrites of the runtime operator list that save whole passes over memory. Each is
/// exact: the rewritten graph computes the same values with the same operations.
///
/// * **PAD folded into convolutions.** A `PAD`/`PADV2` with a zero value that pads only the
///   height and width of an NHWC tensor, and whose output is read only as the input of
///   `CONV_2D` / `DEPTHWISE_CONV_2D` operators, is dropped: those convolutions read the PAD's
///   input and treat the padded rows and columns as part of their window's zero padding (a zero
///   tap adds nothing). XNNPACK does the same when it builds its runtime (XNNPACK
///   src/subgraph.c, `xnn_subgraph_fusion`: constant pad into [depthwise] convolution).
/// * **Channel PAD folded into ADD.** A zero `PAD` of only the end of the last dimension whose
///   output is read only by `ADD`s of equal-shaped operands is dropped: the ADD reads the
///   narrower tensor and adds zero to the padded channels (BlazePalm's residual shortcuts).
/// * **Residual ADD fused into a convolution.** An `ADD` of equal shapes (or with a folded
///   channel PAD) whose one operand is written by a `CONV_2D` read by nothing else, and whose
///   other operand is ready before that convolution runs, is dropped: the convolution adds the
///   other operand (and applies the ADD's activation) to each tile it has just computed, while
///   the tile is in cache, and writes the ADD's output.
/// * **Depthwise into the 1×1 convolution after it.** A `DEPTHWISE_CONV_2D` whose output (of any
///   size, wide enough that a band of rows holds enough pixels) is read only by a dense 1×1,
///   stride-1 `CONV_2D` is dropped: that convolution computes the depthwise rows band by band
///   into per-thread scratch and multiplies them while they are in cache, so the depthwise output
///   never goes through memory. Small outputs are fused too: no row is computed twice, and the
///   two layers then share out as one job, so threads meet once per block instead of twice.
/// * **A 1×1 convolution into the depthwise convolution after it.** A 1×1, stride-1 `CONV_2D`
///   (more than a few output channels, no fused ADD or PRELU, no TANH) whose output (at least
///   ``EngineTuning/fusedPointwiseBytes``) is read only by a `DEPTHWISE_CONV_2D` of
///   multiplier 1 not already fused into the next convolution is dropped: that depthwise
///   convolution computes, band by band in per-thread scratch, the 1×1 rows its window reaches,
///   then its own rows from them, so the 1×1 output (the wide middle tensor of an
///   inverted-residual block) never goes through memory. A depthwise convolution already fused
///   into the 1×1 convolution after it takes its 1×1 producer the same way when that one's output
///   is at least ``EngineTuning/fusedExpansionBytes``: the whole block (expansion,
///   depthwise, projection) runs as one kernel, band by band.
/// * **Residual ADD fused into a depthwise convolution.** The same for an equal-shape `ADD`
///   whose operand a `DEPTHWISE_CONV_2D` writes (after its own fused clamp, so this runs after
///   the clamp fusion below): the depthwise kernel adds the other operand to each band of rows
///   it has just written (the selfie segmenter's decoder blocks end this way). When the ADD's
///   other operand is the output of a 1×1 convolution before the depthwise one (`y = dw(m) + m`,
///   the selfie decoder's 64 × 64 and 128 × 128 blocks), that convolution is still fused into
///   the depthwise one, whose kernel adds `m` from its band: `m` never goes through memory.
/// * **HARD_SWISH fused into its producer.** A `HARD_SWISH` whose float input is written by a
///   `CONV_2D` or `DEPTHWISE_CONV_2D` without an activation, residual ADD or PRELU of its own,
///   and read by nothing else, is dropped: the convolution applies XNNPACK's hard swish to the
///   values it computed, while they are in cache (the selfie segmenter's MobileNetV3 blocks).
///   The convolution's sums are the same floats either way, so are the bits.
/// * **PRELU fused into its producer.** A `PRELU` with one slope per channel (constant, shape
///   `[…, 1, C]`) whose input is written by a `CONV_2D` or an equal-shape `ADD` and read by
///   nothing else is dropped: the producer writes the PRELU's output and applies the slope in
///   its store step.
/// * **A channel scale into the ADD after it.** A `MUL` without an activation of a tensor by a
///   vector of one value per channel (shape `[…, 1, C]`), whose output is read only by an ADD
///   of two equal-shaped operands, is dropped: the ADD multiplies its operand block by block,
///   into its own output while the block is in the first-level cache, and adds the other
///   operand there (the selfie segmenter's decoder: `x · σ(…) + y` after each squeeze and
///   excitation). The products and sums are the same floats, so are the bits.
/// * **Layer normalisations as one kernel.** The ten operators of a layer normalisation over the
///   last axis as TensorFlow Lite converts it (the face blendshapes model has eight): `m = MEAN(x)`,
///   `NEG(m)`, `SQUARED_DIFFERENCE(x, m)`, its `MEAN`, `+ ε`, `RSQRT`, `· γ`, then
///   `x · s + (−m) · s` — whose intermediates nothing else reads, are dropped but for the final
///   `ADD`, which runs ``LayerNormKernel``: the same operations on each value, pixel by pixel,
///   instead of ten passes of a few microseconds each over the tensor.
/// * **Clamping activations fused into their producer.** A `RELU`, `RELU6` or `RELU_N1_TO_1`
///   whose float input is written by a `CONV_2D` (with or without a fused residual ADD),
///   `DEPTHWISE_CONV_2D`, `ADD`, `MAX_POOL_2D` or `AVERAGE_POOL_2D` without an activation of its
///   own, and read by nothing else, is dropped: the producer takes it as its fused activation
///   (the ADD's, where one is fused into a convolution) and writes the activation's output.
///   XNNPACK does the same (src/subgraph.c, `xnn_subgraph_fusion`: clamp into its producer),
///   so the bits are the ones LiteRT computes. BlazeFace ends every block with a RELU.
/// * **Token mixings computed transposed.** A `TRANSPOSE` of the last two axes (the others of
///   size 1), two 1×1 stride-1 `CONV_2D`s with clamps as activations and nothing else fused, and
///   the `TRANSPOSE` back, each intermediate read only by the next (the face blendshapes model's
///   MLP-Mixer: tokens become pixels, are mixed, and become rows again), run as one
///   ``TokenMixingKernel`` in the last `TRANSPOSE`'s place, which reads the first one's input:
///   the filters become the broadcast operand of the products and the activations the packed
///   one, with the bias as a first step over a row of ones — the same sums in the same order,
///   without the two transposes and with the channels, not the tokens, across the vector lanes.
struct GraphFusion {
    /// Operators that no longer run.
    private(set) var removed: Set<Int> = []
    /// Replacement input lists, by operator index.
    private(set) var inputs: [Int: [Int]] = [:]
    /// Replacement output lists, by operator index.
    private(set) var outputs: [Int: [Int]] = [:]
    /// Extra padding of a convolution's input 0, by operator index.
    private(set) var padding: [Int: ExplicitPadding] = [:]
    /// ADDs that read a channel-padded input (its PAD folded away), by operator index.
    private(set) var channelPadded: Set<Int> = []
    /// The depthwise operator fused into a 1×1 convolution, by the convolution's index.
    private(set) var depthwise: [Int: Int] = [:]
    /// The 1×1 convolution fused into a depthwise convolution, by the depthwise operator's index.
    private(set) var pointwise: [Int: Int] = [:]
    /// Depthwise convolutions whose fused residual ADD adds the output of their fused 1×1
    /// convolution (`y = dw(m) + m`): the kernel takes `m` from its band, and `m` is never stored.
    private(set) var residualFromPointwise: Set<Int> = []
    /// The fusion thresholds (``EngineTuning/fusedPointwiseBytes``,
    /// ``EngineTuning/fusedExpansionBytes``, ``EngineTuning/fusedPointwiseRows``).
    let tuning: EngineTuning
    /// Convolutions (`CONV_2D`, `DEPTHWISE_CONV_2D`) that apply a fused HARD_SWISH to their
    /// results.
    private(set) var hardSwish: Set<Int> = []
    /// The constant slope tensor of a PRELU fused into an operator, by operator index.
    private(set) var prelu: [Int: Int] = [:]
    /// A residual ADD fused into a convolution (`CONV_2D` or `DEPTHWISE_CONV_2D`), by the
    /// convolution's operator index: the ADD's index (for its options), and whether the residual
    /// is channel padded. The residual is the convolution's input 3.
    private(set) var residual: [Int: (add: Int, channelPadded: Bool)] = [:]
    /// ADDs whose first operand is multiplied by a channel vector first (a fused MUL), by operator
    /// index: their inputs become the MUL's full-size operand, the other addend and the vector.
    private(set) var scaledAdd: Set<Int> = []
    /// Layer normalisations run by their final ADD (``LayerNormKernel``), by that ADD's index: its
    /// inputs become `x`, `ε` and `γ`.
    private(set) var layerNorm: Set<Int> = []
    /// Token mixings computed transposed (``TokenMixingKernel``), by the index of the
    /// `TRANSPOSE` that ends them: their two 1×1 convolutions. The opening `TRANSPOSE` and both
    /// convolutions no longer run; the closing one reads the opening one's input.
    private(set) var tokenMixing: [Int: (first: Int, second: Int)] = [:]
    /// The fused activation that replaces an operator's own (`NONE`) after a clamping
    /// activation was fused into it, by operator index (for a residual ADD fused into a
    /// convolution, by the ADD's index).
    private(set) var activation: [Int: FusedActivation] = [:]

    /// The builtin options of operator `index`, with a fused activation from ``activation``.
    func options(of index: Int, _ op: Operator) -> BuiltinOptions {
        guard let replacement = activation[index] else { return op.builtinOptions }
        return GraphFusion.replacingActivation(of: op.builtinOptions, with: replacement) ?? op.builtinOptions
    }

    /// `options` with its fused activation set to `replacement`; `nil` for options without one.
    private static func replacingActivation(
        of options: BuiltinOptions, with replacement: FusedActivation
    ) -> BuiltinOptions? {
        switch options {
        case .conv2D(var conv):
            conv.activation = replacement
            return .conv2D(conv)
        case .depthwiseConv2D(var depthwise):
            depthwise.activation = replacement
            return .depthwiseConv2D(depthwise)
        case .pool2D(var pool):
            pool.activation = replacement
            return .pool2D(pool)
        case .elementwise:
            return .elementwise(activation: replacement)
        default:
            return nil
        }
    }

    /// The fused activation of `options`; `nil` for options without one.
    static func fusedActivation(of options: BuiltinOptions) -> FusedActivation? {
        switch options {
        case .conv2D(let conv): return conv.activation
        case .depthwiseConv2D(let depthwise): return depthwise.activation
        case .pool2D(let pool): return pool.activation
        case .elementwise(let activation): return activation
        default: return nil
        }
    }

    /// Whether every value operator `index` writes (after the rewrites) is clamped below at 0: its
    /// last step is a fused RELU or RELU6 (the residual ADD's activation when one is fused, and
    /// no PRELU or HARD_SWISH after it).
    func clampsAtZero(_ index: Int, _ op: Operator, _ operators: [Operator]) -> Bool {
        if prelu[index] != nil || hardSwish.contains(index) { return false }
        let last = residual[index].map { options(of: $0.add, operators[$0.add]) } ?? options(of: index, op)
        let activation = GraphFusion.fusedActivation(of: last)
        return activation == .relu || activation == .relu6
    }

    /// The inputs operator `index` reads after the rewrites.
    func inputs(of index: Int, _ op: Operator) -> [Int] {
        inputs[index] ?? op.inputs.map(Int.init)
    }

    /// The outputs operator `index` writes after the rewrites.
    func outputs(of index: Int, _ op: Operator) -> [Int] {
        outputs[index] ?? op.outputs.map(Int.init)
    }

    /// The builtin code of operator `index` of the main subgraph.
    private static func code(_ index: Int, _ model: TFLiteModel) -> BuiltinOperator {
        model.operatorCodes[model.mainSubgraph.operators[index].opcodeIndex].builtinCode
    }

    /// The operators among `runtimeOperators` still running that read `tensor` (after the
    /// rewrites so far), in order.
    private func readers(of tensor: Int, _ model: TFLiteModel, _ runtimeOperators: [Int]) -> [Int] {
        let graph = model.mainSubgraph
        return runtimeOperators.filter { !removed.contains($0) && inputs(of: $0, graph.operators[$0]).contains(tensor) }
    }

    /// The operator among `runtimeOperators` still running that writes `tensor`, if any.
    private func writer(of tensor: Int, _ model: TFLiteModel, _ runtimeOperators: [Int]) -> Int? {
        let graph = model.mainSubgraph
        return runtimeOperators.first { !removed.contains($0) && outputs(of: $0, graph.operators[$0]).contains(tensor) }
    }

    /// Plans the rewrites for `runtimeOperators` (indices into the main subgraph, in order);
    /// tensors in `kept` (extra outputs) are treated like graph outputs and never fused away.
    init(
        model: TFLiteModel, runtimeOperators: [Int], descriptors: [TensorDescriptor], store: ConstantStore,
        kept: Set<Int> = [], tuning: EngineTuning = .standard
    ) {
        self.tuning = tuning
        let graph = model.mainSubgraph
        let graphOutputs = Set(graph.outputs.map(Int.init)).union(kept)
        func code(_ index: Int) -> BuiltinOperator { GraphFusion.code(index, model) }
        func readers(_ tensor: Int) -> [Int] { self.readers(of: tensor, model, runtimeOperators) }
        func writer(_ tensor: Int) -> Int? { self.writer(of: tensor, model, runtimeOperators) }

        // Spatial PADs into convolutions.
        for index in runtimeOperators where code(index) == .pad || code(index) == .padV2 {
            let op = graph.operators[index]
            guard op.inputs.count >= 2, op.outputs.count == 1,
                let paddings = GraphFusion.zeroPaddings(op, descriptors: descriptors, store: store),
                paddings[0] == 0, paddings[1] == 0, paddings[6] == 0, paddings[7] == 0
            else { continue }
            let source = Int(op.inputs[0])
            let padded = Int(op.outputs[0])
            let consumers = readers(padded)
            guard !graphOutputs.contains(padded), !store.isConstant(source), !consumers.isEmpty,
                consumers.allSatisfy({ consumer in
                    let list = inputs(of: consumer, graph.operators[consumer])
                    return (code(consumer) == .conv2D || code(consumer) == .depthwiseConv2D) && list.first == padded
                        && !list.dropFirst().contains(padded) && padding[consumer] == nil
                })
            else { continue }
            removed.insert(index)
            for consumer in consumers {
                var list = inputs(of: consumer, graph.operators[consumer])
                list[0] = source
                inputs[consumer] = list
                padding[consumer] = ExplicitPadding(
                    top: paddings[2], bottom: paddings[3], left: paddings[4], right: paddings[5])
            }
        }

        // Channel PADs into ADDs.
        for index in runtimeOperators where !removed.contains(index) && (code(index) == .pad || code(index) == .padV2) {
            let op = graph.operators[index]
            guard op.inputs.count >= 2, op.outputs.count == 1,
                let paddings = GraphFusion.zeroPaddings(op, descriptors: descriptors, store: store),
                paddings.dropLast().allSatisfy({ $0 == 0 }), paddings.last ?? 0 > 0
            else { continue }
            let source = Int(op.inputs[0])
            let padded = Int(op.outputs[0])
            let consumers = readers(padded)
            guard !graphOutputs.contains(padded), !store.isConstant(source), !consumers.isEmpty,
                consumers.allSatisfy({ consumer in
                    let list = inputs(of: consumer, graph.operators[consumer])
                    return code(consumer) == .add && list.count == 2 && list.filter({ $0 == padded }).count == 1
                        && !channelPadded.contains(consumer)
                        && list.allSatisfy({ $0 >= 0 && !store.isConstant($0) && descriptors[$0].type == .float32 })
                        && descriptors[list[0]].shape == descriptors[list[1]].shape
                })
            else { continue }
            removed.insert(index)
            for consumer in consumers {
                var list = inputs(of: consumer, graph.operators[consumer])
                // The full-width operand first, the narrow one second (addition commutes).
                list = list[0] == padded ? [list[1], source] : [list[0], source]
                inputs[consumer] = list
                channelPadded.insert(consumer)
            }
        }

        fuseLayerNorms(
            model: model, runtimeOperators: runtimeOperators, descriptors: descriptors, store: store,
            graphOutputs: graphOutputs)

        // Residual ADDs into the CONV_2D that writes one of their operands.
        let position = Dictionary(uniqueKeysWithValues: runtimeOperators.enumerated().map { ($0.element, $0.offset) })
        func fuseResidualAdds(into producerCode: BuiltinOperator) {
            for index in runtimeOperators where !removed.contains(index) && code(index) == .add {
                let op = graph.operators[index]
                let list = inputs(of: index, op)
                let sum = outputs(of: index, op)
                let padded = channelPadded.contains(index)
                guard list.count == 2, producerCode == .conv2D || !padded,
                    list.allSatisfy({ $0 >= 0 && !store.isConstant($0) && descriptors[$0].type == .float32 }),
                    sum.count == 1, sum[0] >= 0, descriptors[sum[0]].type == .float32,
                    padded || descriptors[list[0]].shape == descriptors[list[1]].shape
                else { continue }
                // With a channel-padded ADD only the full-width operand (first) can be the convolution's.
                for side in (padded ? [0] : [0, 1]) {
                    let produced = list[side]
                    let other = list[1 - side]
                    guard !graphOutputs.contains(produced), let producer = writer(produced),
                        code(producer) == producerCode, residual[producer] == nil, prelu[producer] == nil,
                        readers(produced) == [index], let producerPosition = position[producer],
                        descriptors[produced].shape.count == 4
                    else { continue }
                    // The other operand must be ready when the producer runs.
                    if let otherWriter = writer(other), let otherPosition = position[otherWriter],
                        otherPosition >= producerPosition
                    {
                        continue
                    }
                    removed.insert(index)
                    // The residual becomes input 3 (after an omitted bias if need be).
                    var extended = inputs(of: producer, graph.operators[producer])
                    while extended.count < 3 { extended.append(-1) }
                    inputs[producer] = extended + [other]
                    outputs[producer] = sum
                    residual[producer] = (index, padded)
                    break
                }
            }
        }
        fuseResidualAdds(into: .conv2D)

        // PRELUs into the CONV_2D or ADD that writes their input.
        for index in runtimeOperators where code(index) == .prelu {
            let op = graph.operators[index]
            guard op.inputs.count == 2, op.outputs.count == 1, op.inputs[0] >= 0, op.inputs[1] >= 0 else { continue }
            let x = Int(op.inputs[0])
            let alpha = Int(op.inputs[1])
            let channels = descriptors[x].shape.last ?? 0
            guard store.isConstant(alpha), descriptors[alpha].type == .float32, channels > 0,
                descriptors[alpha].elementCount == channels, descriptors[alpha].shape.last == channels,
                descriptors[x].type == .float32, !graphOutputs.contains(x),
                let producer = writer(x), prelu[producer] == nil, !layerNorm.contains(producer), readers(x) == [index]
            else { continue }
            let producerOp = graph.operators[producer]
            let producerInputs = inputs(of: producer, producerOp)
            switch code(producer) {
            case .conv2D:
                guard descriptors[x].shape.count == 4 else { continue }
            case .add:
                guard producerInputs.count == 2, producerInputs.allSatisfy({ $0 >= 0 }),
                    channelPadded.contains(producer)
                        || descriptors[producerInputs[0]].shape == descriptors[producerInputs[1]].shape
                else { continue }
            default:
                continue
            }
            removed.insert(index)
            outputs[producer] = [Int(op.outputs[0])]
            prelu[producer] = alpha
        }

        // Clamping activations into the operator that writes their input.
        for index in runtimeOperators {
            let clamp: FusedActivation
            switch code(index) {
            case .relu: clamp = .relu
            case .relu6: clamp = .relu6
            case .reluN1To1: clamp = .reluN1To1
            default: continue
            }
            let op = graph.operators[index]
            guard op.inputs.count == 1, op.outputs.count == 1, op.inputs[0] >= 0 else { continue }
            let x = Int(op.inputs[0])
            let y = Int(op.outputs[0])
            guard descriptors[x].type == .float32, descriptors[y].type == .float32, !graphOutputs.contains(x),
                let producer = writer(x), readers(x) == [index], prelu[producer] == nil,
                !layerNorm.contains(producer),
                [.conv2D, .depthwiseConv2D, .add, .maxPool2D, .averagePool2D].contains(code(producer))
            else { continue }
            // A convolution with a residual ADD fused takes the clamp as the ADD's activation.
            let owner = residual[producer]?.add ?? producer
            guard activation[owner] == nil,
                GraphFusion.fusedActivation(of: graph.operators[owner].builtinOptions) == FusedActivation.none
            else { continue }
            removed.insert(index)
            outputs[producer] = [y]
            activation[owner] = clamp
        }

        // Residual ADDs into the DEPTHWISE_CONV_2D that writes one of their operands, after the
        // clamps: the depthwise convolution's own activation (a RELU fused above) comes first.
        fuseResidualAdds(into: .depthwiseConv2D)

        // HARD_SWISH into the convolution that writes its input.
        for index in runtimeOperators where code(index) == .hardSwish {
            let op = graph.operators[index]
            guard op.inputs.count == 1, op.outputs.count == 1, op.inputs[0] >= 0 else { continue }
            let x = Int(op.inputs[0])
            let y = Int(op.outputs[0])
            guard descriptors[x].type == .float32, descriptors[y].type == .float32, !graphOutputs.contains(x),
                let producer = writer(x), readers(x) == [index], [.conv2D, .depthwiseConv2D].contains(code(producer)),
                residual[producer] == nil, prelu[producer] == nil, activation[producer] == nil,
                GraphFusion.fusedActivation(of: graph.operators[producer].builtinOptions) == FusedActivation.none
            else { continue }
            removed.insert(index)
            outputs[producer] = [y]
            hardSwish.insert(producer)
        }

        fuseDepthwise(
            model: model, runtimeOperators: runtimeOperators, descriptors: descriptors, store: store,
            graphOutputs: graphOutputs)
        fusePointwise(
            model: model, runtimeOperators: runtimeOperators, descriptors: descriptors, store: store,
            graphOutputs: graphOutputs)
        fuseChannelScales(
            model: model, runtimeOperators: runtimeOperators, descriptors: descriptors, store: store,
            graphOutputs: graphOutputs)
        fuseTokenMixings(
            model: model, runtimeOperators: runtimeOperators, descriptors: descriptors, store: store,
            graphOutputs: graphOutputs)
    }

    /// Plans the transposed token mixings (last: the convolutions must have taken their clamps
    /// and nothing else).
    private mutating func fuseTokenMixings(
        model: TFLiteModel, runtimeOperators: [Int], descriptors: [TensorDescriptor], store: ConstantStore,
        graphOutputs: Set<Int>
    ) {
        let graph = model.mainSubgraph
        func code(_ index: Int) -> BuiltinOperator { GraphFusion.code(index, model) }
        func readers(_ tensor: Int) -> [Int] { self.readers(of: tensor, model, runtimeOperators) }
        func writer(_ tensor: Int) -> Int? { self.writer(of: tensor, model, runtimeOperators) }
        func isFloat(_ tensor: Int) -> Bool {
            tensor >= 0 && tensor < descriptors.count && descriptors[tensor].type == .float32
        }
        /// Input and output of a running TRANSPOSE that swaps the last two axes of a computed
        /// float tensor whose other axes have size 1.
        func swap(_ index: Int) -> (input: Int, output: Int)? {
            guard !removed.contains(index), code(index) == .transpose else { return nil }
            let op = graph.operators[index]
            let list = inputs(of: index, op)
            let out = outputs(of: index, op)
            guard list.count == 2, isFloat(list[0]), !store.isConstant(list[0]), out.count == 1, isFloat(out[0]),
                StridedCopyKernel.swapsLastTwoAxes(op, inputShape: descriptors[list[0]].shape, store: store)
            else { return nil }
            return (list[0], out[0])
        }
        /// Input, output, outputs `n` and depth `k` of a running 1×1 stride-1 CONV_2D with a
        /// constant float filter (and bias), a clamp or nothing as its activation, nothing fused.
        func pointwise(_ index: Int) -> (input: Int, output: Int, n: Int, k: Int)? {
            let op = graph.operators[index]
            guard !removed.contains(index), code(index) == .conv2D, residual[index] == nil, prelu[index] == nil,
                !hardSwish.contains(index), depthwise[index] == nil, padding[index] == nil,
                case .conv2D(let conv) = options(of: index, op), conv.strideWidth == 1, conv.strideHeight == 1,
                [FusedActivation.none, .relu, .relu6, .reluN1To1].contains(conv.activation)
            else { return nil }
            let list = inputs(of: index, op)
            let out = outputs(of: index, op)
            guard list.count == 2 || list.count == 3, isFloat(list[0]), isFloat(list[1]), store.isConstant(list[1]),
                list.count == 2 || list[2] < 0 || (isFloat(list[2]) && store.isConstant(list[2])), out.count == 1,
                isFloat(out[0])
            else { return nil }
            let filter = descriptors[list[1]].shape
            let x = descriptors[list[0]].shape
            let y = descriptors[out[0]].shape
            guard filter.count == 4, filter[1] == 1, filter[2] == 1, x.count == 4, y.count == 4,
                Array(x.dropLast()) == Array(y.dropLast()), x[3] == filter[3], y[3] == filter[0]
            else { return nil }
            return (list[0], out[0], filter[0], filter[3])
        }
        for index in runtimeOperators {
            guard let closing = swap(index), !graphOutputs.contains(closing.input),
                let secondIndex = writer(closing.input), let second = pointwise(secondIndex),
                readers(second.output) == [index], !graphOutputs.contains(second.input),
                let firstIndex = writer(second.input), let first = pointwise(firstIndex),
                readers(first.output) == [secondIndex], !graphOutputs.contains(first.input),
                let openingIndex = writer(first.input), let opening = swap(openingIndex),
                readers(opening.output) == [firstIndex]
            else { continue }
            // X (tokens rows of channels) comes back in its own shape.
            let x = descriptors[opening.input].shape
            let tokens = x[x.count - 2]
            guard tokens <= tuning.transposedMixingTokens, first.k == tokens, second.k == first.n,
                second.n == tokens, descriptors[closing.output].shape == x
            else { continue }
            removed.formUnion([openingIndex, firstIndex, secondIndex])
            inputs[index] = [opening.input]
            tokenMixing[index] = (firstIndex, secondIndex)
        }
    }

    /// Plans the MUL-by-a-channel-vector → ADD fusions (last: an ADD another rewrite took is
    /// left to it).
    private mutating func fuseChannelScales(
        model: TFLiteModel, runtimeOperators: [Int], descriptors: [TensorDescriptor], store: ConstantStore,
        graphOutputs: Set<Int>
    ) {
        let graph = model.mainSubgraph
        func code(_ index: Int) -> BuiltinOperator { GraphFusion.code(index, model) }
        func isFloatTensor(_ t: Int) -> Bool { t >= 0 && t < descriptors.count && descriptors[t].type == .float32 }
        for index in runtimeOperators where !removed.contains(index) && code(index) == .add {
            let op = graph.operators[index]
            let list = inputs(of: index, op)
            guard list.count == 2, !channelPadded.contains(index), !layerNorm.contains(index), prelu[index] == nil,
                list.allSatisfy({ isFloatTensor($0) && !store.isConstant($0) }),
                descriptors[list[0]].shape == descriptors[list[1]].shape,
                let channels = descriptors[list[0]].shape.last, channels > 0
            else { continue }
            for side in [0, 1] {
                let product = list[side]
                guard !graphOutputs.contains(product), let mul = writer(of: product, model, runtimeOperators),
                    code(mul) == .mul, readers(of: product, model, runtimeOperators) == [index],
                    activation[mul] == nil,
                    GraphFusion.fusedActivation(of: graph.operators[mul].builtinOptions) == FusedActivation.none
                else { continue }
                let factors = inputs(of: mul, graph.operators[mul])
                guard factors.count == 2, factors.allSatisfy(isFloatTensor) else { continue }
                // One factor the product's shape, the other one value per channel.
                func isChannelVector(_ t: Int) -> Bool {
                    descriptors[t].elementCount == channels && descriptors[t].shape.last == channels
                }
                let full = descriptors[factors[0]].shape == descriptors[product].shape ? 0 : 1
                guard descriptors[factors[full]].shape == descriptors[product].shape,
                    isChannelVector(factors[1 - full])
                else { continue }
                removed.insert(mul)
                inputs[index] = [factors[full], list[1 - side], factors[1 - full]]
                scaledAdd.insert(index)
                break
            }
        }
    }

    /// Plans the layer normalisation fusions (see the type's documentation for the pattern).
    private mutating func fuseLayerNorms(
        model: TFLiteModel, runtimeOperators: [Int], descriptors: [TensorDescriptor], store: ConstantStore,
        graphOutputs: Set<Int>
    ) {
        let graph = model.mainSubgraph
        func code(_ index: Int) -> BuiltinOperator { GraphFusion.code(index, model) }
        func readers(_ tensor: Int) -> [Int] { self.readers(of: tensor, model, runtimeOperators) }
        /// The operator's inputs and single output when it has `count` inputs, all present.
        func operands(_ index: Int, _ count: Int) -> (inputs: [Int], output: Int)? {
            let op = graph.operators[index]
            let list = inputs(of: index, op)
            let out = outputs(of: index, op)
            guard list.count == count, list.allSatisfy({ $0 >= 0 }), out.count == 1, out[0] >= 0,
                !graphOutputs.contains(out[0]), descriptors[out[0]].type == .float32
            else { return nil }
            return (list, out[0])
        }
        /// The only reader of `tensor` when it has one and that one has code `expected`.
        func soleReader(_ tensor: Int, _ expected: BuiltinOperator) -> Int? {
            let list = readers(tensor)
            guard list.count == 1, !removed.contains(list[0]), code(list[0]) == expected else { return nil }
            return list[0]
        }
        /// Whether an element-wise operator has no fused activation.
        func plain(_ index: Int) -> Bool {
            (GraphFusion.fusedActivation(of: graph.operators[index].builtinOptions) ?? FusedActivation.none)
                == FusedActivation.none
        }
        /// Whether MEAN `index` reduces the last axis of its input, keeping it.
        func lastAxisMean(_ index: Int) -> (input: Int, output: Int)? {
            guard code(index) == .mean, let (list, out) = operands(index, 2), !store.isConstant(list[0]),
                descriptors[list[0]].type == .float32
            else { return nil }
            let shape = descriptors[list[0]].shape
            guard shape.count >= 2,
                ReduceKernel.reducesLastAxisKeepingIt(graph.operators[index], rank: shape.count, store: store),
                descriptors[out].shape == Array(shape.dropLast()) + [1]
            else { return nil }
            return (list[0], out)
        }
        for meanIndex in runtimeOperators where !removed.contains(meanIndex) {
            guard let (x, m) = lastAxisMean(meanIndex) else { continue }
            let shape = descriptors[x].shape
            let channels = shape.last ?? 0
            // m is read by NEG and SQUARED_DIFFERENCE(x, m).
            let mReaders = readers(m)
            guard mReaders.count == 2, let negIndex = mReaders.first(where: { code($0) == .negate }),
                let squareIndex = mReaders.first(where: { code($0) == .squaredDifference }),
                let (_, negM) = operands(negIndex, 1), let (squareInputs, square) = operands(squareIndex, 2),
                Set(squareInputs) == [x, m], descriptors[square].shape == shape,
                let varianceIndex = soleReader(square, .mean), let (_, variance) = lastAxisMean(varianceIndex),
                let epsilonIndex = soleReader(variance, .add), plain(epsilonIndex),
                let (epsilonInputs, shifted) = operands(epsilonIndex, 2),
                let epsilon = epsilonInputs.first(where: { $0 != variance }), store.isConstant(epsilon),
                descriptors[epsilon].type == .float32, descriptors[epsilon].elementCount == 1,
                let rsqrtIndex = soleReader(shifted, .reciprocalSquareRoot), let (_, root) = operands(rsqrtIndex, 1),
                let scaleIndex = soleReader(root, .mul), plain(scaleIndex),
                let (scaleInputs, scale) = operands(scaleIndex, 2),
                let gamma = scaleInputs.first(where: { $0 != root }), store.isConstant(gamma),
                descriptors[gamma].type == .float32, descriptors[gamma].elementCount == channels,
                descriptors[gamma].shape.last == channels, descriptors[scale].shape == shape
            else { continue }
            // s is read by MUL(x, s) and MUL(−m, s), whose products only the final ADD reads.
            let sReaders = readers(scale)
            guard sReaders.count == 2, sReaders.allSatisfy({ code($0) == .mul && plain($0) }),
                let xIndex = sReaders.first(where: { operands($0, 2).map { Set($0.inputs) == [x, scale] } ?? false }),
                let negIndex2 = sReaders.first(where: {
                    operands($0, 2).map { Set($0.inputs) == [negM, scale] } ?? false
                }),
                readers(negM) == [negIndex2], let (_, xs) = operands(xIndex, 2), let (_, ms) = operands(negIndex2, 2),
                let addIndex = soleReader(xs, .add), readers(ms) == [addIndex], plain(addIndex),
                let (addInputs, y) = operands(addIndex, 2), Set(addInputs) == [xs, ms], descriptors[y].shape == shape
            else { continue }
            for index in [
                meanIndex, negIndex, squareIndex, varianceIndex, epsilonIndex, rsqrtIndex, scaleIndex,
                xIndex, negIndex2,
            ] {
                removed.insert(index)
            }
            inputs[addIndex] = [x, epsilon, gamma]
            layerNorm.insert(addIndex)
        }
    }

    /// Plans the 1×1 convolution → depthwise fusions (last: a depthwise layer already fused into
    /// the convolution after it stays there, and its 1×1 producer joins the two).
    private mutating func fusePointwise(
        model: TFLiteModel, runtimeOperators: [Int], descriptors: [TensorDescriptor],
        store: ConstantStore, graphOutputs: Set<Int>
    ) {
        let graph = model.mainSubgraph
        func code(_ index: Int) -> BuiltinOperator { GraphFusion.code(index, model) }
        // A depthwise convolution already fused into the 1×1 convolution after it takes its 1×1
        // producer too: the three convolutions of an inverted-residual block then run as one
        // kernel, and neither wide middle tensor goes through memory.
        let consumers = Dictionary(depthwise.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        for index in runtimeOperators
        where (!removed.contains(index) || consumers[index] != nil) && code(index) == .depthwiseConv2D
            && prelu[index] == nil && (residual[index] == nil || consumers[index] == nil) && !hardSwish.contains(index)
        {
            var list = inputs(of: index, graph.operators[index])
            let outputList = outputs(of: index, graph.operators[index])
            guard list.count >= 2, list[0] >= 0, outputList.count == 1, outputList[0] >= 0, !store.isConstant(list[0])
            else { continue }
            let middle = list[0]
            // A fused residual ADD that adds the 1×1 output itself (the selfie segmenter's decoder
            // blocks) takes it from the kernel's band: a stride-1 window whose output has the 1×1
            // output's shape, so the band holds those rows.
            let residualIsMiddle = residual[index] != nil && list.count >= 4 && list[3] == middle
            guard descriptors[middle].type == .float32, descriptors[middle].shape.count == 4,
                !graphOutputs.contains(middle),
                residual[index] == nil
                    || (residualIsMiddle && residual[index]?.channelPadded == false
                        && descriptors[outputList[0]].shape == descriptors[middle].shape),
                (descriptors[middle].byteCount ?? 0)
                    >= (consumers[index] == nil
                        ? tuning.fusedPointwiseBytes : tuning.fusedExpansionBytes),
                descriptors[outputList[0]].type == .float32, descriptors[outputList[0]].shape.count == 4,
                descriptors[outputList[0]].shape[1] >= tuning.fusedPointwiseRows,
                descriptors[outputList[0]].shape.last == descriptors[middle].shape.last,
                let producer = writer(of: middle, model, runtimeOperators),
                code(producer) == .conv2D, residual[producer] == nil, prelu[producer] == nil, padding[producer] == nil,
                !hardSwish.contains(producer),
                depthwise[producer] == nil, outputs(of: producer, graph.operators[producer]) == [middle],
                // (A fused depthwise convolution's input is read through its consumer.)
                readers(of: middle, model, runtimeOperators) == [consumers[index] ?? index]
            else { continue }
            let conv = graph.operators[producer]
            let convInputs = inputs(of: producer, conv)
            guard case .conv2D(let options) = conv.builtinOptions, options.strideHeight == 1, options.strideWidth == 1,
                let clamp = ActivationClamp(options.activation), !clamp.hasFunction,
                convInputs.count >= 2, convInputs.count <= 3, convInputs[0] >= 0, convInputs[1] >= 0,
                !store.isConstant(convInputs[0]), descriptors[convInputs[0]].type == .float32,
                descriptors[convInputs[0]].shape.count == 4, store.isConstant(convInputs[1]),
                descriptors[convInputs[1]].type == .float32, descriptors[convInputs[1]].shape.count == 4,
                descriptors[convInputs[1]].shape[1] == 1, descriptors[convInputs[1]].shape[2] == 1,
                descriptors[convInputs[1]].shape[0] > ConvDotKernel.maximumOutputChannels,
                convInputs.count < 3 || convInputs[2] < 0 || store.isConstant(convInputs[2])
            else { continue }
            removed.insert(producer)
            list[0] = convInputs[0]
            if residualIsMiddle {
                list[3] = -1
                residualFromPointwise.insert(index)
            }
            inputs[index] = list
            pointwise[index] = producer
            if let consumer = consumers[index], var consumerInputs = inputs[consumer] {
                consumerInputs[0] = convInputs[0]
                inputs[consumer] = consumerInputs
            }
        }
    }

    /// Plans the depthwise → 1×1 convolution fusions (after the other rewrites).
    private mutating func fuseDepthwise(
        model: TFLiteModel, runtimeOperators: [Int], descriptors: [TensorDescriptor],
        store: ConstantStore, graphOutputs: Set<Int>
    ) {
        let graph = model.mainSubgraph
        func code(_ index: Int) -> BuiltinOperator { GraphFusion.code(index, model) }
        for index in runtimeOperators where !removed.contains(index) && code(index) == .conv2D {
            let op = graph.operators[index]
            guard case .conv2D(let options) = op.builtinOptions, options.strideHeight == 1, options.strideWidth == 1,
                padding[index] == nil
            else { continue }
            var list = inputs(of: index, op)
            guard list.count >= 2, list[0] >= 0, list[1] >= 0, store.isConstant(list[1]),
                descriptors[list[1]].shape.count == 4, descriptors[list[1]].shape[1] == 1,
                descriptors[list[1]].shape[2] == 1,
                // A few outputs run as dot products (ConvDotKernel), which take no depthwise stage.
                descriptors[list[1]].shape[0] > ConvDotKernel.maximumOutputChannels,
                let filter = try? store.value(of: list[1]), filter.descriptor.type == .float32,
                // Sparse weights multiply tiles of pixels that bands of rows would cut badly.
                !SparseConvKernel.prefersSparse(
                    filter.floats, n: descriptors[list[1]].shape[0], k: descriptors[list[1]].shape[3])
            else { continue }
            let middle = list[0]
            guard descriptors[middle].type == .float32, op.outputs.count == 1,
                descriptors[Int(op.outputs[0])].type == .float32,
                DepthwisePointwiseKernel.worthFusing(descriptors[middle].shape, tuning: tuning),
                !graphOutputs.contains(middle),
                let producer = writer(of: middle, model, runtimeOperators),
                code(producer) == .depthwiseConv2D, prelu[producer] == nil, residual[producer] == nil,
                !hardSwish.contains(producer),
                readers(of: middle, model, runtimeOperators) == [index]
            else { continue }
            let dw = graph.operators[producer]
            let dwInputs = inputs(of: producer, dw)
            // Multiplier 1 only (equal input and output depth).
            guard dwInputs.count >= 2, dwInputs[0] >= 0,
                descriptors[dwInputs[0]].shape.last == descriptors[middle].shape.last
            else { continue }
            removed.insert(producer)
            list[0] = dwInputs[0]
            inputs[index] = list
            depthwise[index] = producer
        }
    }

    /// The `[rank × 2]` paddings of a rank-4 FLOAT32 PAD/PADV2 that pads with zeros; `nil`
    /// otherwise.
    private static func zeroPaddings(_ op: Operator, descriptors: [TensorDescriptor], store: ConstantStore) -> [Int]? {
        let source = descriptors[Int(op.inputs[0])]
        guard source.type == .float32, source.shape.count == 4,
            let paddings = try? store.value(of: Int(op.inputs[1]))?.integers(), paddings.count == 8,
            paddings.allSatisfy({ $0 >= 0 })
        else { return nil }
        if op.inputs.count > 2 && op.inputs[2] >= 0 {
            guard let value = try? store.value(of: Int(op.inputs[2])), value.descriptor.type == .float32,
                value.descriptor.elementCount == 1, value.floats[0] == 0
            else { return nil }
        }
        return paddings
    }
}
