// Portable build of the kernels: plain C vectors for the compilation target, separate
// multiply and add (no fused multiply-add, which would be a slow library call where the
// hardware lacks it).
#pragma clang fp contract(off)

typedef float vk_v __attribute__((ext_vector_type(8)));
typedef float vk_h __attribute__((ext_vector_type(8)));
#define VK_LANES 8
#define VK_MR 4
#define VK_SUFFIX(name) name##_portable
#define VK_FMA(a, b, c) ((a) * (b) + (c))
#define VK_MAX(bound, x) __builtin_elementwise_maximum(bound, x)
#define VK_MIN(bound, x) __builtin_elementwise_minimum(bound, x)
#define VK_MAXH VK_MAX
#define VK_MINH VK_MIN
#include "kernels_body.h"
