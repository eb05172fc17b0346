// Portable build of the kernels: plain C vectors for the compilation target. Multiply-adds are
// fused (correctly rounded, as XNNPACK's kernels compute them), so this build gives LiteRT's
// bits too: one instruction where the target has fused multiply-add (arm64, POWER, s390x,
// RISC-V with F/D), a libm call per lane where it lacks it (x86-64 CPUs without FMA, the only
// x86-64 CPUs that choose this build), which is exact but slow.
#pragma clang fp contract(off)

typedef float vk_v __attribute__((ext_vector_type(8)));
typedef float vk_h __attribute__((ext_vector_type(8)));
#define VK_LANES 8
#define VK_MR 4
// Main panels are 8 wide (vk_gemm_main_width): one vector.
#define VK_MAIN_VECTORS 1
#define VK_SUFFIX(name) name##_portable
#define VK_FMA(a, b, c) __builtin_elementwise_fma(a, b, c)
#define VK_MAX(bound, x) __builtin_elementwise_maximum(bound, x)
#define VK_MIN(bound, x) __builtin_elementwise_minimum(bound, x)
#define VK_MAXH VK_MAX
#define VK_MINH VK_MIN
// No hardware estimate of XNNPACK's x86 kernels here: the exact reciprocal square root, which
// the Newton-Raphson step keeps within an ulp or two of theirs.
#define VK_RSQRT_ESTIMATE(x) ((vk_v)(1.0f) / __builtin_elementwise_sqrt(x))
#include "kernels_body.h"
