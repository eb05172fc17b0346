import ModelFile

/// Load-time pass 1b (after ``ConstantFolding``, before ``GraphFusion`` drops operators): which
/// part of each float tensor is ever read, worked out backwards from the graph's outputs, so
/// that a kernel can compute only that part of its output.
///
/// A tensor is seen as pixels × channels: its last axis holds the channels and the axes before
/// it are flattened into pixels (an NHWC tensor's pixels in memory order). A demand is all of a
/// tensor, a range of its pixels, or a range of its channels.
///
/// The face blendshapes model (an MLP-Mixer) is the case in point: only the first of its 97
/// tokens reaches the output (two STRIDED_SLICEs after the last block). So the last channel MLP,
/// two 1×1 convolutions over the 97 tokens as pixels, needs one pixel; and the convolution that
/// ends the last token-mixing MLP, whose output channels are the tokens (a TRANSPOSE follows),
/// needs one channel. That is 17 % of the model's multiply-adds not done. The values that are
/// computed are computed exactly as before, so the outputs keep their bits.
///
/// Every rule is an exact dependency: the demanded part of an operator's output depends only on
/// the demanded parts of its inputs. A kernel may compute more than its output's demand (most
/// compute all of it); one that does reads parts of its inputs that may not have been computed,
/// and what it derives from them lands only in parts of its output that nothing reads.
struct DemandAnalysis {
    /// The part of a tensor that is read.
    enum Demand: Equatable {
        case all
        /// Every channel of pixels `range`.
        case pixels(Range<Int>)
        /// Channels `range` of every pixel.
        case channels(Range<Int>)

        /// The smallest demand that covers both.
        func union(_ other: Demand) -> Demand {
            switch (self, other) {
            case (.pixels(let a), .pixels(let b)):
                return .pixels(Swift.min(a.lowerBound, b.lowerBound)..<Swift.max(a.upperBound, b.upperBound))
            case (.channels(let a), .channels(let b)):
                return .channels(Swift.min(a.lowerBound, b.lowerBound)..<Swift.max(a.upperBound, b.upperBound))
            default:
                return .all
            }
        }
    }

    /// Demands narrower than the whole tensor, by tensor index.
    private(set) var demands: [Int: Demand] = [:]

    /// The part of `tensor` that is read.
    func demand(of tensor: Int) -> Demand { demands[tensor] ?? .all }

    /// Works back from `outputs` (the graph's outputs and any extra ones, read whole) through
    /// `runtimeOperators` (in run order).
    init(
        model: TFLiteModel, runtimeOperators: [Int], descriptors: [TensorDescriptor], store: ConstantStore,
        outputs: Set<Int>
    ) {
        let graph = model.mainSubgraph
        var read: [Int: Demand] = [:]
        for t in outputs { read[t] = .all }
        for index in runtimeOperators.reversed() {
            let op = graph.operators[index]
            let outputList = op.outputs.map(Int.init)
            let inputList = op.inputs.map(Int.init)
            // An output nothing reads is left whole: its operator still runs. Operators with
            // several outputs (or an unknown code) read their inputs whole.
            let known = op.opcodeIndex >= 0 && op.opcodeIndex < model.operatorCodes.count
            let output =
                known && outputList.count == 1 && outputList[0] >= 0 && outputList[0] < descriptors.count
                ? outputList[0] : nil
            let demand = output.flatMap { read[$0] } ?? .all
            for (position, t) in inputList.enumerated() where t >= 0 && t < descriptors.count && !store.isConstant(t) {
                let part =
                    output.map {
                        DemandAnalysis.inputDemand(
                            model.operatorCodes[op.opcodeIndex].builtinCode, op, position: position, output: demand,
                            outputDescriptor: descriptors[$0], inputDescriptor: descriptors[t], store: store)
                    } ?? .all
                read[t] = read[t].map { $0.union(part) } ?? part
            }
        }
        demands = read.filter { $0.value != .all }
    }

    /// Pixels of a tensor of `shape` (the product of all but its last axis).
    private static func pixels(_ shape: [Int]) -> Int { shape.dropLast().reduce(1, *) }

    /// The part of input `position` that the `output` part of the operator's output depends on.
    private static func inputDemand(
        _ code: BuiltinOperator, _ op: Operator, position: Int, output: Demand, outputDescriptor: TensorDescriptor,
        inputDescriptor: TensorDescriptor, store: ConstantStore
    ) -> Demand {
        let outputShape = outputDescriptor.shape
        let inputShape = inputDescriptor.shape
        guard outputDescriptor.type == .float32, inputDescriptor.type == .float32, !outputShape.isEmpty,
            !inputShape.isEmpty
        else { return .all }
        // Only a slice narrows what a whole output reads.
        if output == .all && code != .stridedSlice { return .all }
        switch code {
        case .negate, .squareRoot, .reciprocalSquareRoot, .logistic, .tanh, .relu, .relu6, .reluN1To1, .hardSwish,
            .leakyRelu:
            return inputShape == outputShape ? output : .all
        case .add, .sub, .mul, .div, .squaredDifference, .maximum, .minimum, .prelu:
            return broadcast(output, from: outputShape, to: inputShape)
        case .mean, .sum:
            // Over the channels only, dimensions kept: pixel p of the output reads pixel p.
            guard position == 0, case .pixels = output, inputShape.count == outputShape.count,
                pixels(inputShape) == pixels(outputShape),
                ReduceKernel.reducesLastAxisKeepingIt(op, rank: inputShape.count, store: store)
            else { return .all }
            return output
        case .transpose:
            // The last two axes swapped, every other axis of size 1: pixels and channels trade
            // places.
            guard position == 0, StridedCopyKernel.swapsLastTwoAxes(op, inputShape: inputShape, store: store)
            else { return .all }
            switch output {
            case .pixels(let range): return .channels(range)
            case .channels(let range): return .pixels(range)
            case .all: return .all
            }
        case .conv2D:
            // A 1×1 filter with stride 1: pixel p of the output reads pixel p of the input.
            guard position == 0, case .pixels = output, case .conv2D(let options) = op.builtinOptions,
                options.strideWidth == 1, options.strideHeight == 1, inputShape.count == 4, outputShape.count == 4,
                Array(inputShape.dropLast()) == Array(outputShape.dropLast()), op.inputs.count > 1,
                let filter = try? store.value(of: Int(op.inputs[1])),
                filter.descriptor.shape.count == 4, filter.descriptor.shape[1] == 1, filter.descriptor.shape[2] == 1
            else { return .all }
            return output
        case .stridedSlice:
            // Whatever part of the output is read, the pixels the slice reads.
            let inputs = op.inputs.map(Int.init)
            guard position == 0, inputs.count == 4, case .stridedSlice(let options) = op.builtinOptions,
                options.ellipsisMask == 0, options.newAxisMask == 0,
                let begins = try? store.value(of: inputs[1])?.integers(),
                let ends = try? store.value(of: inputs[2])?.integers(),
                let steps = try? store.value(of: inputs[3])?.integers(),
                let layout = try? StridedCopyKernel.sliceLayout(
                    input: inputShape, begins: begins, ends: ends, steps: steps, options: options),
                var bounds = layout.elementBounds, let channels = inputShape.last, channels > 0
            else { return .all }
            // Some pixels of the output: with positive steps the slice keeps the elements' order,
            // so the first and last elements of those pixels bound what they read.
            if case .pixels(let range) = output, let outputChannels = outputShape.last, !range.isEmpty,
                layout.steps.allSatisfy({ $0 > 0 }), layout.shape.count == outputShape.count,
                range.upperBound * outputChannels <= layout.shape.reduce(1, *)
            {
                bounds =
                    layout.inputElement(
                        range.lowerBound * outputChannels)...layout.inputElement(
                        range.upperBound * outputChannels - 1)
            }
            return .pixels((bounds.lowerBound / channels)..<(bounds.upperBound / channels + 1))
        default:
            return .all
        }
    }

    /// The part of a broadcast operand of shape `input` that the `output` part of an element-wise
    /// result of shape `output` reads (shapes aligned at their last axes, as TFLite broadcasts).
    private static func broadcast(_ demand: Demand, from output: [Int], to input: [Int]) -> Demand {
        if input == output { return demand }
        guard input.count <= output.count else { return .all }
        let aligned = Array(repeating: 1, count: output.count - input.count) + input
        switch demand {
        case .pixels:
            // One value per pixel (a per-token statistic): the same pixels.
            return aligned.last == 1 && Array(aligned.dropLast()) == Array(output.dropLast()) ? demand : .all
        case .channels:
            // The same channels, whichever pixels it broadcasts over.
            return aligned.last == output.last ? demand : .all
        case .all:
            return .all
        }
    }
}
