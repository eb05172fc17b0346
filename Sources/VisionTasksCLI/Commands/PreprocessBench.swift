import Foundation
import Imaging

/// `vision-tasks bench preprocess IMAGE [--crop rotated|whole] [--iterations N] [--json]`: times
/// the image → tensor conversion that starts every task, alone.
///
/// - `rotated`: a landmark model's crop, 256 × 256 floats in [0, 1] from a rectangle rotated by
///   0.4 rad around (0.5, 0.55), half the image wide and square in pixels (the general sampling
///   path, run per pixel).
/// - `whole`: a detector's input, the whole image stretched to 300 × 300 bytes (the
///   row-invariant path).
///
/// The answer names the sampling path taken (`"path"` with `--json`), so a row of
/// docs/BENCHMARKS.md says which loop it timed.
package enum PreprocessBench: BenchTask {
    package static let name = "preprocess"

    /// The two conversions that can be timed.
    package enum Crop: String, CaseIterable, Sendable {
        case rotated
        case whole

        /// The tensor this conversion fills.
        package var options: TensorConversionOptions {
            switch self {
            case .rotated: TensorConversionOptions(width: 256, height: 256, valueRange: .zeroToOne)
            case .whole: TensorConversionOptions(width: 300, height: 300)
            }
        }

        /// The region of an image `width` × `height` pixels that this conversion crops.
        package func region(width: Int, height: Int) -> NormalizedRect {
            switch self {
            case .rotated:
                NormalizedRect(
                    xCenter: 0.5, yCenter: 0.55, width: 0.5, height: 0.5 * Float(width) / Float(height), rotation: 0.4)
            case .whole: .fullImage
            }
        }
    }

    package static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try Arguments(arguments, flags: ["json"], options: ["crop", "iterations"])
        guard parsed.positionals.count == 1 else { throw CLIError.usage("bench preprocess takes one IMAGE") }
        let cropName = parsed.value("crop") ?? Crop.rotated.rawValue
        guard let crop = Crop(rawValue: cropName) else {
            throw CLIError.usage("--crop must be rotated or whole, not '\(cropName)'")
        }
        let iterations = try parsed.integer("iterations", in: 1...100_000) ?? 200
        let decoded = try ImageDecoder.decodeFile(atPath: context.absolute(parsed.positionals[0]))
        let bitmap = decoded.bitmap
        let options = crop.options
        let region = crop.region(width: bitmap.width, height: bitmap.height)
        let path = try ImageToTensor.warpPath(for: bitmap, region: region, options: options)
        let timing: (median: Double, min: Double, max: Double)
        switch crop {
        case .rotated:
            var output = [Float](repeating: 0, count: options.elementCount)
            timing = try output.withUnsafeMutableBufferPointer { buffer in
                try BenchTimer(iterations: iterations).measure { _ in
                    try ImageToTensor.convert(bitmap, region: region, options: options, into: buffer)
                }
            }
        case .whole:
            var output = [UInt8](repeating: 0, count: options.elementCount)
            timing = try output.withUnsafeMutableBufferPointer { buffer in
                try BenchTimer(iterations: iterations).measure { _ in
                    try ImageToTensor.convert(bitmap, region: region, options: options, into: buffer)
                }
            }
        }
        let tensor = "\(options.width)x\(options.height)x3 \(crop == .rotated ? "float" : "uint8")"
        BenchTimer.report(
            timing,
            label: "preprocess \(bitmap.width)x\(bitmap.height) -> \(tensor), \(crop.rawValue) (\(path.rawValue) path)",
            json: parsed.flag("json"), console: context.console,
            extra: [
                ("crop", .string(crop.rawValue)), ("path", .string(path.rawValue)),
                ("image", .string("\(bitmap.width)x\(bitmap.height)")), ("tensor", .string(tensor)),
            ])
        return 0
    }
}
