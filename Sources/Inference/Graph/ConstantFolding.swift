import ModelFile

/// Load-time pass 1: checks every operator of the main subgraph and runs, once, each operator
/// whose inputs are all constant (FLOAT16 `DEQUANTIZE`, sparse `DENSIFY`, and any other), keeping
/// its outputs as constants; the operators left are the ones ``Interpreter/invoke()`` runs.
enum ConstantFolding {
    /// The operators that remain to run, in model order.
    ///
    /// - Throws: ``InferenceError`` for an unsupported operator, or a `DENSIFY` of a tensor that is
    ///   not a sparse constant.
    static func run(
        model: TFLiteModel, descriptors: [TensorDescriptor], store: ConstantStore, outputs: Set<Int>,
        pool: ThreadPool, arithmetic: QuantizedArithmetic, instructionSet: InstructionSet
    ) throws -> [Int] {
        let graph = model.mainSubgraph
        var runtimeOperators: [Int] = []
        for (index, op) in graph.operators.enumerated() {
            let code = model.operatorCodes[op.opcodeIndex]
            try KernelFactory.validate(code, index: index)
            let inputs = op.inputs.map(Int.init)
            let results = op.outputs.map(Int.init)
            let foldable =
                !inputs.filter { $0 >= 0 }.isEmpty
                && inputs.allSatisfy { $0 < 0 || store.isConstant($0) }
                && !results.contains(where: { outputs.contains($0) || graph.tensors[$0].isVariable })
            if foldable {
                try fold(
                    index: index, op: op, code: code, descriptors: descriptors, store: store, pool: pool,
                    arithmetic: arithmetic, instructionSet: instructionSet)
            } else {
                if code.builtinCode == .densify {
                    throw InferenceError.unsupportedOption(
                        name: code.name, version: code.version, index: index,
                        detail: "DENSIFY of a tensor that is not a sparse constant")
                }
                runtimeOperators.append(index)
            }
        }
        return runtimeOperators
    }

    /// Runs one operator whose inputs are all constant and records its outputs as constants.
    private static func fold(
        index: Int, op: Operator, code: OperatorCode, descriptors: [TensorDescriptor],
        store: ConstantStore, pool: ThreadPool, arithmetic: QuantizedArithmetic,
        instructionSet: InstructionSet
    ) throws {
        let inputs = op.inputs.map(Int.init)
        let outputs = op.outputs.map(Int.init)
        if code.builtinCode == .densify {
            guard inputs.count == 1, outputs.count == 1, let sparse = store.sparseData(of: inputs[0]) else {
                throw InferenceError.unsupportedOption(
                    name: code.name, version: code.version, index: index,
                    detail: "the input must be one sparse constant")
            }
            let out = descriptors[outputs[0]]
            guard let width = out.type.byteWidth, out.type == descriptors[inputs[0]].type,
                out.shape == descriptors[inputs[0]].shape
            else {
                throw InferenceError.invalidModel(
                    "DENSIFY (operator \(index)): output \(out.shapeText) \(out.type) does not match the input")
            }
            let dense = try Densifier.densify(
                values: sparse.bytes.bytes, sparsity: Densifier.Layout(sparse.sparsity), shape: out.shape,
                elementSize: width)
            store.setValue(ConstantTensor(descriptor: out, buffer: dense), for: outputs[0])
            return
        }
        var buffers: [Int: AlignedBuffer] = [:]
        for t in outputs {
            guard let byteCount = descriptors[t].byteCount else {
                throw InferenceError.invalidModel(
                    "tensor \(t) ('\(descriptors[t].name)') has unsupported type \(descriptors[t].type)")
            }
            buffers[t] = AlignedBuffer(byteCount: byteCount)
        }
        let placeholder = AlignedBuffer(byteCount: 0)
        var values: [Int: ConstantTensor] = [:]
        for t in inputs where t >= 0 { values[t] = try store.value(of: t) }
        let ctx = OperatorContext(
            index: index, code: code, options: op.builtinOptions, inputIndices: inputs, outputIndices: outputs,
            descriptors: descriptors, constants: store,
            address: { t in buffers[t]?.raw ?? values[t]?.buffer.raw ?? placeholder.raw }, arithmetic: arithmetic,
            customOptions: op.customOptions, instructionSet: instructionSet)
        let kernel = try KernelFactory.make(ctx)
        let scratch = AlignedBuffer(byteCount: kernel.scratchBytesPerThread * pool.threadCount)
        kernel.execute(ExecutionContext(pool: pool, scratch: scratch.raw, scratchStride: kernel.scratchBytesPerThread))
        for t in outputs {
            if let buffer = buffers[t] {
                store.setValue(ConstantTensor(descriptor: descriptors[t], buffer: buffer), for: t)
            }
        }
    }
}
