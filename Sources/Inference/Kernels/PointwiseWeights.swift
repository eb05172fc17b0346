/// The weights of a 1×1 convolution that runs as one stage of a fused kernel
/// (``DepthwisePointwiseKernel``, ``PointwiseDepthwiseKernel``): the non-zero weights when
/// ``SparseConvKernel`` prefers them, packed dense ones otherwise — the choice ``Conv2DKernel``
/// makes for the same layer, so a fused stage computes the same values.
struct PointwiseWeights {
    enum Weights {
        case dense(PackedWeights)
        case sparse(SparseConvKernel)
    }

    let weights: Weights
    /// The activation applied to every product.
    let clamp: ActivationClamp

    /// `n` rows of `k` weights, their bias and the activation after them.
    init(
        filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?, n: Int, k: Int, clamp: ActivationClamp,
        instructionSet: InstructionSet, placeholder: UnsafeMutablePointer<Float>, skippingZeroSteps: Bool = false
    ) {
        self.clamp = clamp
        // The sparse kernel's own input and output are not used by `multiply`.
        if !clamp.hasFunction,
            let sparse = SparseConvKernel(
                input: placeholder, output: placeholder, pixelCount: 0, filter: filter,
                bias: bias, n: n, k: k, clamp: clamp, instructionSet: instructionSet)
        {
            weights = .sparse(sparse)
        } else {
            weights = .dense(
                PackedWeights(
                    weights: filter, bias: bias, n: n, k: k, instructionSet: instructionSet,
                    skippingZeroSteps: skippingZeroSteps))
        }
    }

    /// Bytes of the weights as kept.
    var constantByteCount: Int {
        switch weights {
        case .dense(let weights): return weights.byteCount
        case .sparse(let sparse): return sparse.constantByteCount
        }
    }

    /// Floats of per-thread scratch that `multiply` needs.
    var scratchFloats: Int {
        if case .sparse(let sparse) = weights { return sparse.scratchBytesPerThread / MemoryLayout<Float>.stride }
        return 0
    }

    /// Multiplies `pixels` rows of `a` (`k` floats each) into `output` (`n` floats each), with the
    /// bias and ``clamp``.
    func multiply(
        _ a: UnsafePointer<Float>, pixels: Int, output: UnsafeMutablePointer<Float>,
        scratch: UnsafeMutablePointer<Float>
    ) {
        switch weights {
        case .dense(let weights):
            weights.run(
                a: a, aStride: weights.k, c: output, cStride: weights.n, rows: 0..<pixels,
                panels: 0..<weights.panelCount, clamp: clamp)
        case .sparse(let sparse):
            sparse.multiply(a, pixels: pixels, output: output, scratch: scratch)
        }
    }
}
