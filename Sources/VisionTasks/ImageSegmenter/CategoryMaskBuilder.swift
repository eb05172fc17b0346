import Foundation

/// The category mask as MediaPipe's segmenter computes it on the CPU
/// (tensors_to_segmentation_calculator.cc, ProcessForCategoryMaskCpu; ../shared/spec/PIPELINES.md
/// §9.4): at the output size, each pixel interpolates the model's raw values with corner-aligned
/// positions — row `i` samples `i · (h − 1)/(height − 1)`, rows first, then columns — applies the
/// sigmoid when that is the model's activation, and keeps the index of the first largest
/// channel; a one-channel model gives 0 where the value exceeds 0.5 and 255 elsewhere. This is
/// not the thresholded confidence mask, which is resized with half-pixel positions.
struct CategoryMaskBuilder {
    /// Per output column: the two source columns and the fraction between them.
    private var columns: [SIMD2<Int32>] = []
    private var fractions: [Float] = []
    private var sizes = (sourceWidth: 0, width: 0)

    /// Writes the `width × height` category mask of the `[sourceHeight, sourceWidth, channels]`
    /// tensor `values` into `target`, output rows shared out to `threads`.
    mutating func build(
        values: UnsafePointer<Float>, sourceWidth: Int, sourceHeight: Int, channels: Int, sigmoid: Bool,
        into target: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int,
        threads: TaskThreads
    ) {
        prepare(sourceWidth: sourceWidth, width: width)
        guard let output = target.baseAddress, target.count >= width * height, channels > 0 else { return }
        // Upstream divides by (height − 1) unguarded; a one-row output samples row 0.
        let heightScale = height > 1 ? Float(sourceHeight - 1) / Float(height - 1) : 0
        let rowLimit = Float(sourceHeight - 1)
        columns.withUnsafeBufferPointer { columns in
            fractions.withUnsafeBufferPointer { fractions in
                guard let columns = columns.baseAddress, let fractions = fractions.baseAddress else { return }
                threads.run { thread in
                    for y in threads.rows(height, thread: thread) {
                        let position = Float(y) * heightScale
                        let y0 = Swift.max(position.rounded(.down), 0)
                        let y1 = Swift.min(position.rounded(.up), rowLimit)
                        let t0 = Swift.min(Swift.max(position - y0, 0), 1)
                        let top = values + Int(y0) * sourceWidth * channels
                        let bottom = values + Int(y1) * sourceWidth * channels
                        let to = output + y * width
                        for x in 0..<width {
                            let pair = columns[x]
                            let t1 = fractions[x]
                            let left = Int(pair.x) * channels
                            let right = Int(pair.y) * channels
                            func value(_ c: Int) -> Float {
                                let l = CategoryMaskBuilder.lerp(top[left + c], bottom[left + c], t0)
                                let r = CategoryMaskBuilder.lerp(top[right + c], bottom[right + c], t0)
                                let v = CategoryMaskBuilder.lerp(l, r, t1)
                                return sigmoid ? Float(1 / (1 + Foundation.exp(-Double(v)))) : v
                            }
                            if channels == 1 {
                                to[x] = value(0) > 0.5 ? 0 : 255
                                continue
                            }
                            var best = value(0)
                            var index = 0
                            for c in 1..<channels {
                                let v = value(c)
                                if v > best {
                                    best = v
                                    index = c
                                }
                            }
                            to[x] = UInt8(truncatingIfNeeded: index)
                        }
                    }
                }
            }
        }
    }

    /// `a + (b − a) · t`, upstream's interpolation.
    @inline(__always)
    private static func lerp(_ a: Float, _ b: Float, _ t: Float) -> Float {
        a + (b - a) * t
    }

    private mutating func prepare(sourceWidth: Int, width: Int) {
        guard sizes != (sourceWidth, width) else { return }
        sizes = (sourceWidth, width)
        let widthScale = width > 1 ? Float(sourceWidth - 1) / Float(width - 1) : 0
        let limit = Float(sourceWidth - 1)
        columns = []
        fractions = []
        for x in 0..<width {
            let position = Float(x) * widthScale
            let x0 = Swift.max(position.rounded(.down), 0)
            let x1 = Swift.min(position.rounded(.up), limit)
            columns.append(SIMD2(Int32(x0), Int32(x1)))
            fractions.append(Swift.min(Swift.max(position - x0, 0), 1))
        }
    }
}
