import ModelFile

/// Output size and leading padding of a sliding window along one spatial axis.
///
/// TFLite's rules (tensorflow/lite/kernels/padding.h, `ComputePaddingHeightWidth`,
/// `ComputeOutSize`): with effective filter `e = (f - 1) · d + 1`, SAME gives
/// `out = ceil(in / s)` and VALID `out = (in - e + s) / s`; the total padding
/// `max((out - 1) · s + e - in, 0)` is split with the smaller half (`total / 2`) before.
struct WindowAxis: Equatable {
    let input: Int
    let output: Int
    let filter: Int
    let stride: Int
    let dilation: Int
    /// Padding before the first input element.
    let padBefore: Int

    /// `before` and `after` are explicit zero padding applied first (a folded PAD): the window
    /// rule then runs on the padded size, and the explicit padding joins the leading padding.
    init?(input: Int, filter: Int, stride: Int, dilation: Int, padding: Padding, before: Int = 0, after: Int = 0) {
        guard input > 0, filter > 0, stride > 0, dilation > 0, before >= 0, after >= 0 else { return nil }
        let padded = input + before + after
        let effective = (filter - 1) * dilation + 1
        let output: Int
        switch padding {
        case .same: output = (padded + stride - 1) / stride
        case .valid: output = (padded - effective + stride) / stride
        }
        guard output > 0 else { return nil }
        self.input = input
        self.output = output
        self.filter = filter
        self.stride = stride
        self.dilation = dilation
        padBefore = Swift.max((output - 1) * stride + effective - padded, 0) / 2 + before
    }

    /// The filter taps `lo..<hi` that land inside the input for output position `o`.
    @inline(__always)
    func validTaps(_ o: Int) -> Range<Int> {
        let origin = o * stride - padBefore
        var lo = 0
        var hi = filter
        if origin < 0 { lo = (-origin + dilation - 1) / dilation }
        let lastInside = input - 1 - origin
        if lastInside < (filter - 1) * dilation { hi = lastInside < 0 ? 0 : lastInside / dilation + 1 }
        return lo..<Swift.max(lo, hi)
    }

    /// The first input position of output `o`'s window (may be negative).
    @inline(__always)
    func origin(_ o: Int) -> Int { o * stride - padBefore }
}

/// The `[batch, height, width, channels]` sizes of an NHWC tensor.
struct NHWC: Equatable {
    let batch: Int, height: Int, width: Int, channels: Int

    init?(_ shape: [Int]) {
        guard shape.count == 4 else { return nil }
        batch = shape[0]
        height = shape[1]
        width = shape[2]
        channels = shape[3]
    }

    init(batch: Int, height: Int, width: Int, channels: Int) {
        self.batch = batch
        self.height = height
        self.width = width
        self.channels = channels
    }

    var shape: [Int] { [batch, height, width, channels] }
}
