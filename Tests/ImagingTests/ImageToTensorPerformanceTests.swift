import Foundation
import Imaging
import Testing
import TestSupport

/// The conversion runs every frame: it must take about a millisecond for a landmark-model
/// crop of a 720p frame in release builds.
@Suite struct ImageToTensorPerformanceTests {
    @Test func rotatedCropOf720pFrameIsFast() throws {
        var bytes = [UInt8](repeating: 0, count: 1280 * 720 * 3)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 2654435761 >> 13) }
        let frame = try Bitmap(width: 1280, height: 720, layout: .rgb8, bytes: bytes)
        let options = TensorConversionOptions(width: 256, height: 256, valueRange: .zeroToOne)
        let region = NormalizedRect(xCenter: 0.5, yCenter: 0.55, width: 0.5, height: 0.5 * 1280 / 720, rotation: 0.4)
        var output = [Float](repeating: 0, count: options.elementCount)
        let iterations = SharedData.isDebugBuild ? 3 : 200
        let clock = ContinuousClock()
        var best = Duration.seconds(1000)
        var total = Duration.zero
        try output.withUnsafeMutableBufferPointer { buffer in
            for _ in 0..<iterations {
                let start = clock.now
                try ImageToTensor.convert(frame, region: region, options: options, into: buffer)
                let elapsed = clock.now - start
                best = min(best, elapsed)
                total += elapsed
            }
        }
        let mean = total / iterations
        print("ImageToTensor 1280x720 -> 256x256x3 float: mean \(mean), best \(best) over \(iterations) runs")
        if !SharedData.isDebugBuild {
            #expect(best < .milliseconds(2), "best \(best)")
        }
    }
}
