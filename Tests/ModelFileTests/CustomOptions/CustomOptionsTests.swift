import Testing

@testable import ModelFile

/// Custom operators' options are opaque bytes read by the operator that owns them.
@Suite struct CustomOptionsTests {
    private func bytes(_ values: [Int32]) -> ByteRange {
        ByteStorage(copying: values.flatMap { value in withUnsafeBytes(of: value.littleEndian) { Array($0) } }).all
    }

    @Test func readsTheTransposeConvolutionStructOfMediaPipesSegmenters() throws {
        // selfie_segmenter.tflite's options: SAME (1), strides 2 and 2.
        let parameters = try TransposeConvolutionParameters(options: bytes([1, 2, 2]))
        #expect(parameters.padding == .same && parameters.strideWidth == 2 && parameters.strideHeight == 2)
        // Newer TFLite structs append fields (the fused activation); they are ignored.
        #expect(try TransposeConvolutionParameters(options: bytes([2, 3, 1, 0])).padding == .valid)
    }

    @Test func rejectsShortOrInvalidTransposeConvolutionStructs() {
        #expect(throws: ModelFileError.self) { try TransposeConvolutionParameters(options: self.bytes([1, 2])) }
        #expect(throws: ModelFileError.self) { try TransposeConvolutionParameters(options: self.bytes([0, 2, 2])) }
        #expect(throws: ModelFileError.self) { try TransposeConvolutionParameters(options: self.bytes([1, 0, 2])) }
    }

    @Test func summariesNeverFailOnOptionsOfAnUnknownFormat() throws {
        let name = TransposeConvolutionParameters.operatorName
        let parameters = try TransposeConvolutionParameters(options: bytes([1, 2, 2]))
        // The struct is not a flexbuffer ("invalid root byte width 0" before this summary).
        #expect(throws: ModelFileError.self) { try FlexValue(bytes: self.bytes([1, 2, 2])) }
        #expect(CustomOptionsSummary(operator: name, options: bytes([1, 2, 2])) == .transposeConvolution(parameters))
        #expect(CustomOptionsSummary(operator: "SomeOp", options: bytes([1, 2, 2])) == .opaque(byteCount: 12))
        #expect(CustomOptionsSummary(operator: "SomeOp", options: nil) == .none)
        #expect(
            CustomOptionsSummary(operator: "SomeOp", options: ByteStorage(copying: [7, 1 << 2, 1]).all)
                == .flexbuffer(.int(7)))
    }
}
