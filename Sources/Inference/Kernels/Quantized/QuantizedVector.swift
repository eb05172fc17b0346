#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

/// The few vector operations the quantized kernels are built from.
///
/// On x86-64 they are SSE2 intrinsics (the baseline instruction set, from the toolchain's clang
/// module): Swift's generic SIMD conversions (`init(truncatingIfNeeded:)` and friends) compile
/// to the right instructions only when the optimizer happens to inline them, and a 16-bit
/// multiply-add that falls back to 32-bit multiplies is several times slower. Elsewhere they
/// are the equivalent Swift SIMD expressions.
enum QuantizedVector {
    /// `pmaddwd`: lanes `2i` and `2i + 1` of `a` and `b` multiplied as int16 and summed as int32.
    @inline(__always)
    static func multiplyAdd(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD4<Int32> {
        #if arch(x86_64)
            return unsafeBitCast(
                _mm_madd_epi16(unsafeBitCast(a, to: __m128i.self), unsafeBitCast(b, to: __m128i.self)),
                to: SIMD4<Int32>.self)
        #else
            let product = SIMD8<Int32>(truncatingIfNeeded: a) &* SIMD8<Int32>(truncatingIfNeeded: b)
            return product.evenHalf &+ product.oddHalf
        #endif
    }

    /// The int32 products of the int16 lanes of `a` and `b` (lanes 0–3, then 4–7).
    @inline(__always)
    static func multiplyWide(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> (SIMD4<Int32>, SIMD4<Int32>) {
        #if arch(x86_64)
            let x = unsafeBitCast(a, to: __m128i.self)
            let y = unsafeBitCast(b, to: __m128i.self)
            let low = _mm_mullo_epi16(x, y)
            let high = _mm_mulhi_epi16(x, y)
            return (
                unsafeBitCast(_mm_unpacklo_epi16(low, high), to: SIMD4<Int32>.self),
                unsafeBitCast(_mm_unpackhi_epi16(low, high), to: SIMD4<Int32>.self)
            )
        #else
            let product = SIMD8<Int32>(truncatingIfNeeded: a) &* SIMD8<Int32>(truncatingIfNeeded: b)
            return (product.lowHalf, product.highHalf)
        #endif
    }

    /// Eight UINT8 (`signed == false`) or INT8 values at `p`, widened to int16.
    @inline(__always)
    static func widen(_ p: UnsafeRawPointer, signed: Bool) -> SIMD8<Int16> {
        #if arch(x86_64)
            let bytes = _mm_loadl_epi64(p.assumingMemoryBound(to: __m128i.self))
            if signed {
                return unsafeBitCast(_mm_srai_epi16(_mm_unpacklo_epi8(bytes, bytes), 8), to: SIMD8<Int16>.self)
            }
            return unsafeBitCast(_mm_unpacklo_epi8(bytes, _mm_setzero_si128()), to: SIMD8<Int16>.self)
        #else
            if signed { return SIMD8<Int16>(truncatingIfNeeded: p.loadUnaligned(as: SIMD8<Int8>.self)) }
            return SIMD8<Int16>(truncatingIfNeeded: p.loadUnaligned(as: SIMD8<UInt8>.self))
        #endif
    }

    /// Lanes of `a` and `b` interleaved: `(a0, b0, a1, b1, a2, b2, a3, b3)` and the same of
    /// lanes 4–7 (`punpcklwd` / `punpckhwd`).
    @inline(__always)
    static func interleave(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> (SIMD8<Int16>, SIMD8<Int16>) {
        #if arch(x86_64)
            let x = unsafeBitCast(a, to: __m128i.self)
            let y = unsafeBitCast(b, to: __m128i.self)
            return (
                unsafeBitCast(_mm_unpacklo_epi16(x, y), to: SIMD8<Int16>.self),
                unsafeBitCast(_mm_unpackhi_epi16(x, y), to: SIMD8<Int16>.self)
            )
        #else
            return (
                SIMD8(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3]),
                SIMD8(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
            )
        #endif
    }

    /// The int32 lanes as floats.
    @inline(__always)
    static func float(_ v: SIMD4<Int32>) -> SIMD4<Float> {
        #if arch(x86_64)
            return _mm_cvtepi32_ps(unsafeBitCast(v, to: __m128i.self))
        #else
            return SIMD4<Float>(v)
        #endif
    }

    /// Stores the eight int32 lanes (already within the element type's range) as UINT8
    /// (`signed == false`) or INT8 bytes at `p`.
    @inline(__always)
    static func storeNarrowed(_ low: SIMD4<Int32>, _ high: SIMD4<Int32>, to p: UnsafeMutableRawPointer, signed: Bool) {
        #if arch(x86_64)
            let words = _mm_packs_epi32(unsafeBitCast(low, to: __m128i.self), unsafeBitCast(high, to: __m128i.self))
            let bytes = signed ? _mm_packs_epi16(words, words) : _mm_packus_epi16(words, words)
            _mm_storel_epi64(p.assumingMemoryBound(to: __m128i.self), bytes)
        #else
            let v = SIMD8(lowHalf: low, highHalf: high)
            if signed {
                p.storeBytes(of: SIMD8<Int8>(truncatingIfNeeded: v), as: SIMD8<Int8>.self)
            } else {
                p.storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: v), as: SIMD8<UInt8>.self)
            }
        #endif
    }

    /// Requantization of four int32 sums in float32: `clamp(float(acc) · scale, lower, upper)`
    /// rounded to the nearest integer (ties to even) plus `bias - 0x4B400000`, by the magic-number
    /// trick: adding 1.5 · 2^23 to a float of magnitude below 2^22 leaves its rounded value in the
    /// low mantissa bits (no SSE4.1 rounding instruction needed).
    @inline(__always)
    static func requantize(
        _ acc: SIMD4<Int32>, scale: SIMD4<Float>, lower: SIMD4<Float>, upper: SIMD4<Float>,
        bias: SIMD4<Int32>
    ) -> SIMD4<Int32> {
        #if arch(x86_64)
            // (`__m128` is `SIMD4<Float>` in Swift.)
            let scaled = _mm_mul_ps(_mm_cvtepi32_ps(unsafeBitCast(acc, to: __m128i.self)), scale)
            let bounded = _mm_min_ps(_mm_max_ps(scaled, lower), upper)
            let biased = _mm_add_ps(bounded, _mm_set1_ps(12_582_912))
            return unsafeBitCast(
                _mm_add_epi32(_mm_castps_si128(biased), unsafeBitCast(bias, to: __m128i.self)), to: SIMD4<Int32>.self)
        #else
            let scaled = SIMD4<Float>(acc) * scale
            let low = scaled.replacing(with: lower, where: scaled .< lower)
            let bounded = low.replacing(with: upper, where: low .> upper)
            return unsafeBitCast(bounded + SIMD4(repeating: 12_582_912), to: SIMD4<Int32>.self) &+ bias
        #endif
    }

    /// `min(max(v, lower), upper)` lane by lane (`maxps` / `minps`).
    @inline(__always)
    static func clamp(_ v: SIMD4<Float>, _ lower: SIMD4<Float>, _ upper: SIMD4<Float>) -> SIMD4<Float> {
        #if arch(x86_64)
            return _mm_min_ps(_mm_max_ps(v, lower), upper)
        #else
            let low = v.replacing(with: lower, where: v .< lower)
            return low.replacing(with: upper, where: low .> upper)
        #endif
    }
}
