import ModelFile

/// Zero padding that a convolution applies to its input on top of its own padding (a folded
/// `PAD`): extra rows above and below, columns left and right.
struct ExplicitPadding: Equatable {
    var top: Int
    var bottom: Int
    var left: Int
    var right: Int
}

/// Load-time rewrites of the runtime operator list that save whole passes over memory.
///
/// **PAD folded into convolutions.** A `PAD`/`PADV2` with a zero value that pads only the
/// height and width of an NHWC tensor, and whose output is read only as the input of
/// `CONV_2D` / `DEPTHWISE_CONV_2D` operators, is dropped: those convolutions read the PAD's
/// input and treat the padded rows and columns as part of their window's zero padding (an
/// exact rewrite: a zero tap adds nothing). XNNPACK does the same when it builds its runtime
/// (XNNPACK src/subgraph.c, `xnn_subgraph_fusion`: constant pad into [depthwise] convolution).
struct GraphFusion {
    /// Operators that no longer run.
    private(set) var removed: Set<Int> = []
    /// Replacement input lists, by operator index.
    private(set) var inputs: [Int: [Int]] = [:]
    /// Extra padding of a convolution's input 0, by operator index.
    private(set) var padding: [Int: ExplicitPadding] = [:]

    /// The inputs operator `index` reads after the rewrites.
    func inputs(of index: Int, _ op: Operator) -> [Int] {
        inputs[index] ?? op.inputs.map(Int.init)
    }

    /// Plans the rewrites for `runtimeOperators` (indices into the main subgraph, in order).
    init(model: TFLiteModel, runtimeOperators: [Int], descriptors: [TensorDescriptor], store: ConstantStore) {
        let graph = model.mainSubgraph
        var readers: [Int: [Int]] = [:]
        for index in runtimeOperators {
            for t in graph.operators[index].inputs where t >= 0 { readers[Int(t), default: []].append(index) }
        }
        let graphOutputs = Set(graph.outputs.map(Int.init))
        for index in runtimeOperators {
            let op = graph.operators[index]
            let code = model.operatorCodes[op.opcodeIndex].builtinCode
            guard code == .pad || code == .padV2, op.inputs.count >= 2, op.outputs.count == 1,
                  let padding = GraphFusion.foldablePadding(op, descriptors: descriptors, store: store)
            else { continue }
            let source = Int(op.inputs[0]), padded = Int(op.outputs[0])
            guard !graphOutputs.contains(padded), !store.isConstant(source),
                  let consumers = readers[padded], !consumers.isEmpty,
                  consumers.allSatisfy({ consumer in
                      let reader = graph.operators[consumer]
                      let readerCode = model.operatorCodes[reader.opcodeIndex].builtinCode
                      return (readerCode == .conv2D || readerCode == .depthwiseConv2D) && reader.inputs.first == Int32(padded)
                          && reader.inputs.dropFirst().allSatisfy { $0 != Int32(padded) } && self.padding[consumer] == nil
                  })
            else { continue }
            removed.insert(index)
            for consumer in consumers {
                var list = graph.operators[consumer].inputs.map(Int.init)
                list[0] = source
                inputs[consumer] = list
                self.padding[consumer] = padding
            }
        }
    }

    /// The height/width padding of a PAD/PADV2 that pads with zeros and only along height and
    /// width of a rank-4 float tensor; `nil` otherwise.
    private static func foldablePadding(_ op: Operator, descriptors: [TensorDescriptor], store: ConstantStore) -> ExplicitPadding? {
        let source = descriptors[Int(op.inputs[0])]
        guard source.type == .float32, source.shape.count == 4,
              let paddings = try? store.value(of: Int(op.inputs[1]))?.integers(), paddings.count == 8,
              paddings[0] == 0, paddings[1] == 0, paddings[6] == 0, paddings[7] == 0,
              paddings[2...5].allSatisfy({ $0 >= 0 })
        else { return nil }
        if op.inputs.count > 2 && op.inputs[2] >= 0 {
            guard let value = try? store.value(of: Int(op.inputs[2])), value.descriptor.type == .float32,
                  value.descriptor.elementCount == 1, value.floats[0] == 0
            else { return nil }
        }
        return ExplicitPadding(top: paddings[2], bottom: paddings[3], left: paddings[4], right: paddings[5])
    }
}
