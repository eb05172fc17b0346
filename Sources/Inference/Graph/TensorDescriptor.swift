import ModelFile

/// What the engine knows about a tensor before running: shape, element type and quantization.
///
/// Kernels are chosen from descriptors, so a quantized kernel can later be picked for a tensor
/// whose descriptor carries ``quantization``.
package struct TensorDescriptor: Sendable {
    /// Index in the main subgraph.
    package let index: Int
    package let name: String
    package let shape: [Int]
    package let type: TensorType
    /// Scales and zero points, when the tensor is quantized.
    package let quantization: QuantizationParameters?

    package init(index: Int, tensor: Tensor) {
        self.index = index
        name = tensor.name
        shape = tensor.shape.map(Int.init)
        type = tensor.type
        quantization = tensor.quantization.flatMap { $0.isQuantized ? $0 : nil }
    }

    package init(index: Int, name: String, shape: [Int], type: TensorType, quantization: QuantizationParameters? = nil)
    {
        self.index = index
        self.name = name
        self.shape = shape
        self.type = type
        self.quantization = quantization
    }

    /// Number of elements (1 for a scalar).
    package var elementCount: Int { shape.reduce(1, *) }

    /// Bytes of the dense tensor, or `nil` for types without a fixed width.
    package var byteCount: Int? { type.byteWidth.map { $0 * elementCount } }

    /// `[1, 2, 3]` style shape text for messages.
    var shapeText: String { "[" + shape.map(String.init).joined(separator: ", ") + "]" }
}

/// The value of a constant tensor, copied out of the model (or computed at load) into
/// aligned memory owned by the interpreter.
final class ConstantTensor {
    let descriptor: TensorDescriptor
    let buffer: AlignedBuffer

    init(descriptor: TensorDescriptor, buffer: AlignedBuffer) {
        self.descriptor = descriptor
        self.buffer = buffer
    }

    var floats: UnsafeMutablePointer<Float> { buffer.floats }

    /// The values of an INT32 or INT64 tensor as `Int`s.
    func integers() -> [Int]? {
        let count = descriptor.elementCount
        switch descriptor.type {
        case .int32:
            let p = buffer.bound(to: Int32.self)
            return (0..<count).map { Int(p[$0]) }
        case .int64:
            let p = buffer.bound(to: Int64.self)
            return (0..<count).map { Int(p[$0]) }
        default:
            return nil
        }
    }
}
