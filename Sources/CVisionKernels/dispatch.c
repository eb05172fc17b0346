// Instruction-set detection and the entry points that dispatch to one build of the kernels.
#include <string.h>
#include "CVisionKernels.h"
#include "gemm_layout.h"
#include "sparse_layout.h"
#include <stdlib.h>

#define VK_DECLARE(suffix)                                                                                   \
    void vk_gemm_run_##suffix(vk_gemm_shape, const float *, const float *, size_t, float *, size_t, size_t,  \
                              size_t, size_t, size_t, float, float);                                        \
    void vk_gemm_run_skipping_zeros_##suffix(vk_gemm_shape, const float *, const float *, size_t, float *, size_t,  \
                                             size_t, size_t, size_t, size_t, float, float);                        \
    void vk_dwconv_run_##suffix(const vk_dwconv *, size_t, size_t, size_t, size_t);                                         \
    void vk_gemm_conv_##suffix(vk_gemm_shape, const float *, const vk_conv_geometry *, const float *, float *,  \
                               size_t, size_t, size_t, size_t, size_t, float, float);                                         \
    void vk_conv_dot_##suffix(const vk_conv_geometry *, const float *, const float *, size_t, float *, size_t, \
                              size_t, float, float, const float *);                                       \
    void vk_add_pixels_##suffix(const float *, const float *, size_t, float *, size_t, size_t, float, float,     \
                                const float *);                                                                \
    void vk_prelu_pixels_##suffix(const float *, float *, size_t, size_t, const float *);                        \
    void vk_scale_add_pixels_##suffix(const float *, const float *, const float *, float *, size_t, size_t, float, \
                                      float);                                                                  \
    void vk_binary_rows_##suffix(vk_binary_op, const float *, size_t, int, const float *, size_t, int, float *,  \
                                 size_t, size_t, float, float);                                                \
    void vk_transpose_##suffix(const float *, size_t, size_t, float *, size_t, size_t);                         \
    void vk_max_pool_##suffix(const vk_conv_geometry *, float *, size_t, size_t, float, float);                \
    void vk_avg_pool_##suffix(const vk_conv_geometry *, float *, size_t, size_t, int, float, float);           \
    void vk_avg_pool_pass_rows_##suffix(const vk_conv_geometry *, size_t, size_t, float *);                   \
    void vk_avg_pool_chain_##suffix(const float *, size_t, size_t, size_t, float, float, float *);             \
    void vk_hard_swish_##suffix(const float *, float *, size_t);                                             \
    void vk_rsqrt_##suffix(const float *, float *, size_t);                                                  \
    void vk_sqrt_##suffix(const float *, float *, size_t);                                                   \
    void vk_row_sums_##suffix(const float *, size_t, size_t, float, float *);                               \
    void vk_layer_norm_##suffix(const float *, float *, size_t, size_t, size_t, float, const float *, float *); \
    void vk_resize_bilinear_##suffix(const vk_resize *, size_t, size_t);                                     \
    void vk_sigmoid_##suffix(const float *, float *, size_t);                                                \
    void vk_warp_rows_##suffix(const vk_warp *, size_t, size_t);                                             \
    void vk_conv_planar_##suffix(const vk_conv_geometry *, const float *, const float *, size_t, float *, size_t, \
                                 size_t, float, float, float *);                \
    void vk_deconv_row_##suffix(const float *, size_t, size_t, const float *, const float *, size_t, size_t,  \
                                size_t, float *, size_t);                                                      \
    size_t vk_sparse_tile_pixels_##suffix(void);                                                               \
    size_t vk_sparse_vector_pixels_##suffix(void);                                                             \
    void vk_sparse_run_##suffix(const float *, size_t, size_t, const float *, size_t, float *, size_t, size_t,   \
                                size_t, size_t, size_t, float, float, const vk_epilogue *, float *);

VK_DECLARE(portable)
#if defined(__x86_64__) || defined(_M_X64)
VK_DECLARE(avx2)
VK_DECLARE(avx512)
#endif
#if defined(__aarch64__)
VK_DECLARE(neon)
#endif

// Calls the build of `name` for `isa` (the portable one for any other) and returns.
#if defined(__x86_64__) || defined(_M_X64)
#define VK_DISPATCH(isa, name, ...)                                               \
    switch (isa) {                                                                \
    case VK_ISA_AVX512: name##_avx512(__VA_ARGS__); return;                       \
    case VK_ISA_AVX2: name##_avx2(__VA_ARGS__); return;                           \
    default: name##_portable(__VA_ARGS__); return;                                \
    }
#elif defined(__aarch64__)
#define VK_DISPATCH(isa, name, ...)                                               \
    switch (isa) {                                                                \
    case VK_ISA_NEON: name##_neon(__VA_ARGS__); return;                           \
    default: name##_portable(__VA_ARGS__); return;                                \
    }
#else
#define VK_DISPATCH(isa, name, ...) name##_portable(__VA_ARGS__);
#endif

int vk_isa_is_supported(vk_isa isa) {
    switch (isa) {
    case VK_ISA_PORTABLE: return 1;
#if defined(__x86_64__) || defined(_M_X64)
    case VK_ISA_AVX2:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case VK_ISA_AVX512:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")
            && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq")
            && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
#if defined(__aarch64__)
    case VK_ISA_NEON: return 1;
#endif
    default: return 0;
    }
}

vk_isa vk_isa_detect(void) {
    if (vk_isa_is_supported(VK_ISA_AVX512)) return VK_ISA_AVX512;
    if (vk_isa_is_supported(VK_ISA_AVX2)) return VK_ISA_AVX2;
    if (vk_isa_is_supported(VK_ISA_NEON)) return VK_ISA_NEON;
    return VK_ISA_PORTABLE;
}

const char *vk_isa_name(vk_isa isa) {
    switch (isa) {
    case VK_ISA_AVX2: return "avx2";
    case VK_ISA_AVX512: return "avx512";
    case VK_ISA_NEON: return "neon";
    default: return "portable";
    }
}

// MARK: Matrix product

size_t vk_gemm_panel_count(vk_gemm_shape shape) { return vk_gemm_panels(shape); }

size_t vk_gemm_packed_count(vk_gemm_shape shape) {
    size_t count = vk_gemm_panels(shape);
    if (count == 0) return 0;
    vk_panel last = vk_gemm_panel(shape, count - 1);
    return last.offset + (shape.k + 1) * last.width;
}

void vk_gemm_panel_columns(vk_gemm_shape shape, size_t panel_begin, size_t panel_end, size_t *column_begin,
                           size_t *column_end) {
    if (panel_begin >= panel_end) {
        *column_begin = *column_end = 0;
        return;
    }
    vk_panel first = vk_gemm_panel(shape, panel_begin), last = vk_gemm_panel(shape, panel_end - 1);
    size_t end = last.column + last.width;
    *column_begin = first.column;
    *column_end = end < shape.n ? end : shape.n;
}

size_t vk_gemm_tile_rows(vk_isa isa) {
    switch (isa) {
    case VK_ISA_AVX512: return 8;
    case VK_ISA_AVX2: return 6;
    case VK_ISA_NEON: return 6;
    default: return 4;
    }
}

void vk_gemm_pack(vk_gemm_shape shape, const float *weights, const float *bias, float *packed) {
    size_t count = vk_gemm_panels(shape);
    memset(packed, 0, vk_gemm_packed_count(shape) * sizeof(float));
    for (size_t p = 0; p < count; p++) {
        vk_panel panel = vk_gemm_panel(shape, p);
        float *out = packed + panel.offset;
        for (size_t j = 0; j < panel.width && panel.column + j < shape.n; j++) {
            size_t column = panel.column + j;
            out[j] = bias ? bias[column] : 0.0f;
            const float *row = weights + column * shape.k;
            for (size_t kk = 0; kk < shape.k; kk++) out[(kk + 1) * panel.width + j] = row[kk];
        }
    }
}

void vk_gemm_run(vk_gemm_shape shape, const float *packed, const float *a, size_t a_stride, float *c,
                 size_t c_stride, size_t row_begin, size_t row_end, size_t panel_begin, size_t panel_end,
                 float lo, float hi) {
    VK_DISPATCH(shape.isa, vk_gemm_run, shape, packed, a, a_stride, c, c_stride, row_begin, row_end, panel_begin,
                panel_end, lo, hi)
}

void vk_gemm_run_skipping_zeros(vk_gemm_shape shape, const float *packed, const float *a, size_t a_stride, float *c,
                                size_t c_stride, size_t row_begin, size_t row_end, size_t panel_begin,
                                size_t panel_end, float lo, float hi) {
    VK_DISPATCH(shape.isa, vk_gemm_run_skipping_zeros, shape, packed, a, a_stride, c, c_stride, row_begin, row_end,
                panel_begin, panel_end, lo, hi)
}

// MARK: Convolution patches

void vk_im2col(const vk_conv_geometry *g, size_t pixel, size_t count, float *out) {
    const size_t C = g->channels, KW = g->kernel_width, per_image = g->output_height * g->output_width;
    size_t b = pixel / per_image, oy = pixel % per_image / g->output_width, ox = pixel % g->output_width;
    for (size_t m = 0; m < count; m++) {
        if (m > 0 && ++ox == g->output_width) {
            ox = 0;
            if (++oy == g->output_height) {
                oy = 0;
                b++;
            }
        }
        const float *image = g->input + b * g->input_height * g->input_width * C;
        ptrdiff_t iy0 = (ptrdiff_t)(oy * g->stride_h) - (ptrdiff_t)g->pad_top;
        ptrdiff_t ix0 = (ptrdiff_t)(ox * g->stride_w) - (ptrdiff_t)g->pad_left;
        size_t kx_lo = 0, kx_hi = KW;
        while (kx_lo < KW && ix0 + (ptrdiff_t)(kx_lo * g->dilation_w) < 0) kx_lo++;
        while (kx_hi > kx_lo && ix0 + (ptrdiff_t)((kx_hi - 1) * g->dilation_w) >= (ptrdiff_t)g->input_width) kx_hi--;
        for (size_t ky = 0; ky < g->kernel_height; ky++) {
            ptrdiff_t iy = iy0 + (ptrdiff_t)(ky * g->dilation_h);
            if (iy < 0 || iy >= (ptrdiff_t)g->input_height || kx_lo >= kx_hi) {
                memset(out, 0, KW * C * sizeof(float));
                out += KW * C;
                continue;
            }
            const float *row = image + (size_t)iy * g->input_width * C;
            if (kx_lo > 0) memset(out, 0, kx_lo * C * sizeof(float));
            if (g->dilation_w == 1) {
                // The taps inside the input are contiguous in NHWC.
                memcpy(out + kx_lo * C, row + (size_t)(ix0 + (ptrdiff_t)kx_lo) * C, (kx_hi - kx_lo) * C * sizeof(float));
            } else {
                for (size_t kx = kx_lo; kx < kx_hi; kx++)
                    memcpy(out + kx * C, row + (size_t)(ix0 + (ptrdiff_t)(kx * g->dilation_w)) * C, C * sizeof(float));
            }
            if (kx_hi < KW) memset(out + kx_hi * C, 0, (KW - kx_hi) * C * sizeof(float));
            out += KW * C;
        }
    }
}

void vk_conv_dot(vk_isa isa, const vk_conv_geometry *g, const float *filter, const float *bias, size_t n,
                 float *output, size_t pixel, size_t count, float lo, float hi, const float *zeros) {
    switch (isa) {
#if defined(__x86_64__) || defined(_M_X64)
    case VK_ISA_AVX512: vk_conv_dot_avx512(g, filter, bias, n, output, pixel, count, lo, hi, zeros); return;
    case VK_ISA_AVX2: vk_conv_dot_avx2(g, filter, bias, n, output, pixel, count, lo, hi, zeros); return;
#endif
#if defined(__aarch64__)
    case VK_ISA_NEON: vk_conv_dot_neon(g, filter, bias, n, output, pixel, count, lo, hi, zeros); return;
#endif
    default: vk_conv_dot_portable(g, filter, bias, n, output, pixel, count, lo, hi, zeros); return;
    }
}

// MARK: Depthwise convolution

void vk_dwconv_run(const vk_dwconv *conv, size_t row_begin, size_t row_end) {
    vk_dwconv_run_channels(conv, row_begin, row_end, 0, conv->channels);
}

void vk_dwconv_run_channels(const vk_dwconv *conv, size_t row_begin, size_t row_end, size_t channel_begin,
                            size_t channel_end) {
    switch (conv->isa) {
#if defined(__x86_64__) || defined(_M_X64)
    case VK_ISA_AVX512: vk_dwconv_run_avx512(conv, row_begin, row_end, channel_begin, channel_end); return;
    case VK_ISA_AVX2: vk_dwconv_run_avx2(conv, row_begin, row_end, channel_begin, channel_end); return;
#endif
#if defined(__aarch64__)
    case VK_ISA_NEON: vk_dwconv_run_neon(conv, row_begin, row_end, channel_begin, channel_end); return;
#endif
    default: vk_dwconv_run_portable(conv, row_begin, row_end, channel_begin, channel_end); return;
    }
}

// MARK: Element-wise and pooling

void vk_add_pixels(vk_isa isa, const float *a, const float *b, size_t b_channels, float *out, size_t pixels,
                   size_t channels, float lo, float hi, const float *alpha) {
    VK_DISPATCH(isa, vk_add_pixels, a, b, b_channels, out, pixels, channels, lo, hi, alpha)
}

void vk_scale_add_pixels(vk_isa isa, const float *a, const float *scale, const float *b, float *out, size_t pixels,
                         size_t channels, float lo, float hi) {
    VK_DISPATCH(isa, vk_scale_add_pixels, a, scale, b, out, pixels, channels, lo, hi)
}

void vk_prelu_pixels(vk_isa isa, const float *x, float *out, size_t pixels, size_t channels, const float *alpha) {
    VK_DISPATCH(isa, vk_prelu_pixels, x, out, pixels, channels, alpha)
}

void vk_binary_rows(vk_isa isa, vk_binary_op op, const float *a, size_t a_row, int a_inner, const float *b,
                    size_t b_row, int b_inner, float *out, size_t rows, size_t inner, float lo, float hi) {
    VK_DISPATCH(isa, vk_binary_rows, op, a, a_row, a_inner, b, b_row, b_inner, out, rows, inner, lo, hi)
}

void vk_transpose(vk_isa isa, const float *input, size_t rows, size_t columns, float *output, size_t row_begin,
                  size_t row_end) {
    VK_DISPATCH(isa, vk_transpose, input, rows, columns, output, row_begin, row_end)
}

void vk_max_pool(vk_isa isa, const vk_conv_geometry *geometry, float *output, size_t row_begin, size_t row_end,
                 float lo, float hi) {
    VK_DISPATCH(isa, vk_max_pool, geometry, output, row_begin, row_end, lo, hi)
}

void vk_avg_pool(vk_isa isa, const vk_conv_geometry *geometry, float *output, size_t row_begin, size_t row_end,
                 int valid_only, float lo, float hi) {
    VK_DISPATCH(isa, vk_avg_pool, geometry, output, row_begin, row_end, valid_only, lo, hi)
}

void vk_avg_pool_pass_rows(vk_isa isa, const vk_conv_geometry *geometry, size_t row_begin, size_t row_end,
                           float *sums) {
    VK_DISPATCH(isa, vk_avg_pool_pass_rows, geometry, row_begin, row_end, sums)
}

void vk_avg_pool_chain(vk_isa isa, const float *sums, size_t passes, size_t channels, size_t count, float lo,
                       float hi, float *output) {
    VK_DISPATCH(isa, vk_avg_pool_chain, sums, passes, channels, count, lo, hi, output)
}

void vk_hard_swish(vk_isa isa, const float *x, float *y, size_t count) {
    VK_DISPATCH(isa, vk_hard_swish, x, y, count)
}

void vk_rsqrt(vk_isa isa, const float *x, float *y, size_t count) {
    VK_DISPATCH(isa, vk_rsqrt, x, y, count)
}

void vk_sqrt(vk_isa isa, const float *x, float *y, size_t count) {
    VK_DISPATCH(isa, vk_sqrt, x, y, count)
}

void vk_row_sums(vk_isa isa, const float *x, size_t rows, size_t n, float scale, float *out) {
    VK_DISPATCH(isa, vk_row_sums, x, rows, n, scale, out)
}

void vk_layer_norm(vk_isa isa, const float *x, float *y, size_t pixel_begin, size_t pixel_end, size_t channels,
                   float epsilon, const float *gamma, float *scratch) {
    VK_DISPATCH(isa, vk_layer_norm, x, y, pixel_begin, pixel_end, channels, epsilon, gamma, scratch)
}

// MARK: Sparse 1x1 convolution

size_t vk_sparse_nonzeros(size_t n, size_t k, const float *weights) {
    size_t count = 0;
    for (size_t i = 0; i < n * k; i++) count += weights[i] != 0.0f;
    return count;
}

/// Input channels per block for `isa`: a block of a tile's transposed inputs takes at most 32 KB.
static size_t vk_sparse_block(vk_isa isa, size_t k) {
    size_t pixels = vk_sparse_tile_pixels(isa);
    size_t block = (32 * 1024 / sizeof(float)) / pixels / 8 * 8;
    if (block < 8) block = 8;
    return k < block ? k : block;
}

/// Channel order for packing (by non-zero count, most first; ties by index), the steps of each
/// group and block, and the total words.
typedef struct vk_sparse_plan {
    size_t *order;
    size_t *counts;
    size_t *steps;  // groups x blocks
    size_t groups, block, blocks, words;
} vk_sparse_plan;

static int vk_sparse_plan_make(vk_isa isa, size_t n, size_t k, const float *weights, vk_sparse_plan *plan) {
    plan->groups = (n + 3) / 4;
    plan->block = vk_sparse_block(isa, k ? k : 1);
    plan->blocks = k ? (k + plan->block - 1) / plan->block : 0;
    plan->order = malloc((2 * (n ? n : 1) + plan->groups * plan->blocks + 1) * sizeof(size_t));
    if (!plan->order) return 0;
    plan->counts = plan->order + (n ? n : 1);
    plan->steps = plan->counts + (n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        plan->order[i] = i;
        plan->counts[i] = 0;
        for (size_t j = 0; j < k; j++) plan->counts[i] += weights[i * k + j] != 0.0f;
    }
    // Insertion sort (n is at most a few thousand, once at load).
    for (size_t i = 1; i < n; i++) {
        size_t v = plan->order[i], j = i;
        while (j > 0 && plan->counts[plan->order[j - 1]] < plan->counts[v]) {
            plan->order[j] = plan->order[j - 1];
            j--;
        }
        plan->order[j] = v;
    }
    plan->words = 3 + plan->groups;
    for (size_t g = 0; g < plan->groups; g++) {
        plan->words += 12 + plan->blocks;
        for (size_t b = 0; b < plan->blocks; b++) {
            size_t most = 0;
            for (size_t i = 0; i < 4 && g * 4 + i < n; i++) {
                size_t channel = plan->order[g * 4 + i], count = 0;
                for (size_t j = b * plan->block; j < k && j < (b + 1) * plan->block; j++) count += weights[channel * k + j] != 0.0f;
                most = count > most ? count : most;
            }
            plan->steps[g * plan->blocks + b] = most;
            plan->words += 8 * most;
        }
    }
    return 1;
}

size_t vk_sparse_packed_count(vk_isa isa, size_t n, size_t k, const float *weights) {
    vk_sparse_plan plan;
    if (!vk_sparse_plan_make(isa, n, k, weights, &plan)) return 0;
    free(plan.order);
    return plan.words;
}

int vk_sparse_pack(vk_isa isa, size_t n, size_t k, const float *weights, const float *bias, float *packed) {
    vk_sparse_plan plan;
    if (!vk_sparse_plan_make(isa, n, k, weights, &plan)) return 0;
    memset(packed, 0, plan.words * sizeof(float));
    vk_u32 *w32 = (vk_u32 *)packed;
    w32[0] = (uint32_t)plan.groups;
    w32[1] = (uint32_t)plan.block;
    w32[2] = (uint32_t)plan.blocks;
    size_t offset = 3 + plan.groups;
    for (size_t g = 0; g < plan.groups; g++) {
        w32[3 + g] = (uint32_t)offset;
        float *group = packed + offset;
        vk_u32 *head = (vk_u32 *)group;
        size_t total = 0;
        for (size_t b = 0; b < plan.blocks; b++) {
            head[12 + b] = (uint32_t)plan.steps[g * plan.blocks + b];
            total += plan.steps[g * plan.blocks + b];
        }
        for (size_t i = 0; i < 4; i++) {
            size_t slot = g * 4 + i;
            if (slot >= n) {
                head[i] = (uint32_t)n;  // spare channel: zero bias, zero weights at index 0
                continue;
            }
            size_t channel = plan.order[slot];
            head[i] = (uint32_t)channel;
            group[8 + i] = bias ? bias[channel] : 0.0f;
            float *steps = group + 12 + plan.blocks;
            for (size_t b = 0; b < plan.blocks; b++) {
                size_t s = 0;
                for (size_t j = b * plan.block; j < k && j < (b + 1) * plan.block; j++) {
                    float w = weights[channel * k + j];
                    if (w == 0.0f) continue;
                    ((vk_u32 *)steps)[8 * s + i] = (uint32_t)(j - b * plan.block);
                    steps[8 * s + 4 + i] = w;
                    s++;
                }
                // Remaining steps of the block stay index 0, weight 0 (from the memset).
                steps += 8 * plan.steps[g * plan.blocks + b];
            }
        }
        offset += 12 + plan.blocks + 8 * total;
    }
    free(plan.order);
    return 1;
}

size_t vk_sparse_scratch_count(vk_isa isa, const float *packed, size_t n) {
    return (vk_sparse_word(packed, 1) + n + 1) * vk_sparse_tile_pixels(isa);
}

size_t vk_sparse_tile_pixels(vk_isa isa) {
    switch (isa) {
#if defined(__x86_64__) || defined(_M_X64)
    case VK_ISA_AVX512: return vk_sparse_tile_pixels_avx512();
    case VK_ISA_AVX2: return vk_sparse_tile_pixels_avx2();
#endif
#if defined(__aarch64__)
    case VK_ISA_NEON: return vk_sparse_tile_pixels_neon();
#endif
    default: return vk_sparse_tile_pixels_portable();
    }
}

size_t vk_sparse_vector_pixels(vk_isa isa) {
    switch (isa) {
#if defined(__x86_64__) || defined(_M_X64)
    case VK_ISA_AVX512: return vk_sparse_vector_pixels_avx512();
    case VK_ISA_AVX2: return vk_sparse_vector_pixels_avx2();
#endif
#if defined(__aarch64__)
    case VK_ISA_NEON: return vk_sparse_vector_pixels_neon();
#endif
    default: return vk_sparse_vector_pixels_portable();
    }
}

size_t vk_sparse_group_count(const float *packed) { return vk_sparse_word(packed, 0); }

size_t vk_sparse_group_split(const float *packed, size_t parts, size_t part) {
    const size_t groups = vk_sparse_word(packed, 0);
    if (parts == 0 || part >= parts || groups == 0) return groups;
    if (part == 0) return 0;
    // Group offsets grow with the packed size before each group; the last group's own size is
    // left out of the total (a close enough estimate for balancing).
    const size_t first = vk_sparse_group_offset(packed, 0), last = vk_sparse_group_offset(packed, groups - 1);
    const size_t target = first + (last - first) * part / parts;
    size_t lo = 0, hi = groups;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (vk_sparse_group_offset(packed, mid) < target) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

void vk_sparse_run(vk_isa isa, const float *packed, size_t n, size_t k, const float *a, size_t a_stride, float *c,
                   size_t c_stride, size_t row_begin, size_t row_end, size_t group_begin, size_t group_end, float lo,
                   float hi, const vk_epilogue *epilogue, float *scratch) {
    VK_DISPATCH(isa, vk_sparse_run, packed, n, k, a, a_stride, c, c_stride, row_begin, row_end, group_begin, group_end,
                lo, hi, epilogue, scratch)
}

// MARK: Convolution through the packed matrix-product weights

size_t vk_gemm_conv_max_taps(void) { return VK_CONV_MAX_TAPS; }

void vk_gemm_conv(vk_gemm_shape shape, const float *packed, const vk_conv_geometry *geometry, const float *zeros,
                  float *c, size_t c_stride, size_t pixel_begin, size_t pixel_end, size_t panel_begin, size_t panel_end,
                  float lo, float hi) {
    VK_DISPATCH(shape.isa, vk_gemm_conv, shape, packed, geometry, zeros, c, c_stride, pixel_begin, pixel_end,
                panel_begin, panel_end, lo, hi)
}

void vk_resize_bilinear(vk_isa isa, const vk_resize *resize, size_t row_begin, size_t row_end) {
    VK_DISPATCH(isa, vk_resize_bilinear, resize, row_begin, row_end)
}

void vk_warp_rows(vk_isa isa, const vk_warp *warp, size_t row_begin, size_t row_end) {
    VK_DISPATCH(isa, vk_warp_rows, warp, row_begin, row_end)
}

void vk_sigmoid(vk_isa isa, const float *x, float *y, size_t count) {
    VK_DISPATCH(isa, vk_sigmoid, x, y, count)
}

void vk_conv_planar(vk_isa isa, const vk_conv_geometry *geometry, const float *filter, const float *bias, size_t n,
                    float *output, size_t row_begin, size_t row_end, float lo, float hi, float *scratch) {
    VK_DISPATCH(isa, vk_conv_planar, geometry, filter, bias, n, output, row_begin, row_end, lo, hi, scratch)
}

void vk_deconv_row(vk_isa isa, const float *input, size_t width, size_t channels, const float *weights,
                   const float *bias, size_t kernel_height, size_t kernel_width, size_t output_channels, float *output,
                   size_t output_row_stride) {
    VK_DISPATCH(isa, vk_deconv_row, input, width, channels, weights, bias, kernel_height, kernel_width,
                output_channels, output, output_row_stride)
}

size_t vk_conv_planar_scratch_floats(const vk_conv_geometry *geometry) {
    return geometry->kernel_height * vk_conv_planar_row_floats(geometry);
}
