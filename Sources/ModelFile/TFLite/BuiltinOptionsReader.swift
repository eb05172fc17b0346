/// Decodes the `builtin_options` union of an operator (type in field 3, table in field 4).
/// Union numbers and field ids: TFLite `schema.fbs`, `union BuiltinOptions` and the option tables.
enum BuiltinOptionsReader {
    static func read(_ op: FlatTable, tag: String) throws -> BuiltinOptions {
        let type = try op.integer(3, default: UInt8(0), "\(tag).builtin_options_type")
        guard type != 0 else { return .none }
        guard let t = try op.table(4, "\(tag).builtin_options") else {
            // A declared type without a table: every field takes its default.
            return try decode(type: type, table: nil, tag: tag)
        }
        return try decode(type: type, table: t, tag: tag)
    }

    private static func decode(type: UInt8, table t: FlatTable?, tag: String) throws -> BuiltinOptions {
        let what = "\(tag).builtin_options"
        func int(_ id: Int, _ value: Int32) throws -> Int { Int(try t?.integer(id, default: value, what) ?? value) }
        func byte(_ id: Int) throws -> Int8 { try t?.integer(id, default: Int8(0), what) ?? 0 }
        func bool(_ id: Int) throws -> Bool { try t?.bool(id, default: false, what) ?? false }
        func padding(_ id: Int) throws -> Padding {
            let raw = try byte(id)
            guard let value = Padding(rawValue: raw) else {
                throw ModelFileError.malformed("\(what) has unknown padding \(raw)")
            }
            return value
        }
        func activation(_ id: Int) throws -> FusedActivation {
            let raw = try byte(id)
            guard let value = FusedActivation(rawValue: raw) else {
                throw ModelFileError.malformed("\(what) has unknown fused activation \(raw)")
            }
            return value
        }
        switch type {
        case 1:  // Conv2DOptions
            return .conv2D(
                Conv2DOptions(
                    padding: try padding(0), strideWidth: try int(1, 0), strideHeight: try int(2, 0),
                    activation: try activation(3), dilationWidth: try int(4, 1), dilationHeight: try int(5, 1)))
        case 2:  // DepthwiseConv2DOptions
            return .depthwiseConv2D(
                DepthwiseConv2DOptions(
                    padding: try padding(0), strideWidth: try int(1, 0), strideHeight: try int(2, 0),
                    depthMultiplier: try int(3, 0), activation: try activation(4),
                    dilationWidth: try int(5, 1), dilationHeight: try int(6, 1)))
        case 5:  // Pool2DOptions
            return .pool2D(
                Pool2DOptions(
                    padding: try padding(0), strideWidth: try int(1, 0), strideHeight: try int(2, 0),
                    filterWidth: try int(3, 0), filterHeight: try int(4, 0), activation: try activation(5)))
        case 8:  // FullyConnectedOptions
            return .fullyConnected(
                FullyConnectedOptions(
                    activation: try activation(0), weightsFormat: try byte(1),
                    keepNumDims: try bool(2), asymmetricQuantizeInputs: try bool(3)))
        case 9:  // SoftmaxOptions
            return .softmax(beta: try t?.float(0, default: 0, what) ?? 0)
        case 10:  // ConcatenationOptions
            return .concatenation(ConcatenationOptions(axis: try int(0, 0), activation: try activation(1)))
        case 11, 21, 28, 29:  // AddOptions, MulOptions, SubOptions, DivOptions
            return .elementwise(activation: try activation(0))
        case 15:  // ResizeBilinearOptions (fields 0 and 1 are deprecated sizes)
            return .resizeBilinear(ResizeOptions(alignCorners: try bool(2), halfPixelCenters: try bool(3)))
        case 17:  // ReshapeOptions
            return .reshape(newShape: try t?.integers(0, as: Int32.self, what))
        case 27:  // ReducerOptions
            return .reducer(keepDims: try bool(0))
        case 32:  // StridedSliceOptions
            return .stridedSlice(
                StridedSliceOptions(
                    beginMask: try int(0, 0), endMask: try int(1, 0), ellipsisMask: try int(2, 0),
                    newAxisMask: try int(3, 0), shrinkAxisMask: try int(4, 0), offset: try bool(5)))
        case 30:  // SqueezeOptions
            return .squeeze(dimensions: try t?.integers(0, as: Int32.self, what) ?? [])
        case 74:  // ResizeNearestNeighborOptions
            return .resizeNearestNeighbor(ResizeOptions(alignCorners: try bool(0), halfPixelCenters: try bool(1)))
        case 75:  // LeakyReluOptions
            return .leakyRelu(alpha: try t?.float(0, default: 0, what) ?? 0)
        case 94:  // DepthToSpaceOptions
            return .depthToSpace(blockSize: try int(0, 0))
        default:
            return .other(type: type)
        }
    }
}
