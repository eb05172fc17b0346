// Instruction-set detection and the entry points that dispatch to one build of the kernels.
#include <string.h>
#include "CVisionKernels.h"
#include "gemm_layout.h"

#define VK_DECLARE(suffix)                                                                                   \
    void vk_gemm_run_##suffix(vk_gemm_shape, const float *, const float *, size_t, float *, size_t, size_t,  \
                              size_t, size_t, size_t, float, float);                                        \
    void vk_dwconv_run_##suffix(const vk_dwconv *, size_t, size_t);                                         \
    void vk_conv_dot_##suffix(const vk_conv_geometry *, const float *, const float *, size_t, float *, size_t, \
                              size_t, float, float, const float *);                                       \
    void vk_add_pixels_##suffix(const float *, const float *, size_t, float *, size_t, size_t, float, float,     \
                                const float *);                                                                \
    void vk_prelu_pixels_##suffix(const float *, float *, size_t, size_t, const float *);                        \
    void vk_max_pool_##suffix(const vk_conv_geometry *, float *, size_t, size_t, float, float);

VK_DECLARE(portable)
#if defined(__x86_64__) || defined(_M_X64)
VK_DECLARE(avx2)
VK_DECLARE(avx512)
#endif
#if defined(__aarch64__)
VK_DECLARE(neon)
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
    switch (shape.isa) {
#if defined(__x86_64__) || defined(_M_X64)
    case VK_ISA_AVX512:
        vk_gemm_run_avx512(shape, packed, a, a_stride, c, c_stride, row_begin, row_end, panel_begin, panel_end, lo, hi);
        return;
    case VK_ISA_AVX2:
        vk_gemm_run_avx2(shape, packed, a, a_stride, c, c_stride, row_begin, row_end, panel_begin, panel_end, lo, hi);
        return;
#endif
#if defined(__aarch64__)
    case VK_ISA_NEON:
        vk_gemm_run_neon(shape, packed, a, a_stride, c, c_stride, row_begin, row_end, panel_begin, panel_end, lo, hi);
        return;
#endif
    default:
        vk_gemm_run_portable(shape, packed, a, a_stride, c, c_stride, row_begin, row_end, panel_begin, panel_end, lo, hi);
        return;
    }
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
    switch (conv->isa) {
#if defined(__x86_64__) || defined(_M_X64)
    case VK_ISA_AVX512: vk_dwconv_run_avx512(conv, row_begin, row_end); return;
    case VK_ISA_AVX2: vk_dwconv_run_avx2(conv, row_begin, row_end); return;
#endif
#if defined(__aarch64__)
    case VK_ISA_NEON: vk_dwconv_run_neon(conv, row_begin, row_end); return;
#endif
    default: vk_dwconv_run_portable(conv, row_begin, row_end); return;
    }
}

// MARK: Element-wise and pooling

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

void vk_add_pixels(vk_isa isa, const float *a, const float *b, size_t b_channels, float *out, size_t pixels,
                   size_t channels, float lo, float hi, const float *alpha) {
    VK_DISPATCH(isa, vk_add_pixels, a, b, b_channels, out, pixels, channels, lo, hi, alpha)
}

void vk_prelu_pixels(vk_isa isa, const float *x, float *out, size_t pixels, size_t channels, const float *alpha) {
    VK_DISPATCH(isa, vk_prelu_pixels, x, out, pixels, channels, alpha)
}

void vk_max_pool(vk_isa isa, const vk_conv_geometry *geometry, float *output, size_t row_begin, size_t row_end,
                 float lo, float hi) {
    VK_DISPATCH(isa, vk_max_pool, geometry, output, row_begin, row_end, lo, hi)
}
