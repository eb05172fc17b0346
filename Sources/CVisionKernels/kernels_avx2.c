// AVX2/FMA build of the kernels (x86-64 only; chosen at run time).
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include <stdint.h>

#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)

typedef float vk_v __attribute__((ext_vector_type(8)));
typedef float vk_h __attribute__((ext_vector_type(8)));
#define VK_LANES 8
#define VK_MR 6
// An 8-wide panel is one vector per row: 6 rows leave 6 sums for the two multiply-add units of
// 4-cycle latency, so 8-wide panels take two tiles at once (see VK_W8_PAIRED in kernels_body.h).
#define VK_W8_PAIRED 1
// Convolution tiles whose last two panels are 16 and 8 wide go as two halves of 3 rows over both
// (see VK_IGEMM_W16_W8_HALVES in kernels_body.h).
#define VK_IGEMM_W16_W8_HALVES 1
// Sparse 1x1 convolutions: tiles of 56 pixels (7 vectors) and two output channels per pass, 14
// sums in registers (see VK_SPARSE_VECTORS in kernels_body.h).
#define VK_SPARSE_VECTORS 7
#define VK_SPARSE_PASS_CHANNELS 2
// Stride-2 depthwise windows go two vectors of channels at a time (see VK_DW_DUAL).
#define VK_DW_DUAL(KW, SW) ((SW) == 2)
// LOGISTIC by XNNPACK's AVX2 algorithm, as LiteRT computes it on a CPU without AVX-512.
#define VK_SIGMOID_P5 1
// Matrix products prefetch their packed weights 4 KB ahead (see VK_GEMM_PREFETCH_W).
#define VK_GEMM_PREFETCH 4096
// The step-list kernel's 6 × 16 tile: 12 sums, 2 weight vectors and one broadcast input fill the
// 16 registers only if the rows' inputs are loaded one row at a time. Compiled as a function of
// its own (not inlined: commit ba08753 gave it a second caller), clang loaded all six first (the
// weights' address waits on a shift, the inputs' do not) and kept 4 of the sums on the stack,
// stored and reloaded at every step: the hand landmark model's 14 × 14 and 7 × 7 projections ran
// 1.3-2 × as long as with the AVX-512 build on the same Zen 4 core. An empty statement that
// clobbers memory after each row's multiply-adds keeps the next row's load after them in the
// code (the core still overlaps them), inlined or not.
#define VK_LISTED_ROW_FENCE __asm__ volatile("" ::: "memory");
#define VK_SUFFIX(name) name##_avx2
#define VK_FMA(a, b, c) __builtin_elementwise_fma(a, b, c)
#define VK_MAX(bound, x) ((vk_v)_mm256_max_ps((__m256)(bound), (__m256)(x)))
#define VK_MIN(bound, x) ((vk_v)_mm256_min_ps((__m256)(bound), (__m256)(x)))
#define VK_MAXH VK_MAX
#define VK_MINH VK_MIN
// XNNPACK's AVX reciprocal square root estimate (rsqrtps, 12 bits; its bits are the CPU's).
#define VK_RSQRT_ESTIMATE(x) ((vk_v)_mm256_rsqrt_ps((__m256)(x)))
// A lane-wise lookup in a 32-float table (a gather).
#define VK_LUT32(table, index) ((vk_v)_mm256_i32gather_ps((table), (__m256i)(index), 4))
// Appends to `ks` the steps j + l of the lanes l of `bits` that are not zero, four lanes at a
// time: `vk_nibble_steps[m]` holds the lanes set in the 4-bit mask m as bytes, in order (`ks`
// has 16 spare entries).
static const uint32_t vk_nibble_steps[16] = {0,          0x00,     0x01,       0x0100,   0x02,     0x0200,
                                             0x0201,     0x020100, 0x03,       0x0300,   0x0301,   0x030100,
                                             0x0302,     0x030200, 0x030201,   0x03020100};
#define VK_COMPRESS_STEPS(bits, j, ks, count)                                                             \
    {                                                                                                      \
        const int zero = _mm256_movemask_ps((__m256)_mm256_cmpeq_epi32((__m256i)(bits), _mm256_setzero_si256())); \
        for (int half = 0; half < 2; half++) {                                                             \
            const int nonzero = ~(zero >> (4 * half)) & 15;                                                \
            const __m128i lanes = _mm_cvtepu8_epi32(_mm_cvtsi32_si128((int)vk_nibble_steps[nonzero]));     \
            const __m128i steps = _mm_add_epi32(lanes, _mm_set1_epi32((int)(j) + 4 * half));               \
            _mm_storeu_si128((__m128i *)((ks) + (count)), steps);                                          \
            (count) += (size_t)__builtin_popcount((unsigned)nonzero);                                      \
        }                                                                                                  \
    }
#include "CVisionKernels.h"
#include "image_warp_blend_x86.h"
#include "kernels_body.h"

#pragma clang attribute pop
#endif
