import CVisionKernels

/// Image → tensor conversion, the first step of every task: crop a rotated rectangle,
/// optionally letterbox it, resample it bilinearly to the model input size and scale the
/// values, matching MediaPipe's CPU path bit for bit (../shared/spec/PIPELINES.md §1.3).
///
/// MediaPipe's CPU converter (MP:mediapipe/calculators/tensor/image_to_tensor_converter_opencv.cc)
/// calls OpenCV's classic fixed-point `warpPerspective` with `INTER_LINEAR` on the 8-bit image,
/// then `convertTo` with scale and offset. The sampler here reproduces that path
/// (OpenCV imgproc/src/imgwarp.cpp, `WarpPerspectiveInvoker` and `remapBilinear`):
/// - per tensor pixel (column j, row i), the image position is computed in double as OpenCV's
///   invoker does (in blocks of up to 64 columns whose first column anchors the sum) and
///   rounded to 1/32 pixel (`INTER_BITS` = 5);
/// - the four neighbours are weighted with integer weights (32 − fx)(32 − fy), … that sum to
///   1024 and the result is rounded: (Σ v·w + 512) >> 10 — the same value as OpenCV's 15-bit
///   table `(Σ v·32w + 2^14) >> 15`;
/// - neighbours outside the image are 0 (`.zero`) or clamped to the edge (`.replicate`); with
///   `.zero` a sample whose four neighbours are all outside is 0.
///
/// Orientation is applied by reading the stored pixels through an integer index map, so a
/// stored image plus its orientation gives exactly the tensor of the upright image. The
/// region and the returned geometry are in upright-image coordinates.
///
/// The sampling loop runs in C (`vk_warp_rows` in CVisionKernels, eight tensor pixels at a time
/// with the best instruction set of the CPU); `warp` here is its reference, written for reading,
/// which the tests compare it with bit for bit (ImageToTensorKernelTests) and which converts bitmaps
/// too large for the kernel's 32-bit offsets. The conversion allocates nothing on the heap
/// (ImageToTensorAllocationTests). A crop without rotation takes a cheaper path
/// (``WarpPath/rowInvariant``, see `warp`); the time of both paths is measured by
/// `vision-tasks bench preprocess` (docs/BENCHMARKS.md, "Image to tensor").
package enum ImageToTensor {
    /// The sampling loop a conversion runs; both give the same bits.
    package enum WarpPath: String, Sendable {
        /// Source row and projective divisor computed once per tensor row (the inverse map's `m3`
        /// and `m6` are exactly zero: crops without rotation, as a rule).
        case rowInvariant
        /// Source position and divisor computed per tensor pixel (rotated crops).
        case general
    }

    /// Splits the tensor's rows over threads: called with the row count and a body that fills
    /// any range of rows; it calls the body with disjoint ranges covering all rows and returns
    /// when they are done (e.g. `Interpreter.parallelFor`). Rows are independent, so any split
    /// gives the same bits.
    package typealias RowRunner = (_ rowCount: Int, _ work: Int, _ fill: (Range<Int>) -> Void) -> Void

    /// Fills `output` (height × width × 3 floats, RGB, row-major) from `region` of `bitmap`
    /// shown with `orientation`, its rows split by `rows` (by default all on the calling thread).
    ///
    /// - Throws: ``ImageError/invalidTensor(_:)`` when `output` is too small,
    ///   ``ImageError/invalidRegion(_:)`` for an unusable region.
    @discardableResult
    package static func convert(
        _ bitmap: Bitmap, orientation: ImageOrientation = .up, region: NormalizedRect = .fullImage,
        options: TensorConversionOptions, into output: UnsafeMutableBufferPointer<Float>,
        rows: RowRunner = { count, _, fill in fill(0..<count) }
    ) throws -> CropGeometry {
        try checkOutput(count: output.count, options: options)
        let (geometry, inverse) = try prepare(bitmap, orientation: orientation, region: region, options: options)
        let range = options.valueRange
        bitmap.withUnsafeBytes { pixels in
            let source = SourceView(bitmap: bitmap, pixels: pixels, orientation: orientation)
            if var kernel = warpKernel(
                source, byteCount: pixels.count, inverse: inverse, geometry: geometry, border: options.borderMode)
            {
                kernel.float_output = output.baseAddress!
                kernel.scale = range.scale
                kernel.offset = range.offset
                runKernel(kernel, rows: rows)
                return
            }
            withUnsafeTemporaryAllocation(of: Float.self, capacity: 256) { table in
                for value in 0..<256 {
                    table.initializeElement(at: value, to: Float(value) * range.scale + range.offset)
                }
                let sink = FloatSink(output: output.baseAddress!, table: UnsafePointer(table.baseAddress!))
                warpRows(
                    source, inverse: inverse, geometry: geometry, border: options.borderMode, sink: sink, rows: rows)
            }
        }
        return geometry
    }

    /// Fills `output` (height × width × 3 bytes, RGB) with the resampled 8-bit values, for
    /// models with a uint8 input; `options.valueRange` is ignored. Its rows are split by `rows`
    /// (by default all on the calling thread).
    @discardableResult
    package static func convert(
        _ bitmap: Bitmap, orientation: ImageOrientation = .up, region: NormalizedRect = .fullImage,
        options: TensorConversionOptions, into output: UnsafeMutableBufferPointer<UInt8>,
        rows: RowRunner = { count, _, fill in fill(0..<count) }
    ) throws -> CropGeometry {
        try checkOutput(count: output.count, options: options)
        let (geometry, inverse) = try prepare(bitmap, orientation: orientation, region: region, options: options)
        bitmap.withUnsafeBytes { pixels in
            let source = SourceView(bitmap: bitmap, pixels: pixels, orientation: orientation)
            if var kernel = warpKernel(
                source, byteCount: pixels.count, inverse: inverse, geometry: geometry, border: options.borderMode)
            {
                kernel.byte_output = output.baseAddress!
                runKernel(kernel, rows: rows)
                return
            }
            let sink = ByteSink(output: output.baseAddress!)
            warpRows(source, inverse: inverse, geometry: geometry, border: options.borderMode, sink: sink, rows: rows)
        }
        return geometry
    }

    /// The geometry a conversion of `region` would use, without converting.
    package static func geometry(
        imageWidth: Int, imageHeight: Int, region: NormalizedRect, options: TensorConversionOptions
    ) throws -> CropGeometry {
        try CropGeometry(imageWidth: imageWidth, imageHeight: imageHeight, rect: region, options: options)
    }

    /// The sampling loop that ``convert(_:orientation:region:options:into:)`` runs for these
    /// arguments: the same decision `warp` makes, so tests and benchmarks can check which path a
    /// conversion takes without timing it.
    ///
    /// - Throws: ``ImageError/invalidRegion(_:)`` for an unusable region.
    package static func warpPath(
        for bitmap: Bitmap, orientation: ImageOrientation = .up, region: NormalizedRect = .fullImage,
        options: TensorConversionOptions
    ) throws -> WarpPath {
        let (_, inverse) = try prepare(bitmap, orientation: orientation, region: region, options: options)
        return warpPath(inverse: inverse)
    }

    /// ``WarpPath/rowInvariant`` when the inverse map's `m3` and `m6` are zero.
    static func warpPath(inverse: PerspectiveMatrix) -> WarpPath {
        inverse.m.3 == 0 && inverse.m.6 == 0 ? .rowInvariant : .general
    }

    /// The largest tensor side accepted.
    package static let maxTensorSide = 8192

    // MARK: - Preparation

    private static func checkOutput(count: Int, options: TensorConversionOptions) throws {
        guard options.width > 0, options.height > 0, options.width <= maxTensorSide,
            options.height <= maxTensorSide
        else {
            throw ImageError.invalidTensor("tensor size \(options.width)x\(options.height) is out of range")
        }
        guard count >= options.elementCount else {
            throw ImageError.invalidTensor(
                "output holds \(count) elements, \(options.width)x\(options.height)x3 needs \(options.elementCount)")
        }
    }

    static func prepare(
        _ bitmap: Bitmap, orientation: ImageOrientation, region: NormalizedRect, options: TensorConversionOptions
    ) throws -> (CropGeometry, PerspectiveMatrix) {
        let upright = orientation.uprightSize(width: bitmap.width, height: bitmap.height)
        let geometry = try CropGeometry(
            imageWidth: upright.width, imageHeight: upright.height, rect: region, options: options)
        guard
            let inverse = PerspectiveMatrix.inverseWarp(
                region: geometry.region, tensorWidth: options.width, tensorHeight: options.height)
        else {
            throw ImageError.invalidRegion("the crop rectangle is degenerate")
        }
        return (geometry, inverse)
    }

    // MARK: - Sampling

    /// The upright image as seen through the stored bytes: pixel (x, y) starts at
    /// `origin + x·stepX + y·stepY`.
    struct SourceView {
        let pixels: UnsafePointer<UInt8>
        let width: Int
        let height: Int
        let origin: Int
        let stepX: Int
        let stepY: Int
        let red: Int
        let green: Int
        let blue: Int

        init(bitmap: Bitmap, pixels: UnsafeBufferPointer<UInt8>, orientation: ImageOrientation) {
            let map = orientation.storedPixelMap(width: bitmap.width, height: bitmap.height)
            let upright = orientation.uprightSize(width: bitmap.width, height: bitmap.height)
            let pixelBytes = bitmap.layout.bytesPerPixel
            let rowBytes = bitmap.bytesPerRow
            self.pixels = pixels.baseAddress!
            width = upright.width
            height = upright.height
            origin = map.origin.y * rowBytes + map.origin.x * pixelBytes
            stepX = map.xStep.y * rowBytes + map.xStep.x * pixelBytes
            stepY = map.yStep.y * rowBytes + map.yStep.x * pixelBytes
            let offsets = bitmap.layout.channelOffsets
            red = offsets.red
            green = offsets.green
            blue = offsets.blue
        }
    }

    /// Where the resampled 8-bit values go.
    protocol Sink {
        /// Stores the three channel values of tensor pixel `index` (pixel, not element, index).
        func store(_ index: Int, _ red: Int, _ green: Int, _ blue: Int)
    }

    struct FloatSink: Sink {
        let output: UnsafeMutablePointer<Float>
        let table: UnsafePointer<Float>

        @inline(__always)
        func store(_ index: Int, _ red: Int, _ green: Int, _ blue: Int) {
            let base = output + 3 &* index
            base[0] = table[red]
            base[1] = table[green]
            base[2] = table[blue]
        }
    }

    struct ByteSink: Sink {
        let output: UnsafeMutablePointer<UInt8>

        @inline(__always)
        func store(_ index: Int, _ red: Int, _ green: Int, _ blue: Int) {
            let base = output + 3 &* index
            base[0] = UInt8(truncatingIfNeeded: red)
            base[1] = UInt8(truncatingIfNeeded: green)
            base[2] = UInt8(truncatingIfNeeded: blue)
        }
    }

    /// OpenCV's `std::max(INT_MIN, std::min(INT_MAX, value))` on a double, NaN included
    /// (NaN fails both comparisons and ends as INT_MAX, as in C++).
    @inline(__always)
    static func clampToInt32(_ value: Double) -> Double {
        let upper = value < 2147483647.0 ? value : 2147483647.0
        return -2147483648.0 < upper ? upper : -2147483648.0
    }

    /// `cvRound` (round half to even) of a value already clamped to the Int32 range. Adding
    /// and subtracting 1.5 · 2^52 rounds in the current (nearest-even) mode without a call to
    /// `rint`, which the baseline x86-64 target would need for `rounded(.toNearestOrEven)`.
    @inline(__always)
    static func roundToInt32(_ value: Double) -> Int32 {
        let magic = 6755399441055744.0
        return Int32(truncatingIfNeeded: Int64((value + magic) - magic))
    }

    /// `saturate_cast<short>`.
    @inline(__always)
    static func clampToInt16(_ value: Int32) -> Int {
        Int(Swift.min(Swift.max(value, -32768), 32767))
    }

    // MARK: - Kernel

    /// The instruction set the C sampling kernel runs with: the best this CPU has.
    static let kernelInstructionSet = vk_isa_detect()

    /// The C kernel's description of a conversion (output not yet set), or nil when the bitmap
    /// is too large for its 32-bit offsets; `warp` is then used. The kernel derives OpenCV's
    /// blocks and the row-invariant path from the map itself, by `warp`'s rules. The kernel computes what `warp`
    /// computes, bit for bit (ImageToTensorKernelTests), eight tensor pixels at a time.
    static func warpKernel(
        _ source: SourceView, byteCount: Int, inverse: PerspectiveMatrix, geometry: CropGeometry, border: BorderMode
    ) -> vk_warp? {
        guard byteCount < Int(Int32.max) - 64 else { return nil }
        let m = inverse.m
        return vk_warp(
            pixels: source.pixels, byte_count: Int64(byteCount), width: Int64(source.width),
            height: Int64(source.height), origin: Int64(source.origin), step_x: Int64(source.stepX),
            step_y: Int64(source.stepY), red: Int32(source.red), green: Int32(source.green),
            blue: Int32(source.blue), zero_border: border == .zero ? 1 : 0,
            m: (m.0, m.1, m.2, m.3, m.4, m.5, m.6, m.7, m.8), tensor_width: geometry.tensorWidth,
            tensor_height: geometry.tensorHeight, float_output: nil, byte_output: nil, scale: 1, offset: 0)
    }

    /// Runs `kernel` over every tensor row, split by `rows`.
    private static func runKernel(_ kernel: vk_warp, rows: RowRunner) {
        // About 12 operations per tensor pixel.
        rows(kernel.tensor_height, kernel.tensor_height * kernel.tensor_width * 12) { range in
            withUnsafePointer(to: kernel) {
                vk_warp_rows(kernelInstructionSet, $0, range.lowerBound, range.upperBound)
            }
        }
    }

    /// `warp` over every tensor row, split by `rows`.
    private static func warpRows<Output: Sink>(
        _ source: SourceView, inverse: PerspectiveMatrix, geometry: CropGeometry, border: BorderMode,
        sink: Output, rows: RowRunner
    ) {
        // About 60 operations per tensor pixel.
        rows(geometry.tensorHeight, geometry.tensorHeight * geometry.tensorWidth * 60) { range in
            warp(source, inverse: inverse, geometry: geometry, border: border, sink: sink, rows: range)
        }
    }

    /// Resamples the region into `sink`, OpenCV's `warpPerspective` blocks and rounding included.
    ///
    /// When the inverse map's `m3` and `m6` are exactly zero (crops without rotation, such as the
    /// stretched or letterboxed whole image of the detectors, whenever the LU solution of the warp
    /// leaves no rounding residue in them), the source row and the projective divisor of a
    /// tensor pixel depend on its row alone and are computed once per row; the per-pixel sums they
    /// skip only add zeros, so every sample is bit for bit what the general path gives.
    /// `rowInvariantPath: false` forces the general path (tests compare the two); `rows` limits
    /// the work to those tensor rows.
    static func warp<Output: Sink>(
        _ source: SourceView, inverse: PerspectiveMatrix, geometry: CropGeometry, border: BorderMode,
        sink: Output, rowInvariantPath: Bool = true, rows: Range<Int>? = nil
    ) {
        let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = inverse.m
        let tensorWidth = geometry.tensorWidth
        let tensorHeight = geometry.tensorHeight
        // OpenCV's block size: 16 rows (or fewer) by 1024 / rows columns.
        let blockHeight = Swift.min(16, tensorHeight)
        let blockWidth = Swift.min(1024 / blockHeight, tensorWidth)
        let zeroBorder = border == .zero
        let rowInvariant = rowInvariantPath && warpPath(inverse: inverse) == .rowInvariant

        // Rows are independent (OpenCV's blocks anchor sums at a block's first column only), so
        // any range of them can be filled on its own.
        for y in rows ?? 0..<tensorHeight {
            let row = Double(y)
            if rowInvariant {
                // m6 · column and m3 · column are ±0 here, so w0 and y0 are the same in every block.
                let w0 = m7 * row + m8
                let w = w0 != 0 ? 32 / w0 : 0
                let fixedY = roundToInt32(clampToInt32((m4 * row + m5) * w))
                let sy = clampToInt16(fixedY >> 5)
                let fy = Int(fixedY & 31)
                var blockStart = 0
                while blockStart < tensorWidth {
                    let count = Swift.min(blockWidth, tensorWidth - blockStart)
                    let x0 = m0 * Double(blockStart) + m1 * row + m2
                    let rowIndex = y &* tensorWidth &+ blockStart
                    for offset in 0..<count {
                        let fixedX = roundToInt32(clampToInt32((x0 + m0 * Double(offset)) * w))
                        sample(
                            source, sx: clampToInt16(fixedX >> 5), sy: sy, fx: Int(fixedX & 31), fy: fy,
                            zeroBorder: zeroBorder, index: rowIndex &+ offset, sink: sink)
                    }
                    blockStart += blockWidth
                }
                continue
            }
            var blockStart = 0
            while blockStart < tensorWidth {
                let count = Swift.min(blockWidth, tensorWidth - blockStart)
                let column = Double(blockStart)
                let x0 = m0 * column + m1 * row + m2
                let y0 = m3 * column + m4 * row + m5
                let w0 = m6 * column + m7 * row + m8
                for offset in 0..<count {
                    let step = Double(offset)
                    var w = w0 + m6 * step
                    w = w != 0 ? 32 / w : 0
                    let fixedX = roundToInt32(clampToInt32((x0 + m0 * step) * w))
                    let fixedY = roundToInt32(clampToInt32((y0 + m3 * step) * w))
                    sample(
                        source, sx: clampToInt16(fixedX >> 5), sy: clampToInt16(fixedY >> 5),
                        fx: Int(fixedX & 31), fy: Int(fixedY & 31), zeroBorder: zeroBorder,
                        index: y &* tensorWidth &+ blockStart &+ offset, sink: sink)
                }
                blockStart += blockWidth
            }
        }
    }

    /// One tensor pixel: the bilinear blend at source position (sx + fx/32, sy + fy/32) with
    /// OpenCV's integer weights, neighbours outside the image per the border mode.
    @inline(__always)
    private static func sample<Output: Sink>(
        _ source: SourceView, sx: Int, sy: Int, fx: Int, fy: Int, zeroBorder: Bool, index: Int, sink: Output
    ) {
        let lastX = source.width - 1
        let lastY = source.height - 1
        let pixels = source.pixels
        let (red, green, blue) = (source.red, source.green, source.blue)
        // Overflow-free integer arithmetic (all values are small): wrapping operators skip
        // Swift's overflow checks in the hot loop.
        let w00 = (32 &- fy) &* (32 &- fx)
        let w01 = (32 &- fy) &* fx
        let w10 = fy &* (32 &- fx)
        let w11 = fy &* fx

        if sx >= 0, sx < lastX, sy >= 0, sy < lastY {
            let p00 = pixels + (source.origin &+ sx &* source.stepX &+ sy &* source.stepY)
            let p01 = p00 + source.stepX
            let p10 = p00 + source.stepY
            let p11 = p10 + source.stepX
            let r =
                (Int(p00[red]) &* w00 &+ Int(p01[red]) &* w01 &+ Int(p10[red]) &* w10
                    &+ Int(p11[red]) &* w11 &+ 512) >> 10
            let g =
                (Int(p00[green]) &* w00 &+ Int(p01[green]) &* w01 &+ Int(p10[green]) &* w10
                    &+ Int(p11[green]) &* w11 &+ 512) >> 10
            let b =
                (Int(p00[blue]) &* w00 &+ Int(p01[blue]) &* w01 &+ Int(p10[blue]) &* w10
                    &+ Int(p11[blue]) &* w11 &+ 512) >> 10
            sink.store(index, r, g, b)
            return
        }

        // Border: some neighbour is outside the image.
        if zeroBorder, sx > lastX || sx + 1 < 0 || sy > lastY || sy + 1 < 0 {
            sink.store(index, 0, 0, 0)
            return
        }
        var x0i = sx
        var x1i = sx + 1
        var y0i = sy
        var y1i = sy + 1
        var inside00 = true
        var inside01 = true
        var inside10 = true
        var inside11 = true
        if zeroBorder {
            let x0In = x0i >= 0 && x0i <= lastX
            let x1In = x1i >= 0 && x1i <= lastX
            let y0In = y0i >= 0 && y0i <= lastY
            let y1In = y1i >= 0 && y1i <= lastY
            inside00 = x0In && y0In
            inside01 = x1In && y0In
            inside10 = x0In && y1In
            inside11 = x1In && y1In
        }
        x0i = Swift.min(Swift.max(x0i, 0), lastX)
        x1i = Swift.min(Swift.max(x1i, 0), lastX)
        y0i = Swift.min(Swift.max(y0i, 0), lastY)
        y1i = Swift.min(Swift.max(y1i, 0), lastY)
        let p00 = source.origin + x0i * source.stepX + y0i * source.stepY
        let p01 = source.origin + x1i * source.stepX + y0i * source.stepY
        let p10 = source.origin + x0i * source.stepX + y1i * source.stepY
        let p11 = source.origin + x1i * source.stepX + y1i * source.stepY
        @inline(__always) func blendBorder(_ channel: Int) -> Int {
            let v00 = inside00 ? Int(pixels[p00 + channel]) : 0
            let v01 = inside01 ? Int(pixels[p01 + channel]) : 0
            let v10 = inside10 ? Int(pixels[p10 + channel]) : 0
            let v11 = inside11 ? Int(pixels[p11 + channel]) : 0
            return (v00 * w00 + v01 * w01 + v10 * w10 + v11 * w11 + 512) >> 10
        }
        sink.store(index, blendBorder(red), blendBorder(green), blendBorder(blue))
    }
}
