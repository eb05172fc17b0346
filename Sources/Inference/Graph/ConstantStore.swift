import ModelFile

/// The constant tensors of a model: read from the model's buffers on first use, plus the
/// values computed at load time by constant folding.
final class ConstantStore {
    let model: TFLiteModel
    let descriptors: [TensorDescriptor]
    private let tensors: [Tensor]
    private var values: [Int: ConstantTensor] = [:]

    init(model: TFLiteModel, descriptors: [TensorDescriptor]) {
        self.model = model
        self.descriptors = descriptors
        tensors = model.mainSubgraph.tensors
    }

    /// Whether tensor `index` has a value before the model runs (in the file or folded).
    func isConstant(_ index: Int) -> Bool {
        values[index] != nil || model.data(of: tensors[index]) != nil
    }

    /// Whether tensor `index` is stored sparse in the file.
    func isSparse(_ index: Int) -> Bool {
        values[index] == nil && tensors[index].sparsity != nil && model.data(of: tensors[index]) != nil
    }

    /// The stored bytes and sparsity description of a sparse constant.
    func sparseData(of index: Int) -> (bytes: ByteRange, sparsity: SparsityParameters)? {
        guard let sparsity = tensors[index].sparsity, let bytes = model.data(of: tensors[index]) else { return nil }
        return (bytes, sparsity)
    }

    /// Records a value computed at load time.
    func setValue(_ value: ConstantTensor, for index: Int) {
        values[index] = value
    }

    /// The dense value of tensor `index`, or `nil` when it has none.
    func value(of index: Int) throws -> ConstantTensor? {
        if let value = values[index] { return value }
        let tensor = tensors[index]
        guard let data = model.data(of: tensor) else { return nil }
        let descriptor = descriptors[index]
        guard tensor.sparsity == nil else {
            throw InferenceError.invalidModel(
                "tensor \(index) ('\(tensor.name)') is sparse and must go through DENSIFY")
        }
        guard let byteCount = descriptor.byteCount else {
            throw InferenceError.invalidModel(
                "constant tensor \(index) ('\(tensor.name)') has unsupported type \(tensor.type)")
        }
        guard data.count == byteCount else {
            throw InferenceError.invalidModel(
                "constant tensor \(index) ('\(tensor.name)') has \(data.count) bytes, its shape "
                    + "\(descriptor.shapeText) of \(tensor.type) needs \(byteCount)"
            )
        }
        let buffer = AlignedBuffer(byteCount: byteCount)
        if let base = data.bytes.baseAddress { buffer.raw.copyMemory(from: base, byteCount: byteCount) }
        let value = ConstantTensor(descriptor: descriptor, buffer: buffer)
        values[index] = value
        return value
    }

    /// Drops cached values that no kernel needs any more (the packed copies live in kernels).
    func removeAll() { values.removeAll() }
}
