/// Padding scheme of convolutions and pooling (`Padding` in `schema.fbs`).
package enum Padding: Int8, Sendable {
    case same = 0
    case valid = 1
}

/// Activation fused into an operator's output (`ActivationFunctionType` in `schema.fbs`).
package enum FusedActivation: Int8, Sendable {
    case none = 0
    case relu = 1
    case reluN1To1 = 2
    case relu6 = 3
    case tanh = 4
    case signBit = 5

    /// TFLite's spelling, as in `RELU6`.
    package var name: String {
        switch self {
        case .none: return "NONE"
        case .relu: return "RELU"
        case .reluN1To1: return "RELU_N1_TO_1"
        case .relu6: return "RELU6"
        case .tanh: return "TANH"
        case .signBit: return "SIGN_BIT"
        }
    }
}

/// `Conv2DOptions`.
package struct Conv2DOptions: Sendable, Equatable {
    package var padding: Padding
    package var strideWidth: Int
    package var strideHeight: Int
    package var activation: FusedActivation
    package var dilationWidth: Int
    package var dilationHeight: Int
}

/// `StridedSliceOptions`: bit masks over the axes (bit `i` for axis `i`) and whether `end` is
/// an offset from `begin`.
package struct StridedSliceOptions: Sendable, Equatable {
    package var beginMask: Int
    package var endMask: Int
    package var ellipsisMask: Int
    package var newAxisMask: Int
    package var shrinkAxisMask: Int
    package var offset: Bool
}

/// `DepthwiseConv2DOptions`.
package struct DepthwiseConv2DOptions: Sendable, Equatable {
    package var padding: Padding
    package var strideWidth: Int
    package var strideHeight: Int
    package var depthMultiplier: Int
    package var activation: FusedActivation
    package var dilationWidth: Int
    package var dilationHeight: Int
}

/// `Pool2DOptions`, used by the pooling operators.
package struct Pool2DOptions: Sendable, Equatable {
    package var padding: Padding
    package var strideWidth: Int
    package var strideHeight: Int
    package var filterWidth: Int
    package var filterHeight: Int
    package var activation: FusedActivation
}

/// `FullyConnectedOptions`.
package struct FullyConnectedOptions: Sendable, Equatable {
    package var activation: FusedActivation
    /// 0 is the default layout; other values are shuffled int8 formats.
    package var weightsFormat: Int8
    package var keepNumDims: Bool
    package var asymmetricQuantizeInputs: Bool
}

/// `ConcatenationOptions`.
package struct ConcatenationOptions: Sendable, Equatable {
    package var axis: Int
    package var activation: FusedActivation
}

/// `ResizeBilinearOptions` and `ResizeNearestNeighborOptions`.
package struct ResizeOptions: Sendable, Equatable {
    package var alignCorners: Bool
    package var halfPixelCenters: Bool
}

/// The operator-specific options of an ``Operator`` (the `BuiltinOptions` union of `schema.fbs`).
///
/// Only the tables used by the supported models are decoded; any other table is kept as
/// ``other(type:)`` with its union type number.
package enum BuiltinOptions: Sendable, Equatable {
    case none
    case conv2D(Conv2DOptions)
    case depthwiseConv2D(DepthwiseConv2DOptions)
    case pool2D(Pool2DOptions)
    case fullyConnected(FullyConnectedOptions)
    case concatenation(ConcatenationOptions)
    /// `AddOptions`, `SubOptions`, `MulOptions`, `DivOptions`: only the fused activation.
    case elementwise(activation: FusedActivation)
    case reshape(newShape: [Int32]?)
    /// `ReducerOptions` (MEAN, SUM, REDUCE_MAX, …).
    case reducer(keepDims: Bool)
    case resizeBilinear(ResizeOptions)
    case resizeNearestNeighbor(ResizeOptions)
    case depthToSpace(blockSize: Int)
    case softmax(beta: Float)
    case leakyRelu(alpha: Float)
    case squeeze(dimensions: [Int32])
    case stridedSlice(StridedSliceOptions)
    /// A table without fields the engine needs (PadOptions, DequantizeOptions, DensifyOptions, …).
    case other(type: UInt8)
}
