import ModelFile

/// Scale and zero point of a per-tensor quantized tensor: `real = scale · (q - zeroPoint)`.
struct AffineQuantization: Equatable {
    let scale: Float
    let zeroPoint: Int32
}

/// The 8-bit element types of quantized activations.
protocol QuantizedElement: FixedWidthInteger, SIMDScalar, Codable {
    static var range: QuantizedRange { get }
}

extension UInt8: QuantizedElement {
    static var range: QuantizedRange { .uint8 }
}

extension Int8: QuantizedElement {
    static var range: QuantizedRange { .int8 }
}

extension TensorType {
    /// Whether the type is one of the 8-bit quantized activation types.
    var isQuantized8Bit: Bool { self == .uint8 || self == .int8 }

    /// The value range of UINT8 or INT8.
    var quantizedRange: QuantizedRange? {
        switch self {
        case .uint8: return .uint8
        case .int8: return .int8
        default: return nil
        }
    }
}

extension TensorDescriptor {
    /// Whether the tensor is UINT8 or INT8 with at least one scale.
    var isQuantized8Bit: Bool { type.isQuantized8Bit && quantization != nil }
}

extension OperatorContext {
    /// The one scale and zero point of `descriptor` (named `what` in errors).
    func affineQuantization(of descriptor: TensorDescriptor, _ what: String) throws -> AffineQuantization {
        guard let q = descriptor.quantization, q.scale.count == 1 else {
            let count = descriptor.quantization?.scale.count ?? 0
            throw unsupported("\(what) must have one scale and zero point (has \(count) scales)")
        }
        let zeroPoint = q.zeroPoint.first ?? 0
        guard q.zeroPoint.count <= 1,
            let range = descriptor.type.quantizedRange
                ?? (descriptor.type == .int32 ? QuantizedRange(lower: .min, upper: .max) : nil),
            zeroPoint >= Int64(range.lower), zeroPoint <= Int64(range.upper)
        else {
            throw invalid("\(what) has zero point \(q.zeroPoint) outside the range of \(descriptor.type)")
        }
        guard q.scale[0] > 0, q.scale[0].isFinite else { throw invalid("\(what) has scale \(q.scale[0])") }
        return AffineQuantization(scale: q.scale[0], zeroPoint: Int32(zeroPoint))
    }

    /// The run-time address of input `i`.
    func inputAddress(_ i: Int) -> UnsafeMutableRawPointer { address(inputIndices[i]) }

    /// The run-time address of output `i`.
    func outputAddress(_ i: Int) -> UnsafeMutableRawPointer { address(outputIndices[i]) }

    /// Checks that input `i` and output `o` are both UINT8 or both INT8, with one scale and
    /// zero point each; returns their type and quantizations.
    func quantizedInputOutput(_ i: Int = 0, _ o: Int = 0) throws -> (
        type: TensorType, input: AffineQuantization, output: AffineQuantization
    ) {
        let x = try input(i)
        let y = output(o)
        guard x.type.isQuantized8Bit, x.type == y.type else {
            throw unsupported("input \(i) is \(x.type) and output \(o) is \(y.type); expected both UINT8 or both INT8")
        }
        return (x.type, try affineQuantization(of: x, "input \(i)"), try affineQuantization(of: y, "output \(o)"))
    }

    /// The fused activation as a quantized output range.
    func quantizedActivationRange(_ activation: FusedActivation, output: AffineQuantization, type: TensorType) throws
        -> QuantizedRange
    {
        guard let range = type.quantizedRange,
            let result = arithmetic.activationRange(
                activation, scale: output.scale, zeroPoint: output.zeroPoint, range: range)
        else { throw unsupported("fused activation \(activation.name) on \(type) is not supported") }
        return result
    }
}
