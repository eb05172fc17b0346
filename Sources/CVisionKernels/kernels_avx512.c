// AVX-512 build of the kernels (x86-64 only; chosen at run time).
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>

#pragma clang attribute push(__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,avx2,fma"))), apply_to = function)

typedef float vk_v __attribute__((ext_vector_type(16)));
typedef float vk_h __attribute__((ext_vector_type(8)));
#define VK_LANES 16
#define VK_MR 8
#define VK_DW_PAIR_PIXELS 3  // see kernels_body.h
#define VK_DW_PAIRS(KW) 1  // 3×3 and 5×5 depthwise rows in pairs
// An 8-wide panel is one 8-lane vector a row: 8 rows are 8 sums, just what the two 4-cycle
// multiply-add units need, with a tile's set-up for few steps; two tiles at once (16 sums) ran
// the face landmark model's 128 × 128 16 → 8 products at the AVX2 build's speed (see
// VK_W8_PAIRED in kernels_body.h).
#define VK_W8_PAIRED 1
#define VK_SUFFIX(name) name##_avx512
#define VK_FMA(a, b, c) __builtin_elementwise_fma(a, b, c)
#define VK_MAX(bound, x) ((vk_v)_mm512_max_ps((__m512)(bound), (__m512)(x)))
#define VK_MIN(bound, x) ((vk_v)_mm512_min_ps((__m512)(bound), (__m512)(x)))
#define VK_MAXH(bound, x) ((vk_h)_mm256_max_ps((__m256)(bound), (__m256)(x)))
#define VK_MINH(bound, x) ((vk_h)_mm256_min_ps((__m256)(bound), (__m256)(x)))
// The first n (0...16) lanes of a vector at p, zero beyond (masked: nothing past them is read
// or written).
#define VK_MASK_LOAD(p, n) ((vk_v)_mm512_maskz_loadu_ps((__mmask16)((1u << (n)) - 1u), (p)))
#define VK_MASK_STORE(p, v, n) _mm512_mask_storeu_ps((p), (__mmask16)((1u << (n)) - 1u), (__m512)(v))
// XNNPACK's AVX-512 reciprocal square root estimate (14 bits).
#define VK_RSQRT_ESTIMATE(x) ((vk_v)_mm512_rsqrt14_ps((__m512)(x)))
// A lane-wise lookup in a 32-float table (two registers, one two-source permute).
#define VK_LUT32(table, index) \
    ((vk_v)_mm512_permutex2var_ps(_mm512_loadu_ps(table), (__m512i)(index), _mm512_loadu_ps((table) + 16)))
// Appends to `ks` the steps j + l of the lanes l of `bits` that are not zero (a register compress
// and a whole-vector store: `ks` has 16 spare entries; a compress straight to memory is slow on
// Zen 4).
#define VK_COMPRESS_STEPS(bits, j, ks, count)                                                             \
    {                                                                                                      \
        const __m512i lanes = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);      \
        const __mmask16 nonzero = _mm512_test_epi32_mask((__m512i)(bits), (__m512i)(bits));                \
        const __m512i steps = _mm512_add_epi32(lanes, _mm512_set1_epi32((int)(j)));                        \
        _mm512_storeu_si512((void *)((ks) + (count)), _mm512_maskz_compress_epi32(nonzero, steps));        \
        (count) += (size_t)__builtin_popcount(nonzero);                                                    \
    }
#include "CVisionKernels.h"
#include "image_warp_blend_x86.h"
#include "kernels_body.h"

#pragma clang attribute pop
#endif
