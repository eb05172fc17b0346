import CVisionKernels

/// What a convolution applies to each finished tile while it is still in cache, fused in by
/// ``GraphFusion``: a residual ADD (the other operand, possibly with fewer channels — zero
/// beyond them — and the ADD's activation) and a per-channel PRELU.
struct ConvEpilogue {
    /// The residual operand (`residualChannels` floats per pixel), if an ADD was fused.
    var residual: UnsafePointer<Float>?
    var residualChannels = 0
    /// The fused ADD's activation.
    var clamp = ActivationClamp.identity
    /// The fused PRELU's slopes (one per output channel), if any.
    var slopes: AlignedBuffer?
    /// Whether the residual is the fused 1×1 stage's output, which the kernel passes to
    /// ``apply(_:output:channels:rows:residual:)`` band by band (``residual`` is then nil).
    var residualFromStage = false

    var isEmpty: Bool { residual == nil && slopes == nil && !residualFromStage }

    /// Bytes of the slopes.
    var byteCount: Int { slopes?.byteCount ?? 0 }

    /// The epilogue as CVisionKernels' kernels take it, when it has a residual ADD and no tanh
    /// (a PRELU alone is not expressed here).
    var residualEpilogue: vk_epilogue? {
        guard let residual, !clamp.hasFunction else { return nil }
        return vk_epilogue(
            residual: residual, residual_channels: residualChannels, lo: clamp.lower, hi: clamp.upper,
            alpha: slopes.map { UnsafePointer($0.floats) })
    }

    /// Reads the fused ADD and PRELU of `ctx` for an output of `channels` channels.
    init(_ ctx: OperatorContext, channels: Int) throws {
        if let alpha = ctx.preluAlpha {
            guard let value = try ctx.constants.value(of: alpha), value.descriptor.type == .float32,
                value.descriptor.elementCount == channels
            else {
                throw ctx.invalid("the fused PRELU needs \(channels) constant FLOAT32 slopes")
            }
            slopes = AlignedBuffer(copying: UnsafeBufferPointer(start: value.floats, count: channels))
        }
        if let options = ctx.residualOptions {
            switch options {
            case .elementwise(let activation): clamp = try ctx.clamp(activation)
            case .none, .other: break
            default: throw ctx.invalid("unexpected options of the fused ADD")
            }
            if ctx.residualFromPointwise {
                guard ctx.fusedPointwise != nil, !ctx.residualChannelPadded else {
                    throw ctx.invalid("a residual from the 1×1 stage needs a fused 1×1 stage of full width")
                }
                residualFromStage = true
                return
            }
            let r = try ctx.input(3)
            let out = ctx.output(0)
            guard r.type == .float32, let rc = r.shape.last, r.shape.count == out.shape.count,
                r.shape.dropLast() == out.shape.dropLast(),
                ctx.residualChannelPadded ? rc <= channels : rc == channels
            else {
                throw ctx.invalid("the fused ADD's operand \(r.shapeText) does not match the output \(out.shapeText)")
            }
            residual = UnsafePointer(ctx.inputFloats(3))
            residualChannels = rc
        }
    }

    init() {}

    /// Adds `residual` (`rows.count` pixels of `channels`, the first one at `residual`) to pixels
    /// `rows` of `output`, then the ADD's activation: a residual that comes from the kernel's
    /// band (``residualFromStage``).
    func apply(
        _ isa: InstructionSet, output: UnsafeMutablePointer<Float>, channels: Int, rows: Range<Int>,
        residual: UnsafePointer<Float>
    ) {
        guard !rows.isEmpty else { return }
        add(
            isa, residual, width: channels, to: output + rows.lowerBound * channels, pixels: rows.count,
            channels: channels, slopes: slopes.map { UnsafePointer($0.floats) })
    }

    /// `out += source` over `pixels` pixels of `channels` (`source` has `width` per pixel, zero
    /// beyond), then the ADD's activation and the PRELU's `slopes` (those of `out`'s channels).
    private func add(
        _ isa: InstructionSet, _ source: UnsafePointer<Float>, width: Int, to out: UnsafeMutablePointer<Float>,
        pixels: Int, channels: Int, slopes alpha: UnsafePointer<Float>?
    ) {
        if clamp.hasFunction {
            vk_add_pixels(isa.isa, out, source, width, out, pixels, channels, -.infinity, .infinity, nil)
            clamp.apply(to: out, count: pixels * channels)
            if let alpha { vk_prelu_pixels(isa.isa, out, out, pixels, channels, alpha) }
        } else {
            vk_add_pixels(isa.isa, out, source, width, out, pixels, channels, clamp.lower, clamp.upper, alpha)
        }
    }

    /// Applies the epilogue to pixels `rows`, channels `columns` of `output` (`channels` per pixel).
    func apply(
        _ isa: InstructionSet, output: UnsafeMutablePointer<Float>, channels: Int, rows: Range<Int>, columns: Range<Int>
    ) {
        guard !isEmpty, !rows.isEmpty, !columns.isEmpty else { return }
        let alpha = slopes.map { UnsafePointer($0.floats) }
        guard let residual else {
            if let alpha {
                if columns.count == channels {
                    let out = output + rows.lowerBound * channels
                    vk_prelu_pixels(isa.isa, out, out, rows.count, channels, alpha)
                } else {
                    for m in rows {
                        let out = output + m * channels + columns.lowerBound
                        vk_prelu_pixels(isa.isa, out, out, 1, columns.count, alpha + columns.lowerBound)
                    }
                }
            }
            return
        }
        let rc = residualChannels
        if columns.count == channels && !clamp.hasFunction {
            add(
                isa, residual + rows.lowerBound * rc, width: rc, to: output + rows.lowerBound * channels,
                pixels: rows.count, channels: channels, slopes: alpha)
            return
        }
        for m in rows {
            // The residual's channels within `columns` (none beyond its width).
            add(
                isa, residual + m * rc + Swift.min(columns.lowerBound, rc),
                width: Swift.max(0, Swift.min(rc, columns.upperBound) - columns.lowerBound),
                to: output + m * channels + columns.lowerBound, pixels: 1, channels: columns.count,
                slopes: alpha.map { $0 + columns.lowerBound })
        }
    }
}
