// Quantized matrix product (the CONV_2D of UINT8 / INT8 models): int16 activations times int16
// weights with exact int32 accumulation, then float32 requantization (or, for UINT8 models on
// AVX512-VNNI, raw activation bytes times `w - 128` bytes plus a row-sum correction). Integer sums are exact,
// so every build (AVX-512 VNNI, AVX-512BW, AVX2, portable) gives the same accumulators and,
// with the same float operations on them, the same bytes.
#include <string.h>
#include "CVisionKernels.h"

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#endif

#define VK_QPANEL 16

// MARK: Portable

/// Requantizes one float lane exactly as the vector builds do: scale, clamp, round to nearest
/// (ties to even) by adding 1.5 * 2^23 (valid below 2^22 in magnitude, which the clamp ensures).
static inline int32_t vk_q_round(float v) {
    float t = v + 12582912.0f;
    int32_t bits;
    memcpy(&bits, &t, sizeof bits);
    return bits - 0x4B400000;
}

static void vk_q_store_row(const vk_qgemm *g, const int32_t *acc, size_t column, size_t width, void *out,
                           int32_t *sums) {
    if (g->scales == NULL) {
        memcpy(sums + column, acc, width * sizeof(int32_t));
        return;
    }
    for (size_t c = 0; c < width; c++) {
        float v = (float)acc[c] * g->scales[column + c];
        v = v < g->lower ? g->lower : v;
        v = v > g->upper ? g->upper : v;
        int32_t q = vk_q_round(v) + g->zero_point;
        if (g->is_signed) {
            ((int8_t *)out)[column + c] = (int8_t)q;
        } else {
            ((uint8_t *)out)[column + c] = (uint8_t)q;
        }
    }
}

static void vk_qgemm_run_portable(const vk_qgemm *g, const int16_t *a, size_t a_stride, size_t rows, void *out,
                                  size_t out_stride, int32_t *sums, size_t sums_stride) {
    const size_t panels = (g->n + VK_QPANEL - 1) / VK_QPANEL, pairs = g->pair_count;
    for (size_t r = 0; r < rows; r++) {
        const int16_t *row = a + r * a_stride;
        for (size_t p = 0; p < panels; p++) {
            int32_t acc[VK_QPANEL];
            memcpy(acc, g->bias + p * VK_QPANEL, sizeof acc);
            const int16_t *w = g->weights + p * pairs * 2 * VK_QPANEL;
            for (size_t k = 0; k < pairs; k++) {
                const int32_t x0 = row[2 * k], x1 = row[2 * k + 1];
                for (size_t c = 0; c < VK_QPANEL; c++) acc[c] += x0 * w[2 * c] + x1 * w[2 * c + 1];
                w += 2 * VK_QPANEL;
            }
            const size_t column = p * VK_QPANEL;
            const size_t width = g->n - column < VK_QPANEL ? g->n - column : VK_QPANEL;
            vk_q_store_row(g, acc, column, width, (char *)out + r * out_stride,
                           sums ? sums + r * sums_stride : NULL);
        }
    }
}

/// The sum of a row's `length` activation bytes.
static int32_t vk_q8_row_sum(const uint8_t *x, size_t length) {
    int32_t sum = 0;
    for (size_t i = 0; i < length; i++) sum += x[i];
    return sum;
}

/// The 8-bit product in plain C (CPUs without AVX512-VNNI): the reference the vector kernel must match.
static void vk_qgemm8_run_portable(const vk_qgemm *g, const uint8_t *a, size_t a_stride, size_t rows, void *out,
                                   size_t out_stride, int32_t *sums, size_t sums_stride) {
    const size_t panels = (g->n + VK_QPANEL - 1) / VK_QPANEL, quads = g->quad_count;
    for (size_t r = 0; r < rows; r++) {
        const uint8_t *row = a + r * a_stride;
        const int32_t total = vk_q8_row_sum(row, 4 * quads);
        for (size_t p = 0; p < panels; p++) {
            int32_t acc[VK_QPANEL];
            for (size_t c = 0; c < VK_QPANEL; c++) {
                acc[c] = g->bias[p * VK_QPANEL + c] + g->row_sum_factors[p * VK_QPANEL + c] * total;
            }
            const int8_t *w = g->quads + p * quads * 4 * VK_QPANEL;
            for (size_t q = 0; q < quads; q++) {
                const uint8_t *x = row + 4 * q;
                for (size_t c = 0; c < VK_QPANEL; c++) {
                    acc[c] += x[0] * w[4 * c] + x[1] * w[4 * c + 1] + x[2] * w[4 * c + 2] + x[3] * w[4 * c + 3];
                }
                w += 4 * VK_QPANEL;
            }
            const size_t column = p * VK_QPANEL;
            const size_t width = g->n - column < VK_QPANEL ? g->n - column : VK_QPANEL;
            vk_q_store_row(g, acc, column, width, (char *)out + r * out_stride,
                           sums ? sums + r * sums_stride : NULL);
        }
    }
}

#if defined(__x86_64__) || defined(_M_X64)

// MARK: AVX2

__attribute__((target("avx2,fma"))) static inline void vk_q_store8_avx2(const vk_qgemm *g, __m256i acc, size_t column,
                                                                         size_t width, void *out, int32_t *sums) {
    if (width < 8 || g->scales == NULL) {
        int32_t lanes[8];
        _mm256_storeu_si256((__m256i *)lanes, acc);
        vk_q_store_row(g, lanes, column, width, out, sums);
        return;
    }
    __m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(acc), _mm256_loadu_ps(g->scales + column));
    f = _mm256_min_ps(_mm256_max_ps(f, _mm256_set1_ps(g->lower)), _mm256_set1_ps(g->upper));
    __m256i q = _mm256_add_epi32(_mm256_cvtps_epi32(f), _mm256_set1_epi32(g->zero_point));
    __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1));
    __m128i bytes = g->is_signed ? _mm_packs_epi16(words, words) : _mm_packus_epi16(words, words);
    _mm_storel_epi64((__m128i *)((char *)out + column), bytes);
}

__attribute__((target("avx2,fma"))) static void vk_qgemm_run_avx2(const vk_qgemm *g, const int16_t *a, size_t a_stride,
                                                                  size_t rows, void *out, size_t out_stride,
                                                                  int32_t *sums, size_t sums_stride) {
    const size_t panels = (g->n + VK_QPANEL - 1) / VK_QPANEL, pairs = g->pair_count;
    for (size_t r0 = 0; r0 < rows; r0 += 4) {
        const size_t count = rows - r0 < 4 ? rows - r0 : 4;
        const int16_t *x[4];
        for (size_t r = 0; r < 4; r++) x[r] = a + (r0 + (r < count ? r : count - 1)) * a_stride;
        for (size_t p = 0; p < panels; p++) {
            const __m256i b0 = _mm256_loadu_si256((const __m256i *)(g->bias + p * VK_QPANEL));
            const __m256i b1 = _mm256_loadu_si256((const __m256i *)(g->bias + p * VK_QPANEL + 8));
            __m256i c00 = b0, c01 = b1, c10 = b0, c11 = b1, c20 = b0, c21 = b1, c30 = b0, c31 = b1;
            const int16_t *w = g->weights + p * pairs * 2 * VK_QPANEL;
            for (size_t k = 0; k < pairs; k++) {
                const __m256i w0 = _mm256_loadu_si256((const __m256i *)w);
                const __m256i w1 = _mm256_loadu_si256((const __m256i *)(w + 16));
                int32_t v;
                memcpy(&v, x[0] + 2 * k, 4);
                __m256i s = _mm256_set1_epi32(v);
                c00 = _mm256_add_epi32(c00, _mm256_madd_epi16(s, w0));
                c01 = _mm256_add_epi32(c01, _mm256_madd_epi16(s, w1));
                memcpy(&v, x[1] + 2 * k, 4);
                s = _mm256_set1_epi32(v);
                c10 = _mm256_add_epi32(c10, _mm256_madd_epi16(s, w0));
                c11 = _mm256_add_epi32(c11, _mm256_madd_epi16(s, w1));
                memcpy(&v, x[2] + 2 * k, 4);
                s = _mm256_set1_epi32(v);
                c20 = _mm256_add_epi32(c20, _mm256_madd_epi16(s, w0));
                c21 = _mm256_add_epi32(c21, _mm256_madd_epi16(s, w1));
                memcpy(&v, x[3] + 2 * k, 4);
                s = _mm256_set1_epi32(v);
                c30 = _mm256_add_epi32(c30, _mm256_madd_epi16(s, w0));
                c31 = _mm256_add_epi32(c31, _mm256_madd_epi16(s, w1));
                w += 2 * VK_QPANEL;
            }
            const size_t column = p * VK_QPANEL;
            const size_t width = g->n - column < VK_QPANEL ? g->n - column : VK_QPANEL;
            const size_t w0 = width < 8 ? width : 8, w1 = width > 8 ? width - 8 : 0;
            __m256i acc[4][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}};
            for (size_t r = 0; r < count; r++) {
                char *o = (char *)out + (r0 + r) * out_stride;
                int32_t *s = sums ? sums + (r0 + r) * sums_stride : NULL;
                vk_q_store8_avx2(g, acc[r][0], column, w0, o, s);
                if (w1 > 0) vk_q_store8_avx2(g, acc[r][1], column + 8, w1, o, s);
            }
        }
    }
}

// MARK: AVX-512

#define VK_Q512 "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma"

__attribute__((target(VK_Q512))) static inline void vk_q_store16_avx512(const vk_qgemm *g, __m512i acc, size_t column,
                                                                          size_t width, void *out, int32_t *sums) {
    const __mmask16 mask = (__mmask16)(width >= 16 ? 0xFFFF : (1u << width) - 1);
    if (g->scales == NULL) {
        _mm512_mask_storeu_epi32(sums + column, mask, acc);
        return;
    }
    __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(acc), _mm512_loadu_ps(g->scales + column));
    f = _mm512_min_ps(_mm512_max_ps(f, _mm512_set1_ps(g->lower)), _mm512_set1_ps(g->upper));
    __m512i q = _mm512_add_epi32(_mm512_cvtps_epi32(f), _mm512_set1_epi32(g->zero_point));
    // The values are already within the 8-bit range: the saturating narrowings just truncate.
    __m128i bytes = g->is_signed ? _mm512_cvtsepi32_epi8(q) : _mm512_cvtusepi32_epi8(q);
    _mm_mask_storeu_epi8((char *)out + column, mask, bytes);
}

/// The AVX-512 micro-kernel: up to 8 rows times two panels (32 channels) in 16 accumulators.
/// `VNNI` selects vpdpwssd (multiply-add-accumulate in one instruction) over vpmaddwd + vpaddd;
/// both compute the same exact sums.
#define VK_QGEMM_AVX512(NAME, TARGET, MADD)                                                                       \
    __attribute__((target(TARGET))) static void NAME(const vk_qgemm *g, const int16_t *a, size_t a_stride,         \
                                                     size_t rows, void *out, size_t out_stride, int32_t *sums,     \
                                                     size_t sums_stride) {                                         \
        const size_t panels = (g->n + VK_QPANEL - 1) / VK_QPANEL, pairs = g->pair_count;                          \
        const size_t panel_stride = pairs * 2 * VK_QPANEL;                                                         \
        for (size_t r0 = 0; r0 < rows; r0 += 8) {                                                                  \
            const size_t count = rows - r0 < 8 ? rows - r0 : 8;                                                    \
            const int16_t *x[8];                                                                                   \
            for (size_t r = 0; r < 8; r++) x[r] = a + (r0 + (r < count ? r : count - 1)) * a_stride;               \
            for (size_t p = 0; p < panels; p += 2) {                                                               \
                const int two = p + 1 < panels;                                                                    \
                const __m512i b0 = _mm512_loadu_si512(g->bias + p * VK_QPANEL);                                    \
                const __m512i b1 = two ? _mm512_loadu_si512(g->bias + (p + 1) * VK_QPANEL) : b0;                   \
                __m512i acc[8][2];                                                                                 \
                _Pragma("clang loop unroll(full)") for (int r = 0; r < 8; r++) {                                   \
                    acc[r][0] = b0;                                                                                \
                    acc[r][1] = b1;                                                                                \
                }                                                                                                  \
                const int16_t *w = g->weights + p * panel_stride;                                                  \
                /* A lone last panel reads its own weights twice (the second result is dropped). */               \
                const int16_t *v = two ? w + panel_stride : w;                                                     \
                for (size_t k = 0; k < pairs; k++) {                                                               \
                    const __m512i w0 = _mm512_loadu_si512(w + 2 * VK_QPANEL * k);                                  \
                    const __m512i w1 = _mm512_loadu_si512(v + 2 * VK_QPANEL * k);                                  \
                    _Pragma("clang loop unroll(full)") for (int r = 0; r < 8; r++) {                               \
                        int32_t bits;                                                                              \
                        memcpy(&bits, x[r] + 2 * k, 4);                                                            \
                        const __m512i s = _mm512_set1_epi32(bits);                                                 \
                        acc[r][0] = MADD(acc[r][0], s, w0);                                                        \
                        acc[r][1] = MADD(acc[r][1], s, w1);                                                        \
                    }                                                                                              \
                }                                                                                                  \
                const size_t column = p * VK_QPANEL;                                                               \
                const size_t width = g->n - column < 2 * VK_QPANEL ? g->n - column : 2 * VK_QPANEL;                \
                const size_t w0 = width < VK_QPANEL ? width : VK_QPANEL;                                           \
                for (size_t r = 0; r < count; r++) {                                                               \
                    char *o = (char *)out + (r0 + r) * out_stride;                                                 \
                    int32_t *s = sums ? sums + (r0 + r) * sums_stride : NULL;                                      \
                    vk_q_store16_avx512(g, acc[r][0], column, w0, o, s);                                           \
                    if (width > VK_QPANEL) vk_q_store16_avx512(g, acc[r][1], column + VK_QPANEL, width - VK_QPANEL, o, s); \
                }                                                                                                  \
            }                                                                                                      \
        }                                                                                                          \
    }

#define VK_MADD_BW(acc, s, w) _mm512_add_epi32(acc, _mm512_madd_epi16(s, w))
#define VK_MADD_VNNI(acc, s, w) _mm512_dpwssd_epi32(acc, s, w)

VK_QGEMM_AVX512(vk_qgemm_run_avx512, VK_Q512, VK_MADD_BW)
VK_QGEMM_AVX512(vk_qgemm_run_avx512vnni, VK_Q512 ",avx512vnni", VK_MADD_VNNI)

// MARK: AVX-512 VNNI, 8-bit

#define VK_Q8VNNI VK_Q512 ",avx512vnni"

/// A row's byte sum: vpsadbw against zero adds each 8 bytes into a 64-bit lane; the tail is a
/// masked (zero-filling) load, so nothing past `length` is read.
__attribute__((target(VK_Q8VNNI))) static inline int32_t vk_q8_row_sum_avx512(const uint8_t *x, size_t length) {
    const __m512i zero = _mm512_setzero_si512();
    __m512i total = zero;
    size_t i = 0;
    for (; i + 64 <= length; i += 64) {
        total = _mm512_add_epi64(total, _mm512_sad_epu8(_mm512_loadu_si512(x + i), zero));
    }
    if (i < length) {
        const __mmask64 mask = ~(__mmask64)0 >> (64 - (length - i));
        total = _mm512_add_epi64(total, _mm512_sad_epu8(_mm512_maskz_loadu_epi8(mask, x + i), zero));
    }
    return (int32_t)_mm512_reduce_add_epi64(total);
}

/// Up to 8 rows (pointers `x`, byte sums `totals`) times panel `p`, and panel `p + 1` when `two`
/// (a constant at each call, so the one-panel form carries no second panel's work): per group of
/// 4 k, one or two weight loads, 8 broadcasts of a row's 4 bytes, 8 or 16 vpdpbusd (unsigned
/// activation bytes times signed `w - 128`, four products added into each int32 lane without
/// saturation). The same scheme as XNNPACK's AVX512-VNNI qu8/qs8 GEMM micro-kernels
/// (src/qs8-gemm/, c4 layouts); the `(128 - w_zp) * sum(x)` term is added once before the store.
__attribute__((target(VK_Q8VNNI), always_inline)) static inline void
vk_q8_panels_avx512vnni(const vk_qgemm *g, const uint8_t *const *x, const int32_t *totals, size_t count, size_t p,
                        const int two, char *out, size_t out_stride, int32_t *sums, size_t sums_stride) {
    const size_t quads = g->quad_count, panel_stride = quads * 4 * VK_QPANEL;
    const __m512i b0 = _mm512_loadu_si512(g->bias + p * VK_QPANEL);
    const __m512i b1 = two ? _mm512_loadu_si512(g->bias + (p + 1) * VK_QPANEL) : b0;
    __m512i acc[8][2];
#pragma clang loop unroll(full)
    for (int r = 0; r < 8; r++) {
        acc[r][0] = b0;
        acc[r][1] = b1;
    }
    const int8_t *w = g->quads + p * panel_stride;
    for (size_t q = 0; q < quads; q++) {
        const __m512i w0 = _mm512_loadu_si512(w + 4 * VK_QPANEL * q);
        const __m512i w1 = two ? _mm512_loadu_si512(w + panel_stride + 4 * VK_QPANEL * q) : w0;
#pragma clang loop unroll(full)
        for (int r = 0; r < 8; r++) {
            int32_t bits;
            memcpy(&bits, x[r] + 4 * q, 4);
            const __m512i s = _mm512_set1_epi32(bits);
            acc[r][0] = _mm512_dpbusd_epi32(acc[r][0], s, w0);
            if (two) acc[r][1] = _mm512_dpbusd_epi32(acc[r][1], s, w1);
        }
    }
    const __m512i f0 = _mm512_loadu_si512(g->row_sum_factors + p * VK_QPANEL);
    const __m512i f1 = two ? _mm512_loadu_si512(g->row_sum_factors + (p + 1) * VK_QPANEL) : f0;
    const size_t column = p * VK_QPANEL;
    const size_t limit = two ? 2 * VK_QPANEL : VK_QPANEL;
    const size_t width = g->n - column < limit ? g->n - column : limit;
    const size_t width0 = width < VK_QPANEL ? width : VK_QPANEL;
    for (size_t r = 0; r < count; r++) {
        char *o = out + r * out_stride;
        int32_t *s = sums ? sums + r * sums_stride : NULL;
        const __m512i total = _mm512_set1_epi32(totals[r]);
        vk_q_store16_avx512(g, _mm512_add_epi32(acc[r][0], _mm512_mullo_epi32(f0, total)), column, width0, o, s);
        if (two && width > VK_QPANEL) {
            vk_q_store16_avx512(g, _mm512_add_epi32(acc[r][1], _mm512_mullo_epi32(f1, total)), column + VK_QPANEL,
                                width - VK_QPANEL, o, s);
        }
    }
}

/// The 8-bit product on AVX512-VNNI: tiles of 8 rows (a partial tile repeats its last row and
/// stores only its own), pairs of panels, then a lone last panel on its own.
__attribute__((target(VK_Q8VNNI))) static void vk_qgemm8_run_avx512vnni(const vk_qgemm *g, const uint8_t *a,
                                                                        size_t a_stride, size_t rows, void *out,
                                                                        size_t out_stride, int32_t *sums,
                                                                        size_t sums_stride) {
    const size_t panels = (g->n + VK_QPANEL - 1) / VK_QPANEL;
    for (size_t r0 = 0; r0 < rows; r0 += 8) {
        const size_t count = rows - r0 < 8 ? rows - r0 : 8;
        const uint8_t *x[8];
        int32_t totals[8];
        for (size_t r = 0; r < 8; r++) {
            x[r] = a + (r0 + (r < count ? r : count - 1)) * a_stride;
            totals[r] = r < count ? vk_q8_row_sum_avx512(x[r], 4 * g->quad_count) : 0;
        }
        char *o = (char *)out + r0 * out_stride;
        int32_t *s = sums ? sums + r0 * sums_stride : NULL;
        size_t p = 0;
        for (; p + 1 < panels; p += 2) vk_q8_panels_avx512vnni(g, x, totals, count, p, 1, o, out_stride, s, sums_stride);
        if (p < panels) vk_q8_panels_avx512vnni(g, x, totals, count, p, 0, o, out_stride, s, sums_stride);
    }
}

#endif

// MARK: Patches

typedef uint8_t vk_qp_u8 __attribute__((ext_vector_type(16)));
typedef int8_t vk_qp_s8 __attribute__((ext_vector_type(16)));
typedef int16_t vk_qp_s16 __attribute__((ext_vector_type(16)));

// (One loop per sign on purpose: a single loop choosing the sign per group made the SSD 5 %
// slower at one thread; see commit ab92d80.)
/// Widens `count` values at `x` (element `offset` of the input) to `out`, 16 at a time: a last
/// partial group is written whole (values past `count` land where the caller writes later, or
/// in its slack) when 16 values can be read from the input, else one by one.
static inline void vk_q_widen_run(const vk_qpatch_geometry *g, size_t offset, size_t count, int16_t *out) {
    size_t i = 0;
    if (g->is_signed) {
        const int8_t *x = (const int8_t *)g->input + offset;
        for (; i < count && offset + i + 16 <= g->input_count; i += 16) {
            vk_qp_s8 v;
            memcpy(&v, x + i, sizeof v);
            const vk_qp_s16 w = __builtin_convertvector(v, vk_qp_s16);
            memcpy(out + i, &w, sizeof w);
        }
        for (; i < count; i++) out[i] = x[i];
    } else {
        const uint8_t *x = (const uint8_t *)g->input + offset;
        for (; i < count && offset + i + 16 <= g->input_count; i += 16) {
            vk_qp_u8 v;
            memcpy(&v, x + i, sizeof v);
            const vk_qp_s16 w = __builtin_convertvector(v, vk_qp_s16);
            memcpy(out + i, &w, sizeof w);
        }
        for (; i < count; i++) out[i] = x[i];
    }
}

static inline void vk_q_fill(int16_t *out, size_t count, int16_t value) {
    for (size_t i = 0; i < count; i++) out[i] = value;
}

void vk_qim2col(const vk_qpatch_geometry *g, size_t pixel, size_t count, int16_t *out, size_t out_stride) {
    const size_t C = g->channels, KW = g->kernel_width, W = g->input_width;
    const size_t per_image = g->output_height * g->output_width;
    size_t b = pixel / per_image, oy = pixel % per_image / g->output_width, ox = pixel % g->output_width;
    for (size_t m = 0; m < count; m++, out += out_stride) {
        if (m > 0 && ++ox == g->output_width) {
            ox = 0;
            if (++oy == g->output_height) {
                oy = 0;
                b++;
            }
        }
        const size_t image = b * g->input_height * W * C;
        const ptrdiff_t iy0 = (ptrdiff_t)(oy * g->stride_h) - (ptrdiff_t)g->pad_top;
        const ptrdiff_t ix0 = (ptrdiff_t)(ox * g->stride_w) - (ptrdiff_t)g->pad_left;
        const int columns_inside = g->dilation_w == 1 && ix0 >= 0 && ix0 + (ptrdiff_t)KW <= (ptrdiff_t)W;
        int16_t *p = out;
        for (size_t ky = 0; ky < g->kernel_height; ky++, p += KW * C) {
            const ptrdiff_t iy = iy0 + (ptrdiff_t)(ky * g->dilation_h);
            if (iy < 0 || iy >= (ptrdiff_t)g->input_height) {
                vk_q_fill(p, KW * C, g->zero_point);
                continue;
            }
            const size_t row = image + (size_t)iy * W * C;
            if (columns_inside) {
                // The window row is one run of input (NHWC).
                vk_q_widen_run(g, row + (size_t)ix0 * C, KW * C, p);
                continue;
            }
            for (size_t kx = 0; kx < KW; kx++) {
                const ptrdiff_t ix = ix0 + (ptrdiff_t)(kx * g->dilation_w);
                if (ix < 0 || ix >= (ptrdiff_t)W) {
                    vk_q_fill(p + kx * C, C, g->zero_point);
                } else {
                    vk_q_widen_run(g, row + (size_t)ix * C, C, p + kx * C);
                }
            }
        }
    }
}

void vk_qgemm8_run(const vk_qgemm *g, const uint8_t *a, size_t a_stride, size_t rows, void *out, size_t out_stride,
                   int32_t *sums, size_t sums_stride) {
#if defined(__x86_64__) || defined(_M_X64)
    if (g->isa == VK_ISA_AVX512 && g->vnni) {
        vk_qgemm8_run_avx512vnni(g, a, a_stride, rows, out, out_stride, sums, sums_stride);
        return;
    }
#endif
    vk_qgemm8_run_portable(g, a, a_stride, rows, out, out_stride, sums, sums_stride);
}

int vk_qgemm_uses_vnni(vk_isa isa) {
#if defined(__x86_64__) || defined(_M_X64)
    if (isa != VK_ISA_AVX512) return 0;
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512vnni");
#else
    (void)isa;
    return 0;
#endif
}

void vk_qgemm_run(const vk_qgemm *g, const int16_t *a, size_t a_stride, size_t rows, void *out, size_t out_stride,
                  int32_t *sums, size_t sums_stride) {
    switch (g->isa) {
#if defined(__x86_64__) || defined(_M_X64)
    case VK_ISA_AVX512:
        if (g->vnni) {
            vk_qgemm_run_avx512vnni(g, a, a_stride, rows, out, out_stride, sums, sums_stride);
        } else {
            vk_qgemm_run_avx512(g, a, a_stride, rows, out, out_stride, sums, sums_stride);
        }
        return;
    case VK_ISA_AVX2: vk_qgemm_run_avx2(g, a, a_stride, rows, out, out_stride, sums, sums_stride); return;
#endif
    default: vk_qgemm_run_portable(g, a, a_stride, rows, out, out_stride, sums, sums_stride); return;
    }
}
