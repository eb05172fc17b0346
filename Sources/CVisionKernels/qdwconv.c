// Quantized depthwise convolution (DEPTHWISE_CONV_2D on UINT8 / INT8, depth multiplier 1, the
// float32 requantization of vk_qgemm): exact int32 sums, so every build gives the same bytes.
// The portable build takes 16 channels at a time in int32 lanes, one tap per product; x86 (AVX2,
// and AVX-512 hosts too) sums two taps per 16-bit multiply-add (vpmaddwd), in 128-bit lanes
// throughout. On the Zen 4 host the AVX-512 build of the portable body (a 32-bit multiply per
// tap) took 1.6-1.95x as long as the AVX2 tap pairs on every depthwise layer of the quantized
// SSD (`vision-tasks bench-model --profile-kernels --isa avx512 / avx2`), so it is gone.
#include <string.h>
#include "CVisionKernels.h"

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#endif

typedef int32_t vk_qi __attribute__((ext_vector_type(16)));
typedef float vk_qf __attribute__((ext_vector_type(16)));
typedef uint8_t vk_qu8 __attribute__((ext_vector_type(16)));
typedef int8_t vk_qs8 __attribute__((ext_vector_type(16)));
typedef int16_t vk_qs16 __attribute__((ext_vector_type(16)));

// (input − zero point) · weight of one tap for a block of 16 channels starting at `source`, as
// int32 lanes. Lanes past the pixel's channels (a partial last block, `width` < 16) have zero
// weights and add nothing: they are read from the next pixel where the image goes on, else
// through a 16-byte buffer.
#define VK_QDW_PRODUCT(VECTOR, t)                                                                                    \
    ({                                                                                                               \
        const uint8_t *source = src[t] + c;                                                                          \
        uint8_t lanes[16];                                                                                           \
        if (width < 16 && (size_t)(source - in) + 16 > image) {                                                      \
            memset(lanes, 0, sizeof lanes);                                                                          \
            memcpy(lanes, source, width);                                                                            \
            source = lanes;                                                                                          \
        }                                                                                                            \
        VECTOR x;                                                                                                    \
        memcpy(&x, source, sizeof x);                                                                                \
        vk_qs16 w;                                                                                                   \
        memcpy(&w, weights[t] + c, sizeof w);                                                                        \
        (__builtin_convertvector(x, vk_qi) - input_zero) * __builtin_convertvector(w, vk_qi);                       \
    })

// One 16-channel block of one output pixel: `count` taps, tap t reading `src[t] + c` with
// weights `weights[t] + c`, then the float32 requantization of vk_qgemm.
#define VK_QDW_BLOCK(VECTOR)                                                                                         \
    do {                                                                                                             \
        const size_t width = channels - c < 16 ? channels - c : 16;                                                  \
        vk_qi acc, odd = 0;                                                                                          \
        memcpy(&acc, d->bias + c, sizeof acc);                                                                       \
        /* Two chains of additions (even and odd taps): int32 sums are exact in any order. */                         \
        size_t t = 0;                                                                                                \
        for (; t + 2 <= count; t += 2) {                                                                             \
            acc += VK_QDW_PRODUCT(VECTOR, t);                                                                        \
            odd += VK_QDW_PRODUCT(VECTOR, t + 1);                                                                    \
        }                                                                                                            \
        if (t < count) acc += VK_QDW_PRODUCT(VECTOR, t);                                                             \
        acc += odd;                                                                                                  \
        vk_qf scale;                                                                                                 \
        memcpy(&scale, d->scales + c, sizeof scale);                                                                 \
        vk_qf v = __builtin_convertvector(acc, vk_qf) * scale;                                                       \
        /* v is never NaN (a whole number times a finite scale): comparisons clamp as min/max do. */             \
        v = v < lower ? lower : v;                                                                                   \
        v = v > upper ? upper : v;                                                                                   \
        v = v + magic;                                                                                               \
        vk_qi q;                                                                                                     \
        memcpy(&q, &v, sizeof q);                                                                                    \
        q += correction;                                                                                             \
        vk_qu8 bytes = __builtin_convertvector(q, vk_qu8);                                                           \
        /* A partial block's extra bytes land on later pixels of this row, written after it; a store */              \
        /* that would pass the row's end (few channels, or the row's last pixel) is cut.             */              \
        if (width == 16 || c + 16 <= (d->output_width - ox) * channels)                                              \
            memcpy(out + c, &bytes, sizeof bytes);                                                                   \
        else                                                                                                         \
            memcpy(out + c, &bytes, width);                                                                          \
    } while (0)

// Output rows [row_begin, row_end). A pixel whose whole window lies inside the input reads its
// taps at fixed offsets from its window's corner (computed once per call); a border pixel lists
// the taps inside the input.
#define VK_QDW_BODY(NAME, VECTOR)                                                                                    \
    static void NAME(const vk_qdwconv *d, size_t row_begin, size_t row_end) {                                        \
        const size_t channels = d->channels, kw = d->kernel_width, kh = d->kernel_height;                            \
        const size_t width_in = d->input_width, height_in = d->input_height;                                         \
        const uint8_t *src[64];                                                                                      \
        const int16_t *tap_weights[64];                                                                              \
        size_t offsets[64];                                                                                          \
        const int16_t *window_weights[64];                                                                           \
        const vk_qf lower = d->lower, upper = d->upper, magic = 12582912.0f;                                         \
        const vk_qi correction = d->zero_point - 0x4B400000;                                                         \
        const vk_qi input_zero = d->input_zero_point;                                                                \
        const size_t image = d->input_height * width_in * channels;                                                  \
        const size_t out_image = d->output_height * d->output_width * channels;                                      \
        const long window_h = (long)((kh - 1) * d->dilation_h), window_w = (long)((kw - 1) * d->dilation_w);         \
        for (size_t ky = 0, t = 0; ky < kh; ky++)                                                                    \
            for (size_t kx = 0; kx < kw; kx++, t++) {                                                                \
                offsets[t] = (ky * d->dilation_h * width_in + kx * d->dilation_w) * channels;                        \
                window_weights[t] = d->weights + t * d->padded_channels;                                             \
            }                                                                                                        \
        for (size_t row = row_begin; row < row_end; row++) {                                                         \
            const size_t b = row / d->output_height, oy = row % d->output_height;                                    \
            const uint8_t *in = (const uint8_t *)d->input + b * image;                                               \
            uint8_t *out = (uint8_t *)d->output + b * out_image + oy * d->output_width * channels;                    \
            const long iy0 = (long)(oy * d->stride_h) - (long)d->pad_top;                                            \
            const int rows_inside = iy0 >= 0 && iy0 + window_h < (long)height_in;                                    \
            for (size_t ox = 0; ox < d->output_width; ox++, out += channels) {                                       \
                const long ix0 = (long)(ox * d->stride_w) - (long)d->pad_left;                                       \
                size_t count = 0;                                                                                    \
                const int16_t *const *weights = tap_weights;                                                         \
                if (rows_inside && ix0 >= 0 && ix0 + window_w < (long)width_in) {                                    \
                    const uint8_t *corner = in + ((size_t)iy0 * width_in + (size_t)ix0) * channels;                  \
                    count = kh * kw;                                                                                 \
                    for (size_t t = 0; t < count; t++) src[t] = corner + offsets[t];                                 \
                    weights = window_weights;                                                                        \
                } else {                                                                                             \
                    for (size_t ky = 0; ky < kh; ky++) {                                                             \
                        const long iy = iy0 + (long)(ky * d->dilation_h);                                            \
                        if (iy < 0 || iy >= (long)height_in) continue;                                               \
                        for (size_t kx = 0; kx < kw; kx++) {                                                         \
                            const long ix = ix0 + (long)(kx * d->dilation_w);                                        \
                            if (ix < 0 || ix >= (long)width_in) continue;                                            \
                            src[count] = in + ((size_t)iy * width_in + (size_t)ix) * channels;                       \
                            tap_weights[count] = window_weights[ky * kw + kx];                                       \
                            count++;                                                                                 \
                        }                                                                                            \
                    }                                                                                                \
                }                                                                                                    \
                for (size_t c = 0; c < channels; c += 16) VK_QDW_BLOCK(VECTOR);                                      \
            }                                                                                                        \
        }                                                                                                            \
    }

// The portable build's unsigned and signed bodies, and its entry.
#define VK_QDW_BOTH(NAME)                                                                                            \
    VK_QDW_BODY(NAME##_u8, vk_qu8)                                                                                   \
    VK_QDW_BODY(NAME##_s8, vk_qs8)                                                                                   \
    static void NAME(const vk_qdwconv *d, size_t row_begin, size_t row_end) {                                        \
        if (d->is_signed)                                                                                            \
            NAME##_s8(d, row_begin, row_end);                                                                        \
        else                                                                                                         \
            NAME##_u8(d, row_begin, row_end);                                                                        \
    }

#if defined(__x86_64__) || defined(_M_X64)
// MARK: AVX2, two taps per multiply-add

#define VK_QDW2 __attribute__((target("avx2,fma"), always_inline)) static inline

/// The constants of the float32 requantization.
typedef struct vk_qdw2_rule {
    __m256 lower, upper, magic;
    __m256i correction;
} vk_qdw2_rule;

/// The float32 requantization of VK_QDW_BLOCK for 8 int32 lanes with their scales (the same
/// operations in the same order, so the same values), as int32 outputs.
VK_QDW2 __m256i vk_qdw2_requantize(const vk_qdw2_rule *rule, __m256i acc, const float *scales) {
    __m256 v = _mm256_mul_ps(_mm256_cvtepi32_ps(acc), _mm256_loadu_ps(scales));
    v = _mm256_min_ps(_mm256_max_ps(v, rule->lower), rule->upper);
    return _mm256_add_epi32(_mm256_castps_si256(_mm256_add_ps(v, rule->magic)), rule->correction);
}

/// Bytes of a 128-bit lane's first or second 8 byte pairs (x y x y ...) as int16 pairs.
VK_QDW2 __m256i vk_qdw2_low_words(__m256i pairs, int is_signed) {
    return is_signed ? _mm256_srai_epi16(_mm256_unpacklo_epi8(pairs, pairs), 8)
                     : _mm256_unpacklo_epi8(pairs, _mm256_setzero_si256());
}
VK_QDW2 __m256i vk_qdw2_high_words(__m256i pairs, int is_signed) {
    return is_signed ? _mm256_srai_epi16(_mm256_unpackhi_epi8(pairs, pairs), 8)
                     : _mm256_unpackhi_epi8(pairs, _mm256_setzero_si256());
}

/// Sixteen bytes widened to int16.
VK_QDW2 __m256i vk_qdw2_widen(__m128i bytes, int is_signed) {
    return is_signed ? _mm256_cvtepi8_epi16(bytes) : _mm256_cvtepu8_epi16(bytes);
}

/// One output pixel from its tap pointers `src` (`2 * pairs` of them). Every step stays inside
/// 128-bit lanes, so the accumulators hold channels in the lane order of `vk_qdwconv` and the
/// narrowing packs put them back in order:
/// - 32 channels: the two taps' bytes interleaved (`unpack*_epi8`), then widened into four
///   vectors of 4 + 4 channel pairs ({0-3, 16-19}, {4-7, 20-23}, {8-11, 24-27}, {12-15, 28-31});
/// - 16 channels: each tap widened, then the two interleaved ({0-3, 8-11}, {4-7, 12-15});
/// - 8 at a time in order, the last 1 ... 7 through zero-padded copies (their weights are zero).
/// `pairs` and `is_signed` are constants at each call.
VK_QDW2 void vk_qdw2_pixel(const vk_qdwconv *d, const vk_qdw2_rule *rule, const uint8_t *const *src, size_t pairs,
                           int is_signed, uint8_t *out) {
    const size_t channels = d->channels, stride = 2 * d->padded_channels;
    size_t c = 0;
    for (; c + 32 <= channels; c += 32) {
        __m256i acc[4];
        for (int i = 0; i < 4; i++) acc[i] = _mm256_loadu_si256((const __m256i *)(d->pair_bias + c + 8 * i));
        const int16_t *w = d->pair_weights + 2 * c;
        for (size_t j = 0; j < pairs; j++, w += stride) {
            const __m256i a = _mm256_loadu_si256((const __m256i *)(src[2 * j] + c));
            const __m256i b = _mm256_loadu_si256((const __m256i *)(src[2 * j + 1] + c));
            const __m256i low = _mm256_unpacklo_epi8(a, b), high = _mm256_unpackhi_epi8(a, b);
            const __m256i x[4] = {vk_qdw2_low_words(low, is_signed), vk_qdw2_high_words(low, is_signed),
                                  vk_qdw2_low_words(high, is_signed), vk_qdw2_high_words(high, is_signed)};
            for (int i = 0; i < 4; i++) {
                const __m256i weights = _mm256_loadu_si256((const __m256i *)(w + 16 * i));
                acc[i] = _mm256_add_epi32(acc[i], _mm256_madd_epi16(x[i], weights));
            }
        }
        __m256i q[4];
        for (int i = 0; i < 4; i++) q[i] = vk_qdw2_requantize(rule, acc[i], d->pair_scales + c + 8 * i);
        // The values are in range: the saturating packs only narrow.
        const __m256i words01 = _mm256_packs_epi32(q[0], q[1]), words23 = _mm256_packs_epi32(q[2], q[3]);
        const __m256i bytes = is_signed ? _mm256_packs_epi16(words01, words23) : _mm256_packus_epi16(words01, words23);
        _mm256_storeu_si256((__m256i *)(out + c), bytes);
    }
    if (c + 16 <= channels) {
        __m256i acc[2];
        for (int i = 0; i < 2; i++) acc[i] = _mm256_loadu_si256((const __m256i *)(d->pair_bias + c + 8 * i));
        const int16_t *w = d->pair_weights + 2 * c;
        for (size_t j = 0; j < pairs; j++, w += stride) {
            const __m256i a = vk_qdw2_widen(_mm_loadu_si128((const __m128i *)(src[2 * j] + c)), is_signed);
            const __m256i b = vk_qdw2_widen(_mm_loadu_si128((const __m128i *)(src[2 * j + 1] + c)), is_signed);
            acc[0] = _mm256_add_epi32(acc[0], _mm256_madd_epi16(_mm256_unpacklo_epi16(a, b),
                                                                _mm256_loadu_si256((const __m256i *)w)));
            acc[1] = _mm256_add_epi32(acc[1], _mm256_madd_epi16(_mm256_unpackhi_epi16(a, b),
                                                                _mm256_loadu_si256((const __m256i *)(w + 16))));
        }
        const __m256i words = _mm256_packs_epi32(vk_qdw2_requantize(rule, acc[0], d->pair_scales + c),
                                                 vk_qdw2_requantize(rule, acc[1], d->pair_scales + c + 8));
        const __m128i low = _mm256_castsi256_si128(words), high = _mm256_extracti128_si256(words, 1);
        _mm_storeu_si128((__m128i *)(out + c), is_signed ? _mm_packs_epi16(low, high) : _mm_packus_epi16(low, high));
        c += 16;
    }
    for (; c < channels; c += 8) {
        const size_t width = channels - c < 8 ? channels - c : 8;
        __m256i acc = _mm256_loadu_si256((const __m256i *)(d->pair_bias + c));
        const int16_t *w = d->pair_weights + 2 * c;
        for (size_t j = 0; j < pairs; j++, w += stride) {
            uint64_t a = 0, b = 0;
            if (width == 8) {
                memcpy(&a, src[2 * j] + c, 8);
                memcpy(&b, src[2 * j + 1] + c, 8);
            } else {
                for (size_t i = 0; i < width; i++) {
                    a |= (uint64_t)src[2 * j][c + i] << (8 * i);
                    b |= (uint64_t)src[2 * j + 1][c + i] << (8 * i);
                }
            }
            const __m128i x = _mm_unpacklo_epi8(_mm_cvtsi64_si128((long long)a), _mm_cvtsi64_si128((long long)b));
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(vk_qdw2_widen(x, is_signed),
                                                          _mm256_loadu_si256((const __m256i *)w)));
        }
        const __m256i q = vk_qdw2_requantize(rule, acc, d->pair_scales + c);
        const __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1));
        const uint64_t bytes = (uint64_t)_mm_cvtsi128_si64(is_signed ? _mm_packs_epi16(words, words)
                                                                     : _mm_packus_epi16(words, words));
        if (width == 8) {
            memcpy(out + c, &bytes, 8);
        } else {
            for (size_t i = 0; i < width; i++) out[c + i] = (uint8_t)(bytes >> (8 * i));
        }
    }
}

/// Output rows [row_begin, row_end) with `pair_weights`: per output pixel the tap pointers (the
/// zero-point pixel for taps outside the input and for a missing last tap), then vk_qdw2_pixel.
/// Sums are exact int32 in any order, so the results equal the portable kernel's.
VK_QDW2 void vk_qdw2_rows(const vk_qdwconv *d, size_t row_begin, size_t row_end, size_t pairs, int is_signed) {
    const size_t channels = d->channels, kw = d->kernel_width, kh = d->kernel_height;
    const size_t width_in = d->input_width, height_in = d->input_height, taps = kh * kw;
    const uint8_t *zero_pixel = (const uint8_t *)d->zero_pixel;
    const uint8_t *src[64];
    size_t offsets[64];
    const vk_qdw2_rule rule = {_mm256_set1_ps(d->lower), _mm256_set1_ps(d->upper), _mm256_set1_ps(12582912.0f),
                               _mm256_set1_epi32(d->zero_point - 0x4B400000)};
    const size_t image = d->input_height * width_in * channels;
    const size_t out_image = d->output_height * d->output_width * channels;
    const long window_h = (long)((kh - 1) * d->dilation_h), window_w = (long)((kw - 1) * d->dilation_w);
    for (size_t ky = 0, t = 0; ky < kh; ky++)
        for (size_t kx = 0; kx < kw; kx++, t++)
            offsets[t] = (ky * d->dilation_h * width_in + kx * d->dilation_w) * channels;
    if (taps & 1) src[taps] = zero_pixel;
    for (size_t row = row_begin; row < row_end; row++) {
        const size_t b = row / d->output_height, oy = row % d->output_height;
        const uint8_t *in = (const uint8_t *)d->input + b * image;
        uint8_t *out = (uint8_t *)d->output + b * out_image + oy * d->output_width * channels;
        const long iy0 = (long)(oy * d->stride_h) - (long)d->pad_top;
        const int rows_inside = iy0 >= 0 && iy0 + window_h < (long)height_in;
        for (size_t ox = 0; ox < d->output_width; ox++, out += channels) {
            const long ix0 = (long)(ox * d->stride_w) - (long)d->pad_left;
            if (rows_inside && ix0 >= 0 && ix0 + window_w < (long)width_in) {
                const uint8_t *corner = in + ((size_t)iy0 * width_in + (size_t)ix0) * channels;
                for (size_t t = 0; t < taps; t++) src[t] = corner + offsets[t];
            } else {
                for (size_t ky = 0, t = 0; ky < kh; ky++) {
                    const long iy = iy0 + (long)(ky * d->dilation_h);
                    for (size_t kx = 0; kx < kw; kx++, t++) {
                        const long ix = ix0 + (long)(kx * d->dilation_w);
                        const int inside = iy >= 0 && iy < (long)height_in && ix >= 0 && ix < (long)width_in;
                        src[t] = inside ? in + ((size_t)iy * width_in + (size_t)ix) * channels : zero_pixel;
                    }
                }
            }
            vk_qdw2_pixel(d, &rule, src, pairs, is_signed, out);
        }
    }
}

/// The AVX2 tap-pair kernel, its 3×3 windows (five pairs) specialized.
__attribute__((target("avx2,fma"))) static void vk_qdwconv_pairs_avx2(const vk_qdwconv *d, size_t row_begin,
                                                                       size_t row_end) {
    const size_t pairs = (d->kernel_height * d->kernel_width + 1) / 2;
    if (d->is_signed) {
        if (pairs == 5)
            vk_qdw2_rows(d, row_begin, row_end, 5, 1);
        else
            vk_qdw2_rows(d, row_begin, row_end, pairs, 1);
    } else {
        if (pairs == 5)
            vk_qdw2_rows(d, row_begin, row_end, 5, 0);
        else
            vk_qdw2_rows(d, row_begin, row_end, pairs, 0);
    }
}
#endif

#pragma clang fp contract(off)
VK_QDW_BOTH(vk_qdwconv_run_portable)

size_t vk_qdwconv_max_taps(void) { return 64; }

void vk_qdwconv_run(const vk_qdwconv *d, size_t row_begin, size_t row_end) {
    switch (d->isa) {
#if defined(__x86_64__) || defined(_M_X64)
    case VK_ISA_AVX512:
    case VK_ISA_AVX2: vk_qdwconv_pairs_avx2(d, row_begin, row_end); return;
#endif
    default: vk_qdwconv_run_portable(d, row_begin, row_end); return;
    }
}
