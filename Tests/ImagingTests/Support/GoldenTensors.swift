import Foundation
import Imaging

/// The golden image → tensor cases of `Golden/tensors.json`, written by
/// `scripts/reference/image_tensors.py` (an OpenCV replica of MediaPipe's CPU preprocessing,
/// checked against MediaPipe itself where its ImageEmbedder can express the case).
struct GoldenTensors: Decodable {
    struct Rect: Decodable {
        let xCenter: Float
        let yCenter: Float
        let width: Float
        let height: Float
        let rotation: Float

        enum CodingKeys: String, CodingKey {
            case xCenter = "x_center"
            case yCenter = "y_center"
            case width, height, rotation
        }

        var normalizedRect: NormalizedRect {
            NormalizedRect(xCenter: xCenter, yCenter: yCenter, width: width, height: height, rotation: rotation)
        }
    }

    struct Tensor: Decodable {
        let width: Int
        let height: Int
        let keepAspectRatio: Bool
        let border: String
        let range: [Float]
        let type: String

        enum CodingKeys: String, CodingKey {
            case width, height
            case keepAspectRatio = "keep_aspect_ratio"
            case border, range, type
        }

        func options() throws -> TensorConversionOptions {
            TensorConversionOptions(
                width: width, height: height, keepAspectRatio: keepAspectRatio,
                borderMode: border == "zero" ? .zero : .replicate,
                valueRange: try ValueRange(min: range[0], max: range[1]))
        }
    }

    struct Checksums: Decodable {
        let mean: Double
        let absSum: Double
        let fnv1a64: String

        enum CodingKeys: String, CodingKey {
            case mean
            case absSum = "abs_sum"
            case fnv1a64 = "uint8_fnv1a64"
        }
    }

    struct Case: Decodable {
        let name: String
        let image: String
        let rect: Rect
        let tensor: Tensor
        let letterboxPadding: [Float]
        let matrix: [Float]
        let verifiedWithMediapipe: Bool
        let checksums: Checksums
        let sampleStride: Int
        let samplesHex: String

        enum CodingKeys: String, CodingKey {
            case name, image, rect, tensor
            case letterboxPadding = "letterbox_padding"
            case matrix
            case verifiedWithMediapipe = "verified_with_mediapipe"
            case checksums
            case sampleStride = "sample_stride"
            case samplesHex = "samples_uint8_hex"
        }

        /// Every `sampleStride`-th 8-bit value of the expected tensor.
        var samples: [UInt8] {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(samplesHex.count / 2)
            var iterator = samplesHex.utf8.makeIterator()
            while let high = iterator.next(), let low = iterator.next() {
                bytes.append(UInt8(hexDigit(high) << 4 | hexDigit(low)))
            }
            return bytes
        }

        private func hexDigit(_ character: UInt8) -> Int {
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(character - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(character - UInt8(ascii: "a")) + 10
            default: return 0
            }
        }
    }

    let cases: [Case]

    /// Loads the bundled golden file.
    static func load() throws -> GoldenTensors {
        let data = try Data(contentsOf: GoldenFiles.url("tensors.json"))
        return try JSONDecoder().decode(GoldenTensors.self, from: data)
    }
}

/// Files of the `Golden` resource folder.
enum GoldenFiles {
    static func url(_ name: String) -> URL {
        Bundle.module.resourceURL!.appendingPathComponent("Golden").appendingPathComponent(name)
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(name)))
    }
}

/// FNV-1a, 64 bits: the whole-tensor hash stored by the exporter.
func fnv1a64(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes {
        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
    let text = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - text.count) + text
}
