import ModelFile
import Testing

@testable import Inference

/// The quantized depthwise kernel (`vk_qdwconv_run`, multiplier 1, XNNPACK arithmetic) on every
/// instruction set this CPU runs: its bytes equal the integer definition
/// `acc = bias + Σ_taps (x - x_zp) · (w - w_zp)` requantized by ``Requantizer``, for channel counts
/// that reach every block of the AVX2 tap-pair kernel (32, 16, 8 and a partial last one), odd and
/// even tap counts, strides, dilation and both paddings, UINT8 and INT8.
@Suite struct QuantizedDepthwiseKernelTests {
    struct Shape: CustomStringConvertible {
        let batch: Int
        let height: Int
        let width: Int
        let channels: Int
        let kernel: Int
        let stride: Int
        let dilation: Int
        let padding: Padding

        var description: String {
            "\(batch)x\(height)x\(width)x\(channels) k\(kernel) s\(stride) d\(dilation) \(padding)"
        }
    }

    static let shapes: [Shape] = [
        Shape(batch: 1, height: 7, width: 9, channels: 13, kernel: 3, stride: 1, dilation: 1, padding: .same),
        Shape(batch: 1, height: 6, width: 5, channels: 21, kernel: 3, stride: 2, dilation: 1, padding: .same),
        Shape(batch: 1, height: 5, width: 7, channels: 40, kernel: 3, stride: 1, dilation: 1, padding: .valid),
        Shape(batch: 2, height: 9, width: 6, channels: 61, kernel: 3, stride: 1, dilation: 2, padding: .same),
        Shape(batch: 1, height: 8, width: 8, channels: 64, kernel: 5, stride: 2, dilation: 1, padding: .same),
        Shape(batch: 1, height: 4, width: 4, channels: 7, kernel: 1, stride: 1, dilation: 1, padding: .valid),
        Shape(batch: 1, height: 3, width: 17, channels: 96, kernel: 3, stride: 2, dilation: 1, padding: .same),
        Shape(batch: 1, height: 2, width: 3, channels: 24, kernel: 3, stride: 1, dilation: 1, padding: .same),
    ]

    @Test(arguments: InstructionSet.all.filter(\.isSupported))
    func bytesEqualTheIntegerDefinition(_ instructionSet: InstructionSet) throws {
        var random = SplitMix64(seed: 0x5EED_D00D)
        for shape in Self.shapes {
            for signed in [false, true] {
                let problem = try Problem(shape: shape, signed: signed, random: &random)
                let expected = problem.definition()
                let actual = problem.run(instructionSet)
                let mismatches = zip(actual, expected).filter { $0 != $1 }.count
                #expect(mismatches == 0, "\(instructionSet) \(shape) \(signed ? "int8" : "uint8"): \(mismatches) bytes")
                // Outputs spread over many values: the comparison means something.
                #expect(Set(expected).count > 20 || expected.count < 100)
            }
        }
    }

    @Test func laneOrderInterleavesHalvesOfEachBlock() {
        // 61 channels: one block of 32, one of 16, then 13 in order (and the padding to 64).
        let order = QuantizedDepthwiseConv2DKernel.laneOrder(channels: 61, padded: 64)
        #expect(Array(order[0..<8]) == [0, 1, 2, 3, 16, 17, 18, 19])
        #expect(Array(order[24..<32]) == [12, 13, 14, 15, 28, 29, 30, 31])
        #expect(Array(order[32..<48]) == [32, 33, 34, 35, 40, 41, 42, 43, 36, 37, 38, 39, 44, 45, 46, 47])
        #expect(Array(order[48..<64]) == Array(48..<64))
        #expect(Set(order) == Set(0..<64))
    }
}

/// One random depthwise convolution: input, filter (`kernel²` taps), biases and requantization.
private struct Problem {
    let shape: QuantizedDepthwiseKernelTests.Shape
    let signed: Bool
    let rows: WindowAxis
    let columns: WindowAxis
    let input: [UInt8]
    /// `taps × channels` raw filter bytes.
    let filter: [UInt8]
    let bias: [Int32]
    let inputZeroPoint: Int32
    let filterZeroPoint: Int32
    let requantizer: Requantizer

    init(shape: QuantizedDepthwiseKernelTests.Shape, signed: Bool, random: inout SplitMix64) throws {
        self.shape = shape
        self.signed = signed
        rows = try #require(
            WindowAxis(
                input: shape.height, filter: shape.kernel, stride: shape.stride, dilation: shape.dilation,
                padding: shape.padding))
        columns = try #require(
            WindowAxis(
                input: shape.width, filter: shape.kernel, stride: shape.stride, dilation: shape.dilation,
                padding: shape.padding))
        let count = shape.batch * shape.height * shape.width * shape.channels
        input = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next() >> 56) }
        filter = (0..<(shape.kernel * shape.kernel * shape.channels)).map { _ in
            UInt8(truncatingIfNeeded: random.next() >> 56)
        }
        bias = (0..<shape.channels).map { _ in Int32(truncatingIfNeeded: random.next() % 40_001) - 20_000 }
        inputZeroPoint = signed ? -3 : 121
        filterZeroPoint = signed ? 0 : 133
        // Sums of 9 taps reach about ±50 000: a scale of 1/300 spreads them over the range, and a
        // range narrower than the type's clamps some.
        let taps = Float(shape.kernel * shape.kernel)
        requantizer = Requantizer(
            arithmetic: .xnnpack, inputScale: 0.02, filterScales: [0.01], outputScale: 0.06 * taps.squareRoot(),
            channelCount: shape.channels, zeroPoint: signed ? 5 : 128,
            range: signed ? QuantizedRange(lower: -120, upper: 127) : QuantizedRange(lower: 3, upper: 250),
            floatProduct: !signed)
    }

    func value(_ byte: UInt8) -> Int32 { signed ? Int32(Int8(bitPattern: byte)) : Int32(byte) }

    /// The outputs from exact int32 sums over the taps inside the input.
    func definition() -> [UInt8] {
        let channels = shape.channels
        var out: [UInt8] = []
        for b in 0..<shape.batch {
            for oy in 0..<rows.output {
                for ox in 0..<columns.output {
                    for c in 0..<channels {
                        var acc = bias[c]
                        for ky in 0..<shape.kernel {
                            let iy = rows.origin(oy) + ky * shape.dilation
                            guard iy >= 0 && iy < shape.height else { continue }
                            for kx in 0..<shape.kernel {
                                let ix = columns.origin(ox) + kx * shape.dilation
                                guard ix >= 0 && ix < shape.width else { continue }
                                let x = value(input[((b * shape.height + iy) * shape.width + ix) * channels + c])
                                let w = value(filter[(ky * shape.kernel + kx) * channels + c])
                                acc &+= (x - inputZeroPoint) * (w - filterZeroPoint)
                            }
                        }
                        out.append(UInt8(truncatingIfNeeded: requantizer.requantize(acc, channel: c)))
                    }
                }
            }
        }
        return out
    }

    /// The kernel's outputs on `instructionSet` (weights packed as the operator packs them).
    func run(_ instructionSet: InstructionSet) -> [UInt8] {
        let channels = shape.channels
        let padded = (channels + 15) / 16 * 16
        let taps = shape.kernel * shape.kernel
        let packed = AlignedBuffer(byteCount: taps * padded * MemoryLayout<Int16>.stride)
        for t in 0..<taps {
            for c in 0..<channels {
                packed.bound(to: Int16.self)[t * padded + c] = Int16(value(filter[t * channels + c]) - filterZeroPoint)
            }
        }
        let biases = AlignedBuffer(byteCount: padded * MemoryLayout<Int32>.stride)
        for c in 0..<channels { biases.bound(to: Int32.self)[c] = bias[c] }
        let source = AlignedBuffer(byteCount: input.count)
        source.raw.copyMemory(from: input, byteCount: input.count)
        let outputShape = NHWC(batch: shape.batch, height: rows.output, width: columns.output, channels: channels)
        let destination = AlignedBuffer(byteCount: outputShape.shape.reduce(1, *))
        let kernel = QuantizedDepthwiseConv2DKernel(
            input: source.raw, output: destination.raw, isSigned: signed,
            inputShape: NHWC(batch: shape.batch, height: shape.height, width: shape.width, channels: channels),
            outputShape: outputShape, rows: rows, columns: columns, multiplier: 1,
            inputZeroPoint: Int16(inputZeroPoint), packed: packed, bias: biases, paddedChannels: padded,
            requantizer: requantizer, instructionSet: instructionSet)
        kernel.run(tasks: 0..<(shape.batch * rows.output), thread: 0)
        return Array(UnsafeBufferPointer(start: destination.bound(to: UInt8.self), count: destination.byteCount))
    }
}
