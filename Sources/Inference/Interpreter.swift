import CVisionKernels
import Dispatch
import ModelFile

/// Runs a TFLite model — float32, or quantized UINT8 / INT8 (see ``QuantizedArithmetic``) — with
/// the engine's own kernels.
///
/// Creating an interpreter does all the work that does not depend on input values: it checks
/// every operator, folds constant subgraphs (FLOAT16 `DEQUANTIZE`, sparse `DENSIFY`, and any
/// other operator whose inputs are all constant), packs weights for the kernels, and places
/// every intermediate tensor in one arena by lifetime. ``invoke()`` then only runs kernels and
/// allocates nothing.
///
/// ```swift
/// let interpreter = try Interpreter(model: model, options: InterpreterOptions(threadCount: 2))
/// try interpreter.copyInput(0, from: pixels)
/// try interpreter.invoke()
/// let scores = try interpreter.output(1)
/// ```
///
/// An interpreter is not safe to use from several threads at once.
package final class Interpreter {
    /// Descriptors of the model's inputs, in model order.
    package let inputDescriptors: [TensorDescriptor]
    /// Descriptors of the model's outputs, in model order.
    package let outputDescriptors: [TensorDescriptor]
    /// Bytes of the arena (intermediate tensors, inputs and outputs) plus kernel scratch memory.
    package let arenaByteCount: Int
    /// Bytes of constant data kept for running: weights packed for the kernels, biases, and
    /// constants read in place. With ``arenaByteCount``, the interpreter's working memory.
    package let packedWeightByteCount: Int
    /// Number of threads that run the kernels.
    package let threadCount: Int
    /// The SIMD instruction set the kernels run with.
    package let instructionSet: InstructionSet
    /// Number of kernels that run per invoke (after folding and aliasing).
    package var kernelCount: Int { kernels.count }

    private let model: TFLiteModel
    private let arena: AlignedBuffer
    private let scratch: AlignedBuffer
    private let scratchStride: Int
    private let pool: ThreadPool
    /// The job of ``parallelFor(_:work:_:)``, kept so that a call allocates nothing.
    private let rangeJob = RangeJob()
    /// The kernels in run order.
    let kernels: [Kernel]
    /// Operator name and index of each kernel, for profiles.
    package let kernelLabels: [String]
    /// Dense multiply-adds of each kernel, in the order of ``kernelLabels``: those of its operator
    /// and of the operators fused into it, counted as `vision-tasks inspect` counts a model's
    /// (``ModelSummary``), so that a profile can show each kernel's rate.
    package let kernelMultiplyAdds: [Int]
    /// Tensors of which only a part is read, and that part (``DemandAnalysis``): their writers
    /// may compute only it.
    let partialTensors: [Int: DemandAnalysis.Demand]
    /// Constants whose memory kernels read directly.
    private let retainedConstants: [ConstantTensor]
    private let inputAddresses: [UnsafeMutableRawPointer]
    private let outputAddresses: [UnsafeMutableRawPointer]
    /// Output positions not computed (``InterpreterOptions/unusedOutputs``).
    private let unusedOutputs: Set<Int>

    /// Prepares `model` (its main subgraph) for running.
    ///
    /// - Throws: ``InferenceError/unsupportedOperator(name:version:index:)`` for an operator or
    ///   version the engine does not implement, ``InferenceError/unsupportedOption(name:version:index:detail:)``
    ///   for an unsupported option or type, ``InferenceError/invalidModel(_:)`` for
    ///   inconsistent shapes or data.
    package convenience init(model: TFLiteModel, options: InterpreterOptions = InterpreterOptions()) throws {
        try self.init(model: model, options: options, additionalOutputs: [])
    }

    /// Prepares `model` with the tensors `additionalOutputs` (indices in the main subgraph)
    /// treated as extra outputs after the model's own: they stay readable after ``invoke()``
    /// (for checking intermediate results).
    package init(model: TFLiteModel, options: InterpreterOptions, additionalOutputs: [Int]) throws {
        self.model = model
        let graph = model.mainSubgraph
        var descriptors = graph.tensors.enumerated().map { TensorDescriptor(index: $0.offset, tensor: $0.element) }
        // Operators that set their output shapes at run time in TFLite (the model records none)
        // have shapes fixed by their options; they are known before memory is planned.
        for op in graph.operators {
            guard op.opcodeIndex >= 0, op.opcodeIndex < model.operatorCodes.count,
                let shapes = KernelFactory.outputShapes(
                    model.operatorCodes[op.opcodeIndex], customOptions: op.customOptions)
            else { continue }
            for (t, shape) in zip(op.outputs.map(Int.init), shapes) where t >= 0 && t < descriptors.count {
                let d = descriptors[t]
                descriptors[t] = TensorDescriptor(
                    index: d.index, name: d.name, shape: shape, type: d.type, quantization: d.quantization)
            }
        }
        let arithmetic = options.quantizedArithmetic
        let store = ConstantStore(model: model, descriptors: descriptors)
        let pool = ThreadPool(threadCount: options.threadCount, minimumParallelWork: options.tuning.minimumParallelWork)
        self.pool = pool
        threadCount = pool.threadCount
        let instructionSet = options.instructionSet.map { $0.isSupported ? $0 : .portable } ?? .best
        self.instructionSet = instructionSet

        let graphInputs = graph.inputs.map(Int.init)
        for t in additionalOutputs where t < 0 || t >= graph.tensors.count {
            throw InferenceError.tensorIndexOutOfRange(kind: "tensor", index: t, count: graph.tensors.count)
        }
        let graphOutputs = graph.outputs.map(Int.init) + additionalOutputs
        let outputSet = Set(graphOutputs)
        for position in options.unusedOutputs where position < 0 || position >= graph.outputs.count {
            throw InferenceError.tensorIndexOutOfRange(
                kind: "unused output", index: position, count: graph.outputs.count)
        }
        unusedOutputs = options.unusedOutputs
        // The outputs that are read: every one but those declared unused (extra outputs always are).
        let readOutputs = graphOutputs.enumerated().filter { !options.unusedOutputs.contains($0.offset) }.map(\.element)
        for t in graphInputs + graphOutputs where descriptors[t].byteCount == nil {
            throw InferenceError.invalidModel(
                "tensor \(t) ('\(descriptors[t].name)') has unsupported type \(descriptors[t].type)")
        }
        inputDescriptors = graphInputs.map { descriptors[$0] }
        outputDescriptors = graphOutputs.map { descriptors[$0] }

        // Pass 1: check every operator, fold the constant ones.
        var runtimeOperators = try ConstantFolding.run(
            model: model, descriptors: descriptors, store: store, outputs: outputSet, pool: pool,
            arithmetic: arithmetic,
            instructionSet: instructionSet)

        if !options.unusedOutputs.isEmpty {
            runtimeOperators = Self.operators(runtimeOperators, of: graph, needed: Set(readOutputs))
        }

        // Which part of each tensor is read (DemandAnalysis), on the operators before fusion.
        let demand = DemandAnalysis(
            model: model, runtimeOperators: runtimeOperators, descriptors: descriptors, store: store,
            outputs: Set(readOutputs))
        partialTensors = demand.demands

        // Pass 2: fold PADs and other neighbours into convolutions (GraphFusion); decide which
        // tensors share memory (reshapes) and their lifetimes (TensorLifetimes).
        let fusion = GraphFusion(
            model: model, runtimeOperators: runtimeOperators, descriptors: descriptors, store: store,
            kept: Set(additionalOutputs), tuning: options.tuning)
        runtimeOperators.removeAll { fusion.removed.contains($0) }
        let lifetimes = try TensorLifetimes(
            model: model, runtimeOperators: runtimeOperators, fusion: fusion, descriptors: descriptors, store: store,
            graphInputs: graphInputs, graphOutputs: readOutputs, arithmetic: arithmetic, instructionSet: instructionSet
        )

        // Pass 3: place every live tensor in the arena (MemoryPlanner).
        let requests = try lifetimes.memoryRequests(descriptors: descriptors)
        let plan = MemoryPlanner.plan(requests, alignment: AlignedBuffer.alignment)
        let arena = AlignedBuffer(byteCount: plan.byteCount)
        _ = arena.floats
        self.arena = arena

        // Pass 4: build the kernels (KernelAssembly).
        let assembly = try KernelAssembly(
            model: model, runtimeOperators: runtimeOperators, fusion: fusion, lifetimes: lifetimes,
            offsets: plan.offsets,
            arena: arena, descriptors: descriptors, store: store, arithmetic: arithmetic,
            instructionSet: instructionSet,
            demand: demand, tuning: options.tuning)
        let kernels = assembly.kernels
        self.kernels = kernels
        kernelLabels = assembly.labels
        kernelMultiplyAdds = assembly.multiplyAdds
        let perThread =
            ((kernels.map(\.scratchBytesPerThread).max() ?? 0) + AlignedBuffer.alignment - 1)
            / AlignedBuffer.alignment * AlignedBuffer.alignment
        scratchStride = perThread
        scratch = AlignedBuffer(byteCount: perThread * pool.threadCount)

        // Graph outputs that are constants are copied once; nothing overwrites them.
        for t in readOutputs where store.isConstant(t) {
            if let value = try store.value(of: t), let offset = plan.offsets[lifetimes.representative(of: t)],
                let count = descriptors[t].byteCount
            {
                (arena.raw + offset).copyMemory(from: value.buffer.raw, byteCount: count)
            }
        }
        inputAddresses = graphInputs.map { assembly.address(of: $0) }
        outputAddresses = graphOutputs.map { assembly.address(of: $0) }
        let retained = assembly.retained
        retainedConstants = retained
        arenaByteCount = plan.byteCount + scratch.byteCount
        var distinct: [ObjectIdentifier: Int] = [:]
        for value in retained { distinct[ObjectIdentifier(value.buffer)] = value.buffer.byteCount }
        packedWeightByteCount = kernels.reduce(0) { $0 + $1.constantByteCount } + distinct.values.reduce(0, +)
    }

    /// The operators of `runtimeOperators` (in run order) that the tensors `needed` depend on,
    /// and those that write variable tensors; the others' results would never be read.
    private static func operators(_ runtimeOperators: [Int], of graph: Subgraph, needed: Set<Int>) -> [Int] {
        var needed = needed
        var kept: [Int] = []
        for index in runtimeOperators.reversed() {
            let op = graph.operators[index]
            let outputs = op.outputs.map(Int.init).filter { $0 >= 0 && $0 < graph.tensors.count }
            guard outputs.contains(where: { needed.contains($0) || graph.tensors[$0].isVariable }) else { continue }
            kept.append(index)
            for t in op.inputs where t >= 0 { needed.insert(Int(t)) }
        }
        return kept.reversed()
    }

    // MARK: Inputs and outputs

    /// Number of model inputs.
    package var inputCount: Int { inputDescriptors.count }
    /// Number of model outputs.
    package var outputCount: Int { outputDescriptors.count }

    /// The shape of input `index`.
    package func inputShape(_ index: Int) throws -> [Int] { try inputDescriptor(index).shape }
    /// The shape of output `index`.
    package func outputShape(_ index: Int) throws -> [Int] { try outputDescriptor(index).shape }
    /// The tensor name of input `index`.
    package func inputName(_ index: Int) throws -> String { try inputDescriptor(index).name }
    /// The tensor name of output `index`.
    package func outputName(_ index: Int) throws -> String { try outputDescriptor(index).name }

    package func inputDescriptor(_ index: Int) throws -> TensorDescriptor {
        guard index >= 0, index < inputDescriptors.count else {
            throw InferenceError.tensorIndexOutOfRange(kind: "input", index: index, count: inputDescriptors.count)
        }
        return inputDescriptors[index]
    }

    package func outputDescriptor(_ index: Int) throws -> TensorDescriptor {
        guard index >= 0, index < outputDescriptors.count else {
            throw InferenceError.tensorIndexOutOfRange(kind: "output", index: index, count: outputDescriptors.count)
        }
        return outputDescriptors[index]
    }

    /// The descriptor of output `index` when its values are computed.
    private func computedOutput(_ index: Int) throws -> TensorDescriptor {
        let d = try outputDescriptor(index)
        guard !unusedOutputs.contains(index) else { throw InferenceError.outputNotComputed(index: index) }
        return d
    }

    /// The element type of input `index` (FLOAT32, or UINT8 / INT8 for quantized models).
    package func inputType(_ index: Int) throws -> TensorType { try inputDescriptor(index).type }
    /// The element type of output `index`.
    package func outputType(_ index: Int) throws -> TensorType { try outputDescriptor(index).type }
    /// The scales and zero points of input `index`, or `nil` when it is not quantized.
    package func inputQuantization(_ index: Int) throws -> QuantizationParameters? {
        try inputDescriptor(index).quantization
    }
    /// The scales and zero points of output `index`, or `nil` when it is not quantized.
    package func outputQuantization(_ index: Int) throws -> QuantizationParameters? {
        try outputDescriptor(index).quantization
    }

    /// Gives `body` the raw memory of input `index` — elements of ``inputType(_:)`` in NHWC
    /// order (e.g. the UINT8 pixels of a quantized model) — to fill before ``invoke()``.
    package func withInputBytes<R>(_ index: Int, _ body: (UnsafeMutableRawBufferPointer) throws -> R) throws -> R {
        let d = try inputDescriptor(index)
        return try body(UnsafeMutableRawBufferPointer(start: inputAddresses[index], count: d.byteCount ?? 0))
    }

    /// Gives `body` the raw memory of output `index` (elements of ``outputType(_:)``), valid
    /// until the next invoke.
    package func withOutputBytes<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        let d = try computedOutput(index)
        return try body(UnsafeRawBufferPointer(start: outputAddresses[index], count: d.byteCount ?? 0))
    }

    /// Gives `body` the memory of float32 input `index` (NHWC order) to fill before ``invoke()``.
    /// The memory keeps its contents across invokes.
    package func withInputBuffer<R>(_ index: Int, _ body: (UnsafeMutableBufferPointer<Float>) throws -> R) throws -> R {
        let d = try inputDescriptor(index)
        guard d.type == .float32 else {
            throw InferenceError.inputMismatch("input \(index) has type \(d.type), not FLOAT32")
        }
        return try body(
            UnsafeMutableBufferPointer(
                start: inputAddresses[index].assumingMemoryBound(to: Float.self), count: d.elementCount))
    }

    /// Gives `body` the memory of 8-bit input `index` (UINT8 or INT8 bytes, NHWC order) to fill
    /// before ``invoke()``; for quantized models such as the SSD detector.
    package func withUInt8InputBuffer<R>(_ index: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) throws -> R) throws
        -> R
    {
        let d = try inputDescriptor(index)
        guard d.type == .uint8 || d.type == .int8 else {
            throw InferenceError.inputMismatch("input \(index) has type \(d.type), not UINT8 or INT8")
        }
        return try body(
            UnsafeMutableBufferPointer(
                start: inputAddresses[index].assumingMemoryBound(to: UInt8.self), count: d.elementCount))
    }

    /// Copies `values` into float32 input `index`; their count must equal the input's element count.
    package func copyInput(_ index: Int, from values: [Float]) throws {
        try withInputBuffer(index) { buffer in
            guard values.count == buffer.count else {
                throw InferenceError.inputMismatch("input \(index) takes \(buffer.count) values, got \(values.count)")
            }
            _ = buffer.update(fromContentsOf: values)
        }
    }

    /// Runs the model on the current inputs.
    package func invoke() throws {
        let context = ExecutionContext(pool: pool, scratch: scratch.raw, scratchStride: scratchStride)
        // Denormals flush to zero while kernels run, as in XNNPACK (workers always flush).
        let floatState = vk_denormals_flush_begin()
        defer { vk_denormals_flush_end(floatState) }
        for kernel in kernels { kernel.execute(context) }
    }

    /// Calls `body` with disjoint ranges covering `0..<count`, on the interpreter's threads (the
    /// calling thread included), and returns when all are done: work outside the model, such as
    /// filling the input tensor, shared out like a kernel. `work` estimates the elementary
    /// operations; below a few tens of thousands everything runs on the calling thread.
    /// `body` must write disjoint memory per index and give the same result however the
    /// indices are grouped. Not reentrant: `body` must not call it again.
    package func parallelFor(_ count: Int, work: Int, _ body: (Range<Int>) -> Void) {
        withoutActuallyEscaping(body) { escapable in
            rangeJob.body = escapable
            pool.run(rangeJob, taskCount: count, work: work)
            rangeJob.body = nil
        }
    }

    /// Calls `body(t)` once on every thread `t` of the interpreter's pool (the calling thread is
    /// 0), e.g. to set up per-thread state in tests.
    package func forEachThread(_ body: @escaping (Int) -> Void) {
        pool.runOnEachThread(ClosureJob(body))
    }

    /// Runs the model once and returns each kernel's wall time in milliseconds, labelled
    /// `OPERATOR#index` (a development aid for speed work).
    package func profile() -> [(label: String, milliseconds: Double)] {
        let context = ExecutionContext(pool: pool, scratch: scratch.raw, scratchStride: scratchStride)
        let floatState = vk_denormals_flush_begin()
        defer { vk_denormals_flush_end(floatState) }
        var result: [(label: String, milliseconds: Double)] = []
        for (kernel, label) in zip(kernels, kernelLabels) {
            let start = DispatchTime.now().uptimeNanoseconds
            kernel.execute(context)
            result.append((label, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6))
        }
        return result
    }

    /// Gives `body` the values of float32 output `index` (NHWC order), valid until the next invoke.
    package func withOutputBuffer<R>(_ index: Int, _ body: (UnsafeBufferPointer<Float>) throws -> R) throws -> R {
        let d = try computedOutput(index)
        guard d.type == .float32 else {
            throw InferenceError.inputMismatch("output \(index) has type \(d.type), not FLOAT32")
        }
        return try body(
            UnsafeBufferPointer(
                start: outputAddresses[index].assumingMemoryBound(to: Float.self), count: d.elementCount))
    }

    /// A copy of float32 output `index`.
    package func output(_ index: Int) throws -> [Float] {
        try withOutputBuffer(index) { Array($0) }
    }
}
