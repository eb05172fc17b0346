// Panel layout of packed matrix-product weights, shared by the packing code and every
// instruction-set build of the kernels.
#ifndef VK_GEMM_LAYOUT_H
#define VK_GEMM_LAYOUT_H

#include "CVisionKernels.h"

/// Window taps the indirect convolution kernel takes (larger windows use im2col).
#define VK_CONV_MAX_TAPS 64
/// Longest k that vk_gemm_run_skipping_zeros skips steps of (its step list is on the stack).
#define VK_SKIP_MAX_K 4096

/// Floats of one planar (channel-major, zero-padded) input row of vk_conv_planar: `channels`
/// planes of the padded width rounded up, plus room for a whole vector past the end.
static inline size_t vk_conv_planar_row_floats(const vk_conv_geometry *g) {
    size_t width = g->output_width + g->kernel_width - 1 + 16;
    return g->channels * ((width + 15) / 16 * 16);
}

/// One column panel of packed weights.
typedef struct vk_panel {
    size_t column;
    size_t width;
    /// Offset in floats of the panel (its bias first, then k rows of `width` floats).
    size_t offset;
} vk_panel;

/// Width of the main panels for an instruction set.
static inline size_t vk_gemm_main_width(vk_isa isa) {
    switch (isa) {
    case VK_ISA_AVX512: return 32;
    case VK_ISA_AVX2: return 16;
    case VK_ISA_NEON: return 16;
    default: return 8;
    }
}

/// Width of the next tail panel for `remaining` columns (all fewer than a main panel). AVX-512
/// also has a 24-wide kernel (one 16-lane and one 8-lane vector per row).
static inline size_t vk_gemm_tail_width(vk_isa isa, size_t remaining) {
    if (remaining > 24) return 32;
    if (remaining > 16 && isa == VK_ISA_AVX512) return 24;
    if (remaining > 8) return 16;
    return 8;
}

/// Number of full main panels and of tail panels.
static inline size_t vk_gemm_panels(vk_gemm_shape shape) {
    size_t main = vk_gemm_main_width(shape.isa);
    size_t count = shape.n / main;
    size_t rest = shape.n % main;
    while (rest > 0) {
        size_t w = vk_gemm_tail_width(shape.isa, rest);
        count += 1;
        rest -= w < rest ? w : rest;
    }
    return count;
}

/// Panel `index` of `shape`.
static inline vk_panel vk_gemm_panel(vk_gemm_shape shape, size_t index) {
    size_t main = vk_gemm_main_width(shape.isa);
    size_t full = shape.n / main;
    vk_panel panel;
    if (index < full) {
        panel.column = index * main;
        panel.width = main;
        panel.offset = index * (shape.k + 1) * main;
        return panel;
    }
    size_t column = full * main, offset = full * (shape.k + 1) * main;
    size_t rest = shape.n - column;
    for (size_t t = full;; t++) {
        size_t w = vk_gemm_tail_width(shape.isa, rest);
        if (t == index) {
            panel.column = column;
            panel.width = w;
            panel.offset = offset;
            return panel;
        }
        column += w;
        offset += (shape.k + 1) * w;
        rest -= w < rest ? w : rest;
    }
}

/// Columns `panel` stores: its width, or fewer in a partial last panel.
static inline size_t vk_gemm_panel_stored(vk_gemm_shape shape, vk_panel panel) {
    return shape.n - panel.column < panel.width ? shape.n - panel.column : panel.width;
}

#endif
