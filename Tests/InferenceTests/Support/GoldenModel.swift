import Foundation
import Inference

/// Reference outputs of one model, written by scripts/reference/make_inference_golden.py.
struct GoldenModel: Decodable {
    struct Recipe: Decodable {
        let kind: String
        // random
        let seed: UInt64?
        let low: Double?
        let high: Double?
        // image
        let file: String?
        let size: Int?
        let top: Int?
        let left: Int?
        let mean: Double?
        let std: Double?
    }

    struct Output: Decodable {
        let shape: [Int]
        let count: Int
        /// Base64 little-endian int32 element indices (absent: all elements in order).
        let indices: String?
        /// Base64 little-endian float32 values.
        let values: String
        /// How far LiteRT's own result moves under rounding-level changes (builtin kernels vs
        /// XNNPACK, last-bit input perturbations), scaled like the tolerance; for information.
        let referenceNoise: Double
        /// 1e-4: the scaled tolerance of every element.
        let tolerance: Double
        let sum: Double
        let absSum: Double
        let sumTolerance: Double
    }

    struct Case: Decodable {
        let name: String
        let input: Recipe
        let outputs: [Output]
    }

    let bundle: String
    /// `nil` for a plain model file.
    let member: String?
    let inputShape: [Int]
    let reference: String
    /// The kernels LiteRT ran ("avx512", "avx2"): AVX-512 for data made before it was recorded.
    var kernels: String { recordedKernels ?? "avx512" }
    private let recordedKernels: String?
    /// `nil` for a model LiteRT's builtin kernels cannot run (a custom operator).
    let builtinVsXnnpackMaxScaledError: Double?
    let tolerance: Double
    let cases: [Case]

    private enum CodingKeys: String, CodingKey {
        case bundle, member, inputShape, reference, builtinVsXnnpackMaxScaledError, tolerance, cases
        case recordedKernels = "kernels"
    }

    static var directory: URL? { Bundle.module.url(forResource: "Golden", withExtension: nil) }

    /// The golden data of `member` of the bundle `bundle`, or of the plain model file `bundle`
    /// when `member` is `nil`: LiteRT's AVX-512 results.
    static func load(bundle: String, member: String?) throws -> GoldenModel {
        guard let directory else { throw GoldenError.missing("Golden resource directory") }
        let data = try Data(contentsOf: directory.appendingPathComponent(fileName(bundle: bundle, member: member)))
        return try JSONDecoder().decode(GoldenModel.self, from: data)
    }

    /// LiteRT's results with its AVX2 kernels, where they differ from the AVX-512 ones (its AVX2
    /// LOGISTIC is another algorithm); `nil` where they do not.
    static func loadAVX2(bundle: String, member: String?) throws -> GoldenModel? {
        guard let directory else { throw GoldenError.missing("Golden resource directory") }
        let name = fileName(bundle: bundle, member: member).replacingOccurrences(of: ".json", with: ".avx2.json")
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(GoldenModel.self, from: try Data(contentsOf: url))
    }

    private static func fileName(bundle: String, member: String?) -> String {
        member.map {
            bundle.replacingOccurrences(of: ".task", with: "") + "__" + $0.replacingOccurrences(of: ".tflite", with: "")
                + ".json"
        } ?? bundle.replacingOccurrences(of: ".tflite", with: "") + ".json"
    }

    /// The input values a recipe describes, computed exactly as the generator does.
    static func input(_ recipe: Recipe, shape: [Int]) throws -> [Float] {
        let count = shape.reduce(1, *)
        switch recipe.kind {
        case "random":
            guard let seed = recipe.seed, let low = recipe.low, let high = recipe.high else {
                throw GoldenError.missing("random recipe fields")
            }
            return RandomInput.values(seed: seed, count: count, low: low, high: high)
        case "image":
            guard let file = recipe.file, let size = recipe.size, let top = recipe.top, let left = recipe.left,
                let mean = recipe.mean, let std = recipe.std, let directory
            else { throw GoldenError.missing("image recipe fields") }
            let pixels = try [UInt8](Data(contentsOf: directory.appendingPathComponent(file)))
            guard pixels.count == size * size * 3, shape.count == 4, shape[3] == 3 else {
                throw GoldenError.missing("image \(file) size")
            }
            let height = shape[1]
            let width = shape[2]
            var values: [Float] = []
            values.reserveCapacity(count)
            // Same float32 formula as the generator: (u8 - mean) / std.
            let m = Float(mean)
            let s = Float(std)
            for y in 0..<height {
                for x in 0..<width {
                    for c in 0..<3 {
                        values.append((Float(pixels[((top + y) * size + left + x) * 3 + c]) - m) / s)
                    }
                }
            }
            return values
        default:
            throw GoldenError.missing("recipe kind \(recipe.kind)")
        }
    }

    static func decodeFloats(_ base64: String) throws -> [Float] {
        guard let data = Data(base64Encoded: base64) else { throw GoldenError.missing("base64 values") }
        return data.withUnsafeBytes { raw in
            (0..<(raw.count / 4)).map {
                Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self)))
            }
        }
    }

    static func decodeIndices(_ base64: String) throws -> [Int] {
        guard let data = Data(base64Encoded: base64) else { throw GoldenError.missing("base64 indices") }
        return data.withUnsafeBytes { raw in
            (0..<(raw.count / 4)).map {
                Int(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self)))
            }
        }
    }
}

enum GoldenError: Error {
    case missing(String)
}

/// SplitMix64 inputs, identical to `random_input` in make_inference_golden.py.
enum RandomInput {
    static func values(seed: UInt64, count: Int, low: Double, high: Double) -> [Float] {
        var generator = SplitMix64(seed: seed)
        var values: [Float] = []
        values.reserveCapacity(count)
        for _ in 0..<count {
            let k = Double(generator.next() >> 48)
            values.append(Float(low + (high - low) * (k / 65536)))
        }
        return values
    }

    /// ``values(seed:count:low:high:)`` scaled to use all 24 bits of the mantissa. Those values are
    /// multiples of `(high − low) / 65536` and add exactly in any order, so a test of an order of
    /// additions needs these instead.
    static func fullMantissaValues(seed: UInt64, count: Int, low: Double, high: Double) -> [Float] {
        values(seed: seed, count: count, low: low, high: high).enumerated().map {
            $0.element * (1 + Float($0.offset % 97) / 97)
        }
    }
}
