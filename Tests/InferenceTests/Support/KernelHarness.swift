import ModelFile

@testable import Inference

/// Runs a kernel built over plain arrays: owns the memory and a pool.
final class KernelHarness {
    private var buffers: [UnsafeMutablePointer<Float>] = []
    let pool: ThreadPool

    init(threads: Int = 1) { pool = ThreadPool(threadCount: threads) }

    deinit { for b in buffers { b.deallocate() } }

    /// A buffer holding `values` (with slack for vector loads).
    func buffer(_ values: [Float]) -> UnsafeMutablePointer<Float> {
        let p = UnsafeMutablePointer<Float>.allocate(capacity: values.count + 16)
        p.initialize(repeating: .nan, count: values.count + 16)
        p.update(from: values, count: values.count)
        buffers.append(p)
        return p
    }

    /// A buffer of `count` NaNs (so unwritten elements show).
    func output(_ count: Int) -> UnsafeMutablePointer<Float> { buffer(Array(repeating: .nan, count: count)) }

    func run(_ kernel: Kernel) {
        let scratchBytes = max(kernel.scratchBytesPerThread, 64)
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: scratchBytes * pool.threadCount, alignment: 64)
        defer { scratch.deallocate() }
        kernel.execute(ExecutionContext(pool: pool, scratch: scratch, scratchStride: scratchBytes))
    }
}

func values(_ p: UnsafeMutablePointer<Float>, _ count: Int) -> [Float] {
    Array(UnsafeBufferPointer(start: p, count: count))
}

/// A convolution over float arrays: input NHWC, filter OHWI.
func conv2D(
    _ h: KernelHarness, input: [Float], shape: NHWC, filter: [Float], filterShape: NHWC, bias: [Float]?,
    stride: (Int, Int) = (1, 1), dilation: (Int, Int) = (1, 1), padding: Padding, clamp: ActivationClamp = .identity
) -> [Float] {
    let rows = WindowAxis(
        input: shape.height, filter: filterShape.height, stride: stride.0, dilation: dilation.0, padding: padding)!
    let columns = WindowAxis(
        input: shape.width, filter: filterShape.width, stride: stride.1, dilation: dilation.1, padding: padding)!
    let outShape = NHWC(batch: shape.batch, height: rows.output, width: columns.output, channels: filterShape.batch)
    let out = h.output(outShape.batch * outShape.height * outShape.width * outShape.channels)
    let weights = filter.withUnsafeBufferPointer { f in
        bias.map { b in
            b.withUnsafeBufferPointer {
                PackedWeights(
                    weights: f.baseAddress!, bias: $0.baseAddress, n: filterShape.batch,
                    k: filterShape.height * filterShape.width * filterShape.channels)
            }
        }
            ?? PackedWeights(
                weights: f.baseAddress!, bias: nil, n: filterShape.batch,
                k: filterShape.height * filterShape.width * filterShape.channels)
    }
    h.run(
        Conv2DKernel(
            input: h.buffer(input), output: out, inputShape: shape, outputShape: outShape, rows: rows, columns: columns,
            weights: weights, clamp: clamp))
    return values(out, outShape.batch * outShape.height * outShape.width * outShape.channels)
}
