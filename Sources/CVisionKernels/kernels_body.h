// The kernels, written once over vector types and instantiated per instruction set.
//
// An including file defines:
//   VK_SUFFIX(name)   appends the instruction set's suffix to a function name
//   vk_v, VK_LANES    the widest vector type and its float count (16 or 8)
//   vk_h              an 8-float vector type
//   VK_FMA(a, b, c)   a * b + c (fused where the instruction set has it)
//   VK_MAX, VK_MIN    lane-wise max / min of vk_v; VK_MAXH, VK_MINH of vk_h. Called as
//                     VK_MAX(bound, x) and must return x when x is NaN.
//   VK_MR             rows per matrix-product micro-kernel call
// and wraps the include in a target attribute region where needed.

#include <string.h>
#include <stdint.h>
#include "gemm_layout.h"
#include "sparse_layout.h"

// The kernels marked VK_ALIGNED (the entry points, the micro-kernels and the other functions
// meant to stay out of line, here and in image_warp_body.h) start on a 64-byte boundary, so that
// where their loops fall relative to the instruction fetch blocks depends on their own code only:
// with 16-byte starts, a change to one kernel moved the others, and the face landmark model's 16 →
// 8 products (tiny tiles, the per-tile loop of vk_gemm_run) ran 5 % slower or faster as
// vk_gemm_run landed at 32 or 0 modulo 64.
#define VK_ALIGNED __attribute__((aligned(64)))

// Unaligned, aliasing-safe vector access.
typedef float VK_SUFFIX(vk_vu) __attribute__((ext_vector_type(VK_LANES), aligned(4), may_alias));
typedef float VK_SUFFIX(vk_hu) __attribute__((ext_vector_type(8), aligned(4), may_alias));
#define VK_LOAD(p) (*(const VK_SUFFIX(vk_vu) *)(p))
#define VK_STORE(p, v) (*(VK_SUFFIX(vk_vu) *)(p) = (v))
#define VK_LOADH(p) (*(const VK_SUFFIX(vk_hu) *)(p))
#define VK_STOREH(p, v) (*(VK_SUFFIX(vk_hu) *)(p) = (v))
// Narrow channel tails (4 lanes, then 1), computed with the operations of the wide vectors in
// the same order, so a channel's bits do not depend on where the tail starts.
typedef float VK_SUFFIX(vk_q) __attribute__((ext_vector_type(4)));
typedef float VK_SUFFIX(vk_qu) __attribute__((ext_vector_type(4), aligned(4), may_alias));
#define VK_LOADQ(p) (*(const VK_SUFFIX(vk_qu) *)(p))
#define VK_STOREQ(p, v) (*(VK_SUFFIX(vk_qu) *)(p) = (v))
#define VK_LOAD1(p) (*(p))
#define VK_STORE1(p, v) (*(p) = (v))
// Lane-wise max / min by comparison, returning x when x is NaN (as VK_MAX / VK_MIN do).
#define VK_SELMAX(bound, x) ((x) < (bound) ? (bound) : (x))
#define VK_SELMIN(bound, x) ((x) > (bound) ? (bound) : (x))

// Expands BLOCK(type, lanes, load, store, max, min) for every vector width, widest first: the
// build's widest vector, 8 lanes where that is wider, 4 lanes and single floats — the channel
// loops of kernels whose channel counts need not be multiples of the vector width.
#if VK_LANES == 16
#define VK_EACH_WIDTH(BLOCK)                                                                               \
    BLOCK(vk_v, VK_LANES, VK_LOAD, VK_STORE, VK_MAX, VK_MIN)                                               \
    BLOCK(vk_h, 8, VK_LOADH, VK_STOREH, VK_MAXH, VK_MINH)                                                  \
    BLOCK(VK_SUFFIX(vk_q), 4, VK_LOADQ, VK_STOREQ, VK_SELMAX, VK_SELMIN)                                   \
    BLOCK(float, 1, VK_LOAD1, VK_STORE1, VK_SELMAX, VK_SELMIN)
#else
#define VK_EACH_WIDTH(BLOCK)                                                                               \
    BLOCK(vk_v, VK_LANES, VK_LOAD, VK_STORE, VK_MAX, VK_MIN)                                               \
    BLOCK(VK_SUFFIX(vk_q), 4, VK_LOADQ, VK_STOREQ, VK_SELMAX, VK_SELMIN)                                   \
    BLOCK(float, 1, VK_LOAD1, VK_STORE1, VK_SELMAX, VK_SELMIN)
#endif

// Copies `count` floats in vectors of 8, then 4, then one by one: the partial end of a row.
static inline __attribute__((always_inline)) void VK_SUFFIX(copy_tail)(float *dst, const float *src, size_t count) {
    size_t i = 0;
    for (; i + 8 <= count; i += 8) VK_STOREH(dst + i, VK_LOADH(src + i));
    for (; i + 4 <= count; i += 4) VK_STOREQ(dst + i, VK_LOADQ(src + i));
    for (; i < count; i++) dst[i] = src[i];
}

// MARK: Matrix product

// Fully unrolls the loop that follows. The micro-kernels' loops over rows and vectors must be
// unrolled for their accumulators to live in registers: rolled, clang keeps them in a stack
// array and stores and reloads every one of them around each tile.
#define VK_UNROLL _Pragma("clang loop unroll(full)")

// Micro-kernels: `mr` (1...R) rows times one panel of NV vectors of type T (L lanes each). Rows
// beyond `mr` repeat the last row; only `mr` rows and `nc` columns are stored. The direct kernel
// reads row r's k-th input at `a + r * as + k`; the indirect one (convolutions) runs the k loop
// over `taps` window taps of `kc` channels, row r's tap t at `ptrs[t * VK_MR + r]` — the same
// multiply-adds in the same order as the direct kernel on gathered patches.
#define VK_UK_INIT(R, T, L, NV, LD, ST, MX, MN)                                                                        \
    T acc[R][NV];                                                                                                      \
    VK_UNROLL for (size_t v = 0; v < NV; v++) {                                                                        \
        T b = LD(w + v * L);                                                                                           \
        VK_UNROLL for (size_t r = 0; r < R; r++) acc[r][v] = b;                                                        \
    }                                                                                                                  \
    w += NV * L;

// With VK_GEMM_PREFETCH defined (bytes), each k step prefetches the lines of packed weights
// that far ahead of the ones it reads. In a model a layer's weights come from the shared cache
// or memory; AVX2's 6 × 16 tile reads a weight line every 6 cycles of multiply-adds, a third
// more weight bytes per multiply-add than AVX-512's 8 × 32, and there the hardware prefetchers
// fell behind (a 49 × 1152 → 192 product with its weights evicted: 0.24 → 0.22 ms). The
// AVX-512 build measured no gain, and NEON has not been measured, so only AVX2 defines it.
#ifdef VK_GEMM_PREFETCH
#define VK_GEMM_PREFETCH_W(FLOATS)                                                                                     \
    VK_UNROLL for (size_t l = 0; l < ((FLOATS) * 4 + 63) / 64; l++)                                                    \
        __builtin_prefetch((const char *)w + VK_GEMM_PREFETCH + l * 64);
#else
#define VK_GEMM_PREFETCH_W(FLOATS)
#endif

#define VK_UK_STEP(R, T, L, NV, LD, ST, MX, MN)                                                                        \
    VK_UK_STEP_(VK_GEMM_PREFETCH_W, VK_NO_ROW_FENCE, R, T, L, NV, LD, ST, MX, MN)
// The step-list micro-kernel's step: it prefetches by its list, not by address, and where the
// build defines VK_LISTED_ROW_FENCE, it takes its rows' inputs one row at a time (see there).
#ifndef VK_LISTED_ROW_FENCE
#define VK_LISTED_ROW_FENCE
#endif
#define VK_UK_LISTED_STEP(R, T, L, NV, LD, ST, MX, MN)                                                                 \
    VK_UK_STEP_(VK_NO_PREFETCH_W, VK_LISTED_ROW_FENCE, R, T, L, NV, LD, ST, MX, MN)
#define VK_NO_PREFETCH_W(FLOATS)
#define VK_NO_ROW_FENCE
#define VK_UK_STEP_(PREFETCH, FENCE, R, T, L, NV, LD, ST, MX, MN)                                                      \
    {                                                                                                                  \
        T wv[NV];                                                                                                      \
        VK_UNROLL for (size_t v = 0; v < NV; v++) wv[v] = LD(w + v * L);                                               \
        PREFETCH(NV * L)                                                                                               \
        w += NV * L;                                                                                                   \
        VK_UNROLL for (size_t r = 0; r < R; r++) {                                                                     \
            const float x = ap[r][k];                                                                                  \
            VK_UNROLL for (size_t v = 0; v < NV; v++) acc[r][v] = VK_FMA((T)(x), wv[v], acc[r][v]);                    \
            FENCE                                                                                                      \
        }                                                                                                              \
    }

#define VK_UK_FINISH(R, T, L, NV, LD, ST, MX, MN)                                                                      \
    {                                                                                                                  \
        const T vlo = (T)(lo), vhi = (T)(hi);                                                                          \
        VK_UNROLL for (size_t r = 0; r < R; r++) {                                                                     \
            VK_UNROLL for (size_t v = 0; v < NV; v++) acc[r][v] = MN(vhi, MX(vlo, acc[r][v]));                         \
        }                                                                                                              \
        if (nc == NV * L) {                                                                                            \
            VK_UNROLL for (size_t r = 0; r < R; r++) {                                                                 \
                if (r < mr) {                                                                                          \
                    float *cr = c + r * cs;                                                                            \
                    VK_UNROLL for (size_t v = 0; v < NV; v++) ST(cr + v * L, acc[r][v]);                               \
                }                                                                                                      \
            }                                                                                                          \
        } else {                                                                                                       \
            /* A partial panel: the rows through a buffer, then their first `nc` columns. */                           \
            float tmp[R][NV * L];                                                                                      \
            VK_UNROLL for (size_t r = 0; r < R; r++) {                                                                 \
                VK_UNROLL for (size_t v = 0; v < NV; v++) ST(tmp[r] + v * L, acc[r][v]);                               \
            }                                                                                                          \
            for (size_t r = 0; r < mr; r++) VK_SUFFIX(copy_tail)(c + r * cs, tmp[r], nc);                              \
        }                                                                                                              \
    }

#define VK_GEMM_UKERNEL(NAME, R, T, L, NV, LD, ST, MX, MN)                                                             \
    VK_ALIGNED                                                                                                         \
    static void NAME(size_t mr, size_t kc, const float *restrict a, size_t as, const float *restrict w,                \
                     float *restrict c, size_t cs, size_t nc, float lo, float hi) {                                    \
        const float *ap[R];                                                                                            \
        VK_UNROLL for (size_t r = 0; r < R; r++) ap[r] = a + (r < mr ? r : mr - 1) * as;                               \
        VK_UK_INIT(R, T, L, NV, LD, ST, MX, MN)                                                                        \
        for (size_t k = 0; k < kc; k++) VK_UK_STEP(R, T, L, NV, LD, ST, MX, MN)                                        \
        VK_UK_FINISH(R, T, L, NV, LD, ST, MX, MN)                                                                      \
    }

#define VK_IGEMM_UKERNEL(NAME, R, T, L, NV, LD, ST, MX, MN)                                                            \
    VK_ALIGNED                                                                                                         \
    static void NAME(size_t mr, size_t taps, size_t kc, const float *const *ptrs, const float *restrict w,             \
                     float *restrict c, size_t cs, size_t nc, float lo_, float hi_) {                                  \
        /* The clamp's bounds wait in memory: kept in a register, they left AVX2's 16 one short of the 6 × 16 tile */ \
        /* (12 sums, 2 weights, a broadcast), and clang stored and reloaded 6 sums around every tap (a 3 × 3 */        \
        /* stride-2 stem, kernel_timing.sh: 0.297 -> 0.257 ms). */                                                    \
        volatile float bounds[2] = {lo_, hi_};                                                                         \
        VK_UK_INIT(R, T, L, NV, LD, ST, MX, MN)                                                                        \
        for (size_t t = 0; t < taps; t++, ptrs += VK_MR) {                                                             \
            const float *ap[R];                                                                                        \
            VK_UNROLL for (size_t r = 0; r < R; r++) ap[r] = ptrs[r];                                                  \
            for (size_t k = 0; k < kc; k++) VK_UK_STEP(R, T, L, NV, LD, ST, MX, MN)                                    \
        }                                                                                                              \
        const float lo = bounds[0], hi = bounds[1];                                                                    \
        VK_UK_FINISH(R, T, L, NV, LD, ST, MX, MN)                                                                      \
    }

/// Listed steps ahead whose weights the step-list micro-kernel prefetches, into the first-level
/// cache (VK_SKIP_AHEAD) and the second (VK_SKIP_AHEAD_L2, far enough for memory): the steps it
/// leaves out make its reads of the packed weights irregular, and the hardware prefetchers do
/// not follow them (the hand landmark model's 7 × 7 × 1152 → 192 layers, half their steps left
/// out: 0.17 ms with the first, 0.156 ms with both, 0.20 ms without skipping).
#define VK_SKIP_AHEAD 16
#define VK_SKIP_AHEAD_L2 64
// The direct micro-kernel over the `count` k steps listed in `ks` (ascending), for `mr` (1...R)
// rows, rows beyond `mr` repeating the last one: the steps left out are ones at which every row
// reads ±0 (see vk_gemm_run_skipping_zeros).
#define VK_SKIP_UKERNEL(NAME, R, T, L, NV, LD, ST, MX, MN)                                                             \
    VK_ALIGNED                                                                                                         \
    static void NAME(size_t mr, const uint32_t *restrict ks, size_t count, const float *restrict a, size_t as,         \
                     const float *restrict w, float *restrict c, size_t cs, size_t nc, float lo_, float hi_) {         \
        /* The clamp's bounds wait in memory, as in VK_IGEMM_UKERNEL (AVX2's 6 x 16 tile needs 15 registers). */        \
        volatile float bounds[2] = {lo_, hi_};                                                                         \
        const float *ap[R];                                                                                            \
        VK_UNROLL for (size_t r = 0; r < R; r++) ap[r] = a + (r < mr ? r : mr - 1) * as;                               \
        VK_UK_INIT(R, T, L, NV, LD, ST, MX, MN)                                                                        \
        const float *const first = w;                                                                                  \
        for (size_t i = 0; i < count; i++) {                                                                           \
            const size_t k = ks[i];                                                                                    \
            VK_UNROLL for (size_t l = 0; l < (NV * L * 4 + 63) / 64; l++) {                                            \
                __builtin_prefetch(first + ks[i + VK_SKIP_AHEAD] * (NV * L) + l * 16);                                 \
                __builtin_prefetch(first + ks[i + VK_SKIP_AHEAD_L2] * (NV * L) + l * 16, 0, 2);                        \
            }                                                                                                          \
            w = first + k * (NV * L);                                                                                  \
            VK_UK_LISTED_STEP(R, T, L, NV, LD, ST, MX, MN)                                                             \
        }                                                                                                              \
        const float lo = bounds[0], hi = bounds[1];                                                                    \
        VK_UK_FINISH(R, T, L, NV, LD, ST, MX, MN)                                                                      \
    }

// MAKE(name, R, T, L, NV, LD, ST, MX, MN) for every panel width W (32, 24, 16, 8), named
// KIND_wW_rR: each width's vector types and counts. With 16 lanes, a 24-wide panel goes as three
// 8-lane vectors a row rather than one of 16 and one of 8 (the same layout and sums): on Zen 4
// the mixed tile ran the 24-channel stems 6-7 % slower than three 8-lane vectors, while 16-wide
// panels as two 8-lane vectors were slower than one of 16 (docs/ENGINE.md, thirteenth session).
#if VK_LANES == 16
#define VK_EACH_PANEL_WIDTH(MAKE, KIND, R)                                                                             \
    MAKE(VK_SUFFIX(KIND##_w32_r##R), R, vk_v, 16, 2, VK_LOAD, VK_STORE, VK_MAX, VK_MIN)                                \
    MAKE(VK_SUFFIX(KIND##_w24_r##R), R, vk_h, 8, 3, VK_LOADH, VK_STOREH, VK_MAXH, VK_MINH)                             \
    MAKE(VK_SUFFIX(KIND##_w16_r##R), R, vk_v, 16, 1, VK_LOAD, VK_STORE, VK_MAX, VK_MIN)                                \
    MAKE(VK_SUFFIX(KIND##_w8_r##R), R, vk_h, 8, 1, VK_LOADH, VK_STOREH, VK_MAXH, VK_MINH)
#else
#define VK_EACH_PANEL_WIDTH(MAKE, KIND, R)                                                                             \
    MAKE(VK_SUFFIX(KIND##_w32_r##R), R, vk_h, 8, 4, VK_LOADH, VK_STOREH, VK_MAXH, VK_MINH)                             \
    MAKE(VK_SUFFIX(KIND##_w24_r##R), R, vk_h, 8, 3, VK_LOADH, VK_STOREH, VK_MAXH, VK_MINH)                             \
    MAKE(VK_SUFFIX(KIND##_w16_r##R), R, vk_h, 8, 2, VK_LOADH, VK_STOREH, VK_MAXH, VK_MINH)                             \
    MAKE(VK_SUFFIX(KIND##_w8_r##R), R, vk_h, 8, 1, VK_LOADH, VK_STOREH, VK_MAXH, VK_MINH)
#endif
// Every panel width's direct, indirect and step-list micro-kernels for R rows, suffixed _r##R:
// the whole tiles (R = VK_MR) and the partial last tiles of a range (R = 4, 2, 1), which then
// compute only as many rows as they store, or at most twice as many. These macros expand R
// (VK_MR) before it is pasted into the names.
#define VK_GEMM_UKERNELS(R)                                                                                            \
    VK_EACH_PANEL_WIDTH(VK_GEMM_UKERNEL, gemm, R)                                                                      \
    VK_EACH_PANEL_WIDTH(VK_IGEMM_UKERNEL, igemm, R)                                                                    \
    VK_EACH_PANEL_WIDTH(VK_SKIP_UKERNEL, skip, R)
VK_GEMM_UKERNELS(VK_MR)
#if VK_MR > 4
VK_GEMM_UKERNELS(4)
#endif
VK_GEMM_UKERNELS(2)
VK_GEMM_UKERNELS(1)
#ifdef VK_W8_PAIRED
// Two whole tiles times an 8-wide panel: 2 × VK_MR sums in flight instead of VK_MR.
VK_GEMM_UKERNEL(VK_SUFFIX(gemm_w8_paired), 2 * VK_MR, vk_h, 8, 1, VK_LOADH, VK_STOREH, VK_MAXH, VK_MINH)
#endif

/// Vectors of VK_LANES floats in a main-width panel (vk_gemm_main_width, which gemm_rows checks
/// it against): 32 / 16 with AVX-512, 16 / 8 with AVX2 and NEON. The portable build (8-wide
/// panels) defines 1.
#ifndef VK_MAIN_VECTORS
#define VK_MAIN_VECTORS 2
#endif
/// Main-width panels that one row takes at a time (gemm_row_panels).
#define VK_ROW_PANELS 4
// One row times VK_ROW_PANELS whole main-width panels side by side, every step: a row left
// over after the whole tiles (the 7 × 7 = 49 pixels of a MobileNet's last blocks are 8 tiles
// of 6 and one row, or 6 of 8 and one) otherwise goes panel by panel, and one row of one
// panel has only VK_MAIN_VECTORS sums, each waiting for its previous multiply-add (AVX2: 2 of
// the 8 that the two 4-cycle units need; AVX-512: 2 of 4). Here the row has 4 × as many, and
// reads each input once for all the panels. `w` is the first panel's packed weights and
// `panel_floats` the distance to the next ((k + 1) × width); each sum is the bias, then the k
// steps in order, as in the one-panel kernel.
VK_ALIGNED
static void VK_SUFFIX(gemm_row_panels)(size_t kc, const float *restrict a, const float *restrict w,
                                       size_t panel_floats, float *restrict c, float lo_, float hi_) {
    volatile float bounds[2] = {lo_, hi_};
    vk_v acc[VK_ROW_PANELS][VK_MAIN_VECTORS];
    VK_UNROLL for (size_t g = 0; g < VK_ROW_PANELS; g++) VK_UNROLL for (size_t v = 0; v < VK_MAIN_VECTORS; v++)
        acc[g][v] = VK_LOAD(w + g * panel_floats + v * VK_LANES);
    const float *wk = w + VK_MAIN_VECTORS * VK_LANES;
    for (size_t k = 0; k < kc; k++, wk += VK_MAIN_VECTORS * VK_LANES) {
        const vk_v x = (vk_v)(a[k]);
        VK_UNROLL for (size_t g = 0; g < VK_ROW_PANELS; g++) VK_UNROLL for (size_t v = 0; v < VK_MAIN_VECTORS; v++)
            acc[g][v] = VK_FMA(x, VK_LOAD(wk + g * panel_floats + v * VK_LANES), acc[g][v]);
    }
    const vk_v lo = (vk_v)(bounds[0]), hi = (vk_v)(bounds[1]);
    VK_UNROLL for (size_t g = 0; g < VK_ROW_PANELS; g++) VK_UNROLL for (size_t v = 0; v < VK_MAIN_VECTORS; v++)
        VK_STORE(c + (g * VK_MAIN_VECTORS + v) * VK_LANES, VK_MIN(hi, VK_MAX(lo, acc[g][v])));
}

#ifdef VK_IGEMM_W16_W8_HALVES
_Static_assert(VK_MR % 2 == 0, "VK_IGEMM_W16_W8_HALVES splits a tile into two halves");
// A whole convolution tile times a 16-wide panel and the 8-wide panel after it (the last one of
// an n = 16j + 8 layer, the 24-channel stems), as two calls of VK_MR / 2 rows over both panels:
// 3 rows × 3 vectors are 9 sums, enough for the two multiply-add units of 4-cycle latency, with
// 3 weight and 3 input loads per 9 multiply-adds. One panel at a time, the 8-wide one has only
// 6 sums for its k steps (27 for a 3 × 3 stem, 75 for a 5 × 5) and reads every input again.
// `ptrs` is the tile's pointer table (VK_MR per tap) from the first of the half's rows; `w` and
// `w8` are the two panels' packed weights. Each sum is the bias, then the k steps in order.
VK_ALIGNED
static __attribute__((noinline)) void VK_SUFFIX(igemm_w16_w8_half)(size_t taps, size_t kc, const float *const *ptrs,
                                                                     const float *restrict w,
                                                                     const float *restrict w8, float *restrict c,
                                                                     size_t cs, float lo_, float hi_) {
    enum { R = VK_MR / 2 };
    // In memory until the end, as in VK_IGEMM_UKERNEL (registers are short).
    volatile float bounds[2] = {lo_, hi_};
    vk_h acc[R][3];
    const vk_h b0 = VK_LOADH(w), b1 = VK_LOADH(w + 8), b2 = VK_LOADH(w8);
    VK_UNROLL for (size_t r = 0; r < R; r++) acc[r][0] = b0, acc[r][1] = b1, acc[r][2] = b2;
    w += 16;
    w8 += 8;
    for (size_t t = 0; t < taps; t++, ptrs += VK_MR) {
        const float *ap[R];
        VK_UNROLL for (size_t r = 0; r < R; r++) ap[r] = ptrs[r];
        for (size_t k = 0; k < kc; k++, w += 16, w8 += 8) {
            const vk_h w0 = VK_LOADH(w), w1 = VK_LOADH(w + 8), w2 = VK_LOADH(w8);
            VK_UNROLL for (size_t r = 0; r < R; r++) {
                const vk_h x = (vk_h)(ap[r][k]);
                acc[r][0] = VK_FMA(x, w0, acc[r][0]);
                acc[r][1] = VK_FMA(x, w1, acc[r][1]);
                acc[r][2] = VK_FMA(x, w2, acc[r][2]);
            }
        }
    }
    const vk_h lo = (vk_h)(bounds[0]), hi = (vk_h)(bounds[1]);
    VK_UNROLL for (size_t r = 0; r < R; r++) VK_UNROLL for (size_t v = 0; v < 3; v++)
        VK_STOREH(c + r * cs + v * 8, VK_MINH(hi, VK_MAXH(lo, acc[r][v])));
}
#endif

// One tile of `mr` rows times one panel (whole tiles straight to the VK_MR-row kernels; calling
// them through a table instead halved the speed of small-k layers). KIND is gemm or igemm,
// ARGS the kernel's arguments after `mr`.
#define VK_CALL_WIDTH_(KIND, R, width, ARGS)                                                                           \
    switch (width) {                                                                                                   \
    case 32: VK_SUFFIX(KIND##_w32_r##R) ARGS; break;                                                                   \
    case 24: VK_SUFFIX(KIND##_w24_r##R) ARGS; break;                                                                   \
    case 16: VK_SUFFIX(KIND##_w16_r##R) ARGS; break;                                                                   \
    default: VK_SUFFIX(KIND##_w8_r##R) ARGS; break;                                                                    \
    }
#define VK_CALL_WIDTH(KIND, R, width, ARGS) VK_CALL_WIDTH_(KIND, R, width, ARGS)
#if VK_MR > 4
#define VK_CALL_PARTIAL4(KIND, width, ARGS) else if (mr <= 4) VK_CALL_WIDTH(KIND, 4, width, ARGS)
#else
#define VK_CALL_PARTIAL4(KIND, width, ARGS)
#endif
#define VK_CALL_TILE(KIND, mr, width, ARGS)                                                                            \
    if (mr == VK_MR) VK_CALL_WIDTH(KIND, VK_MR, width, ARGS)                                                           \
    else if (mr == 1) VK_CALL_WIDTH(KIND, 1, width, ARGS)                                                              \
    else if (mr == 2) VK_CALL_WIDTH(KIND, 2, width, ARGS)                                                              \
    VK_CALL_PARTIAL4(KIND, width, ARGS)                                                                                \
    else VK_CALL_WIDTH(KIND, VK_MR, width, ARGS)

// Moves the output pixel (b, oy, ox) on by `count` (at most a row) pixels.
static inline void VK_SUFFIX(next_pixels)(size_t *b, size_t *oy, size_t *ox, size_t count, size_t OW, size_t OH) {
    *ox += count;
    if (*ox < OW) return;
    *ox -= OW;
    if (++*oy == OH) {
        *oy = 0;
        ++*b;
    }
}

VK_ALIGNED
void VK_SUFFIX(vk_gemm_conv)(vk_gemm_shape shape, const float *packed, const vk_conv_geometry *g, const float *zeros,
                             float *c, size_t c_stride, size_t pixel_begin, size_t pixel_end, size_t panel_begin,
                             size_t panel_end, float lo, float hi) {
    const size_t KH = g->kernel_height, KW = g->kernel_width, C = g->channels, taps = KH * KW;
    const size_t OW = g->output_width, per_image = g->output_height * OW;
    const float *ptrs[VK_CONV_MAX_TAPS * VK_MR];
    if (taps > VK_CONV_MAX_TAPS || pixel_begin >= pixel_end) return;  // the caller checks the tap count
    // Offsets of the taps from a window's first pixel, for windows inside the input.
    ptrdiff_t offsets[VK_CONV_MAX_TAPS];
    for (size_t ky = 0; ky < KH; ky++)
        for (size_t kx = 0; kx < KW; kx++)
            offsets[ky * KW + kx] = (ptrdiff_t)((ky * g->dilation_h * g->input_width + kx * g->dilation_w) * C);
    const ptrdiff_t extent_h = (ptrdiff_t)((KH - 1) * g->dilation_h), extent_w = (ptrdiff_t)((KW - 1) * g->dilation_w);
    size_t b = pixel_begin / per_image, oy = pixel_begin % per_image / OW, ox = pixel_begin % OW;
    for (size_t row = pixel_begin; row < pixel_end; row += VK_MR) {
        const size_t mr = pixel_end - row < VK_MR ? pixel_end - row : VK_MR;
        size_t tile_taps, tile_kc;
        // A whole tile within one output row whose windows lie inside the input columns (most
        // tiles of most layers): window row ky of pixel r starts stride_w * C floats after pixel
        // r - 1's, so the pointers follow from the first pixel's without per-pixel checks.
        const ptrdiff_t first_ix = (ptrdiff_t)(ox * g->stride_w) - (ptrdiff_t)g->pad_left;
        if (mr == VK_MR && g->dilation_w == 1 && ox + VK_MR <= OW && first_ix >= 0
            && first_ix + (ptrdiff_t)((VK_MR - 1) * g->stride_w) + extent_w < (ptrdiff_t)g->input_width) {
            const float *image = g->input + b * g->input_height * g->input_width * C;
            const ptrdiff_t iy0 = (ptrdiff_t)(oy * g->stride_h) - (ptrdiff_t)g->pad_top;
            const size_t step = g->stride_w * C;
            for (size_t ky = 0; ky < KH; ky++) {
                const ptrdiff_t iy = iy0 + (ptrdiff_t)(ky * g->dilation_h);
                if (iy >= 0 && iy < (ptrdiff_t)g->input_height) {
                    const float *base = image + ((size_t)iy * g->input_width + (size_t)first_ix) * C;
                    for (size_t r = 0; r < VK_MR; r++) ptrs[ky * VK_MR + r] = base + r * step;
                } else {
                    for (size_t r = 0; r < VK_MR; r++) ptrs[ky * VK_MR + r] = zeros;
                }
            }
            tile_taps = KH;
            tile_kc = KW * C;
            VK_SUFFIX(next_pixels)(&b, &oy, &ox, VK_MR, OW, g->output_height);
        } else {
            // The window origins of the tile's output pixels (the last one repeated to fill the tile).
            const float *images[VK_MR];
            ptrdiff_t iy0s[VK_MR], ix0s[VK_MR];
            // Row mode: when every window row of the tile lies inside the input columns (dilation
            // 1), a window row's KW taps are KW * C consecutive floats, so the micro-kernel runs KH
            // taps of KW * C channels: the same multiply-adds in the same order, fewer pointers.
            int row_mode = g->dilation_w == 1;
            for (size_t r = 0; r < VK_MR; r++) {
                if (r > 0 && r < mr) VK_SUFFIX(next_pixels)(&b, &oy, &ox, 1, OW, g->output_height);
                images[r] = g->input + b * g->input_height * g->input_width * C;
                iy0s[r] = (ptrdiff_t)(oy * g->stride_h) - (ptrdiff_t)g->pad_top;
                ix0s[r] = (ptrdiff_t)(ox * g->stride_w) - (ptrdiff_t)g->pad_left;
                if (ix0s[r] < 0 || ix0s[r] + extent_w >= (ptrdiff_t)g->input_width) row_mode = 0;
            }
            for (size_t r = 0; r < VK_MR; r++) {
                const float *image = images[r];
                const ptrdiff_t iy0 = iy0s[r], ix0 = ix0s[r];
                if (row_mode) {
                    for (size_t ky = 0; ky < KH; ky++) {
                        const ptrdiff_t iy = iy0 + (ptrdiff_t)(ky * g->dilation_h);
                        ptrs[ky * VK_MR + r] = iy >= 0 && iy < (ptrdiff_t)g->input_height
                            ? image + ((size_t)iy * g->input_width + (size_t)ix0) * C : zeros;
                    }
                    continue;
                }
                if (iy0 >= 0 && ix0 >= 0 && iy0 + extent_h < (ptrdiff_t)g->input_height
                    && ix0 + extent_w < (ptrdiff_t)g->input_width) {
                    const float *base = image + ((size_t)iy0 * g->input_width + (size_t)ix0) * C;
                    // Scalar stores: vectorised over the taps, clang scatters them (VK_MR apart),
                    // which cost the 5 × 5 stems' edge tiles a third of their set-up time on Zen 4.
#pragma clang loop vectorize(disable)
                    for (size_t t = 0; t < taps; t++) ptrs[t * VK_MR + r] = base + offsets[t];
                    continue;
                }
                for (size_t ky = 0; ky < KH; ky++) {
                    const ptrdiff_t iy = iy0 + (ptrdiff_t)(ky * g->dilation_h);
                    const int row_inside = iy >= 0 && iy < (ptrdiff_t)g->input_height;
                    for (size_t kx = 0; kx < KW; kx++) {
                        const ptrdiff_t ix = ix0 + (ptrdiff_t)(kx * g->dilation_w);
                        ptrs[(ky * KW + kx) * VK_MR + r] = row_inside && ix >= 0 && ix < (ptrdiff_t)g->input_width
                            ? image + ((size_t)iy * g->input_width + (size_t)ix) * C : zeros;
                    }
                }
            }
            tile_taps = row_mode ? KH : taps;
            tile_kc = row_mode ? KW * C : C;
            // Next tile starts one pixel after this tile's last.
            VK_SUFFIX(next_pixels)(&b, &oy, &ox, 1, OW, g->output_height);
        }
        float *cr = c + row * c_stride;
        for (size_t p = panel_begin; p < panel_end; p++) {
            vk_panel panel = vk_gemm_panel(shape, p);
            const size_t nc = vk_gemm_panel_stored(shape, panel);
            const float *w = packed + panel.offset;
#ifdef VK_IGEMM_W16_W8_HALVES
            if (mr == VK_MR && panel.width == 16 && p + 1 < panel_end && shape.n - panel.column == 24) {
                const float *w8 = packed + vk_gemm_panel(shape, p + 1).offset;
                for (size_t half = 0; half < VK_MR; half += VK_MR / 2)
                    VK_SUFFIX(igemm_w16_w8_half)(tile_taps, tile_kc, ptrs + half, w, w8,
                                                 cr + half * c_stride + panel.column, c_stride, lo, hi);
                p++;
                continue;
            }
#endif
            VK_CALL_TILE(igemm, mr, panel.width,
                         (mr, tile_taps, tile_kc, ptrs, w, cr + panel.column, c_stride, nc, lo, hi))
        }
    }
}

typedef uint32_t VK_SUFFIX(vk_vbits) __attribute__((ext_vector_type(VK_LANES), aligned(4), may_alias));

// The VK_MR row pointers of a tile of `mr` rows (1...VK_MR) from `a`, `as` floats apart: rows
// beyond `mr` read the last one again (an OR of a row with itself changes nothing).
static inline void VK_SUFFIX(tile_rows)(const float *a, size_t as, size_t mr, const float **rows) {
    VK_UNROLL for (size_t r = 0; r < VK_MR; r++) rows[r] = a + (r < mr ? r : mr - 1) * as;
}

// Step j's values of every row of a tile (`rows`, VK_MR pointers), OR-ed and shifted left by
// one into `bits`: zero only where every row reads ±0 (a value's bits shifted left by one are
// zero only for ±0, not for denormals, NaN or infinities); VK_LANES steps from j. (Through a
// pointer: the portable build's vectors are wider than its ABI passes in registers.)
static inline void VK_SUFFIX(step_bits)(const float *const *rows, size_t j, VK_SUFFIX(vk_vbits) *bits) {
    VK_SUFFIX(vk_vbits) b = *(const VK_SUFFIX(vk_vbits) *)(rows[0] + j);
    VK_UNROLL for (size_t r = 1; r < VK_MR; r++) b |= *(const VK_SUFFIX(vk_vbits) *)(rows[r] + j);
    *bits = b << 1;
}

// The steps k of a tile of `mr` rows (1...VK_MR, from `a`, `as` floats apart) at which some row
// reads a value other than ±0, ascending, into `ks`; returns their count. `ks` has room for k + 16 +
// VK_SKIP_AHEAD_L2 entries: vector stores write up to 16 past the count, and the entries after
// the last step repeat it, for the micro-kernel's prefetches.
static inline size_t VK_SUFFIX(nonzero_steps)(const float *a, size_t as, size_t mr, size_t k, uint32_t *ks) {
    typedef VK_SUFFIX(vk_vbits) vbits;
    const float *rows[VK_MR];
    VK_SUFFIX(tile_rows)(a, as, mr, rows);
    size_t count = 0, j = 0;
    for (; j + VK_LANES <= k; j += VK_LANES) {
        vbits bits;
        VK_SUFFIX(step_bits)(rows, j, &bits);
#ifdef VK_COMPRESS_STEPS
        VK_COMPRESS_STEPS(bits, j, ks, count)
#else
        VK_UNROLL for (size_t l = 0; l < VK_LANES; l++) {
            ks[count] = (uint32_t)(j + l);
            count += bits[l] != 0;
        }
#endif
    }
    for (; j < k; j++) {
        uint32_t bits = 0;
        VK_UNROLL for (size_t r = 0; r < VK_MR; r++) {
            uint32_t b;
            memcpy(&b, rows[r] + j, sizeof b);
            bits |= b;
        }
        ks[count] = (uint32_t)j;
        count += (bits << 1) != 0;
    }
    for (size_t i = 0; i < VK_SKIP_AHEAD_L2; i++) ks[count + i] = count ? ks[count - 1] : 0;
    return count;
}

/// Steps at the start of a tile's k that dense_by_sample looks at (a multiple of VK_LANES).
#define VK_SKIP_SAMPLE 64
// Whether a tile of `mr` rows runs dense without a step list: k is above VK_SKIP_SAMPLE and none
// of its first VK_SKIP_SAMPLE steps is a zero step. Most tiles after a RELU keep every step (the
// face blendshapes model's nearly all), and listing all their steps only to run them dense cost
// 2-3 % of such a product; a tile with an eighth of its steps zero, in no order, shows none in
// its first 64 once in 5000. Other tiles list their steps (nonzero_steps), once.
static inline int VK_SUFFIX(dense_by_sample)(const float *a, size_t as, size_t mr, size_t k) {
    typedef VK_SUFFIX(vk_vbits) vbits;
    if (k <= VK_SKIP_SAMPLE) return 0;
    const float *rows[VK_MR];
    VK_SUFFIX(tile_rows)(a, as, mr, rows);
    vbits zero = (vbits)(0u);
    VK_UNROLL for (size_t j = 0; j < VK_SKIP_SAMPLE; j += VK_LANES) {
        vbits bits;
        VK_SUFFIX(step_bits)(rows, j, &bits);
        zero |= (vbits)(bits == 0);
    }
    return !__builtin_reduce_or(zero);
}

static inline __attribute__((always_inline)) void VK_SUFFIX(gemm_rows)(vk_gemm_shape shape, const float *packed,
                                                                       const float *a, size_t a_stride, float *c,
                                                                       size_t c_stride, size_t row_begin,
                                                                       size_t row_end, size_t panel_begin,
                                                                       size_t panel_end, float lo, float hi,
                                                                       uint32_t *ks) {
    // Main-width panels, for a row left over (gemm_row_panels).
    const size_t width = vk_gemm_main_width(shape.isa), main = shape.n / width;
#ifdef VK_W8_PAIRED
    // Whether the last panel (the narrowest) is 8 wide: decided once, not per tile (the face
    // landmark model's 8 → 16 products, 8 steps a tile, ran 2-3 % slower with the test per tile).
    const int last_w8 = panel_begin < panel_end && vk_gemm_panel(shape, panel_end - 1).width == 8;
#endif
    for (size_t row = row_begin; row < row_end; row += VK_MR) {
        size_t mr = row_end - row < VK_MR ? row_end - row : VK_MR;
        const float *ar = a + row * a_stride;
        float *cr = c + row * c_stride;
        // The steps this tile runs, listed in `ks` when fewer than k. The step-list kernel is
        // slower per step than the dense one: worth it only when it leaves out at least an eighth
        // of the steps.
        size_t count = shape.k;
        if (ks && !VK_SUFFIX(dense_by_sample)(ar, a_stride, mr, shape.k)) {
            count = VK_SUFFIX(nonzero_steps)(ar, a_stride, mr, shape.k, ks);
            if (count > shape.k - shape.k / 8) count = shape.k;
        }
#ifdef VK_W8_PAIRED
        // Two whole tiles at a time where the last panel (the narrowest) is 8 wide and both run
        // dense: that panel in one call of twice the rows, the others tile by tile. Every output
        // is the same sum in the same order, whatever the tile.
        if (last_w8 && row + 2 * VK_MR <= row_end && count == shape.k &&
            (!ks || VK_SUFFIX(dense_by_sample)(ar + VK_MR * a_stride, a_stride, VK_MR, shape.k))) {
            for (size_t p = panel_begin; p < panel_end; p++) {
                vk_panel panel = vk_gemm_panel(shape, p);
                const size_t nc = vk_gemm_panel_stored(shape, panel);
                const float *w = packed + panel.offset;
                if (panel.width == 8) {
                    VK_SUFFIX(gemm_w8_paired)(2 * VK_MR, shape.k, ar, a_stride, w, cr + panel.column, c_stride, nc, lo,
                                              hi);
                    continue;
                }
                for (size_t half = 0; half < 2; half++)
                    VK_CALL_TILE(gemm, VK_MR, panel.width,
                                 (VK_MR, shape.k, ar + half * VK_MR * a_stride, a_stride, w,
                                  cr + half * VK_MR * c_stride + panel.column, c_stride, nc, lo, hi))
            }
            row += VK_MR;
            continue;
        }
#endif
        size_t p = panel_begin;
        if (mr == 1 && count == shape.k && width == VK_MAIN_VECTORS * VK_LANES) {
            // A single row with every step: whole main-width panels VK_ROW_PANELS at a time (they
            // come first, each (k + 1) × width floats after the one before: gemm_layout.h).
            for (; p + VK_ROW_PANELS <= panel_end && p + VK_ROW_PANELS <= main; p += VK_ROW_PANELS) {
                const vk_panel panel = vk_gemm_panel(shape, p);
                VK_SUFFIX(gemm_row_panels)(shape.k, ar, packed + panel.offset, (shape.k + 1) * width,
                                           cr + panel.column, lo, hi);
            }
        }
        for (; p < panel_end; p++) {
            vk_panel panel = vk_gemm_panel(shape, p);
            const size_t nc = vk_gemm_panel_stored(shape, panel);
            const float *w = packed + panel.offset;
            if (count < shape.k)
                VK_CALL_TILE(skip, mr, panel.width,
                             (mr, ks, count, ar, a_stride, w, cr + panel.column, c_stride, nc, lo, hi))
            else
                VK_CALL_TILE(gemm, mr, panel.width,
                             (mr, shape.k, ar, a_stride, w, cr + panel.column, c_stride, nc, lo, hi))
        }
    }
}

VK_ALIGNED
void VK_SUFFIX(vk_gemm_run)(vk_gemm_shape shape, const float *packed, const float *a, size_t a_stride, float *c,
                            size_t c_stride, size_t row_begin, size_t row_end, size_t panel_begin,
                            size_t panel_end, float lo, float hi) {
    VK_SUFFIX(gemm_rows)(shape, packed, a, a_stride, c, c_stride, row_begin, row_end, panel_begin, panel_end, lo, hi,
                         NULL);
}

VK_ALIGNED
void VK_SUFFIX(vk_gemm_run_skipping_zeros)(vk_gemm_shape shape, const float *packed, const float *a,
                                           size_t a_stride, float *c, size_t c_stride, size_t row_begin,
                                           size_t row_end, size_t panel_begin, size_t panel_end, float lo,
                                           float hi) {
    uint32_t ks[VK_SKIP_MAX_K + 16 + VK_SKIP_AHEAD_L2];
    VK_SUFFIX(gemm_rows)(shape, packed, a, a_stride, c, c_stride, row_begin, row_end, panel_begin, panel_end, lo, hi,
                         shape.k <= VK_SKIP_MAX_K ? ks : NULL);
}

// Output columns [*lo, *hi) whose undilated window of KW columns at stride `stride` lies wholly
// inside an input row of W columns after `pad_left` columns of padding (an empty range where none
// does): the columns whose taps need no bounds.
static inline void VK_SUFFIX(inside_columns)(size_t W, size_t pad_left, size_t KW, size_t stride, size_t OW,
                                             size_t *lo, size_t *hi) {
    *lo = (pad_left + stride - 1) / stride;
    *hi = W + pad_left >= KW ? (W + pad_left - KW) / stride + 1 : 0;
    if (*hi > OW) *hi = OW;
    if (*lo > *hi) *lo = *hi;
}

// MARK: Depthwise convolution

// Input row `iy` from channel `c` on: a row outside the input reads the zero row.
static inline const float *VK_SUFFIX(dw_input_row)(const vk_dwconv *p, ptrdiff_t iy, size_t c) {
    if (iy < 0 || iy >= (ptrdiff_t)p->input_height) return p->zeros + c;
    return p->input + (size_t)(iy - (ptrdiff_t)p->input_row_offset) * p->input_width * p->channels + c;
}

// One output pixel, any window: taps outside the input columns are skipped; rows outside the
// input read `rows[ky]`, which then points at zeros. Channels [c_begin, c_end).
VK_ALIGNED
static void VK_SUFFIX(dw_pixel)(const vk_dwconv *p, const float *const *rows, size_t ox, size_t c_begin, size_t c_end,
                                float *out) {
    const size_t C = p->channels, KH = p->kernel_height, KW = p->kernel_width;
    const ptrdiff_t ix0 = (ptrdiff_t)(ox * p->stride_w) - (ptrdiff_t)p->pad_left;
    const float *bias = p->weights + KH * KW * C;
    size_t kx_lo = 0, kx_hi = KW;
    while (kx_lo < KW && ix0 + (ptrdiff_t)(kx_lo * p->dilation_w) < 0) kx_lo++;
    while (kx_hi > kx_lo && ix0 + (ptrdiff_t)((kx_hi - 1) * p->dilation_w) >= (ptrdiff_t)p->input_width) kx_hi--;
    for (size_t c = c_begin; c < c_end; c++) {
        vk_h acc = (vk_h)(bias[c]);
        // Taps column by column (kx outer, ky inner), one fused multiply-add each after the bias:
        // XNNPACK's order (src/indirection.c, xnn_indirection_init_dwconv2d_compressed: tap index
        // kernel_x * kernel_height + kernel_y; src/f32-dwconv/gen/f32-dwconv-9p16c-minmax-avx512f.c).
        for (size_t kx = kx_lo; kx < kx_hi; kx++)
            for (size_t ky = 0; ky < KH; ky++)
                acc = VK_FMA((vk_h)(rows[ky][(size_t)(ix0 + (ptrdiff_t)(kx * p->dilation_w)) * C + c]),
                             (vk_h)(p->weights[(ky * KW + kx) * C + c]), acc);
        acc = VK_MINH((vk_h)(p->hi), VK_MAXH((vk_h)(p->lo), acc));
        out[c] = acc[0];
    }
}

// Channels [c, c + L) of output rows [row_begin, row_end) for a fixed window (inlined with
// constant KH and KW; dilation 1): the block's weights stay in registers over all the pixels.
// Every path adds the taps in XNNPACK's order, window column by window column (see dw_pixel).
// Output columns go in groups of VK_DW_PIXELS: adjacent pixels share the input vectors they
// read, and their sums are independent chains of multiply-adds, so the group runs at the
// multiply-add units' throughput rather than at one pixel's latency. A row's last group has
// only the pixels left (7- and 14-pixel rows would otherwise compute one or two pixels for
// nothing). Window rows outside the input read the zero row; a group that reaches past the
// input columns (the first and last groups of a row, every group of a narrow layer) reads
// zeros there too, as XNNPACK's indirection does with its zero buffer.
/// Output pixels per step of the fixed-window depthwise kernel.
#define VK_DW_PIXELS 4
/// Output pixels per step of a pair of rows (VK_DW_GROUP2). Four by default, for 16 vector
/// registers (AVX2, and NEON's 32 halves): eight sums, the five weights of a 5×5 window column
/// and an input vector. The AVX-512 build defines three: its 32 registers then hold a 5×5
/// window's 25 weights beside six sums, and four (eight sums) spill them.
#ifndef VK_DW_PAIR_PIXELS
#define VK_DW_PAIR_PIXELS 4
#endif
/// Whether windows KW wide go two rows at a time. 5×5 only by default: with 16 registers the
/// 3×3 pairs were 3-6 % slower than one row (which reads each input vector once and keeps the
/// nine weights in registers). The AVX-512 build pairs 3×3 windows too.
#ifndef VK_DW_PAIRS
#define VK_DW_PAIRS(KW) ((KW) == 5)
#endif

// One group of P output pixels (P constant after inlining) at column `ox` of one output row.
// A 5×5 window goes tap by tap, each tap over the group's pixels with its input vector read
// by the multiply-add: every step has P independent sums, where going input column by input
// column starts and ends with a single sum (the first and last columns reach one pixel). On
// this Zen 4 that is 6-10 % faster per layer; a 3×3 window, whose 3-column ramps are short,
// keeps the column order, which reads each input vector once (3 % faster with AVX2).
#define VK_DW_GROUP(NAME, T, LOAD, STORE, MAXF, MINF)                                                          \
    static inline __attribute__((always_inline)) void NAME(                                                     \
        size_t KH, size_t SW, size_t P, int inside, const float *const *in, const float *zeros, ptrdiff_t ix0,  \
        size_t C, size_t W, const T *w, const T *bounds, float *out) {                                          \
        T acc[VK_DW_PIXELS];                                                                                    \
        for (size_t q = 0; q < P; q++) acc[q] = bounds[0];                                                      \
        _Pragma("clang loop unroll(full)")                                                                      \
        for (size_t kx = 0; kx < 5; kx++)                                                                       \
            _Pragma("clang loop unroll(full)")                                                                  \
            for (size_t ky = 0; ky < KH; ky++)                                                                  \
                _Pragma("clang loop unroll(full)")                                                              \
                for (size_t q = 0; q < P; q++) {                                                                \
                    const ptrdiff_t ix = ix0 + (ptrdiff_t)(q * SW + kx);                                        \
                    const float *x = inside || (ix >= 0 && ix < (ptrdiff_t)W) ? in[ky] + (size_t)ix * C : zeros; \
                    acc[q] = VK_FMA(LOAD(x), w[ky * 5 + kx], acc[q]);                                           \
                }                                                                                               \
        for (size_t q = 0; q < P; q++) STORE(out + q * C, MINF(bounds[2], MAXF(bounds[1], acc[q])));            \
    }

// The same group for two adjacent output rows (SW is then the vertical stride too). The two
// windows share KH - SW input rows, so an input vector read from a shared row feeds one
// multiply-add of each row. Each sum still adds its taps column by column in XNNPACK's order;
// only the two rows' sums interleave. A 5×5 window at stride 1, per column and four pixels:
// 24 input and 5 weight loads for 40 multiply-adds, where one row at a time reads 20 inputs
// and, with AVX2's 16 registers, reloads its 5 weights for 20 (0.7 loads per multiply-add
// against 1.25); and 2P independent sums hide the multiply-add latency.
#define VK_DW_GROUP2(NAME, T, LOAD, STORE, MAXF, MINF)                                                         \
    static inline __attribute__((always_inline)) void NAME(                                                     \
        size_t KH, size_t KW, size_t SW, size_t P, int inside, const float *const *in, const float *zeros,      \
        ptrdiff_t ix0, size_t C, size_t W, const T *w, const T *bounds, float *out, float *out_next) {          \
        T acc[VK_DW_PAIR_PIXELS], acc_next[VK_DW_PAIR_PIXELS];                                                            \
        for (size_t q = 0; q < P; q++) acc[q] = acc_next[q] = bounds[0];                                        \
        _Pragma("clang loop unroll(full)")                                                                      \
        for (size_t kx = 0; kx < KW; kx++)                                                                      \
            _Pragma("clang loop unroll(full)")                                                                  \
            for (size_t r = 0; r < KH + SW; r++)                                                                \
                _Pragma("clang loop unroll(full)")                                                              \
                for (size_t q = 0; q < P; q++) {                                                                \
                    const ptrdiff_t ix = ix0 + (ptrdiff_t)(q * SW + kx);                                        \
                    const float *x = inside || (ix >= 0 && ix < (ptrdiff_t)W) ? in[r] + (size_t)ix * C : zeros; \
                    const T v = LOAD(x);                                                                        \
                    if (r < KH) acc[q] = VK_FMA(v, w[r * KW + kx], acc[q]);                                     \
                    if (r >= SW) acc_next[q] = VK_FMA(v, w[(r - SW) * KW + kx], acc_next[q]);                   \
                }                                                                                               \
        for (size_t q = 0; q < P; q++) STORE(out + q * C, MINF(bounds[2], MAXF(bounds[1], acc[q])));            \
        for (size_t q = 0; q < P; q++) STORE(out_next + q * C, MINF(bounds[2], MAXF(bounds[1], acc_next[q])));  \
    }

// One call of the block below's group function for one row or a pair of rows, P pixels from
// column `ox`.
#define VK_DW_ROW_STEP(GROUP, P, INSIDE) GROUP(KH, SW, P, INSIDE, in, zeros, ix0, C, W, w, bounds, out + ox * C)
#define VK_DW_PAIR_STEP(GROUP2, P, INSIDE) \
    GROUP2(KH, KW, SW, P, INSIDE, in2, zeros, ix0, C, W, w, bounds, out + ox * C, next + ox * C)

// The groups of an output row (or pair of rows) in the block below: P pixels at a time, as
// STEP(GROUP, P, 1) inside the input columns and STEP(GROUP, P, 0) at their edges, then the
// fewer than P pixels left.
#define VK_DW_GROUPS(P, STEP, GROUP)                                                                            \
    {                                                                                                           \
        size_t ox = 0;                                                                                          \
        for (; ox + (P) <= OW; ox += (P)) {                                                                     \
            const ptrdiff_t ix0 = (ptrdiff_t)(ox * SW) - (ptrdiff_t)p->pad_left;                                \
            if (ox >= inner_lo && ox + (P) <= inner_hi) STEP(GROUP, P, 1);                                      \
            else STEP(GROUP, P, 0);                                                                             \
        }                                                                                                       \
        const ptrdiff_t ix0 = (ptrdiff_t)(ox * SW) - (ptrdiff_t)p->pad_left;                                    \
        switch (OW - ox) {                                                                                      \
        case 3: if (3 < (P)) STEP(GROUP, 3, 0); break;                                                          \
        case 2: if (2 < (P)) STEP(GROUP, 2, 0); break;                                                          \
        case 1: STEP(GROUP, 1, 0); break;                                                                       \
        default: break;                                                                                         \
        }                                                                                                       \
    }

#define VK_DW_BLOCK(NAME, GROUP, GROUP2, T, LOAD, STORE, MAXF, MINF)                                           \
    VK_DW_GROUP(GROUP, T, LOAD, STORE, MAXF, MINF)                                                             \
    VK_DW_GROUP2(GROUP2, T, LOAD, STORE, MAXF, MINF)                                                           \
    static inline __attribute__((always_inline)) void NAME(const vk_dwconv *p, size_t KH, size_t KW, size_t SW, \
                                                           size_t c, size_t row_begin, size_t row_end,         \
                                                           size_t inner_lo, size_t inner_hi) {                 \
        const size_t C = p->channels, W = p->input_width, OW = p->output_width;                                 \
        /* Fixed sizes (KH, KW <= 5): a variable-length array stays on the stack after inlining. */     \
        T w[25];                                                                                                \
        for (size_t t = 0; t < KH * KW; t++) w[t] = LOAD(p->weights + t * C + c);                               \
        /* The bias, then the clamp's bounds (passed by address: vectors by value change the ABI). */          \
        const T bounds[3] = {LOAD(p->weights + KH * KW * C + c), (T)(p->lo), (T)(p->hi)};                       \
        const float *zeros = p->zeros + c;                                                                      \
        for (size_t oy = row_begin; oy < row_end; oy++) {                                                       \
            const ptrdiff_t iy0 = (ptrdiff_t)(oy * p->stride_h) - (ptrdiff_t)p->pad_top;                         \
            if (VK_DW_PAIRS(KW) && p->stride_h == SW && oy + 1 < row_end) {                                     \
                /* Two output rows from their windows' KH + SW input rows (at most 5 + 2). */                   \
                const float *in2[7];                                                                            \
                for (size_t r = 0; r < KH + SW; r++) in2[r] = VK_SUFFIX(dw_input_row)(p, iy0 + (ptrdiff_t)r, c); \
                float *out = p->output + (oy - p->output_row_offset) * OW * C + c, *next = out + OW * C;        \
                VK_DW_GROUPS(VK_DW_PAIR_PIXELS, VK_DW_PAIR_STEP, GROUP2)                                        \
                oy++;                                                                                           \
                continue;                                                                                       \
            }                                                                                                   \
            const float *in[5];                                                                                 \
            for (size_t ky = 0; ky < KH; ky++)                                                                  \
                in[ky] = VK_SUFFIX(dw_input_row)(p, iy0 + (ptrdiff_t)(ky * p->dilation_h), c);                  \
            float *out = p->output + (oy - p->output_row_offset) * OW * C + c;                                  \
            if (KW == 5) {                                                                                      \
                VK_DW_GROUPS(VK_DW_PIXELS, VK_DW_ROW_STEP, GROUP)                                               \
                continue;                                                                                       \
            }                                                                                                   \
            for (size_t ox = 0; ox < OW; ox += VK_DW_PIXELS) {                                                  \
                T acc[VK_DW_PIXELS];                                                                            \
                for (size_t q = 0; q < VK_DW_PIXELS; q++) acc[q] = bounds[0];                                   \
                const ptrdiff_t ix0 = (ptrdiff_t)(ox * SW) - (ptrdiff_t)p->pad_left;                             \
                if (ox >= inner_lo && ox + VK_DW_PIXELS <= inner_hi) {                                          \
                    /* Inside the input columns. The loops are unrolled explicitly: at -O2 clang */            \
                    /* otherwise keeps the column-major order rolled and runs it at half speed. */             \
                    _Pragma("clang loop unroll(full)")                                                          \
                    for (size_t j = 0; j < (VK_DW_PIXELS - 1) * SW + KW; j++) {                                 \
                        _Pragma("clang loop unroll(full)")                                                      \
                        for (size_t ky = 0; ky < KH; ky++) {                                                    \
                            T x = LOAD(in[ky] + (size_t)(ix0 + (ptrdiff_t)j) * C);                              \
                            _Pragma("clang loop unroll(full)")                                                  \
                            for (size_t q = 0; q < VK_DW_PIXELS; q++)                                           \
                                if (j >= q * SW && j - q * SW < KW) acc[q] = VK_FMA(x, w[ky * KW + j - q * SW], acc[q]); \
                        }                                                                                       \
                    }                                                                                           \
                } else {                                                                                        \
                    /* Columns outside the input read the zero row. */                                         \
                    _Pragma("clang loop unroll(full)")                                                          \
                    for (size_t j = 0; j < (VK_DW_PIXELS - 1) * SW + KW; j++) {                                 \
                        const ptrdiff_t ix = ix0 + (ptrdiff_t)j;                                                \
                        const int inside = ix >= 0 && ix < (ptrdiff_t)W;                                        \
                        _Pragma("clang loop unroll(full)")                                                      \
                        for (size_t ky = 0; ky < KH; ky++) {                                                    \
                            T x = LOAD(inside ? in[ky] + (size_t)ix * C : zeros);                               \
                            _Pragma("clang loop unroll(full)")                                                  \
                            for (size_t q = 0; q < VK_DW_PIXELS; q++)                                           \
                                if (j >= q * SW && j - q * SW < KW) acc[q] = VK_FMA(x, w[ky * KW + j - q * SW], acc[q]); \
                        }                                                                                       \
                    }                                                                                           \
                }                                                                                               \
                for (size_t q = 0; q < VK_DW_PIXELS; q++)                                                       \
                    if (ox + q < OW) STORE(out + (ox + q) * C, MINF(bounds[2], MAXF(bounds[1], acc[q])));       \
            }                                                                                                   \
        }                                                                                                       \
    }

VK_DW_BLOCK(VK_SUFFIX(dw_block), VK_SUFFIX(dw_group), VK_SUFFIX(dw_group2), vk_v, VK_LOAD, VK_STORE, VK_MAX, VK_MIN)
#if VK_LANES == 16
VK_DW_BLOCK(VK_SUFFIX(dw_block_h), VK_SUFFIX(dw_group_h), VK_SUFFIX(dw_group2_h), vk_h, VK_LOADH, VK_STOREH, VK_MAXH, VK_MINH)
#endif
VK_DW_BLOCK(VK_SUFFIX(dw_block_q), VK_SUFFIX(dw_group_q), VK_SUFFIX(dw_group2_q), VK_SUFFIX(vk_q), VK_LOADQ, VK_STOREQ, VK_SELMAX, VK_SELMIN)
VK_DW_BLOCK(VK_SUFFIX(dw_block_1), VK_SUFFIX(dw_group_1), VK_SUFFIX(dw_group2_1), float, VK_LOAD1, VK_STORE1, VK_SELMAX, VK_SELMIN)

#ifdef VK_DW_DUAL
// Two vectors of channels (c and c + VK_LANES) of one group of P output pixels, tap by tap in
// XNNPACK's order (window column by window column): eight sums instead of the block above's
// four, the weights read per tap (two loads for eight multiply-adds) instead of held in
// registers, and each 64-byte line of input used whole. For AVX2's stride-2 windows, whose
// groups read twice the input columns and share few of them (kernel_timing.sh:
// dw3x3s2-112x112x64 0.150 -> 0.125-0.139 ms, dw5x5s2-14x14x672 0.051 -> 0.046-0.049). At
// stride 1 the block above, which reads each input vector once for up to three pixels, stays
// faster (dw3x3-56x56x144 0.152 -> 0.175 this way).
static inline __attribute__((always_inline)) void VK_SUFFIX(dw_group_dual)(
    size_t KH, size_t KW, size_t SW, size_t P, int inside, const float *const *in, const float *zeros, ptrdiff_t ix0,
    size_t C, size_t W, const float *w, const vk_v *bounds, float *out) {
    vk_v acc[VK_DW_PIXELS], acc2[VK_DW_PIXELS];
    for (size_t q = 0; q < P; q++) acc[q] = bounds[0], acc2[q] = bounds[1];
    VK_UNROLL for (size_t kx = 0; kx < KW; kx++) VK_UNROLL for (size_t ky = 0; ky < KH; ky++) {
            const float *t = w + (ky * KW + kx) * C;
            const vk_v w0 = VK_LOAD(t), w1 = VK_LOAD(t + VK_LANES);
            VK_UNROLL for (size_t q = 0; q < P; q++) {
                const ptrdiff_t ix = ix0 + (ptrdiff_t)(q * SW + kx);
                const float *x = inside || (ix >= 0 && ix < (ptrdiff_t)W) ? in[ky] + (size_t)ix * C : zeros;
                acc[q] = VK_FMA(VK_LOAD(x), w0, acc[q]);
                acc2[q] = VK_FMA(VK_LOAD(x + VK_LANES), w1, acc2[q]);
            }
        }
    for (size_t q = 0; q < P; q++) {
        VK_STORE(out + q * C, VK_MIN(bounds[3], VK_MAX(bounds[2], acc[q])));
        VK_STORE(out + q * C + VK_LANES, VK_MIN(bounds[3], VK_MAX(bounds[2], acc2[q])));
    }
}

#define VK_DW_DUAL_STEP(GROUP, P, INSIDE) GROUP(KH, KW, SW, P, INSIDE, in, zeros, ix0, C, W, w, bounds, out + ox * C)

// Channels [c, c + 2 * VK_LANES) of output rows [row_begin, row_end), one row at a time.
static inline __attribute__((always_inline)) void VK_SUFFIX(dw_block_dual)(const vk_dwconv *p, size_t KH, size_t KW,
                                                                           size_t SW, size_t c, size_t row_begin,
                                                                           size_t row_end, size_t inner_lo,
                                                                           size_t inner_hi) {
    const size_t C = p->channels, W = p->input_width, OW = p->output_width;
    const float *w = p->weights + c, *bias = p->weights + KH * KW * C + c;
    const vk_v bounds[4] = {VK_LOAD(bias), VK_LOAD(bias + VK_LANES), (vk_v)(p->lo), (vk_v)(p->hi)};
    const float *zeros = p->zeros + c;
    for (size_t oy = row_begin; oy < row_end; oy++) {
        const ptrdiff_t iy0 = (ptrdiff_t)(oy * p->stride_h) - (ptrdiff_t)p->pad_top;
        const float *in[5];
        for (size_t ky = 0; ky < KH; ky++)
            in[ky] = VK_SUFFIX(dw_input_row)(p, iy0 + (ptrdiff_t)(ky * p->dilation_h), c);
        float *out = p->output + (oy - p->output_row_offset) * OW * C + c;
        VK_DW_GROUPS(VK_DW_PIXELS, VK_DW_DUAL_STEP, VK_SUFFIX(dw_group_dual))
    }
}
#endif

// Channels [c_begin, c_end) of rows [row_begin, row_end) for a fixed undilated KH x KW window.
static inline __attribute__((always_inline)) void VK_SUFFIX(dw_fixed)(const vk_dwconv *p, size_t KH, size_t KW,
                                                                      size_t SW, size_t row_begin, size_t row_end,
                                                                      size_t c_begin, size_t c_end) {
    // Output columns whose window lies inside the input columns.
    size_t lo, hi;
    VK_SUFFIX(inside_columns)(p->input_width, p->pad_left, KW, SW, p->output_width, &lo, &hi);
    size_t c = c_begin;
#ifdef VK_DW_DUAL
    if (VK_DW_DUAL(KW, SW))
        for (; c + 2 * VK_LANES <= c_end; c += 2 * VK_LANES)
            VK_SUFFIX(dw_block_dual)(p, KH, KW, SW, c, row_begin, row_end, lo, hi);
#endif
    for (; c + VK_LANES <= c_end; c += VK_LANES) VK_SUFFIX(dw_block)(p, KH, KW, SW, c, row_begin, row_end, lo, hi);
#if VK_LANES == 16
    for (; c + 8 <= c_end; c += 8) VK_SUFFIX(dw_block_h)(p, KH, KW, SW, c, row_begin, row_end, lo, hi);
#endif
    for (; c + 4 <= c_end; c += 4) VK_SUFFIX(dw_block_q)(p, KH, KW, SW, c, row_begin, row_end, lo, hi);
    for (; c < c_end; c++) VK_SUFFIX(dw_block_1)(p, KH, KW, SW, c, row_begin, row_end, lo, hi);
}

// Each window and stride compiled on its own: inlined side by side into one function, their
// loops' register allocation interfered.
#define VK_DW_FIXED(K, S)                                                                                       \
    VK_ALIGNED                                                                                                         \
    static __attribute__((noinline)) void VK_SUFFIX(dw_fixed_##K##x##K##s##S)(                                         \
        const vk_dwconv *p, size_t row_begin, size_t row_end, size_t c_begin, size_t c_end) {                  \
        VK_SUFFIX(dw_fixed)(p, K, K, S, row_begin, row_end, c_begin, c_end);                                    \
    }
VK_DW_FIXED(3, 1)
VK_DW_FIXED(3, 2)
VK_DW_FIXED(5, 1)
VK_DW_FIXED(5, 2)
#undef VK_DW_FIXED

VK_ALIGNED
void VK_SUFFIX(vk_dwconv_run)(const vk_dwconv *p, size_t row_begin, size_t row_end, size_t c_begin, size_t c_end) {
    const size_t C = p->channels, W = p->input_width, KH = p->kernel_height, KW = p->kernel_width;
    if (c_end > C) c_end = C;
    if (p->dilation_w == 1 && (p->stride_w == 1 || p->stride_w == 2) && ((KH == 3 && KW == 3) || (KH == 5 && KW == 5))) {
        // Bands of output rows whose input rows fit the per-core cache: every channel block of
        // a band reads the same input rows.
        const size_t row_bytes = W * C * sizeof(float) * p->stride_h;
        size_t band = row_bytes > 0 ? (128 * 1024) / row_bytes : 1;
        if (band < 1) band = 1;
        // Windows that go two rows at a time (VK_DW_GROUP2): an even band pairs all its rows.
        if (VK_DW_PAIRS(KW) && p->stride_h == p->stride_w) band += band & 1;
        for (size_t r = row_begin; r < row_end; r += band) {
            size_t end = r + band < row_end ? r + band : row_end;
            if (KH == 3 && p->stride_w == 1) VK_SUFFIX(dw_fixed_3x3s1)(p, r, end, c_begin, c_end);
            else if (KH == 3) VK_SUFFIX(dw_fixed_3x3s2)(p, r, end, c_begin, c_end);
            else if (p->stride_w == 1) VK_SUFFIX(dw_fixed_5x5s1)(p, r, end, c_begin, c_end);
            else VK_SUFFIX(dw_fixed_5x5s2)(p, r, end, c_begin, c_end);
        }
        return;
    }
    const float *rows[32];
    if (KH > 32) return;  // rejected by the caller; keeps `rows` in bounds
    for (size_t oy = row_begin; oy < row_end; oy++) {
        const ptrdiff_t iy0 = (ptrdiff_t)(oy * p->stride_h) - (ptrdiff_t)p->pad_top;
        for (size_t ky = 0; ky < KH; ky++) {
            rows[ky] = VK_SUFFIX(dw_input_row)(p, iy0 + (ptrdiff_t)(ky * p->dilation_h), 0);
        }
        for (size_t ox = 0; ox < p->output_width; ox++)
            VK_SUFFIX(dw_pixel)(p, rows, ox, c_begin, c_end,
                                p->output + ((oy - p->output_row_offset) * p->output_width + ox) * C);
    }
}

// MARK: Convolution as dot products (few output channels)

// Output `o` of one pixel: the bias, then one fused multiply-add per window tap (row by row,
// column by column) and channel, in that order — XNNPACK's igemm order (src/indirection.c,
// xnn_indirection_init_conv2d: tap index kernel_y * kernel_width + kernel_x; the f32 gemm/igemm
// micro-kernels start from the bias and add k in sequence) — then clamp. Window rows outside
// the input read zeros; columns outside it are skipped.
#define VK_DOT_PIXEL(OUT, KX_LO, KX_HI)                                                                  \
    for (size_t o = 0; o < n; o++) {                                                                     \
        const float *w = filter + o * K;                                                                 \
        vk_h acc = (vk_h)(bias ? bias[o] : 0.0f);                                                        \
        for (size_t ky = 0; ky < KH; ky++)                                                               \
            for (size_t kx = (KX_LO); kx < (KX_HI); kx++) {                                              \
                const float *x = rows[ky] + (size_t)(ix0 + (ptrdiff_t)(kx * g->dilation_w)) * C;          \
                const float *wt = w + (ky * KW + kx) * C;                                                \
                for (size_t c = 0; c < C; c++) acc = VK_FMA((vk_h)(x[c]), (vk_h)(wt[c]), acc);            \
            }                                                                                            \
        float sum = acc[0];                                                                              \
        sum = sum < lo ? lo : sum;                                                                       \
        (OUT)[o] = sum > hi ? hi : sum;                                                                  \
    }

VK_ALIGNED
void VK_SUFFIX(vk_conv_dot)(const vk_conv_geometry *g, const float *filter, const float *bias, size_t n, float *output,
                            size_t pixel, size_t count, float lo, float hi, const float *zeros) {
    const size_t C = g->channels, KH = g->kernel_height, KW = g->kernel_width, K = KH * KW * C;
    const size_t W = g->input_width, OW = g->output_width, sw = g->stride_w, per_image = g->output_height * OW;
    const int dilated = g->dilation_w != 1;
    // Interior columns (whole window inside the input), for undilated windows.
    size_t inner_lo, inner_hi;
    VK_SUFFIX(inside_columns)(W, g->pad_left, KW, sw, OW, &inner_lo, &inner_hi);
    if (dilated) inner_lo = inner_hi = 0;
    const float *rows[32];
    if (KH > 32) return;  // rejected by the caller; keeps `rows` in bounds
    size_t m = pixel, end = pixel + count;
    while (m < end) {
        // One output row segment: image b, row oy, columns [ox, ox_end).
        size_t b = m / per_image, oy = m % per_image / OW, ox = m % OW;
        size_t ox_end = ox + (end - m < OW - ox ? end - m : OW - ox);
        const float *image = g->input + b * g->input_height * W * C;
        ptrdiff_t iy0 = (ptrdiff_t)(oy * g->stride_h) - (ptrdiff_t)g->pad_top;
        for (size_t ky = 0; ky < KH; ky++) {
            ptrdiff_t iy = iy0 + (ptrdiff_t)(ky * g->dilation_h);
            rows[ky] = iy >= 0 && iy < (ptrdiff_t)g->input_height ? image + (size_t)iy * W * C : zeros;
        }
        float *out = output + (m - pixel) * n;
        for (; ox < ox_end; ox++, out += n, m++) {
            ptrdiff_t ix0 = (ptrdiff_t)(ox * sw) - (ptrdiff_t)g->pad_left;
            if (ox >= inner_lo && ox < inner_hi) {
                VK_DOT_PIXEL(out, 0, KW)
            } else {
                size_t kx_lo = 0, kx_hi = KW;
                while (kx_lo < KW && ix0 + (ptrdiff_t)(kx_lo * g->dilation_w) < 0) kx_lo++;
                while (kx_hi > kx_lo && ix0 + (ptrdiff_t)((kx_hi - 1) * g->dilation_w) >= (ptrdiff_t)W) kx_hi--;
                VK_DOT_PIXEL(out, kx_lo, kx_hi)
            }
        }
    }
}

// MARK: Element-wise

// Channels [c, END) of every pixel, L at a time while they fit, each vector position over all
// the pixels (strides C and bc): out = prelu(clamp(a + y)) with y = b[c] below `bc` and +0 from
// it on (a channel PAD folded in: -0 + +0 is +0, as the padded ADD gives), prelu skipped when
// `alpha` is NULL.
#define VK_ADD_RANGE(T, L, LOAD, STORE, MAXF, MINF, END, WITH_B)                                     \
    for (; c + L <= (END); c += L) {                                                                 \
        const T slope = alpha ? LOAD(alpha + c) : (T)(0.0f);                                         \
        for (size_t p = 0; p < pixels; p++) {                                                        \
            T x = LOAD(a + p * C + c) + ((WITH_B) ? LOAD(b + p * bc + c) : (T)(0.0f));              \
            x = MINF((T)(hi), MAXF((T)(lo), x));                                                     \
            if (alpha) {                                                                             \
                T s = x * slope;                                                                     \
                x = x >= (T)(0.0f) ? x : s;                                                          \
            }                                                                                        \
            STORE(out + p * C + c, x);                                                               \
        }                                                                                            \
    }

// Channels [c, END) in vectors of every width, then single floats.
#if VK_LANES == 16
#define VK_ADD_HALF_RANGE(END, WITH_B) VK_ADD_RANGE(vk_h, 8, VK_LOADH, VK_STOREH, VK_MAXH, VK_MINH, END, WITH_B)
#else
#define VK_ADD_HALF_RANGE(END, WITH_B)
#endif
#define VK_ADD_CHANNELS(END, WITH_B)                                                                 \
    VK_ADD_RANGE(vk_v, VK_LANES, VK_LOAD, VK_STORE, VK_MAX, VK_MIN, END, WITH_B)                     \
    VK_ADD_HALF_RANGE(END, WITH_B)                                                                   \
    VK_ADD_RANGE(VK_SUFFIX(vk_q), 4, VK_LOADQ, VK_STOREQ, VK_SELMAX, VK_SELMIN, END, WITH_B)         \
    for (; c < (END); c++) {                                                                         \
        for (size_t p = 0; p < pixels; p++) {                                                        \
            float x = a[p * C + c] + ((WITH_B) ? b[p * bc + c] : 0.0f);                              \
            x = VK_SELMIN(hi, VK_SELMAX(lo, x));                                                     \
            if (alpha && x < 0.0f) x = x * alpha[c];                                                 \
            out[p * C + c] = x;                                                                      \
        }                                                                                            \
    }

// Pixels of different widths (the residual's `bc` channels, then zeros up to C), or with
// per-channel slopes: the channels the residual has, then the rest, each range from its own
// first channel in the widest vectors that fit, each vector position over all the pixels.
static inline __attribute__((always_inline)) void VK_SUFFIX(add_pixels_by_channel)(
    const float *a, const float *b, size_t bc, float *out, size_t pixels, size_t C, float lo, float hi,
    const float *alpha) {
    const size_t shared = bc < C ? bc : C;
    size_t c = 0;
    VK_ADD_CHANNELS(shared, 1)
    VK_ADD_CHANNELS(C, 0)
}

#ifdef VK_MASK_LOAD
// The same with masked vectors (an instruction set that has them): each vector position of the
// pixels is one vector, its lanes past C left alone and the residual's past `bc` read as +0.
static inline __attribute__((always_inline)) void VK_SUFFIX(add_pixels_masked)(
    const float *a, const float *b, size_t bc, float *out, size_t pixels, size_t C, float lo, float hi,
    const float *alpha) {
    const vk_v vlo = (vk_v)(lo), vhi = (vk_v)(hi);
    for (size_t c = 0; c < C; c += VK_LANES) {
        const size_t n = C - c < VK_LANES ? C - c : VK_LANES;
        const size_t nb = bc > c ? (bc - c < VK_LANES ? bc - c : VK_LANES) : 0;
        const vk_v slope = alpha ? VK_MASK_LOAD(alpha + c, n) : (vk_v)(0.0f);
        for (size_t p = 0; p < pixels; p++) {
            vk_v x = VK_MASK_LOAD(a + p * C + c, n) + (nb > 0 ? VK_MASK_LOAD(b + p * bc + c, nb) : (vk_v)(0.0f));
            x = VK_MIN(vhi, VK_MAX(vlo, x));
            if (alpha) {
                const vk_v s = x * slope;
                x = x >= (vk_v)(0.0f) ? x : s;
            }
            VK_MASK_STORE(out + p * C + c, x, n);
        }
    }
}
#define VK_ADD_PIXELS_UNEVEN VK_SUFFIX(add_pixels_masked)
#else
#define VK_ADD_PIXELS_UNEVEN VK_SUFFIX(add_pixels_by_channel)
#endif

/// Pixels per block of the uneven add: its vector positions go over a block at a time, which
/// stays in the first-level cache.
#define VK_ADD_BLOCK_PIXELS 32

VK_ALIGNED
void VK_SUFFIX(vk_add_pixels)(const float *a, const float *b, size_t bc, float *out, size_t pixels, size_t C,
                              float lo, float hi, const float *alpha) {
    if (bc == C && !alpha) {
        // Equal widths and no per-channel slopes: one flat run over all the pixels.
        const size_t n = C * pixels;
        const vk_v vlo = (vk_v)(lo), vhi = (vk_v)(hi);
        size_t i = 0;
        for (; i + 2 * VK_LANES <= n; i += 2 * VK_LANES) {
            vk_v x0 = VK_LOAD(a + i) + VK_LOAD(b + i), x1 = VK_LOAD(a + i + VK_LANES) + VK_LOAD(b + i + VK_LANES);
            VK_STORE(out + i, VK_MIN(vhi, VK_MAX(vlo, x0)));
            VK_STORE(out + i + VK_LANES, VK_MIN(vhi, VK_MAX(vlo, x1)));
        }
        for (; i + VK_LANES <= n; i += VK_LANES) VK_STORE(out + i, VK_MIN(vhi, VK_MAX(vlo, VK_LOAD(a + i) + VK_LOAD(b + i))));
        for (; i < n; i++) out[i] = VK_SELMIN(hi, VK_SELMAX(lo, a[i] + b[i]));
        return;
    }
    // Going pixel by pixel instead, choosing a width per vector, ran BlazeFace's 24 -> 28
    // channels at a quarter of the flat loop's speed. Inlined with `alpha` NULL or not, so that
    // no loop tests it.
    for (size_t p = 0; p < pixels; p += VK_ADD_BLOCK_PIXELS) {
        const size_t count = pixels - p < VK_ADD_BLOCK_PIXELS ? pixels - p : VK_ADD_BLOCK_PIXELS;
        if (alpha) VK_ADD_PIXELS_UNEVEN(a + p * C, b + p * bc, bc, out + p * C, count, C, lo, hi, alpha);
        else VK_ADD_PIXELS_UNEVEN(a + p * C, b + p * bc, bc, out + p * C, count, C, lo, hi, NULL);
    }
}

// One pixel-block step of vk_scale_add_pixels for V whole vectors per pixel (V constant after
// inlining, so the scale stays in registers).
static inline __attribute__((always_inline)) void VK_SUFFIX(scale_add_vectors)(
    const float *a, const vk_v *s, const float *b, float *out, size_t pixels, size_t V, float lo, float hi) {
#pragma clang fp contract(off)
    const vk_v vlo = (vk_v)(lo), vhi = (vk_v)(hi);
    for (size_t p = 0; p < pixels; p++) {
        _Pragma("clang loop unroll(full)")
        for (size_t j = 0; j < V; j++) {
            const size_t i = (p * V + j) * VK_LANES;
            // Two statements: the product is rounded before the sum, as a MUL and then an ADD.
            vk_v x = VK_LOAD(a + i) * s[j];
            x = x + VK_LOAD(b + i);
            VK_STORE(out + i, VK_MIN(vhi, VK_MAX(vlo, x)));
        }
    }
}

VK_ALIGNED
void VK_SUFFIX(vk_scale_add_pixels)(const float *a, const float *scale, const float *b, float *out, size_t pixels,
                                    size_t C, float lo, float hi) {
#pragma clang fp contract(off)
    const vk_v vlo = (vk_v)(lo), vhi = (vk_v)(hi);
    if (C % VK_LANES == 0 && C <= 4 * VK_LANES) {
        vk_v s[4];
        for (size_t j = 0; j < C / VK_LANES; j++) s[j] = VK_LOAD(scale + j * VK_LANES);
        switch (C / VK_LANES) {
        case 1: VK_SUFFIX(scale_add_vectors)(a, s, b, out, pixels, 1, lo, hi); return;
        case 2: VK_SUFFIX(scale_add_vectors)(a, s, b, out, pixels, 2, lo, hi); return;
        case 3: VK_SUFFIX(scale_add_vectors)(a, s, b, out, pixels, 3, lo, hi); return;
        default: VK_SUFFIX(scale_add_vectors)(a, s, b, out, pixels, 4, lo, hi); return;
        }
    }
    for (size_t p = 0; p < pixels; p++) {
        const float *ap = a + p * C, *bp = b + p * C;
        float *op = out + p * C;
        size_t c = 0;
        for (; c + VK_LANES <= C; c += VK_LANES) {
            vk_v x = VK_LOAD(ap + c) * VK_LOAD(scale + c);
            x = x + VK_LOAD(bp + c);
            VK_STORE(op + c, VK_MIN(vhi, VK_MAX(vlo, x)));
        }
        for (; c < C; c++) {
            float x = ap[c] * scale[c];
            x = x + bp[c];
            op[c] = VK_SELMIN(hi, VK_SELMAX(lo, x));
        }
    }
}

// MARK: Element-wise rows

// One width's step of VK_BINARY_LOOP: vectors of L lanes of type T (single floats for L = 1)
// while they fit in the row.
#define VK_BINARY_STEP(T, L, LOAD, STORE, EXPR)                                                          \
    for (; i + (L) <= inner; i += (L)) {                                                                 \
        const T x = a_inner ? LOAD(a + i) : (T)(a[0]);                                                   \
        const T y = b_inner ? LOAD(b + i) : (T)(b[0]);                                                   \
        const T v = (EXPR), low = v < (T)(lo) ? (T)(lo) : v;                                             \
        STORE(out + i, low > (T)(hi) ? (T)(hi) : low);                                                   \
    }
#if VK_LANES == 16
#define VK_BINARY_HALF_STEP(EXPR) VK_BINARY_STEP(vk_h, 8, VK_LOADH, VK_STOREH, EXPR)
#else
#define VK_BINARY_HALF_STEP(EXPR)
#endif
// `rows` rows of `inner` outputs; each operand either steps through its row (inner step 1) or
// repeats its row's first value (inner step 0), and moves by its own row step from row to row.
// The clamp is two selects, `v < lo ? lo : v` then `> hi ? hi : ...`, so a NaN passes and a -0
// stays -0 on every instruction set, as in the Swift kernel this replaced. A row runs in the
// widths of VK_EACH_WIDTH, widest first (which cannot carry the operation, hence the steps
// spelled out): a row of 24 channels by a channel vector is one 16-lane and one 8-lane step.
#define VK_BINARY_LOOP(EXPR)                                                                               \
    for (size_t r = 0; r < rows; r++, a += a_row, b += b_row, out += inner) {                           \
        size_t i = 0;                                                                                      \
        VK_BINARY_STEP(vk_v, VK_LANES, VK_LOAD, VK_STORE, EXPR)                                            \
        VK_BINARY_HALF_STEP(EXPR)                                                                          \
        VK_BINARY_STEP(VK_SUFFIX(vk_q), 4, VK_LOADQ, VK_STOREQ, EXPR)                                      \
        VK_BINARY_STEP(float, 1, VK_LOAD1, VK_STORE1, EXPR)                                                \
    }

VK_ALIGNED
void VK_SUFFIX(vk_binary_rows)(vk_binary_op op, const float *a, size_t a_row, int a_inner, const float *b,
                               size_t b_row, int b_inner, float *out, size_t rows, size_t inner, float lo,
                               float hi) {
    switch (op) {
    case VK_BINARY_ADD: VK_BINARY_LOOP(x + y) break;
    case VK_BINARY_SUB: VK_BINARY_LOOP(x - y) break;
    case VK_BINARY_MUL: VK_BINARY_LOOP(x * y) break;
    case VK_BINARY_DIV: VK_BINARY_LOOP(x / y) break;
    case VK_BINARY_MAXIMUM: VK_BINARY_LOOP(x > y ? x : y) break;
    case VK_BINARY_MINIMUM: VK_BINARY_LOOP(x < y ? x : y) break;
    case VK_BINARY_PRELU: VK_BINARY_LOOP(x >= 0.0f ? x : x * y) break;
    case VK_BINARY_SQUARED_DIFFERENCE: VK_BINARY_LOOP((x - y) * (x - y)) break;
    }
}
#undef VK_BINARY_LOOP
#undef VK_BINARY_HALF_STEP
#undef VK_BINARY_STEP

VK_ALIGNED
void VK_SUFFIX(vk_prelu_pixels)(const float *x, float *out, size_t pixels, size_t C, const float *alpha) {
    for (size_t p = 0; p < pixels; p++, x += C, out += C) {
        size_t c = 0;
        for (; c + VK_LANES <= C; c += VK_LANES) {
            vk_v v = VK_LOAD(x + c);
            vk_v s = v * VK_LOAD(alpha + c);
            VK_STORE(out + c, v >= (vk_v)(0.0f) ? v : s);
        }
#if VK_LANES == 16
        for (; c + 8 <= C; c += 8) {
            vk_h v = VK_LOADH(x + c);
            vk_h s = v * VK_LOADH(alpha + c);
            VK_STOREH(out + c, v >= (vk_h)(0.0f) ? v : s);
        }
#endif
        for (; c < C; c++) out[c] = x[c] >= 0.0f ? x[c] : x[c] * alpha[c];
    }
}

// MARK: Transpose

// Output rows [row_begin, row_end) of the transpose of a `rows` x `cols` matrix: out[j][i] =
// in[i][j]. Blocks of 8 x 8 go through registers (three rounds of shuffles); the edges are copied
// one value at a time.
VK_ALIGNED
void VK_SUFFIX(vk_transpose)(const float *in, size_t rows, size_t cols, float *out, size_t row_begin,
                             size_t row_end) {
    if (row_end > cols) row_end = cols;
    size_t j = row_begin;
    for (; j + 8 <= row_end; j += 8) {
        size_t i = 0;
        for (; i + 8 <= rows; i += 8) {
            vk_h v[8];
            for (size_t r = 0; r < 8; r++) v[r] = VK_LOADH(in + (i + r) * cols + j);
            // Pairs of rows: even and odd columns interleaved.
            vk_h s[8];
            for (size_t r = 0; r < 8; r += 2) {
                s[r] = __builtin_shufflevector(v[r], v[r + 1], 0, 8, 2, 10, 4, 12, 6, 14);
                s[r + 1] = __builtin_shufflevector(v[r], v[r + 1], 1, 9, 3, 11, 5, 13, 7, 15);
            }
            // Quads of rows: columns (0, 4), (2, 6), (1, 5), (3, 7) of four rows each.
            vk_h u[8];
            for (size_t h = 0; h < 8; h += 4) {
                u[h] = __builtin_shufflevector(s[h], s[h + 2], 0, 1, 8, 9, 4, 5, 12, 13);
                u[h + 1] = __builtin_shufflevector(s[h], s[h + 2], 2, 3, 10, 11, 6, 7, 14, 15);
                u[h + 2] = __builtin_shufflevector(s[h + 1], s[h + 3], 0, 1, 8, 9, 4, 5, 12, 13);
                u[h + 3] = __builtin_shufflevector(s[h + 1], s[h + 3], 2, 3, 10, 11, 6, 7, 14, 15);
            }
            // Whole columns: u[q] holds columns (a, a + 4) of rows 0-3, u[q + 4] of rows 4-7.
            static const size_t column[4] = {0, 2, 1, 3};
            for (size_t q = 0; q < 4; q++) {
                VK_STOREH(out + (j + column[q]) * rows + i,
                          __builtin_shufflevector(u[q], u[q + 4], 0, 1, 2, 3, 8, 9, 10, 11));
                VK_STOREH(out + (j + column[q] + 4) * rows + i,
                          __builtin_shufflevector(u[q], u[q + 4], 4, 5, 6, 7, 12, 13, 14, 15));
            }
        }
        for (; i < rows; i++)
            for (size_t c = 0; c < 8; c++) out[(j + c) * rows + i] = in[i * cols + j + c];
    }
    for (; j < row_end; j++)
        for (size_t i = 0; i < rows; i++) out[j * rows + i] = in[i * cols + j];
}

// MARK: Pooling

// Max pooling of channels [c, c + L) of one output pixel: the maximum over the `rows` × `columns`
// taps inside the input from `first` (the window's first tap inside), row by row, starting from
// the lowest finite float, then clamped.
#define VK_MAX_BLOCK(T, L, LOAD, STORE, MAXF, MINF)                                                         \
    for (; c + L <= C; c += L) {                                                                           \
        T m = (T)(-3.402823466e38f);                                                                       \
        for (size_t ky = 0; ky < rows; ky++)                                                               \
            for (size_t kx = 0; kx < columns; kx++) m = MAXF(m, LOAD(first + (ky * W + kx) * C + c));      \
        STORE(out + c, MINF((T)(hi), MAXF((T)(lo), m)));                                                   \
    }

// Output pixels [ox_lo, ox_hi) of one output row whose KH × KW windows lie wholly inside the input
// (from input row `iy0`): VK_MAX_BLOCK with the window's extent a constant after inlining, so that
// no pixel finds its bounds and the taps' loops unroll.
static inline __attribute__((always_inline)) void VK_SUFFIX(max_pool_inside)(
    const vk_conv_geometry *g, const float *image, ptrdiff_t iy0, size_t KH, size_t KW, size_t ox_lo, size_t ox_hi,
    float lo, float hi, float *row) {
    const size_t C = g->channels, W = g->input_width, rows = KH, columns = KW;
    for (size_t ox = ox_lo; ox < ox_hi; ox++) {
        const ptrdiff_t ix0 = (ptrdiff_t)(ox * g->stride_w) - (ptrdiff_t)g->pad_left;
        const float *first = image + ((size_t)iy0 * W + (size_t)ix0) * C;
        float *out = row + ox * C;
        size_t c = 0;
        VK_EACH_WIDTH(VK_MAX_BLOCK)
    }
}

VK_ALIGNED
void VK_SUFFIX(vk_max_pool)(const vk_conv_geometry *g, float *output, size_t row_begin, size_t row_end, float lo,
                            float hi) {
    const size_t C = g->channels, W = g->input_width, OW = g->output_width;
    const size_t KH = g->kernel_height, KW = g->kernel_width;
    // Output columns whose windows lie inside the input columns, for the 2 × 2 and 3 × 3 windows
    // of the models here (their own loops below; other windows: none).
    size_t inner_lo = 0, inner_hi = 0;
    if ((KH == 2 && KW == 2) || (KH == 3 && KW == 3))
        VK_SUFFIX(inside_columns)(W, g->pad_left, KW, g->stride_w, OW, &inner_lo, &inner_hi);
    for (size_t r = row_begin; r < row_end; r++) {
        size_t b = r / g->output_height, oy = r % g->output_height;
        const float *image = g->input + b * g->input_height * W * C;
        ptrdiff_t iy0 = (ptrdiff_t)(oy * g->stride_h) - (ptrdiff_t)g->pad_top;
        size_t ky_lo = 0, ky_hi = g->kernel_height;
        while (ky_lo < ky_hi && iy0 + (ptrdiff_t)ky_lo < 0) ky_lo++;
        while (ky_hi > ky_lo && iy0 + (ptrdiff_t)ky_hi - 1 >= (ptrdiff_t)g->input_height) ky_hi--;
        float *const row = output + r * OW * C;
        // Output columns [done_lo, done_hi) computed by the loop for windows inside the input.
        size_t done_lo = 0, done_hi = 0;
        if (ky_lo == 0 && ky_hi == KH && inner_lo < inner_hi) {
            if (KH == 2) VK_SUFFIX(max_pool_inside)(g, image, iy0, 2, 2, inner_lo, inner_hi, lo, hi, row);
            else VK_SUFFIX(max_pool_inside)(g, image, iy0, 3, 3, inner_lo, inner_hi, lo, hi, row);
            done_lo = inner_lo, done_hi = inner_hi;
        }
        for (size_t ox = 0; ox < OW; ox++) {
            if (ox == done_lo && done_lo < done_hi) {
                ox = done_hi - 1;
                continue;
            }
            float *const out = row + ox * C;
            ptrdiff_t ix0 = (ptrdiff_t)(ox * g->stride_w) - (ptrdiff_t)g->pad_left;
            size_t kx_lo = 0, kx_hi = g->kernel_width;
            while (kx_lo < kx_hi && ix0 + (ptrdiff_t)kx_lo < 0) kx_lo++;
            while (kx_hi > kx_lo && ix0 + (ptrdiff_t)kx_hi - 1 >= (ptrdiff_t)W) kx_hi--;
            const size_t rows = ky_hi - ky_lo, columns = kx_hi - kx_lo;
            const float *first =
                image + ((size_t)(iy0 + (ptrdiff_t)ky_lo) * W + (size_t)(ix0 + (ptrdiff_t)kx_lo)) * C;
            size_t c = 0;
            VK_EACH_WIDTH(VK_MAX_BLOCK)
        }
    }
}
#undef VK_MAX_BLOCK

// XNNPACK's addition tree for one pass of nine taps (src/f32-avgpool/avgpool.c.in).
#define VK_AVG_TREE(in) ((((in)[2] + (in)[3]) + ((in)[4] + (in)[5])) + ((((in)[0] + (in)[1]) + (in)[8]) + ((in)[6] + (in)[7])))

// The taps of the next pass of a window inside the input, walking down the window columns from
// `*p` (at window row `*ky` of `KH`): tap j (j < `count`) at `q[j]`, the rest `NULL`. A pass that
// stays in one column is nine evenly spaced rows; one that runs off a column's foot goes on at
// the next column's top.
static inline __attribute__((always_inline)) void VK_SUFFIX(avg_pass_taps)(const float **p, size_t *ky, size_t KH,
                                                                           ptrdiff_t row_step, ptrdiff_t column_step,
                                                                           size_t count, const float *q[9]) {
    if (count == 9 && *ky + 9 < KH) {
        for (size_t j = 0; j < 9; j++) q[j] = *p + (ptrdiff_t)j * row_step;
        *p += 9 * row_step;
        *ky += 9;
        return;
    }
    for (size_t j = 0; j < 9; j++) {
        q[j] = NULL;
        if (j >= count) continue;
        q[j] = *p;
        *p += row_step;
        if (++*ky == KH) {
            *ky = 0;
            *p += column_step;
        }
    }
}

// Loads the next pass's taps (avg_pass_taps from `p`, window row `ky`) into in[0…8] as type T;
// taps from `count` on are zeros and are not read.
#define VK_AVG_LOAD_PASS(T, LOAD, in, count)                                                            \
    {                                                                                                      \
        const float *tap_[9];                                                                              \
        VK_SUFFIX(avg_pass_taps)(&p, &ky, KH, row_step, column_step, (count), tap_);                       \
        for (size_t j = 0; j < 9; j++) (in)[j] = tap_[j] ? LOAD(tap_[j]) : (T)(0.0f);                     \
    }

// Calls CALL(NV) for the whole vectors of channels from `c` on, NV = up to four at a time,
// advancing `c` past them; the channels left are fewer than a vector.
#define VK_EACH_VECTOR_GROUP(CALL)                                                                         \
    for (size_t vectors; (vectors = (C - c) / VK_LANES) > 0; c += (vectors > 4 ? 4 : vectors) * VK_LANES) { \
        switch (vectors) {                                                                                 \
        case 1: CALL(1); break;                                                                            \
        case 2: CALL(2); break;                                                                            \
        case 3: CALL(3); break;                                                                            \
        default: CALL(4);                                                                                  \
        }                                                                                                  \
    }

// The nine-tap sums of `NV` vectors of channels from one pass's taps `q`; with `FULL` 0, zeros
// for the taps that are `NULL`.
#define VK_AVG_PASS_VECTORS(NV, FULL, q, sums)                                                             \
    VK_UNROLL for (size_t v = 0; v < (NV); v++) {                                                          \
        vk_v in[9];                                                                                        \
        for (size_t j = 0; j < 9; j++)                                                                     \
            in[j] = (FULL) || (q)[j] ? VK_LOAD((q)[j] + v * VK_LANES) : (vk_v)(0.0f);                      \
        (sums)[v] = VK_AVG_TREE(in);                                                                       \
    }

// The average of `NV` vectors of channels from `p` on (its window's first tap) of one output
// pixel whose window lies inside the input: every pass reads its taps' lines once for all the
// vectors (a window column steps by a whole input row, so walking it once per vector read every
// line again from the outer caches: on AVX2, kernel_timing.sh's 128×128×16 whole-image average
// took 1.96× the time, its 16×16×96 one 1.5×).
static inline __attribute__((always_inline)) void VK_SUFFIX(avg_inside_vectors)(
    const float *p, size_t KH, size_t taps, ptrdiff_t row_step, ptrdiff_t column_step, size_t NV, float scale, float lo,
    float hi, float *out) {
    vk_v acc[4], sums[4];
    VK_UNROLL for (size_t v = 0; v < NV; v++) acc[v] = (vk_v)(0.0f);
    size_t ky = 0, t0 = 0;
    const float *q[9];
    for (; t0 + 9 <= taps; t0 += 9) {
        VK_SUFFIX(avg_pass_taps)(&p, &ky, KH, row_step, column_step, 9, q);
        VK_AVG_PASS_VECTORS(NV, 1, q, sums)
        VK_UNROLL for (size_t v = 0; v < NV; v++) acc[v] = acc[v] + sums[v];
    }
    if (t0 < taps) {
        VK_SUFFIX(avg_pass_taps)(&p, &ky, KH, row_step, column_step, taps - t0, q);
        VK_AVG_PASS_VECTORS(NV, 0, q, sums)
        VK_UNROLL for (size_t v = 0; v < NV; v++) acc[v] = acc[v] + sums[v];
    }
    VK_UNROLL for (size_t v = 0; v < NV; v++)
        VK_STORE(out + v * VK_LANES, VK_MIN((vk_v)(hi), VK_MAX((vk_v)(lo), acc[v] * (vk_v)(scale))));
}

// Average pooling of channels [c, c + L) of one output pixel: the taps column by column,
// nine per pass in XNNPACK's addition tree, added to the running sum, then scaled and clamped.
#define VK_AVG_BLOCK(T, L, LOAD, STORE, MAXF, MINF)                                                         \
    for (; c + L <= C; c += L) {                                                                           \
        T acc = (T)(0.0f);                                                                                 \
        size_t t0 = 0;                                                                                     \
        if (inside) {                                                                                      \
            /* The whole window inside the input: full passes read their taps with no checks. */          \
            const float *p = image + ((size_t)iy0 * W + (size_t)ix0) * C + c;                              \
            size_t ky = 0;                                                                                 \
            for (; t0 + 9 <= taps; t0 += 9) {                                                              \
                T in[9];                                                                                   \
                VK_AVG_LOAD_PASS(T, LOAD, in, 9)                                                           \
                acc = acc + VK_AVG_TREE(in);                                                               \
            }                                                                                              \
        }                                                                                                  \
        /* Tap t is window row t % KH, column t / KH: stepped, not divided, from here on. */               \
        size_t ky = t0 % KH, kx = t0 / KH;                                                                 \
        for (; t0 < taps; t0 += 9) {                                                                       \
            T in[9];                                                                                       \
            for (size_t j = 0; j < 9; j++) {                                                               \
                in[j] = (T)(0.0f);                                                                         \
                if (t0 + j < taps) {                                                                       \
                    const ptrdiff_t iy = iy0 + (ptrdiff_t)ky, ix = ix0 + (ptrdiff_t)kx;                    \
                    if (iy >= 0 && iy < (ptrdiff_t)g->input_height && ix >= 0 && ix < (ptrdiff_t)W)        \
                        in[j] = LOAD(image + ((size_t)iy * W + (size_t)ix) * C + c);                       \
                }                                                                                          \
                if (++ky == KH) {                                                                          \
                    ky = 0;                                                                                \
                    kx++;                                                                                  \
                }                                                                                          \
            }                                                                                              \
            acc = acc + VK_AVG_TREE(in);                                                                   \
        }                                                                                                  \
        STORE(out + c, MINF((T)(hi), MAXF((T)(lo), acc * (T)(scale))));                                    \
    }

VK_ALIGNED
void VK_SUFFIX(vk_avg_pool)(const vk_conv_geometry *g, float *output, size_t row_begin, size_t row_end,
                            int valid_only, float lo, float hi) {
    const size_t C = g->channels, W = g->input_width, OW = g->output_width, KH = g->kernel_height;
    const size_t taps = KH * g->kernel_width;
    for (size_t r = row_begin; r < row_end; r++) {
        size_t b = r / g->output_height, oy = r % g->output_height;
        const float *image = g->input + b * g->input_height * W * C;
        const ptrdiff_t iy0 = (ptrdiff_t)(oy * g->stride_h) - (ptrdiff_t)g->pad_top;
        float *out = output + r * OW * C;
        for (size_t ox = 0; ox < OW; ox++, out += C) {
            const ptrdiff_t ix0 = (ptrdiff_t)(ox * g->stride_w) - (ptrdiff_t)g->pad_left;
            size_t count = taps;
            if (valid_only) {
                size_t rows = 0, columns = 0;
                for (size_t k = 0; k < KH; k++)
                    rows += iy0 + (ptrdiff_t)k >= 0 && iy0 + (ptrdiff_t)k < (ptrdiff_t)g->input_height;
                for (size_t k = 0; k < g->kernel_width; k++)
                    columns += ix0 + (ptrdiff_t)k >= 0 && ix0 + (ptrdiff_t)k < (ptrdiff_t)W;
                count = rows * columns;
            }
            const float scale = count > 0 ? 1.0f / (float)count : 0.0f;
            const int inside = iy0 >= 0 && ix0 >= 0 && iy0 + (ptrdiff_t)KH <= (ptrdiff_t)g->input_height
                               && ix0 + (ptrdiff_t)g->kernel_width <= (ptrdiff_t)W;
            // From one tap to the next down a window column, and from a column's end to the
            // next column's top.
            const ptrdiff_t row_step = (ptrdiff_t)(W * C), column_step = (ptrdiff_t)C - (ptrdiff_t)(KH * W * C);
            size_t c = 0;
            if (inside) {
                // Whole vectors of channels, up to four at a time; the rest below.
                const float *first = image + ((size_t)iy0 * W + (size_t)ix0) * C;
#define VK_AVG_INSIDE(NV)                                                                                  \
    VK_SUFFIX(avg_inside_vectors)(first + c, KH, taps, row_step, column_step, NV, scale, lo, hi, out + c)
                VK_EACH_VECTOR_GROUP(VK_AVG_INSIDE)
#undef VK_AVG_INSIDE
            }
            VK_EACH_WIDTH(VK_AVG_BLOCK)
        }
    }
}
#undef VK_AVG_BLOCK

// The first window row at or after `y0` where a pass of a whole-image average starts, in the
// window column whose top is tap `column_first` (passes start at every ninth tap).
static inline size_t VK_SUFFIX(avg_pass_start)(size_t column_first, size_t y0) {
    size_t y = (column_first + 8) / 9 * 9 - column_first;
    if (y < y0) y += (y0 - y + 8) / 9 * 9;
    return y;
}

// Pass sums of a whole-image average (see vk_avg_pool_pass_rows in CVisionKernels.h): the same
// taps, steps and pairing as VK_AVG_BLOCK's for a window inside the input, for the passes whose
// first tap lies in window rows [row_begin, row_end). A window column has a pass start every
// nine rows, so each nine rows of a band hold one start per column, found without a search.
// The passes go nine rows at a time and column by column within them, so that the taps of
// successive passes lie in successive lines of the same rows, which the hardware prefetchers
// stream; one column at a time stepped a whole image row at every tap (8 KB on the selfie
// segmenter's 128 × 128 × 16) and took 2.2 × as long (kernel_timing.sh,
// avgpool-passes-128x128x16).
#define VK_AVG_PASS_ROWS_BLOCK(T, L, LOAD, STORE, MAXF, MINF)                                               \
    for (; c + L <= C; c += L) {                                                                           \
        for (size_t y0 = row_begin; y0 < row_end && y0 < KH; y0 += 9) {                                    \
            const size_t y_end = y0 + 9 < row_end ? y0 + 9 : row_end;                                      \
            for (size_t x = 0; x < W; x++) {                                                               \
                const size_t y = VK_SUFFIX(avg_pass_start)(x * KH, y0);                                    \
                if (y >= y_end || y >= KH) continue;                                                       \
                const size_t t0 = x * KH + y;                                                              \
                size_t ky = y;                                                                             \
                const float *p = g->input + (y * W + x) * C + c;                                           \
                const size_t count = taps - t0 < 9 ? taps - t0 : 9;                                        \
                T in[9];                                                                                   \
                VK_AVG_LOAD_PASS(T, LOAD, in, count)                                                       \
                STORE(sums + (t0 / 9) * C + c, VK_AVG_TREE(in));                                           \
            }                                                                                              \
        }                                                                                                  \
    }

// The pass sums of `NV` whole vectors of channels from `c` on, each pass's taps read once for all.
static inline __attribute__((always_inline)) void VK_SUFFIX(avg_pass_rows_vectors)(const vk_conv_geometry *g,
                                                                                   size_t row_begin, size_t row_end,
                                                                                   size_t c, size_t NV, float *sums) {
    const size_t C = g->channels, W = g->input_width, KH = g->input_height, taps = KH * W;
    const ptrdiff_t row_step = (ptrdiff_t)(W * C), column_step = (ptrdiff_t)C - (ptrdiff_t)(KH * W * C);
    for (size_t y0 = row_begin; y0 < row_end && y0 < KH; y0 += 9) {
        const size_t y_end = y0 + 9 < row_end ? y0 + 9 : row_end;
        for (size_t x = 0; x < W; x++) {
            const size_t y = VK_SUFFIX(avg_pass_start)(x * KH, y0);
            if (y >= y_end || y >= KH) continue;
            const size_t t0 = x * KH + y, count = taps - t0 < 9 ? taps - t0 : 9;
            const float *p = g->input + (y * W + x) * C + c, *q[9];
            size_t ky = y;
            VK_SUFFIX(avg_pass_taps)(&p, &ky, KH, row_step, column_step, count, q);
            vk_v pass[4];
            if (count == 9) {
                VK_AVG_PASS_VECTORS(NV, 1, q, pass)
            } else {
                VK_AVG_PASS_VECTORS(NV, 0, q, pass)
            }
            VK_UNROLL for (size_t v = 0; v < NV; v++) VK_STORE(sums + (t0 / 9) * C + c + v * VK_LANES, pass[v]);
        }
    }
}

VK_ALIGNED
void VK_SUFFIX(vk_avg_pool_pass_rows)(const vk_conv_geometry *g, size_t row_begin, size_t row_end, float *sums) {
    const size_t C = g->channels, W = g->input_width, KH = g->input_height, taps = KH * W;
    const ptrdiff_t row_step = (ptrdiff_t)(W * C), column_step = (ptrdiff_t)C - (ptrdiff_t)(KH * W * C);
    size_t c = 0;
    // Whole vectors of channels, up to four at a time; the rest below.
#define VK_AVG_PASS_ROWS(NV) VK_SUFFIX(avg_pass_rows_vectors)(g, row_begin, row_end, c, NV, sums)
    VK_EACH_VECTOR_GROUP(VK_AVG_PASS_ROWS)
#undef VK_AVG_PASS_ROWS
    VK_EACH_WIDTH(VK_AVG_PASS_ROWS_BLOCK)
}
#undef VK_AVG_PASS_ROWS_BLOCK
#undef VK_EACH_VECTOR_GROUP
#undef VK_AVG_PASS_VECTORS
#undef VK_AVG_LOAD_PASS
#undef VK_AVG_TREE

#define VK_AVG_CHAIN_BLOCK(T, L, LOAD, STORE, MAXF, MINF)                                                   \
    for (; c + L <= C; c += L) {                                                                           \
        T acc = (T)(0.0f);                                                                                 \
        for (size_t k = 0; k < passes; k++) acc = acc + LOAD(sums + k * C + c);                            \
        STORE(out + c, MINF((T)(hi), MAXF((T)(lo), acc * (T)(scale))));                                    \
    }

VK_ALIGNED
void VK_SUFFIX(vk_avg_pool_chain)(const float *sums, size_t passes, size_t C, size_t count, float lo, float hi,
                                  float *out) {
    const float scale = count > 0 ? 1.0f / (float)count : 0.0f;
    size_t c = 0;
    VK_EACH_WIDTH(VK_AVG_CHAIN_BLOCK)
}
#undef VK_AVG_CHAIN_BLOCK

// MARK: Square roots

// RSQRT (0 for +inf) or, with `square_root`, SQRT as XNNPACK's f32-vsqrt kernels compute it:
// x times the reciprocal square root, 0 where x is 0 (src/f32-vsqrt/simd-rsqrt.c.in). The
// reciprocal square root is XNNPACK's (src/f32-vrsqrt/simd-rsqrt.c.in): the estimate, then one
// Newton-Raphson step as separate multiplies and subtractions, y0 - (x·y0·y0 - 1)·(0.5·y0).
VK_ALIGNED
static void VK_SUFFIX(root_run)(const float *x, float *y, size_t count, int square_root) {
#pragma clang fp contract(off)
    const vk_v zero = (vk_v)(0.0f), infinity = (vk_v)(__builtin_inff());
    for (size_t i = 0; i < count; i += VK_LANES) {
        const size_t n = count - i < VK_LANES ? count - i : VK_LANES;
        float in[VK_LANES], out[VK_LANES];
        for (size_t l = 0; l < VK_LANES; l++) in[l] = l < n ? x[i + l] : 1.0f;
        const vk_v v = VK_LOAD(in);
        const vk_v y0 = VK_RSQRT_ESTIMATE(v);
        const vk_v t1 = y0 * y0;
        const vk_v t2 = v * t1;
        const vk_v t3 = t2 - (vk_v)(1.0f);
        const vk_v t4 = (vk_v)(0.5f) * y0;
        const vk_v t5 = t3 * t4;
        const vk_v r = y0 - t5;
        vk_v result;
        if (square_root) {
            result = v * (v != zero ? r : zero);
        } else {
            result = v == infinity ? zero : r;
        }
        VK_STORE(out, result);
        for (size_t l = 0; l < n; l++) y[i + l] = out[l];
    }
}

VK_ALIGNED
void VK_SUFFIX(vk_rsqrt)(const float *x, float *y, size_t count) { VK_SUFFIX(root_run)(x, y, count, 0); }

VK_ALIGNED
void VK_SUFFIX(vk_sqrt)(const float *x, float *y, size_t count) { VK_SUFFIX(root_run)(x, y, count, 1); }

// MARK: Row sums and layer normalisation

// Sixteen floats, in every build (two or four registers where vectors are narrower).
typedef float VK_SUFFIX(vk_f16) __attribute__((ext_vector_type(16)));
typedef float VK_SUFFIX(vk_f16u) __attribute__((ext_vector_type(16), aligned(4), may_alias));

// The sum of `n` contiguous floats in the order of XNNPACK's f32-rsum AVX-512 kernel (src/f32-rsum,
// avx512f u32 acc2; its AVX kernel gives the same bits): two 16-lane accumulators from zero take
// 32 values per step, a leftover 16-value block and the zero-padded tail go to the first; then
// the accumulators are added and the lanes folded in halves (16 → 8 → 4), and
// (l0 + l2) + (l1 + l3). The same sums in every build.
static inline float VK_SUFFIX(rsum_xnnpack)(const float *x, size_t n) {
    typedef VK_SUFFIX(vk_f16) f16;
    typedef VK_SUFFIX(vk_f16u) f16u;
    if (n < 16) {
        // The whole row is the zero-padded tail: the same sums lane by lane, without the copy to
        // a 16-lane buffer and its reload, which waited on the copy's stores (146 rows of 2, the
        // blendshapes model's first SUM: 2.3-2.7 µs). Lane l of the first accumulator is 0 + x[l]
        // (+0 past n), never -0, so adding the second accumulator's +0 leaves it as it is.
        float four[4];
        VK_UNROLL for (size_t l = 0; l < 4; l++) {
            float lane[4];
            VK_UNROLL for (size_t q = 0; q < 4; q++) lane[q] = l + 4 * q < n ? 0.0f + x[l + 4 * q] : 0.0f;
            four[l] = (lane[0] + lane[2]) + (lane[1] + lane[3]);
        }
        return (four[0] + four[2]) + (four[1] + four[3]);
    }
    f16 first = (f16)(0.0f), second = (f16)(0.0f);
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        first += *(const f16u *)(x + i);
        second += *(const f16u *)(x + i + 16);
    }
    for (; i + 16 <= n; i += 16) first += *(const f16u *)(x + i);
    if (i < n) {
        float tail[16] = {0};
        for (size_t l = 0; l < n - i; l++) tail[l] = x[i + l];
        first += *(const f16u *)tail;
    }
    const f16 lanes = first + second;
    const __typeof__(lanes.lo) eight = lanes.lo + lanes.hi;
    const __typeof__(eight.lo) four = eight.lo + eight.hi;
    return (four[0] + four[2]) + (four[1] + four[3]);
}

VK_ALIGNED
void VK_SUFFIX(vk_row_sums)(const float *x, size_t rows, size_t n, float scale, float *out) {
    for (size_t r = 0; r < rows; r++) out[r] = 0.0f + VK_SUFFIX(rsum_xnnpack)(x + r * n, n) * scale;
}

VK_ALIGNED
void VK_SUFFIX(vk_layer_norm)(const float *x, float *y, size_t pixel_begin, size_t pixel_end, size_t channels,
                              float epsilon, const float *gamma, float *scratch) {
#pragma clang fp contract(off)
    // Per pixel of the range: the mean, v + epsilon, and its reciprocal square root.
    const size_t count = pixel_end - pixel_begin;
    float *mean = scratch, *shifted = scratch + count, *root = shifted + count;
    const size_t C = channels, vectors = C / VK_LANES * VK_LANES;
    const float scale = 1.0f / (float)C;
    for (size_t i = 0; i < count; i++) {
        const float *row = x + (pixel_begin + i) * C;
        // The squared differences go through the output row, overwritten below.
        float *square = y + (pixel_begin + i) * C;
        const float m = 0.0f + VK_SUFFIX(rsum_xnnpack)(row, C) * scale;
        const vk_v mv = (vk_v)(m);
        size_t c = 0;
        for (; c < vectors; c += VK_LANES) {
            const vk_v d = VK_LOAD(row + c) - mv;
            VK_STORE(square + c, d * d);
        }
        for (; c < C; c++) {
            const float d = row[c] - m;
            square[c] = d * d;
        }
        mean[i] = m;
        shifted[i] = (0.0f + VK_SUFFIX(rsum_xnnpack)(square, C) * scale) + epsilon;
    }
    VK_SUFFIX(vk_rsqrt)(shifted, root, count);
    for (size_t i = 0; i < count; i++) {
        const float *row = x + (pixel_begin + i) * C;
        float *out = y + (pixel_begin + i) * C;
        const float r = root[i], negated = 0.0f - mean[i];
        const vk_v rv = (vk_v)(r), nv = (vk_v)(negated);
        size_t c = 0;
        for (; c < vectors; c += VK_LANES) {
            const vk_v s = rv * VK_LOAD(gamma + c);
            VK_STORE(out + c, VK_LOAD(row + c) * s + nv * s);
        }
        for (; c < C; c++) {
            const float s = r * gamma[c];
            out[c] = row[c] * s + negated * s;
        }
    }
}

// MARK: Hard swish

VK_ALIGNED
void VK_SUFFIX(vk_hard_swish)(const float *x, float *y, size_t count) {
    // XNNPACK's constants: 1/6 rounded to float (0x1.555556p-3f), one half, the clamp to [0, 1].
    const vk_v sixth = (vk_v)(0x1.555556p-3f), half = (vk_v)(0.5f), zero = (vk_v)(0.0f), one = (vk_v)(1.0f);
    size_t i = 0;
    for (; i + VK_LANES <= count; i += VK_LANES) {
        const vk_v v = VK_LOAD(x + i);
        const vk_v a = VK_MIN(one, VK_MAX(zero, VK_FMA(v, sixth, half)));
        VK_STORE(y + i, a * v);
    }
    for (; i < count; i++) {
        const float a = VK_SELMIN(1.0f, VK_SELMAX(0.0f, VK_FMA(x[i], 0x1.555556p-3f, 0.5f)));
        y[i] = a * x[i];
    }
}

// MARK: Sparse 1x1 convolution

// 8x8 transpose: dst[j * dst_stride + i] = src[i * src_stride + j].
static inline __attribute__((always_inline)) void VK_SUFFIX(transpose8)(const float *src, size_t src_stride,
                                                                        float *dst, size_t dst_stride) {
    vk_h r0 = VK_LOADH(src), r1 = VK_LOADH(src + src_stride), r2 = VK_LOADH(src + 2 * src_stride),
         r3 = VK_LOADH(src + 3 * src_stride), r4 = VK_LOADH(src + 4 * src_stride), r5 = VK_LOADH(src + 5 * src_stride),
         r6 = VK_LOADH(src + 6 * src_stride), r7 = VK_LOADH(src + 7 * src_stride);
    vk_h t0 = __builtin_shufflevector(r0, r1, 0, 8, 1, 9, 4, 12, 5, 13);
    vk_h t1 = __builtin_shufflevector(r0, r1, 2, 10, 3, 11, 6, 14, 7, 15);
    vk_h t2 = __builtin_shufflevector(r2, r3, 0, 8, 1, 9, 4, 12, 5, 13);
    vk_h t3 = __builtin_shufflevector(r2, r3, 2, 10, 3, 11, 6, 14, 7, 15);
    vk_h t4 = __builtin_shufflevector(r4, r5, 0, 8, 1, 9, 4, 12, 5, 13);
    vk_h t5 = __builtin_shufflevector(r4, r5, 2, 10, 3, 11, 6, 14, 7, 15);
    vk_h t6 = __builtin_shufflevector(r6, r7, 0, 8, 1, 9, 4, 12, 5, 13);
    vk_h t7 = __builtin_shufflevector(r6, r7, 2, 10, 3, 11, 6, 14, 7, 15);
    vk_h u0 = __builtin_shufflevector(t0, t2, 0, 1, 8, 9, 4, 5, 12, 13);
    vk_h u1 = __builtin_shufflevector(t0, t2, 2, 3, 10, 11, 6, 7, 14, 15);
    vk_h u2 = __builtin_shufflevector(t1, t3, 0, 1, 8, 9, 4, 5, 12, 13);
    vk_h u3 = __builtin_shufflevector(t1, t3, 2, 3, 10, 11, 6, 7, 14, 15);
    vk_h u4 = __builtin_shufflevector(t4, t6, 0, 1, 8, 9, 4, 5, 12, 13);
    vk_h u5 = __builtin_shufflevector(t4, t6, 2, 3, 10, 11, 6, 7, 14, 15);
    vk_h u6 = __builtin_shufflevector(t5, t7, 0, 1, 8, 9, 4, 5, 12, 13);
    vk_h u7 = __builtin_shufflevector(t5, t7, 2, 3, 10, 11, 6, 7, 14, 15);
    VK_STOREH(dst, __builtin_shufflevector(u0, u4, 0, 1, 2, 3, 8, 9, 10, 11));
    VK_STOREH(dst + dst_stride, __builtin_shufflevector(u1, u5, 0, 1, 2, 3, 8, 9, 10, 11));
    VK_STOREH(dst + 2 * dst_stride, __builtin_shufflevector(u2, u6, 0, 1, 2, 3, 8, 9, 10, 11));
    VK_STOREH(dst + 3 * dst_stride, __builtin_shufflevector(u3, u7, 0, 1, 2, 3, 8, 9, 10, 11));
    VK_STOREH(dst + 4 * dst_stride, __builtin_shufflevector(u0, u4, 4, 5, 6, 7, 12, 13, 14, 15));
    VK_STOREH(dst + 5 * dst_stride, __builtin_shufflevector(u1, u5, 4, 5, 6, 7, 12, 13, 14, 15));
    VK_STOREH(dst + 6 * dst_stride, __builtin_shufflevector(u2, u6, 4, 5, 6, 7, 12, 13, 14, 15));
    VK_STOREH(dst + 7 * dst_stride, __builtin_shufflevector(u3, u7, 4, 5, 6, 7, 12, 13, 14, 15));
}

// Vectors of pixels per sparse tile, and output channels per pass over a group's steps (1, 2
// or 4). By default two vectors and all four channels of a group: eight sums, each step reading
// four indices, four weights and eight input vectors. AVX2 takes seven vectors (56 pixels: a
// whole 7 x 7 layer in one tile, 14 x 14 in three and a half) and two channels per pass: 14
// sums, a step reading two indices, two weights and 14 input vectors (each the memory operand
// of its multiply-add). kernel_timing.sh on Zen 3: sparse-49x1152x192-36pct 0.239 -> 0.190 ms,
// sparse-196x112x672-25pct 0.173 -> 0.156.
#ifndef VK_SPARSE_VECTORS
#define VK_SPARSE_VECTORS 2
#endif
#ifndef VK_SPARSE_PASS_CHANNELS
#define VK_SPARSE_PASS_CHANNELS 4
#endif
#define VK_SPARSE_PIXELS (VK_SPARSE_VECTORS * VK_LANES)

size_t VK_SUFFIX(vk_sparse_tile_pixels)(void) { return VK_SPARSE_PIXELS; }
size_t VK_SUFFIX(vk_sparse_vector_pixels)(void) { return VK_LANES; }

// Channels [i0, i0 + VK_SPARSE_PASS_CHANNELS) of the group at `g` over `V` vectors of the
// tile's pixels (V constant after inlining): their sums so far (the bias at the first block,
// else the tile's rows), this block's steps, then the sums back into the tile (clamped after
// the last block).
static inline __attribute__((always_inline)) void VK_SUFFIX(sparse_pass)(size_t V, size_t i0, const float *g,
                                                                       const float *step, size_t steps,
                                                                       const float *at, float *tile, int first,
                                                                       int last, const vk_v *bounds) {
    const size_t P = VK_SPARSE_PIXELS, CH = VK_SPARSE_PASS_CHANNELS;
    const vk_u32 *head = (const vk_u32 *)g;
    vk_v acc[VK_SPARSE_PASS_CHANNELS][VK_SPARSE_VECTORS];
    VK_UNROLL for (size_t i = 0; i < CH; i++) {
        const float *row = tile + (size_t)head[i0 + i] * P;
        VK_UNROLL for (size_t v = 0; v < V; v++)
            acc[i][v] = first ? (vk_v)(g[8 + i0 + i]) : VK_LOAD(row + v * VK_LANES);
    }
    for (size_t s = 0; s < steps; s++, step += 8) {
        const vk_u32 *index = (const vk_u32 *)step;
        VK_UNROLL for (size_t i = 0; i < CH; i++) {
            const float *x = at + (size_t)index[i0 + i] * P;
            const vk_v w = (vk_v)(step[4 + i0 + i]);
            VK_UNROLL for (size_t v = 0; v < V; v++) acc[i][v] = VK_FMA(VK_LOAD(x + v * VK_LANES), w, acc[i][v]);
        }
    }
    VK_UNROLL for (size_t i = 0; i < CH; i++) {
        float *row = tile + (size_t)head[i0 + i] * P;
        VK_UNROLL for (size_t v = 0; v < V; v++)
            VK_STORE(row + v * VK_LANES, last ? VK_MIN(bounds[1], VK_MAX(bounds[0], acc[i][v])) : acc[i][v]);
    }
}

VK_ALIGNED
void VK_SUFFIX(vk_sparse_run)(const float *packed, size_t n, size_t k, const float *a, size_t a_stride, float *c,
                              size_t c_stride, size_t row_begin, size_t row_end, size_t group_begin,
                              size_t group_end, float lo, float hi, const vk_epilogue *epilogue, float *scratch) {
    const size_t P = VK_SPARSE_PIXELS;
    const size_t groups = vk_sparse_word(packed, 0), block = vk_sparse_word(packed, 1);
    const size_t blocks = vk_sparse_word(packed, 2);
    float *at = scratch;            // block x P: one block of the tile's inputs, a row per input channel
    float *tile = at + block * P;   // (n + 1) x P: results, a row per output channel (+1 spare)
    // The clamp's bounds (passed by address: vectors by value change the ABI).
    const vk_v bounds[2] = {(vk_v)(lo), (vk_v)(hi)};
    if (group_end > groups) group_end = groups;
    const int all = group_begin == 0 && group_end == groups;
    for (size_t m0 = row_begin; m0 < row_end; m0 += P) {
        const size_t rows = row_end - m0 < P ? row_end - m0 : P;
        // Vectors that hold the tile's pixels (a partial tile computes only those).
        const size_t vectors = (rows + VK_LANES - 1) / VK_LANES;
        for (size_t b = 0; b < blocks; b++) {
            // Transpose this block of the tile's inputs (zeros for missing pixels).
            const size_t k0 = b * block, k1 = k0 + block < k ? k0 + block : k;
            size_t kk = k0;
            if (rows == P) {
                for (; kk + 8 <= k1; kk += 8)
                    for (size_t p = 0; p < P; p += 8)
                        VK_SUFFIX(transpose8)(a + (m0 + p) * a_stride + kk, a_stride, at + (kk - k0) * P + p, P);
                for (; kk < k1; kk++)
                    for (size_t p = 0; p < P; p++) at[(kk - k0) * P + p] = a[(m0 + p) * a_stride + kk];
            } else {
                // A partial tile (the last of a layer, or a thread's share of a small one):
                // whole groups of 8 pixels transpose as above, the rest one by one, and the
                // missing pixels of the last vector are zeros (their lanes are computed but never
                // stored).
                const size_t whole = rows / 8 * 8;
                for (; kk + 8 <= k1; kk += 8)
                    for (size_t p = 0; p < whole; p += 8)
                        VK_SUFFIX(transpose8)(a + (m0 + p) * a_stride + kk, a_stride, at + (kk - k0) * P + p, P);
                for (size_t j = k0; j < k1; j++) {
                    float *row = at + (j - k0) * P;
                    for (size_t p = j < kk ? whole : 0; p < rows; p++) row[p] = a[(m0 + p) * a_stride + j];
                    for (size_t p = rows; p < vectors * VK_LANES; p++) row[p] = 0.0f;
                }
            }
            // Groups of four output channels: continue their sums over this block.
            for (size_t group = group_begin; group < group_end; group++) {
                const float *g = packed + vk_sparse_group_offset(packed, group);
                const vk_u32 *head = (const vk_u32 *)g;
                // Steps of earlier blocks precede this block's.
                const float *step = g + 12 + blocks;
                for (size_t e = 0; e < b; e++) step += 8 * (size_t)head[12 + e];
                const size_t steps = head[12 + b];
                const int first = b == 0, last = b + 1 == blocks;
                for (size_t i0 = 0; i0 < 4; i0 += VK_SPARSE_PASS_CHANNELS) {
                    switch (vectors) {
#define VK_SPARSE_CASE(V)                                                                                  \
    case V:                                                                                                \
        if (V <= VK_SPARSE_VECTORS)                                                                        \
            VK_SUFFIX(sparse_pass)(V, i0, g, step, steps, at, tile, first, last, bounds);                \
        break;
                        VK_SPARSE_CASE(1)
                        VK_SPARSE_CASE(2)
                        VK_SPARSE_CASE(3)
                        VK_SPARSE_CASE(4)
                        VK_SPARSE_CASE(5)
                        VK_SPARSE_CASE(6)
                        VK_SPARSE_CASE(7)
#undef VK_SPARSE_CASE
                    default: break;
                    }
                }
            }
        }
        // Transpose the results into the output rows.
        if (all) {
            // Whole blocks of 8 pixels transpose back; the last few pixels of a partial tile are
            // stored one by one.
            const size_t whole = rows / 8 * 8;
            size_t nn = 0;
            for (; nn + 8 <= n; nn += 8) {
                for (size_t p = 0; p < whole; p += 8)
                    VK_SUFFIX(transpose8)(tile + nn * P + p, P, c + (m0 + p) * c_stride + nn, c_stride);
                for (size_t p = whole; p < rows; p++)
                    for (size_t i = 0; i < 8; i++) c[(m0 + p) * c_stride + nn + i] = tile[(nn + i) * P + p];
            }
            for (; nn < n; nn++)
                for (size_t p = 0; p < rows; p++) c[(m0 + p) * c_stride + nn] = tile[nn * P + p];
            if (epilogue) {
                // The fused ADD (and PRELU) on the tile's finished rows, still in cache.
                const size_t rc = epilogue->residual_channels;
                for (size_t p = 0; p < rows; p++)
                    VK_SUFFIX(vk_add_pixels)(c + (m0 + p) * c_stride, epilogue->residual + (m0 + p) * rc, rc,
                                             c + (m0 + p) * c_stride, 1, n, epilogue->lo, epilogue->hi, epilogue->alpha);
            }
        } else {
            for (size_t group = group_begin; group < group_end; group++) {
                const vk_u32 *head = (const vk_u32 *)(packed + vk_sparse_group_offset(packed, group));
                for (size_t i = 0; i < 4; i++) {
                    size_t channel = head[i];
                    if (channel >= n) continue;
                    if (!epilogue) {
                        for (size_t p = 0; p < rows; p++) c[(m0 + p) * c_stride + channel] = tile[channel * P + p];
                        continue;
                    }
                    const size_t rc = epilogue->residual_channels;
                    for (size_t p = 0; p < rows; p++) {
                        float x = tile[channel * P + p] + (channel < rc ? epilogue->residual[(m0 + p) * rc + channel] : 0.0f);
                        x = x < epilogue->lo ? epilogue->lo : x;
                        x = x > epilogue->hi ? epilogue->hi : x;
                        if (epilogue->alpha && x < 0.0f) x = x * epilogue->alpha[channel];
                        c[(m0 + p) * c_stride + channel] = x;
                    }
                }
            }
        }
    }
}


// MARK: Bilinear resize

// Output rows [row_begin, row_end) of `r` with `C` channels, inlined with C a constant for the
// few channels of the models' decoders (8 to 48), so that a pixel is a straight run of loads and
// arithmetic with no channel loop to test and its source offsets are shifts; with the count known
// only at run time the per-pixel overhead dominated (kernel_timing.sh, resize cases).
static inline __attribute__((always_inline)) void VK_SUFFIX(resize_bilinear_rows)(const vk_resize *r, size_t C,
                                                                                  size_t row_begin, size_t row_end) {
    // XNNPACK's arithmetic (src/f32-ibilinear/gen/f32-ibilinear-sse-u8.c, the x86 choice of
    // src/configs/ibilinear-config.c): t = tl + (tr - tl)·ax, b = bl + (br - bl)·ax,
    // out = t + (b - t)·ay, each product rounded before its sum (no fused multiply-add).
#pragma clang fp contract(off)
    const size_t W = r->input_width, OW = r->output_width;
    for (size_t task = row_begin; task < row_end; task++) {
        const size_t b = task / r->output_height, oy = task % r->output_height;
        const float *image = r->input + b * r->input_height * W * C;
        const float *top = image + (size_t)r->y_index[2 * oy] * W * C;
        const float *bottom = image + (size_t)r->y_index[2 * oy + 1] * W * C;
        const float ay = r->y_weight[oy];
        float *out = r->output + task * OW * C;
        for (size_t ox = 0; ox < OW; ox++, out += C) {
            const size_t x0 = (size_t)r->x_index[2 * ox] * C, x1 = (size_t)r->x_index[2 * ox + 1] * C;
            const float ax = r->x_weight[ox];
            size_t c = 0;
            // One vector of channels: the horizontal lerps of the two rows, then the vertical one,
            // each a separate multiply and add as XNNPACK computes them. The products are
            // separate statements so that the compiler cannot contract them into FMAs.
#define VK_RESIZE_LERP(type, load, store, lanes)                           \
    for (; c + (lanes) <= C; c += (lanes)) {                               \
        const type tl = load(top + x0 + c), tr = load(top + x1 + c);       \
        const type bl = load(bottom + x0 + c), br = load(bottom + x1 + c); \
        const type td = tr - tl, bd = br - bl;                             \
        const type tp = td * (type)(ax), bp = bd * (type)(ax);             \
        const type t = tl + tp, bo = bl + bp;                              \
        const type d = bo - t;                                             \
        const type dp = d * (type)(ay);                                    \
        store(out + c, t + dp);                                            \
    }
            VK_RESIZE_LERP(vk_v, VK_LOAD, VK_STORE, VK_LANES)
#if VK_LANES == 16
            VK_RESIZE_LERP(vk_h, VK_LOADH, VK_STOREH, 8)
#endif
#undef VK_RESIZE_LERP
            for (; c < C; c++) {
                const float tl = top[x0 + c], tr = top[x1 + c], bl = bottom[x0 + c], br = bottom[x1 + c];
                const float tp = (tr - tl) * ax, bp = (br - bl) * ax;
                const float t = tl + tp, bo = bl + bp;
                const float dp = (bo - t) * ay;
                out[c] = t + dp;
            }
        }
    }
}

VK_ALIGNED
void VK_SUFFIX(vk_resize_bilinear)(const vk_resize *r, size_t row_begin, size_t row_end) {
    switch (r->channels) {
    case 8: VK_SUFFIX(resize_bilinear_rows)(r, 8, row_begin, row_end); break;
    case 16: VK_SUFFIX(resize_bilinear_rows)(r, 16, row_begin, row_end); break;
    case 24: VK_SUFFIX(resize_bilinear_rows)(r, 24, row_begin, row_end); break;
    case 32: VK_SUFFIX(resize_bilinear_rows)(r, 32, row_begin, row_end); break;
    case 48: VK_SUFFIX(resize_bilinear_rows)(r, 48, row_begin, row_end); break;
    default: VK_SUFFIX(resize_bilinear_rows)(r, r->channels, row_begin, row_end); break;
    }
}

// MARK: Sigmoid

#ifdef VK_SIGMOID_P5
// XNNPACK's AVX2 sigmoid, the one src/configs/unary-elementwise-config.c gives a CPU with AVX2 but
// not AVX-512 (src/f32-vsigmoid/gen/f32-vsigmoid-avx2-rr1-p5-div-u40.c; constants from there):
// z = -|x|; n = round(z·log2(e)) by a magic-number add, whose low bits shifted into the exponent
// give s = 2^n; t = z - n·ln2 in one step; p = c1 + t·(c2 + t·(c3 + t·(c4 + t·c5))) by Horner's
// rule; e = s + (t·s)·p; f = e / (e + 1); 0 below the cutoff where e leaves the normal floats;
// 1 - f where x's sign bit is clear. On such a CPU LiteRT's LOGISTIC is this, not the AVX-512
// algorithm below (op_bit_parity.py on an AMD EPYC family 25 model 1: the selfie segmenter's
// mask differed in 6 % of its elements by a bit or two). XNNPACK runs with denormals flushed
// (see vk_denormals_flush_begin); the two places a subnormal can arise, t·s and e, are flushed
// here explicitly, so the result does not depend on the thread's float mode.
#define VK_SIGMOID_P5_CONSTANTS                                                                      \
    const float magic = 0x1.8000FEp23f, log2e = 0x1.715476p0f, minus_ln2 = -0x1.62E430p-1f;          \
    const float c5 = 0x1.0F9F9Cp-7f, c4 = 0x1.573A1Ap-5f, c3 = 0x1.555A80p-3f;                       \
    const float c2 = 0x1.FFFDC6p-2f, c1 = 0x1.FFFFF6p-1f, cutoff = -0x1.5D589Ep+6f;

typedef int32_t VK_SUFFIX(vk_vi) __attribute__((ext_vector_type(VK_LANES)));

// One vector of vk_sigmoid.
static inline vk_v VK_SUFFIX(sigmoid_p5)(vk_v v) {
#pragma clang fp contract(off)
    VK_SIGMOID_P5_CONSTANTS
    const VK_SUFFIX(vk_vi) vb = (VK_SUFFIX(vk_vi))v;
    const vk_v z = (vk_v)(vb | (int32_t)0x80000000);
    vk_v n = VK_FMA(z, (vk_v)(log2e), (vk_v)(magic));
    const vk_v scale = (vk_v)((VK_SUFFIX(vk_vi))n << 23);
    n = n - (vk_v)(magic);
    vk_v t = VK_FMA(n, (vk_v)(minus_ln2), z);
    vk_v p = VK_FMA((vk_v)(c5), t, (vk_v)(c4));
    p = VK_FMA(p, t, (vk_v)(c3));
    p = VK_FMA(p, t, (vk_v)(c2));
    p = VK_FMA(p, t, (vk_v)(c1));
    t = t * scale;
    t = __builtin_elementwise_abs(t) < (vk_v)(0x1p-126f) ? (vk_v)(0.0f) : t;
    vk_v e = VK_FMA(t, p, scale);
    e = e < (vk_v)(0x1p-126f) ? (vk_v)(0.0f) : e;
    vk_v f = e / (e + (vk_v)(1.0f));
    f = z < (vk_v)(cutoff) ? (vk_v)(0.0f) : f;
    return vb < 0 ? f : (vk_v)(1.0f) - f;
}

// Whole vectors, then the last few values as one vector padded with zeros (as XNNPACK's masked
// loads do): every value through the same lanes' operations.
VK_ALIGNED
void VK_SUFFIX(vk_sigmoid)(const float *x, float *y, size_t count) {
    size_t i = 0;
    for (; i + VK_LANES <= count; i += VK_LANES) VK_STORE(y + i, VK_SUFFIX(sigmoid_p5)(VK_LOAD(x + i)));
    if (i < count) {
        float lanes[VK_LANES] = {0};
        memcpy(lanes, x + i, (count - i) * sizeof(float));
        VK_STORE(lanes, VK_SUFFIX(sigmoid_p5)(VK_LOAD(lanes)));
        memcpy(y + i, lanes, (count - i) * sizeof(float));
    }
}
#undef VK_SIGMOID_P5_CONSTANTS
#else

// XNNPACK's AVX-512 sigmoid, one element at a time with the same operations
// (src/f32-vsigmoid/gen/f32-vsigmoid-avx512f-rr2-lut32-p2-perm2-scalef-div-u64.c; constants
// from there): z = -|x|; n = round(z·log2(e)) to 1/32 by a magic-number add; l = 2^frac(n)
// from a 32-entry table indexed by the low 5 bits of n + magic; t = z - n·ln2 in two steps;
// p = l + t·l·(c1 + t·c2); e = p·2^floor(n) (VSCALEFPS); f = e / (e + 1), and 1 - f for x ≥ 0
// (sign bit clear). Multiply-adds are fused (__builtin_fmaf: an instruction where the target
// has FMA, else the C library's exact fmaf).
static const float VK_SUFFIX(sigmoid_table)[32] = {
    0x1.000000p+0f, 0x1.059B0Ep+0f, 0x1.0B5586p+0f, 0x1.11301Ep+0f, 0x1.172B84p+0f, 0x1.1D4874p+0f,
    0x1.2387A6p+0f, 0x1.29E9E0p+0f, 0x1.306FE0p+0f, 0x1.371A74p+0f, 0x1.3DEA64p+0f, 0x1.44E086p+0f,
    0x1.4BFDAEp+0f, 0x1.5342B6p+0f, 0x1.5AB07Ep+0f, 0x1.6247ECp+0f, 0x1.6A09E6p+0f, 0x1.71F75Ep+0f,
    0x1.7A1148p+0f, 0x1.82589Ap+0f, 0x1.8ACE54p+0f, 0x1.93737Cp+0f, 0x1.9C4918p+0f, 0x1.A5503Cp+0f,
    0x1.AE89FAp+0f, 0x1.B7F770p+0f, 0x1.C199BEp+0f, 0x1.CB720Ep+0f, 0x1.D5818Ep+0f, 0x1.DFC974p+0f,
    0x1.EA4AFAp+0f, 0x1.F50766p+0f,
};

// p · 2^floor(n), rounded once (VSCALEFPS on finite values).
static inline float VK_SUFFIX(scale_pow2)(float p, float n) {
    const float m = __builtin_floorf(n);
    if (!(m >= -300.0f)) return m != m ? m : p * 0.0f;  // NaN stays NaN; far below the range: 0
    if (m > 127.0f) return p * __builtin_inff();
    int k = (int)m;
    if (k < -126) {
        // Exact pre-scaling keeps one rounding: p·2^-100 is a normal float.
        p = p * 0x1p-100f;
        k += 100;
        if (k < -149) return p * 0.0f;
        if (k < -126) {
            uint32_t bits = (uint32_t)1 << (uint32_t)(k + 149);  // 2^k as a subnormal
            float scale;
            memcpy(&scale, &bits, sizeof scale);
            return p * scale;
        }
    }
    uint32_t bits = (uint32_t)(k + 127) << 23;
    float scale;
    memcpy(&scale, &bits, sizeof scale);
    return p * scale;
}

// The constants of XNNPACK's sigmoid (src/f32-vsigmoid/gen/
// f32-vsigmoid-avx512f-rr2-lut32-p2-perm2-scalef-div-u64.c), for both paths below.
#define VK_SIGMOID_CONSTANTS                                                                         \
    const float magic = 0x1.800000p18f, log2e = 0x1.715476p0f;                                       \
    const float minus_ln2_hi = -0x1.62E430p-1f, minus_ln2_lo = 0x1.05C61p-29f;                       \
    const float c2 = 0x1.000000p-1f, c1 = 0x1.0000F6p-0f;

// One element of vk_sigmoid (XNNPACK's AVX-512 algorithm, lane by lane).
static inline float VK_SUFFIX(sigmoid_one)(float value) {
#pragma clang fp contract(off)
    VK_SIGMOID_CONSTANTS
    uint32_t xb;
    memcpy(&xb, &value, sizeof xb);
    const uint32_t zb = xb | 0x80000000u;
    float z;
    memcpy(&z, &zb, sizeof z);
    float n = __builtin_fmaf(z, log2e, magic);
    uint32_t nb;
    memcpy(&nb, &n, sizeof nb);
    const float l = VK_SUFFIX(sigmoid_table)[nb & 31];
    n = n - magic;
    float t = __builtin_fmaf(n, minus_ln2_hi, z);
    t = __builtin_fmaf(n, minus_ln2_lo, t);
    float p = __builtin_fmaf(t, c2, c1);
    t = t * l;
    p = __builtin_fmaf(t, p, l);
    // XNNPACK runs with denormals flushed (see vk_denormals_flush_begin): a subnormal e is 0,
    // so f is 0 (x < 0) or 1 — done explicitly, so the result does not depend on the thread's
    // float mode. Where z·log2(e) overflows (|x| > ~2.4e38) LiteRT 2.3.0 also returns 0 or 1
    // (measured); finite inputs large enough to overflow p give NaN there as here.
    float e = 0.0f;
    if (n != -__builtin_inff()) {
        e = VK_SUFFIX(scale_pow2)(p, n);
        if (e < 0x1p-126f) e = 0.0f;
    }
    const float d = e + 1.0f;
    float f = e / d;
    if (!(xb & 0x80000000u)) f = 1.0f - f;
    return f;
}

typedef int32_t VK_SUFFIX(vk_vi) __attribute__((ext_vector_type(VK_LANES)));

VK_ALIGNED
void VK_SUFFIX(vk_sigmoid)(const float *x, float *y, size_t count) {
#pragma clang fp contract(off)
    VK_SIGMOID_CONSTANTS
    size_t i = 0;
    // Whole vectors, sigmoid_one's operations lane by lane with the same roundings. Where
    // floor(n) < -126 (|x| beyond ~87), sigmoid_one's 2^floor(n) is not a normal float and its
    // product with p is flushed to 0 unless it is normal: only floor(n) = -127 with p >= 2 keeps
    // p · 2^-127 (exact), written here with normal factors; a p that overflowed (|x| near the
    // float range) still gives NaN, and x = ±inf 0 or 1. A vector holding a NaN runs sigmoid_one
    // lane by lane.
    for (; i + VK_LANES <= count; i += VK_LANES) {
        const vk_v v = VK_LOAD(x + i);
        if (!__builtin_reduce_and(v == v)) {
            for (size_t lane = 0; lane < VK_LANES; lane++) y[i + lane] = VK_SUFFIX(sigmoid_one)(x[i + lane]);
            continue;
        }
        const VK_SUFFIX(vk_vi) vb = (VK_SUFFIX(vk_vi))v;
        const vk_v z = (vk_v)(vb | (int32_t)0x80000000);
        vk_v n = VK_FMA(z, (vk_v)(log2e), (vk_v)(magic));
        const VK_SUFFIX(vk_vi) nb = (VK_SUFFIX(vk_vi))n;
        n = n - (vk_v)(magic);
        const vk_v m = __builtin_elementwise_floor(n);
#ifdef VK_LUT32
        const vk_v l = VK_LUT32(VK_SUFFIX(sigmoid_table), nb & 31);
#else
        vk_v l;
        for (size_t lane = 0; lane < VK_LANES; lane++) l[lane] = VK_SUFFIX(sigmoid_table)[nb[lane] & 31];
#endif
        vk_v t = VK_FMA(n, (vk_v)(minus_ln2_hi), z);
        t = VK_FMA(n, (vk_v)(minus_ln2_lo), t);
        vk_v p = VK_FMA(t, (vk_v)(c2), (vk_v)(c1));
        t = t * l;
        p = VK_FMA(t, p, l);
        const vk_v clamped = m < (vk_v)(-126.0f) ? (vk_v)(-126.0f) : m;
        const VK_SUFFIX(vk_vi) k = __builtin_convertvector(clamped, VK_SUFFIX(vk_vi));
        const vk_v normal = p * (vk_v)((k + 127) << 23);
        // Below 2^-126: p · 2^-127 for p >= 2, else p · 0 (0, or NaN where p overflowed). The
        // factor is chosen first, so no lane computes a subnormal (slow on some cores).
        const vk_v kept = m == (vk_v)(-127.0f) && p >= (vk_v)(2.0f) ? p : p * (vk_v)(0.0f);
        const vk_v low = (kept * (vk_v)(0.5f)) * (vk_v)(0x1p-126f);
        vk_v e = m < (vk_v)(-126.0f) ? low : normal;
        e = e < (vk_v)(0x1p-126f) || n == (vk_v)(-__builtin_inff()) ? (vk_v)(0.0f) : e;
        const vk_v f = e / (e + (vk_v)(1.0f));
        VK_STORE(y + i, vb < 0 ? f : (vk_v)(1.0f) - f);
    }
    for (; i < count; i++) y[i] = VK_SUFFIX(sigmoid_one)(x[i]);
}
#undef VK_SIGMOID_CONSTANTS
#endif

// MARK: Convolution with few output channels, pixels in lanes

VK_ALIGNED
void VK_SUFFIX(vk_conv_planar)(const vk_conv_geometry *g, const float *filter, const float *bias, size_t n,
                               float *output, size_t row_begin, size_t row_end, float lo, float hi, float *scratch) {
    const size_t C = g->channels, KH = g->kernel_height, KW = g->kernel_width, W = g->input_width;
    const size_t OW = g->output_width, OH = g->output_height, K = KH * KW * C;
    const size_t plane = vk_conv_planar_row_floats(g) / C;  // floats per channel of a planar row
    if (KH > 32 || n > 4) return;  // rejected by the caller
    // A ring of KH planar rows: slot s holds input row rows[s] (image images[s]) as C planes of
    // `plane` floats, zero-padded left and right.
    ptrdiff_t rows[32];
    size_t images[32];
    for (size_t s = 0; s < KH; s++) rows[s] = -1, images[s] = (size_t)-1;
    const vk_v vlo = (vk_v)(lo), vhi = (vk_v)(hi);
    for (size_t task = row_begin; task < row_end; task++) {
        const size_t b = task / OH, oy = task % OH;
        const float *image = g->input + b * g->input_height * W * C;
        const float *slot[32];
        for (size_t ky = 0; ky < KH; ky++) {
            const ptrdiff_t iy = (ptrdiff_t)oy - (ptrdiff_t)g->pad_top + (ptrdiff_t)ky;
            const size_t s = (size_t)(((iy % (ptrdiff_t)KH) + (ptrdiff_t)KH) % (ptrdiff_t)KH);
            float *dst = scratch + s * C * plane;
            slot[ky] = dst;
            if (rows[s] == iy && images[s] == b) continue;
            rows[s] = iy;
            images[s] = b;
            memset(dst, 0, C * plane * sizeof(float));
            if (iy < 0 || iy >= (ptrdiff_t)g->input_height) continue;
            const float *src = image + (size_t)iy * W * C;
            size_t x = 0;
            if (C % 8 == 0) {
                for (; x + 8 <= W; x += 8)
                    for (size_t c = 0; c < C; c += 8)
                        VK_SUFFIX(transpose8)(src + x * C + c, C, dst + c * plane + g->pad_left + x, plane);
            }
            for (; x < W; x++)
                for (size_t c = 0; c < C; c++) dst[c * plane + g->pad_left + x] = src[x * C + c];
        }
        float *out = output + task * OW * n;
        for (size_t o = 0; o < n; o++) {
            const float *w = filter + o * K;
            const vk_v start = (vk_v)(bias ? bias[o] : 0.0f);
            size_t ox = 0;
            // Four vectors of pixels at a time: independent sums hide the multiply-add latency.
            // Terms in XNNPACK's igemm order: window row, window column, then channel (see
            // VK_DOT_PIXEL), one fused multiply-add each after the bias.
            for (; n == 1 && ox + 4 * VK_LANES <= OW; ox += 4 * VK_LANES) {
                vk_v acc0 = start, acc1 = start, acc2 = start, acc3 = start;
                for (size_t ky = 0; ky < KH; ky++)
                    for (size_t kx = 0; kx < KW; kx++)
                        for (size_t c = 0; c < C; c++) {
                            const float *x = slot[ky] + c * plane + ox + kx;
                            const vk_v wv = (vk_v)(w[(ky * KW + kx) * C + c]);
                            acc0 = VK_FMA(VK_LOAD(x), wv, acc0);
                            acc1 = VK_FMA(VK_LOAD(x + VK_LANES), wv, acc1);
                            acc2 = VK_FMA(VK_LOAD(x + 2 * VK_LANES), wv, acc2);
                            acc3 = VK_FMA(VK_LOAD(x + 3 * VK_LANES), wv, acc3);
                        }
                VK_STORE(out + ox, VK_MIN(vhi, VK_MAX(vlo, acc0)));
                VK_STORE(out + ox + VK_LANES, VK_MIN(vhi, VK_MAX(vlo, acc1)));
                VK_STORE(out + ox + 2 * VK_LANES, VK_MIN(vhi, VK_MAX(vlo, acc2)));
                VK_STORE(out + ox + 3 * VK_LANES, VK_MIN(vhi, VK_MAX(vlo, acc3)));
            }
            for (; ox < OW; ox += VK_LANES) {
                vk_v acc = start;
                for (size_t ky = 0; ky < KH; ky++)
                    for (size_t kx = 0; kx < KW; kx++)
                        for (size_t c = 0; c < C; c++)
                            acc = VK_FMA(VK_LOAD(slot[ky] + c * plane + ox + kx), (vk_v)(w[(ky * KW + kx) * C + c]), acc);
                acc = VK_MIN(vhi, VK_MAX(vlo, acc));
                float lanes[VK_LANES];
                VK_STORE(lanes, acc);
                const size_t count = OW - ox < VK_LANES ? OW - ox : VK_LANES;
                if (n == 1 && count == VK_LANES) {
                    VK_STORE(out + ox, acc);
                } else {
                    for (size_t l = 0; l < count; l++) out[(ox + l) * n + o] = lanes[l];
                }
            }
        }
    }
}

// MARK: Transposed convolution with few outputs per input pixel

// The lanes of a and b interleaved (a0 b0 a1 b1 ...): the first VK_LANES of them, then the rest.
#if VK_LANES == 16
#define VK_INTERLEAVE_LOW(a, b) \
    __builtin_shufflevector(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23)
#define VK_INTERLEAVE_HIGH(a, b) \
    __builtin_shufflevector(a, b, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31)
#else
#define VK_INTERLEAVE_LOW(a, b) __builtin_shufflevector(a, b, 0, 8, 1, 9, 2, 10, 3, 11)
#define VK_INTERLEAVE_HIGH(a, b) __builtin_shufflevector(a, b, 4, 12, 5, 13, 6, 14, 7, 15)
#endif

// Output j of input pixel x, for the outputs [j0, j0 + J) of a block of VK_LANES pixels held as
// channel planes (`planes[c * VK_LANES + l]`): the bias, then one fused multiply-add per
// channel in order (XNNPACK's deconvolution GEMM order). J independent sums per channel.
#define VK_DECONV_SUMS(J)                                                                            \
    {                                                                                                \
        vk_v acc[J];                                                                                 \
        VK_UNROLL for (size_t q = 0; q < (J); q++) acc[q] = (vk_v)(bias ? bias[j0 + q] : 0.0f);      \
        for (size_t c = 0; c < C; c++) {                                                             \
            const vk_v x = VK_LOAD(planes + c * VK_LANES);                                           \
            VK_UNROLL for (size_t q = 0; q < (J); q++)                                               \
                acc[q] = VK_FMA(x, (vk_v)(weights[(j0 + q) * C + c]), acc[q]);                       \
        }                                                                                            \
        VK_UNROLL for (size_t q = 0; q < (J); q++) VK_STORE(sums + (j0 + q) * VK_LANES, acc[q]);     \
    }

VK_ALIGNED
void VK_SUFFIX(vk_deconv_row)(const float *input, size_t W, size_t C, const float *weights, const float *bias,
                              size_t KH, size_t KW, size_t CO, float *output, size_t output_row_stride) {
    const size_t n = KH * KW * CO;
    if (n > VK_DECONV_MAX_OUTPUTS || C > VK_DECONV_MAX_CHANNELS) return;  // the caller checks
    float planes[VK_DECONV_MAX_CHANNELS * VK_LANES] __attribute__((aligned(64)));
    float sums[VK_DECONV_MAX_OUTPUTS * VK_LANES] __attribute__((aligned(64)));
    for (size_t x0 = 0; x0 < W; x0 += VK_LANES) {
        const size_t count = W - x0 < VK_LANES ? W - x0 : VK_LANES;
        // The block's pixels as channel planes (lanes past the row's end hold zeros).
        size_t c0 = 0;
        if (count == VK_LANES) {
            for (; c0 + 8 <= C; c0 += 8)
                for (size_t p = 0; p < VK_LANES; p += 8)
                    VK_SUFFIX(transpose8)(input + (x0 + p) * C + c0, C, planes + c0 * VK_LANES + p, VK_LANES);
        }
        for (size_t c = c0; c < C; c++)
            for (size_t l = 0; l < VK_LANES; l++) planes[c * VK_LANES + l] = l < count ? input[(x0 + l) * C + c] : 0.0f;
        size_t j0 = 0;
        for (; j0 + 4 <= n; j0 += 4) VK_DECONV_SUMS(4)
        for (; j0 < n; j0++) VK_DECONV_SUMS(1)
        // Output j = (dy * KW + dx) * CO + o of pixel x goes to row dy, column x * KW + dx,
        // channel o.
        for (size_t dy = 0; dy < KH; dy++) {
            float *row = output + dy * output_row_stride + x0 * KW * CO;
            const float *from = sums + dy * KW * CO * VK_LANES;
            if (KW * CO == 2 && count == VK_LANES) {
                // Two outputs a pixel (the segmenters' 2 x 2 x 1): the two sums' lanes interleaved.
                const vk_v first = VK_LOAD(from), second = VK_LOAD(from + VK_LANES);
                VK_STORE(row, VK_INTERLEAVE_LOW(first, second));
                VK_STORE(row + VK_LANES, VK_INTERLEAVE_HIGH(first, second));
                continue;
            }
            for (size_t l = 0; l < count; l++)
                for (size_t t = 0; t < KW * CO; t++) row[l * KW * CO + t] = from[t * VK_LANES + l];
        }
    }
}

#include "image_warp_body.h"
