import ModelFile

/// Load-time pass 2 (after ``GraphFusion``): which tensors share memory and when each is live.
///
/// A reshape of a tensor that is not constant becomes an alias of its input (no kernel runs for
/// it); aliases form sets whose representative owns the memory. Every representative's lifetime
/// is the first and last position, in run order, of an operator that reads or writes a tensor of
/// its set; graph inputs and outputs live through the whole run.
struct TensorLifetimes {
    /// The reshape operators that became aliases.
    private(set) var aliased = Set<Int>()
    /// Union-find parents: a tensor's representative is reached by following them.
    private var parent: [Int]
    /// First and last live position of each representative.
    private(set) var first: [Int: Int] = [:]
    private(set) var last: [Int: Int] = [:]

    /// Computes aliases and lifetimes for `runtimeOperators` (in run order).
    ///
    /// - Throws: ``InferenceError`` for an invalid reshape, or a constant written by an operator.
    init(
        model: TFLiteModel, runtimeOperators: [Int], fusion: GraphFusion, descriptors: [TensorDescriptor],
        store: ConstantStore, graphInputs: [Int], graphOutputs: [Int], arithmetic: QuantizedArithmetic,
        instructionSet: InstructionSet
    ) throws {
        let graph = model.mainSubgraph
        parent = Array(0..<descriptors.count)
        let placeholder = AlignedBuffer(byteCount: 0)
        for index in runtimeOperators {
            let op = graph.operators[index]
            let code = model.operatorCodes[op.opcodeIndex]
            guard KernelFactory.isReshape(code.builtinCode), let input = op.inputs.first, input >= 0,
                op.outputs.count == 1, !store.isConstant(Int(input))
            else { continue }
            let ctx = OperatorContext(
                index: index, code: code, options: op.builtinOptions, inputIndices: op.inputs.map(Int.init),
                outputIndices: op.outputs.map(Int.init), descriptors: descriptors, constants: store,
                address: { _ in placeholder.raw }, arithmetic: arithmetic, customOptions: op.customOptions,
                instructionSet: instructionSet)
            try KernelFactory.validateReshape(ctx)
            let output = Int(op.outputs[0])
            // An output that is a graph input cannot be an alias (it is written by the caller).
            guard !graphInputs.contains(output) else { continue }
            parent[output] = representative(of: Int(input))
            aliased.insert(index)
        }
        let end = graph.operators.count + 1
        for t in graphInputs {
            live(t, -1)
            live(t, end)
        }
        for t in graphOutputs {
            live(t, -1 * (store.isConstant(t) ? 1 : 0))
            live(t, end)
        }
        for (position, index) in runtimeOperators.enumerated() {
            let op = graph.operators[index]
            for t in fusion.inputs(of: index, op) where t >= 0 && !store.isConstant(t) { live(t, position) }
            for t in fusion.outputs(of: index, op) { live(t, position) }
        }
        let outputSet = Set(graphOutputs)
        for t in first.keys where store.isConstant(t) && !outputSet.contains(t) {
            throw InferenceError.invalidModel(
                "constant tensor \(t) ('\(descriptors[t].name)') is written by an operator")
        }
    }

    /// The tensor that owns the memory of `tensor` (itself unless it is an alias).
    func representative(of tensor: Int) -> Int {
        var t = tensor
        while parent[t] != t { t = parent[t] }
        return t
    }

    /// Widens the lifetime of `tensor`'s representative to include `position`.
    private mutating func live(_ tensor: Int, _ position: Int) {
        let r = representative(of: tensor)
        first[r] = Swift.min(first[r] ?? position, position)
        last[r] = Swift.max(last[r] ?? position, position)
    }

    /// Load-time pass 3's input: one ``MemoryPlanner`` request per live representative.
    ///
    /// - Throws: ``InferenceError/invalidModel(_:)`` for a live tensor of an unsupported type.
    func memoryRequests(descriptors: [TensorDescriptor]) throws -> [MemoryPlanner.Request] {
        var requests: [MemoryPlanner.Request] = []
        for (r, start) in first {
            guard let byteCount = descriptors[r].byteCount else {
                throw InferenceError.invalidModel(
                    "tensor \(r) ('\(descriptors[r].name)') has unsupported type \(descriptors[r].type)")
            }
            requests.append(.init(id: r, byteCount: byteCount, first: start, last: last[r] ?? start))
        }
        return requests
    }
}
