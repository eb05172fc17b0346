import Foundation
import TestSupport
import Testing

@testable import Imaging

/// The row-invariant path of the warp (crops without rotation) gives bit for bit what the general
/// per-pixel path gives, for stretched, letterboxed, shifted and partly outside crops, every
/// orientation, both borders and several pixel layouts.
@Suite struct ImageToTensorRowInvariantTests {
    private func tensor(
        _ bitmap: Bitmap, orientation: ImageOrientation, region: NormalizedRect, options: TensorConversionOptions,
        rowInvariant: Bool
    ) throws -> (bytes: [UInt8], used: Bool) {
        let (geometry, inverse) = try ImageToTensor.prepare(
            bitmap, orientation: orientation, region: region, options: options)
        var output = [UInt8](repeating: 7, count: options.elementCount)
        output.withUnsafeMutableBufferPointer { buffer in
            bitmap.withUnsafeBytes { pixels in
                let source = ImageToTensor.SourceView(bitmap: bitmap, pixels: pixels, orientation: orientation)
                ImageToTensor.warp(
                    source, inverse: inverse, geometry: geometry, border: options.borderMode,
                    sink: ImageToTensor.ByteSink(output: buffer.baseAddress!), rowInvariantPath: rowInvariant)
            }
        }
        return (output, ImageToTensor.warpPath(inverse: inverse) == .rowInvariant)
    }

    @Test func rowInvariantPathEqualsTheGeneralPath() throws {
        let sizes = [(958, 1358), (427, 640), (512, 600), (1280, 720), (640, 521), (33, 17)]
        let tensors = [(300, 300), (320, 320), (224, 224), (192, 192), (256, 128)]
        let regions = [
            NormalizedRect.fullImage,
            NormalizedRect(xCenter: 0.4, yCenter: 0.6, width: 0.5, height: 0.3, rotation: 0),
            NormalizedRect(xCenter: 0.05, yCenter: 0.9, width: 0.7, height: 0.9, rotation: 0),  // partly outside
        ]
        var compared = 0
        var rowInvariant = 0
        for (index, (width, height)) in sizes.enumerated() {
            let layout: Bitmap.Layout = [.rgb8, .rgba8, .bgra8][index % 3]
            let image = try SeededBitmap.make(width: width, height: height, layout: layout, seed: index)
            for (tensorWidth, tensorHeight) in tensors {
                for region in regions {
                    for keep in [false, true] {
                        for border in [BorderMode.replicate, .zero] {
                            let orientation = ImageOrientation.allCases[
                                (compared / 3) % ImageOrientation.allCases.count]
                            let options = TensorConversionOptions(
                                width: tensorWidth, height: tensorHeight, keepAspectRatio: keep, borderMode: border)
                            let fast = try tensor(
                                image, orientation: orientation, region: region, options: options, rowInvariant: true)
                            let general = try tensor(
                                image, orientation: orientation, region: region, options: options, rowInvariant: false)
                            #expect(
                                fast.bytes == general.bytes,
                                Comment(
                                    rawValue: "\(width)x\(height) \(orientation) -> \(tensorWidth)x\(tensorHeight) "
                                        + "\(region) keep \(keep) \(border)")
                            )
                            compared += 1
                            if fast.used { rowInvariant += 1 }
                        }
                    }
                }
            }
        }
        print(
            "ImageToTensor row-invariant path: \(compared) conversions compared, \(rowInvariant) took the "
                + "row-invariant path"
        )
        #expect(rowInvariant >= 100 && rowInvariant < compared)  // both paths are exercised
    }
}
