import CVisionKernels
import Foundation
import Testing

@testable import Imaging

/// The C sampling kernel (`vk_warp_rows`, every instruction set this CPU runs) gives bit for bit
/// what the Swift reference `ImageToTensor.warp` gives: rotated, stretched, letterboxed, shifted
/// and partly outside crops, every orientation, both borders, RGB/RGBA/BGRA pixels, byte and
/// float outputs, tensor widths that leave partial groups of eight pixels.
@Suite struct ImageToTensorKernelTests {
    private static let instructionSets: [vk_isa] = [VK_ISA_PORTABLE, VK_ISA_AVX2, VK_ISA_AVX512, VK_ISA_NEON]
        .filter { vk_isa_is_supported($0) != 0 }

    /// The Swift reference's bytes and floats, then each instruction set's.
    private func compare(
        _ bitmap: Bitmap, orientation: ImageOrientation, region: NormalizedRect, options: TensorConversionOptions
    ) throws -> Int {
        let (geometry, inverse) = try ImageToTensor.prepare(
            bitmap, orientation: orientation, region: region, options: options)
        let scale: Float = 2.0 / 255
        let offset: Float = -1
        var table = [Float](repeating: 0, count: 256)
        for value in 0..<256 { table[value] = Float(value) * scale + offset }
        var referenceBytes = [UInt8](repeating: 7, count: options.elementCount)
        var referenceFloats = [Float](repeating: 7, count: options.elementCount)
        var compared = 0
        try bitmap.withUnsafeBytes { pixels in
            let source = ImageToTensor.SourceView(bitmap: bitmap, pixels: pixels, orientation: orientation)
            referenceBytes.withUnsafeMutableBufferPointer { buffer in
                ImageToTensor.warp(
                    source, inverse: inverse, geometry: geometry, border: options.borderMode,
                    sink: ImageToTensor.ByteSink(output: buffer.baseAddress!))
            }
            table.withUnsafeBufferPointer { table in
                referenceFloats.withUnsafeMutableBufferPointer { buffer in
                    ImageToTensor.warp(
                        source, inverse: inverse, geometry: geometry, border: options.borderMode,
                        sink: ImageToTensor.FloatSink(output: buffer.baseAddress!, table: table.baseAddress!))
                }
            }
            let kernel = try #require(
                ImageToTensor.warpKernel(
                    source, byteCount: pixels.count, inverse: inverse, geometry: geometry, border: options.borderMode))
            for isa in Self.instructionSets {
                var bytes = [UInt8](repeating: 7, count: options.elementCount)
                var floats = [Float](repeating: 7, count: options.elementCount)
                bytes.withUnsafeMutableBufferPointer { buffer in
                    var run = kernel
                    run.byte_output = buffer.baseAddress!
                    // Two row ranges, as a thread split gives them.
                    let middle = options.height / 3
                    vk_warp_rows(isa, &run, 0, middle)
                    vk_warp_rows(isa, &run, middle, options.height)
                }
                floats.withUnsafeMutableBufferPointer { buffer in
                    var run = kernel
                    run.float_output = buffer.baseAddress!
                    run.scale = scale
                    run.offset = offset
                    vk_warp_rows(isa, &run, 0, options.height)
                }
                let name = String(cString: vk_isa_name(isa))
                let context =
                    "\(name) \(bitmap.width)x\(bitmap.height) \(bitmap.layout) \(orientation) -> "
                    + "\(options.width)x\(options.height) \(region) keep \(options.keepAspectRatio) "
                    + "\(options.borderMode)"
                #expect(bytes == referenceBytes, Comment(rawValue: context))
                #expect(
                    floats.map(\.bitPattern) == referenceFloats.map(\.bitPattern), Comment(rawValue: context))
                compared += 1
            }
        }
        return compared
    }

    @Test func kernelEqualsTheSwiftReferenceOnEveryInstructionSet() throws {
        let sizes = [(958, 1358), (427, 640), (1280, 720), (33, 17), (5, 3)]
        let tensors = [(256, 256), (300, 300), (224, 224), (192, 192), (37, 21)]
        let regions = [
            NormalizedRect.fullImage,
            NormalizedRect(xCenter: 0.5, yCenter: 0.45, width: 0.6, height: 0.5, rotation: 0.4),
            NormalizedRect(xCenter: 0.4, yCenter: 0.6, width: 0.5, height: 0.3, rotation: 0),
            NormalizedRect(xCenter: 0.05, yCenter: 0.9, width: 0.7, height: 0.9, rotation: -2.5),  // partly outside
            NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 1.4, height: 1.2, rotation: .pi / 2),
        ]
        var compared = 0
        var conversion = 0
        for (index, (width, height)) in sizes.enumerated() {
            let layout: Bitmap.Layout = [.rgb8, .rgba8, .bgra8][index % 3]
            let image = try SeededBitmap.make(width: width, height: height, layout: layout, seed: index)
            for (tensorWidth, tensorHeight) in tensors {
                for region in regions {
                    let keep = conversion % 2 == 1
                    let border: BorderMode = (conversion / 2) % 2 == 0 ? .zero : .replicate
                    let orientation = ImageOrientation.allCases[(conversion / 3) % ImageOrientation.allCases.count]
                    conversion += 1
                    let options = TensorConversionOptions(
                        width: tensorWidth, height: tensorHeight, keepAspectRatio: keep, borderMode: border)
                    compared += try compare(image, orientation: orientation, region: region, options: options)
                }
            }
        }
        #expect(compared == conversion * Self.instructionSets.count)
        #expect(Self.instructionSets.count >= 1)
    }

    /// Crops over the image's last pixels: the kernel reads 64-bit words there, shifted back from
    /// the bitmap's end, and still gives the reference's bits with either border.
    @Test func cropsOverTheBitmapsLastPixelsMatchTheReference() throws {
        var compared = 0
        var conversion = 0
        for (index, layout) in [Bitmap.Layout.rgb8, .rgba8, .bgra8].enumerated() {
            for (width, height) in [(640, 521), (9, 7)] {
                let image = try SeededBitmap.make(width: width, height: height, layout: layout, seed: 40 + index)
                for region in [
                    NormalizedRect(xCenter: 0.95, yCenter: 0.97, width: 0.5, height: 0.4, rotation: 0.4),
                    NormalizedRect(xCenter: 1.0, yCenter: 1.0, width: 0.3, height: 0.3, rotation: 0),
                ] {
                    for border in [BorderMode.zero, .replicate] {
                        let options = TensorConversionOptions(
                            width: 64, height: 48, keepAspectRatio: false, borderMode: border)
                        compared += try compare(image, orientation: .up, region: region, options: options)
                        conversion += 1
                    }
                }
            }
        }
        #expect(compared == conversion * Self.instructionSets.count)
    }

    /// A conversion through the public entry point takes the kernel and matches the reference.
    @Test func convertUsesTheKernelAndMatchesTheReference() throws {
        let image = try SeededBitmap.make(width: 641, height: 480, layout: .rgb8, seed: 3)
        let options = TensorConversionOptions(width: 256, height: 256, keepAspectRatio: true, borderMode: .zero)
        let region = NormalizedRect(xCenter: 0.52, yCenter: 0.47, width: 0.5, height: 0.6, rotation: 0.3)
        var converted = [Float](repeating: 0, count: options.elementCount)
        try converted.withUnsafeMutableBufferPointer { buffer in
            _ = try ImageToTensor.convert(image, region: region, options: options, into: buffer)
        }
        let (geometry, inverse) = try ImageToTensor.prepare(image, orientation: .up, region: region, options: options)
        var table = [Float](repeating: 0, count: 256)
        let range = options.valueRange
        for value in 0..<256 { table[value] = Float(value) * range.scale + range.offset }
        var reference = [Float](repeating: 0, count: options.elementCount)
        image.withUnsafeBytes { pixels in
            let source = ImageToTensor.SourceView(bitmap: image, pixels: pixels, orientation: .up)
            #expect(
                ImageToTensor.warpKernel(
                    source, byteCount: pixels.count, inverse: inverse, geometry: geometry, border: .zero) != nil)
            table.withUnsafeBufferPointer { table in
                reference.withUnsafeMutableBufferPointer { buffer in
                    ImageToTensor.warp(
                        source, inverse: inverse, geometry: geometry, border: .zero,
                        sink: ImageToTensor.FloatSink(output: buffer.baseAddress!, table: table.baseAddress!))
                }
            }
        }
        #expect(converted.map(\.bitPattern) == reference.map(\.bitPattern))
    }
}
