/// A custom operator's options as `inspect` shows them. Custom options are opaque bytes whose
/// format belongs to the operator: most are flexbuffer maps, MediaPipe's
/// `Convolution2DTransposeBias` carries a raw C struct, and others may carry anything, so a
/// summary never fails on them.
package enum CustomOptionsSummary: Sendable, Equatable {
    /// The operator has no options.
    case none
    /// Options that decode as a flexbuffer.
    case flexbuffer(FlexValue)
    /// `Convolution2DTransposeBias`'s `TfLiteTransposeConvParams`.
    case transposeConvolution(TransposeConvolutionParameters)
    /// Options in a format this reader does not know, by size.
    case opaque(byteCount: Int)

    /// Describes the options `bytes` of the custom operator whose `custom_code` is `name`.
    package init(operator name: String, options bytes: ByteRange?) {
        guard let bytes, bytes.count > 0 else {
            self = .none
            return
        }
        if name == TransposeConvolutionParameters.operatorName,
            let parameters = try? TransposeConvolutionParameters(options: bytes)
        {
            self = .transposeConvolution(parameters)
        } else if let value = try? FlexValue(bytes: bytes) {
            self = .flexbuffer(value)
        } else {
            self = .opaque(byteCount: bytes.count)
        }
    }
}
