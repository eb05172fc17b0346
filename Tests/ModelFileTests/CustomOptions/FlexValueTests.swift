import TestSupport
import Testing

@testable import ModelFile

@Suite struct FlexValueTests {
    @Test func decodesTheSSDPostProcessOptions() throws {
        guard let path = SharedData.path("models/ssd_mobilenet_v1.tflite") else {
            print("skipped: ../shared is not available")
            return
        }
        let model = try TFLiteModel(contentsOfFile: path)
        let op = try #require(model.mainSubgraph.operators.last)
        let options = try FlexValue(bytes: try #require(op.customOptions))
        // Values as MODELS.md lists them (decoded there with the flatbuffers Python package).
        #expect(options["max_detections"]?.intValue == 10)
        #expect(options["max_classes_per_detection"]?.intValue == 1)
        #expect(options["num_classes"]?.intValue == 90)
        #expect(options["nms_iou_threshold"]?.doubleValue == Double(Float(0.6)))
        #expect(options["nms_score_threshold"]?.doubleValue == 9.99999993922529e-09)
        #expect(options["y_scale"]?.doubleValue == 10)
        #expect(options["x_scale"]?.doubleValue == 10)
        #expect(options["h_scale"]?.doubleValue == 5)
        #expect(options["w_scale"]?.doubleValue == 5)
        #expect(options["_output_quantized"]?.boolValue == true)
        #expect(options["use_regular_nms"] == nil)
        guard case .map(let entries) = options else {
            Issue.record("not a map")
            return
        }
        #expect(entries.count == 10)
    }

    @Test func decodesHandBuiltScalarsAndVectors() throws {
        // Root int 7, width 1: [value, packed type INT(1)<<2 | width 1 (0), root width 1].
        #expect(try FlexValue(bytes: ByteStorage(copying: [7, 1 << 2, 1]).all) == .int(7))
        // Negative 16-bit int: 0xFFFE = -2.
        #expect(try FlexValue(bytes: ByteStorage(copying: [0xFE, 0xFF, 1 << 2 | 1, 2]).all) == .int(-2))
        // A typed int vector [1, 2, 3] of width 1: size 3, elements, then the root offset (4 back).
        let vector: [UInt8] = [3, 1, 2, 3, 3, UInt8(11 << 2), 1]
        #expect(try FlexValue(bytes: ByteStorage(copying: vector).all) == .vector([.int(1), .int(2), .int(3)]))
    }

    @Test func rejectsMalformedBuffers() {
        let cases: [[UInt8]] = [
            [], [1], [0, 0, 3],  // too short, invalid root width
            [200, UInt8(11 << 2), 1],  // offset before the start
            [250, 1, UInt8(11 << 2), 1],  // vector length beyond the buffer
            [0, UInt8(63 << 2), 1],  // unknown type
        ]
        for bytes in cases {
            #expect(throws: ModelFileError.self) { try FlexValue(bytes: ByteStorage(copying: bytes).all) }
        }
    }
}
