import CVisionKernels
import Testing

@testable import Inference

/// `vk_qim2col`, the int16 patches of quantized convolutions: every patch value equals the
/// input (or the zero point outside it), and nothing past the documented slack is written.
@Suite struct QuantizedPatchTests {
    struct Geometry: CustomStringConvertible {
        let batch: Int, height: Int, width: Int, channels: Int
        let kernel: Int, stride: Int, dilation: Int, pad: Int

        var outputHeight: Int { (height + 2 * pad - (kernel - 1) * dilation - 1) / stride + 1 }
        var outputWidth: Int { (width + 2 * pad - (kernel - 1) * dilation - 1) / stride + 1 }
        var description: String {
            "\(batch)x\(height)x\(width)x\(channels) k\(kernel) s\(stride) d\(dilation) p\(pad)"
        }
    }

    static let geometries: [Geometry] = [
        // The SSD stem's shape in small: 3 channels, window rows of 9 values.
        Geometry(batch: 1, height: 9, width: 8, channels: 3, kernel: 3, stride: 2, dilation: 1, pad: 1),
        Geometry(batch: 2, height: 5, width: 6, channels: 11, kernel: 5, stride: 1, dilation: 1, pad: 2),
        Geometry(batch: 1, height: 7, width: 7, channels: 6, kernel: 3, stride: 1, dilation: 2, pad: 0),
        Geometry(batch: 1, height: 4, width: 3, channels: 40, kernel: 3, stride: 1, dilation: 1, pad: 1),
        Geometry(batch: 1, height: 6, width: 6, channels: 1, kernel: 3, stride: 3, dilation: 1, pad: 0),
    ]

    @Test(arguments: [false, true])
    func patchesHoldTheWindowAndTheZeroPointOutsideIt(_ signed: Bool) {
        var random = SplitMix64(seed: 0xC0FF_EE11)
        for g in Self.geometries {
            let input = (0..<(g.batch * g.height * g.width * g.channels)).map { _ in
                UInt8(truncatingIfNeeded: random.next() >> 56)
            }
            let k = g.kernel * g.kernel * g.channels
            let stride = (k + 1) / 2 * 2
            let pixels = g.batch * g.outputHeight * g.outputWidth
            let zeroPoint: Int16 = signed ? -7 : 130
            let sentinel: Int16 = 0x7A7A
            // Patches from pixel 1 on (a start inside the batch), then 16 values of slack and 8 checked after it.
            let count = pixels - 1
            var out = [Int16](repeating: sentinel, count: count * stride + 16 + 8)
            input.withUnsafeBytes { bytes in
                var geometry = vk_qpatch_geometry(
                    input: bytes.baseAddress, input_count: input.count, is_signed: signed ? 1 : 0,
                    input_height: g.height, input_width: g.width, channels: g.channels,
                    output_height: g.outputHeight, output_width: g.outputWidth, kernel_height: g.kernel,
                    kernel_width: g.kernel, stride_h: g.stride, stride_w: g.stride, dilation_h: g.dilation,
                    dilation_w: g.dilation, pad_top: g.pad, pad_left: g.pad, zero_point: zeroPoint)
                out.withUnsafeMutableBufferPointer { vk_qim2col(&geometry, 1, count, $0.baseAddress, stride) }
            }
            var wrong = 0
            for m in 0..<count {
                let pixel = m + 1
                let b = pixel / (g.outputHeight * g.outputWidth)
                let oy = pixel / g.outputWidth % g.outputHeight
                let ox = pixel % g.outputWidth
                for ky in 0..<g.kernel {
                    for kx in 0..<g.kernel {
                        let iy = oy * g.stride - g.pad + ky * g.dilation
                        let ix = ox * g.stride - g.pad + kx * g.dilation
                        for c in 0..<g.channels {
                            var expected = zeroPoint
                            if iy >= 0 && iy < g.height && ix >= 0 && ix < g.width {
                                let byte = input[((b * g.height + iy) * g.width + ix) * g.channels + c]
                                expected = signed ? Int16(Int8(bitPattern: byte)) : Int16(byte)
                            }
                            if out[m * stride + (ky * g.kernel + kx) * g.channels + c] != expected { wrong += 1 }
                        }
                    }
                }
            }
            #expect(wrong == 0, "\(g) \(signed ? "int8" : "uint8"): \(wrong) wrong values")
            #expect(out[(count * stride + 16)...].allSatisfy { $0 == sentinel }, "\(g): written past the slack")
        }
    }
}
