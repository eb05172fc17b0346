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
#include "kernels_body.h"

#endif
