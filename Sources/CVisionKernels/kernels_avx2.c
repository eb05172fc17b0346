// AVX2/FMA build of the kernels (x86-64 only; chosen at run time).
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>

#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)

typedef float vk_v __attribute__((ext_vector_type(8)));
typedef float vk_h __attribute__((ext_vector_type(8)));
#define VK_LANES 8
#define VK_MR 6
// Matrix products prefetch their packed weights 4 KB ahead (see VK_GEMM_PREFETCH_W).
#define VK_GEMM_PREFETCH 4096
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
#include "kernels_body.h"

#pragma clang attribute pop
#endif
