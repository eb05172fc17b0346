// NEON build of the kernels (arm64 only, where NEON and fused multiply-add always exist).
#if defined(__aarch64__)

typedef float vk_v __attribute__((ext_vector_type(8)));
typedef float vk_h __attribute__((ext_vector_type(8)));
#define VK_LANES 8
#define VK_MR 6
#define VK_SUFFIX(name) name##_neon
#define VK_FMA(a, b, c) __builtin_elementwise_fma(a, b, c)
// NaN-propagating maximum / minimum (NEON fmax / fmin).
#define VK_MAX(bound, x) __builtin_elementwise_maximum(bound, x)
#define VK_MIN(bound, x) __builtin_elementwise_minimum(bound, x)
#define VK_MAXH VK_MAX
#define VK_MINH VK_MIN
// No hardware estimate of XNNPACK's x86 kernels here: the exact reciprocal square root, which
// the Newton-Raphson step keeps within an ulp or two of theirs.
#define VK_RSQRT_ESTIMATE(x) ((vk_v)(1.0f) / __builtin_elementwise_sqrt(x))
#include "kernels_body.h"

#endif
