/// The custom options of MediaPipe's `Convolution2DTransposeBias` operator: not a flexbuffer
/// but TFLite's C struct `TfLiteTransposeConvParams` copied byte for byte — `padding`,
/// `stride_width`, `stride_height`, three little-endian `int32`s
/// (tensorflow/lite/core/c/builtin_op_data.h; read the same way by
/// mediapipe/util/tflite/operations/transpose_conv_bias.cc and by the XNNPACK delegate,
/// tensorflow/lite/delegates/xnnpack/xnnpack_delegate.cc). Newer TFLite versions append fields;
/// bytes beyond the first twelve are ignored.
package struct TransposeConvolutionParameters: Sendable, Equatable {
    package var padding: Padding
    package var strideWidth: Int
    package var strideHeight: Int

    /// The custom operator whose options have this layout.
    package static let operatorName = "Convolution2DTransposeBias"

    /// Reads the struct from an operator's custom options.
    ///
    /// - Throws: ``ModelFileError/malformed(_:)`` for fewer than twelve bytes, a padding other
    ///   than SAME (1) or VALID (2) (`TfLitePadding`), or a stride below 1.
    package init(options: ByteRange) throws {
        guard options.count >= 12 else {
            throw ModelFileError.malformed(
                "\(Self.operatorName) options have \(options.count) bytes; TfLiteTransposeConvParams needs 12")
        }
        let bytes = options.bytes
        func int32(_ index: Int) -> Int {
            Int(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 4, as: Int32.self)))
        }
        switch int32(0) {
        case 1: padding = .same
        case 2: padding = .valid
        default:
            throw ModelFileError.malformed("\(Self.operatorName) options have unknown padding \(int32(0))")
        }
        strideWidth = int32(1)
        strideHeight = int32(2)
        guard strideWidth >= 1, strideHeight >= 1 else {
            throw ModelFileError.malformed(
                "\(Self.operatorName) options have strides \(strideHeight)x\(strideWidth); both must be at least 1")
        }
    }
}
