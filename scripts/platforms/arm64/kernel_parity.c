// Parity driver for the CVisionKernels builds, run by scripts/platforms/arm64-kernels.sh.
//
// Built for aarch64 Linux (run under qemu-aarch64-static) it compares the NEON build of every
// dispatched kernel with the portable build, bit for bit; built natively on x86-64 it compares
// the AVX2 / AVX-512 builds the CPU has with the portable one. Both builds print a digest of
// the portable results per kernel ("digest NAME HEX"), so the script can also require that
// aarch64 and x86-64 compute the same bits.
//
//   kernel_parity random            randomized shapes and data (fixed seeds), plus the thread pool
//   kernel_parity layers FILE       layers captured from the models (capture_layers.py)
//
// Tolerance: none. Every kernel computes each output with the same operations in the same order
// in every build (fused multiply-adds everywhere, see CVisionKernels.h), so NEON must equal
// portable bit for bit. The one documented exception is x86-only: RSQRT / SQRT start from the
// CPU's estimate on AVX2 / AVX-512 (rsqrtps, rsqrt14), held to 1e-4 relative there as in
// LiteRTParityTests; NEON uses the exact reciprocal square root like the portable build.
// Exit status: 0 when everything matches, 1 otherwise.
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "CVisionKernels.h"

// MARK: Random numbers (SplitMix64)

static uint64_t rng_state = 1;
static void rng_seed(uint64_t s) { rng_state = s * 0x9E3779B97F4A7C15ull + 12345; }
static uint64_t rng_next(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/// Uniform integer in [lo, hi].
static size_t rint_in(size_t lo, size_t hi) { return lo + (size_t)(rng_next() % (hi - lo + 1)); }
/// Task splits (where a range is cut in two): drawn from their own generator, so that the cases
/// drawn from the main one do not depend on how many builds run (the digests compare
/// architectures with different build counts).
static uint64_t split_state = 99;
static size_t split_in(size_t lo, size_t hi) {
    uint64_t z = (split_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return lo + (size_t)((z ^ (z >> 31)) % (hi - lo + 1));
}
static float rfloat(float lo, float hi) { return lo + (hi - lo) * (float)((rng_next() >> 40) * 0x1p-24); }
static void fill(float *p, size_t n, float lo, float hi) {
    for (size_t i = 0; i < n; i++) p[i] = rfloat(lo, hi);
}

// Special values mixed into element-wise inputs.
static float special(void) {
    static const uint32_t bits[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                                    0x00000001u, 0x807fffffu, 0x00400000u, 0x7f7fffffu, 0xff7fffffu,
                                    0x3f800000u, 0xbf800000u, 0x42c80000u, 0xc2c80000u, 0x40400000u};
    float f;
    uint32_t b = bits[rng_next() % (sizeof bits / sizeof bits[0])];
    memcpy(&f, &b, 4);
    return f;
}
static int no_specials;
static void fill_special(float *p, size_t n, float lo, float hi) {
    for (size_t i = 0; i < n; i++) {
        const int pick = rng_next() % 8 == 0;
        const float sv = special();
        p[i] = pick && !no_specials ? sv : rfloat(lo, hi);
    }
}

static void *xalloc(size_t bytes) {
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes ? (bytes + 63) / 64 * 64 : 64)) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/// A float buffer of `n` values with `guard` sentinel floats after them (out-of-bounds writes).
#define GUARD 64
static const uint32_t SENTINEL = 0x7fa5a5a5u;
static float *out_buffer(size_t n) {
    float *p = xalloc((n + GUARD) * sizeof(float));
    for (size_t i = 0; i < n + GUARD; i++) memcpy(p + i, &SENTINEL, 4);
    return p;
}
static int guard_intact(const float *p, size_t n) {
    for (size_t i = n; i < n + GUARD; i++)
        if (memcmp(p + i, &SENTINEL, 4) != 0) return 0;
    return 1;
}

// MARK: Statistics

typedef struct stat {
    char name[48];
    size_t cases, values, differing, oob;
    uint64_t max_ulp;
    double max_abs;
    double tolerance;  // relative tolerance allowed (0: bit identity)
    size_t beyond;     // values beyond the tolerance
    uint64_t digest;   // FNV-1a of the portable results
    int known;         // a known issue outside the NEON code: reported, never failing
} stat;

#define MAX_STATS 128
static stat stats[MAX_STATS];
static size_t stat_count;

static stat *stat_get(const char *name) {
    for (size_t i = 0; i < stat_count; i++)
        if (strcmp(stats[i].name, name) == 0) return &stats[i];
    stat *s = &stats[stat_count++];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->digest = 1469598103934665603ull;
    return s;
}

static void digest_bytes(stat *s, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) s->digest = (s->digest ^ b[i]) * 1099511628211ull;
}

/// Floats into the digest, every NaN as the same quiet NaN and subnormals as zero. IEEE 754 leaves
/// the sign and payload of a NaN an operation creates to the CPU (x86-64's default NaN is
/// negative, arm64's positive; arm64 quiets a signaling NaN operand of fmax, x86 passes it); and
/// with denormals flushed (as the engine runs) arm64's FMAX / FMIN flush a subnormal operand while
/// x86-64's compare-and-select maximum passes it through unchanged.
static void digest_f32(stat *s, const float *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        float v = isnan(p[i]) ? NAN : fpclassify(p[i]) == FP_SUBNORMAL ? 0.0f : p[i];
        digest_bytes(s, &v, sizeof v);
    }
}

static int64_t ordered(float f) {
    int32_t i;
    memcpy(&i, &f, 4);
    return i < 0 ? -(int64_t)(i & 0x7fffffff) : (int64_t)i;
}

/// Compares `got` with the reference `ref` (n floats): bit identity, or within s->tolerance.
static void compare_f32(stat *s, const float *ref, const float *got, size_t n) {
    s->values += n;
    for (size_t i = 0; i < n; i++) {
        uint32_t a, b;
        memcpy(&a, ref + i, 4);
        memcpy(&b, got + i, 4);
        if (a == b) continue;
        s->differing++;
        if (isnan(ref[i]) || isnan(got[i])) {
            s->max_ulp = UINT64_MAX;
            s->max_abs = INFINITY;
            s->beyond++;
            continue;
        }
        double d = fabs((double)ref[i] - (double)got[i]);
        int64_t u = ordered(ref[i]) - ordered(got[i]);
        uint64_t ulp = (uint64_t)(u < 0 ? -u : u);
        if (d > s->max_abs) s->max_abs = d;
        if (ulp > s->max_ulp) s->max_ulp = ulp;
        if (s->tolerance == 0 || !(d <= s->tolerance * fmax(1.0, fabs((double)ref[i])))) s->beyond++;
    }
}

/// The first build's result becomes the reference (digested); later builds' results are
/// compared with it and freed.
static void settle_f32(stat *s, float **ref, float *out, size_t n) {
    if (*ref == NULL) {
        *ref = out;
        digest_f32(s, out, n);
    } else {
        compare_f32(s, *ref, out, n);
        free(out);
    }
}

static void compare_bytes(stat *s, const void *ref, const void *got, size_t n, size_t element) {
    s->values += n / element;
    const unsigned char *a = ref, *b = got;
    for (size_t i = 0; i < n; i += element) {
        if (memcmp(a + i, b + i, element) == 0) continue;
        s->differing++;
        s->beyond++;
        if (element == 1) {
            int d = abs((int)a[i] - (int)b[i]);
            if ((uint64_t)d > s->max_ulp) s->max_ulp = (uint64_t)d;
            if (d > s->max_abs) s->max_abs = d;
        } else {
            s->max_ulp = UINT64_MAX;
        }
    }
}

static void check_guard(stat *s, const float *p, size_t n) {
    if (!guard_intact(p, n)) s->oob++;
}

// MARK: Instruction sets under test

static vk_isa isas[4];
static size_t isa_count;  // isas[0] is VK_ISA_PORTABLE, the reference

static void isa_init(void) {
    isas[isa_count++] = VK_ISA_PORTABLE;
    const vk_isa candidates[] = {VK_ISA_NEON, VK_ISA_AVX2, VK_ISA_AVX512};
    for (size_t i = 0; i < 3; i++)
        if (vk_isa_is_supported(candidates[i])) isas[isa_count++] = candidates[i];
}

/// The stat of `kernel` for build `isa` ("gemm/neon").
static stat *stat_for(const char *kernel, vk_isa isa) {
    char name[64];
    snprintf(name, sizeof name, "%s/%s", kernel, vk_isa_name(isa));
    return stat_get(name);
}

static size_t out_size(size_t in, size_t k, size_t stride, size_t dilation, size_t pad_total) {
    size_t extent = (k - 1) * dilation + 1;
    if (in + pad_total < extent) return 0;
    return (in + pad_total - extent) / stride + 1;
}

/// A random convolution geometry over a fresh input; returns 0 when the output is empty.
typedef struct conv_case {
    vk_conv_geometry g;
    size_t batch;
    float *input;
} conv_case;

static int random_geometry(conv_case *cc, size_t max_kernel, int allow_dilation, int force_stride1) {
    vk_conv_geometry *g = &cc->g;
    memset(g, 0, sizeof *g);
    cc->batch = rint_in(1, 2);
    g->input_height = rint_in(1, 11);
    g->input_width = rint_in(1, 13);
    g->channels = rint_in(1, 19);
    static const size_t kernels[] = {1, 2, 3, 3, 5, 7};
    do {
        g->kernel_height = kernels[rint_in(0, 5)];
        g->kernel_width = rng_next() % 3 == 0 ? kernels[rint_in(0, 5)] : g->kernel_height;
    } while (g->kernel_height > max_kernel || g->kernel_width > max_kernel
             || g->kernel_height * g->kernel_width > 64);
    g->stride_h = force_stride1 ? 1 : rint_in(1, 3);
    g->stride_w = force_stride1 ? 1 : rint_in(1, 3);
    g->dilation_h = allow_dilation && rng_next() % 4 == 0 ? 2 : 1;
    g->dilation_w = allow_dilation && rng_next() % 4 == 0 ? 2 : 1;
    size_t pad_h = rint_in(0, g->kernel_height - 1), pad_w = rint_in(0, g->kernel_width - 1);
    g->pad_top = rint_in(0, pad_h);
    g->pad_left = rint_in(0, pad_w);
    g->output_height = out_size(g->input_height, g->kernel_height, g->stride_h, g->dilation_h, pad_h);
    g->output_width = out_size(g->input_width, g->kernel_width, g->stride_w, g->dilation_w, pad_w);
    if (g->output_height == 0 || g->output_width == 0) return 0;
    size_t n = cc->batch * g->input_height * g->input_width * g->channels;
    cc->input = xalloc(n * sizeof(float));
    fill(cc->input, n, -1, 1);
    g->input = cc->input;
    return 1;
}

static float *zeros_buffer(size_t n) {
    float *z = xalloc((n + 16) * sizeof(float));
    memset(z, 0, (n + 16) * sizeof(float));
    return z;
}

static void random_clamp(float *lo, float *hi) {
    switch (rng_next() % 3) {
    case 0: *lo = -INFINITY, *hi = INFINITY; break;
    case 1: *lo = 0.0f, *hi = 6.0f; break;
    default: *lo = rfloat(-1.0f, 0.0f), *hi = rfloat(0.0f, 1.0f); break;
    }
}

// MARK: Matrix product

static void test_gemm(size_t cases) {
    static const size_t widths[] = {1, 3, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 40, 47, 48, 63, 64, 65, 80};
    for (size_t t = 0; t < cases; t++) {
        const size_t m = rint_in(1, 30), k = rint_in(1, 70), n = widths[rint_in(0, 20)];
        const size_t as = k + rint_in(0, 3), cs = n + rint_in(0, 3);
        float *a = xalloc(m * as * sizeof(float)), *w = xalloc(n * k * sizeof(float)), *bias = xalloc(n * sizeof(float));
        fill(a, m * as, -1, 1);
        fill(w, n * k, -1, 1);
        fill(bias, n, -1, 1);
        const int with_bias = rng_next() % 4 != 0;
        float lo, hi;
        random_clamp(&lo, &hi);
        float *ref = NULL;
        // The input with about half its columns ±0 in every row (for vk_gemm_run_skipping_zeros).
        float *zeroed = xalloc(m * as * sizeof(float));
        memcpy(zeroed, a, m * as * sizeof(float));
        for (size_t kk = 0; kk < k; kk++)
            if (rng_next() % 2)
                for (size_t r = 0; r < m; r++) zeroed[r * as + kk] = r % 2 ? 0.0f : -0.0f;
        for (size_t i = 0; i < isa_count; i++) {
            vk_gemm_shape shape = {isas[i], n, k};
            float *packed = xalloc(vk_gemm_packed_count(shape) * sizeof(float));
            vk_gemm_pack(shape, w, with_bias ? bias : NULL, packed);
            float *c = out_buffer(m * cs);
            const size_t panels = vk_gemm_panel_count(shape);
            vk_gemm_run(shape, packed, a, as, c, cs, 0, m, 0, panels, lo, hi);
            // The same output computed in pieces (rows and panels split as tasks split them).
            float *split = out_buffer(m * cs);
            size_t mid_row = split_in(0, m), mid_panel = split_in(0, panels);
            vk_gemm_run(shape, packed, a, as, split, cs, 0, mid_row, 0, mid_panel, lo, hi);
            vk_gemm_run(shape, packed, a, as, split, cs, 0, mid_row, mid_panel, panels, lo, hi);
            vk_gemm_run(shape, packed, a, as, split, cs, mid_row, m, 0, panels, lo, hi);
            stat *s = stat_for("gemm", isas[i]);
            s->cases++;
            check_guard(s, c, m * cs);
            // Only the n columns of each row are outputs; the rest of the stride must be untouched.
            for (size_t r = 0; r < m; r++)
                for (size_t j = n; j < cs; j++)
                    if (memcmp(c + r * cs + j, &SENTINEL, 4) != 0) s->oob++;
            float *dense = xalloc(m * n * sizeof(float)), *dense_split = xalloc(m * n * sizeof(float));
            for (size_t r = 0; r < m; r++) {
                memcpy(dense + r * n, c + r * cs, n * sizeof(float));
                memcpy(dense_split + r * n, split + r * cs, n * sizeof(float));
            }
            compare_f32(stat_get("gemm-split-vs-whole"), dense, dense_split, m * n);
            // vk_gemm_run_skipping_zeros on the input with about half its columns zero in every
            // row: the steps it leaves out must not change a bit (the bias is never -0).
            float *full = out_buffer(m * cs), *skipped = out_buffer(m * cs);
            vk_gemm_run(shape, packed, zeroed, as, full, cs, 0, m, 0, panels, lo, hi);
            vk_gemm_run_skipping_zeros(shape, packed, zeroed, as, skipped, cs, 0, m, 0, panels, lo, hi);
            compare_f32(stat_get("gemm-skipping-zeros-vs-full"), full, skipped, m * cs);
            free(full);
            free(skipped);
            if (i == 0) {
                ref = dense;
                digest_f32(s, dense, m * n);
            } else {
                compare_f32(s, ref, dense, m * n);
                free(dense);
            }
            free(dense_split);
            free(packed);
            free(c);
            free(split);
        }
        free(ref);
        free(a);
        free(zeroed);
        free(w);
        free(bias);
    }
}

// MARK: Convolutions

/// Runs the float convolution kernels on one geometry and filter for every build: vk_gemm_conv,
/// im2col + vk_gemm_run, vk_conv_dot, vk_conv_planar (when it applies), vk_sparse_run (1x1,
/// stride 1, no padding). Every variant is compared with portable vk_gemm_conv (the same
/// operations in the same order). Returns the portable result (caller frees).
static float *run_convolutions(const char *prefix, const vk_conv_geometry *g, size_t batch, const float *filter,
                               const float *bias, size_t n, float lo, float hi) {
    const size_t KH = g->kernel_height, KW = g->kernel_width, C = g->channels;
    const size_t k = KH * KW * C, pixels = batch * g->output_height * g->output_width, taps = KH * KW;
    float *zeros = zeros_buffer((g->input_width > KW ? g->input_width : KW) * C);
    char name[64];
    float *ref = NULL;
    const int planar = g->stride_h == 1 && g->stride_w == 1 && g->dilation_h == 1 && g->dilation_w == 1 && n <= 4
        && KH <= 32;
    const int pointwise = KH == 1 && KW == 1 && g->stride_h == 1 && g->stride_w == 1 && g->pad_top == 0
        && g->pad_left == 0 && g->output_height == g->input_height && g->output_width == g->input_width;
    for (size_t i = 0; i < isa_count; i++) {
        const vk_isa isa = isas[i];
        vk_gemm_shape shape = {isa, n, k};
        float *packed = xalloc(vk_gemm_packed_count(shape) * sizeof(float));
        vk_gemm_pack(shape, filter, bias, packed);
        const size_t panels = vk_gemm_panel_count(shape);
        float *base = out_buffer(pixels * n);
        if (taps <= vk_gemm_conv_max_taps()) {
            // Two pixel ranges, as tasks split them.
            size_t mid = split_in(0, pixels);
            vk_gemm_conv(shape, packed, g, zeros, base, n, 0, mid, 0, panels, lo, hi);
            vk_gemm_conv(shape, packed, g, zeros, base, n, mid, pixels, 0, panels, lo, hi);
        } else {
            float *patches = xalloc(pixels * k * sizeof(float));
            vk_im2col(g, 0, pixels, patches);
            vk_gemm_run(shape, packed, patches, k, base, n, 0, pixels, 0, panels, lo, hi);
            free(patches);
        }
        snprintf(name, sizeof name, "%sgemm_conv", prefix);
        stat *s = stat_for(name, isa);
        s->cases++;
        check_guard(s, base, pixels * n);
        if (i == 0) {
            ref = base;
            digest_f32(s, base, pixels * n);
        } else {
            compare_f32(s, ref, base, pixels * n);
        }
        // im2col + matrix product: identical to the indirect convolution.
        {
            float *patches = xalloc(pixels * k * sizeof(float)), *c = out_buffer(pixels * n);
            vk_im2col(g, 0, pixels, patches);
            vk_gemm_run(shape, packed, patches, k, c, n, 0, pixels, 0, panels, lo, hi);
            snprintf(name, sizeof name, "%sim2col+gemm", prefix);
            s = stat_for(name, isa);
            s->cases++;
            check_guard(s, c, pixels * n);
            compare_f32(s, ref, c, pixels * n);
            free(patches);
            free(c);
        }
        // Dot products per pixel.
        {
            float *c = out_buffer(pixels * n);
            size_t mid = split_in(0, pixels);
            vk_conv_dot(isa, g, filter, bias, n, c, 0, mid, lo, hi, zeros);
            vk_conv_dot(isa, g, filter, bias, n, c + mid * n, mid, pixels - mid, lo, hi, zeros);
            snprintf(name, sizeof name, "%sconv_dot", prefix);
            s = stat_for(name, isa);
            s->cases++;
            check_guard(s, c, pixels * n);
            compare_f32(s, ref, c, pixels * n);
            free(c);
        }
        if (planar) {
            float *c = out_buffer(pixels * n);
            float *scratch = xalloc(vk_conv_planar_scratch_floats(g) * sizeof(float));
            const size_t rows = batch * g->output_height, mid = split_in(0, rows);
            vk_conv_planar(isa, g, filter, bias, n, c, 0, mid, lo, hi, scratch);
            vk_conv_planar(isa, g, filter, bias, n, c, mid, rows, lo, hi, scratch);
            snprintf(name, sizeof name, "%sconv_planar", prefix);
            s = stat_for(name, isa);
            s->cases++;
            check_guard(s, c, pixels * n);
            compare_f32(s, ref, c, pixels * n);
            free(scratch);
            free(c);
        }
        if (pointwise) {
            size_t words = vk_sparse_packed_count(isa, n, C, filter);
            float *sp = xalloc(words * sizeof(float));
            vk_sparse_pack(isa, n, C, filter, bias, sp);
            float *scratch = xalloc(vk_sparse_scratch_count(isa, sp, n) * sizeof(float));
            float *c = out_buffer(pixels * n);
            size_t groups = vk_sparse_group_count(sp), mid = vk_sparse_group_split(sp, 2, 1);
            vk_sparse_run(isa, sp, n, C, g->input, C, c, n, 0, pixels, 0, mid, lo, hi, NULL, scratch);
            vk_sparse_run(isa, sp, n, C, g->input, C, c, n, 0, pixels, mid, groups, lo, hi, NULL, scratch);
            snprintf(name, sizeof name, "%ssparse", prefix);
            s = stat_for(name, isa);
            s->cases++;
            check_guard(s, c, pixels * n);
            compare_f32(s, ref, c, pixels * n);
            free(c);
            free(scratch);
            free(sp);
        }
        if (i != 0) free(base);
        free(packed);
    }
    free(zeros);
    return ref;
}

static void test_convolutions(size_t cases) {
    for (size_t t = 0; t < cases; t++) {
        conv_case cc;
        const int planar_case = t % 3 == 0;
        if (!random_geometry(&cc, 7, !planar_case, planar_case)) continue;
        const size_t n = planar_case ? rint_in(1, 4) : rint_in(1, 40);
        const size_t k = cc.g.kernel_height * cc.g.kernel_width * cc.g.channels;
        float *filter = xalloc(n * k * sizeof(float)), *bias = xalloc(n * sizeof(float));
        fill(filter, n * k, -1, 1);
        fill(bias, n, -1, 1);
        float lo, hi;
        random_clamp(&lo, &hi);
        free(run_convolutions("", &cc.g, cc.batch, filter, rng_next() % 4 ? bias : NULL, n, lo, hi));
        free(filter);
        free(bias);
        free(cc.input);
    }
}

// MARK: Sparse 1x1 convolution with epilogue

static void test_sparse(size_t cases) {
    for (size_t t = 0; t < cases; t++) {
        const size_t pixels = rint_in(1, 70), k = rint_in(1, 60), n = rint_in(1, 40);
        float *a = xalloc(pixels * k * sizeof(float)), *w = xalloc(n * k * sizeof(float));
        float *bias = xalloc(n * sizeof(float)), *alpha = xalloc(n * sizeof(float));
        fill(a, pixels * k, -1, 1);
        const unsigned density = (unsigned)rint_in(1, 9);
        for (size_t i = 0; i < n * k; i++) w[i] = rng_next() % 10 < density ? rfloat(-1, 1) : 0.0f;
        fill(bias, n, -1, 1);
        fill(alpha, n, 0, 0.5f);
        const size_t rc = rint_in(1, n);
        float *residual = xalloc(pixels * rc * sizeof(float));
        fill(residual, pixels * rc, -1, 1);
        vk_epilogue epilogue = {residual, rc, -2.0f, 2.0f, rng_next() % 2 ? alpha : NULL};
        const int with_epilogue = rng_next() % 2;
        float lo, hi;
        random_clamp(&lo, &hi);
        float *ref = NULL;
        for (size_t i = 0; i < isa_count; i++) {
            const vk_isa isa = isas[i];
            float *sp = xalloc(vk_sparse_packed_count(isa, n, k, w) * sizeof(float));
            vk_sparse_pack(isa, n, k, w, bias, sp);
            float *scratch = xalloc(vk_sparse_scratch_count(isa, sp, n) * sizeof(float));
            float *c = out_buffer(pixels * n);
            const size_t groups = vk_sparse_group_count(sp), tile = vk_sparse_tile_pixels(isa);
            // Rows split at a tile boundary, groups in two parts.
            const size_t mid_row = pixels / 2 / tile * tile, mid = vk_sparse_group_split(sp, 2, 1);
            const vk_epilogue *e = with_epilogue ? &epilogue : NULL;
            vk_sparse_run(isa, sp, n, k, a, k, c, n, 0, mid_row, 0, groups, lo, hi, e, scratch);
            vk_sparse_run(isa, sp, n, k, a, k, c, n, mid_row, pixels, 0, mid, lo, hi, e, scratch);
            vk_sparse_run(isa, sp, n, k, a, k, c, n, mid_row, pixels, mid, groups, lo, hi, e, scratch);
            stat *s = stat_for(with_epilogue ? "sparse+epilogue" : "sparse", isa);
            s->cases++;
            check_guard(s, c, pixels * n);
            if (i == 0) {
                ref = c;
                digest_f32(s, c, pixels * n);
            } else {
                compare_f32(s, ref, c, pixels * n);
                free(c);
            }
            free(scratch);
            free(sp);
        }
        free(ref);
        free(a);
        free(w);
        free(bias);
        free(alpha);
        free(residual);
    }
}

// MARK: Depthwise convolution

static float *run_dwconv(const char *prefix, const vk_dwconv *proto, size_t batch) {
    const size_t C = proto->channels, OH = proto->output_height, OW = proto->output_width;
    const size_t IH = proto->input_height, IW = proto->input_width;
    const size_t count = batch * OH * OW * C;
    float *zeros = zeros_buffer(IW * C);
    float *ref = NULL;
    char name[64];
    for (size_t i = 0; i < isa_count; i++) {
        float *out = out_buffer(count);
        for (size_t b = 0; b < batch; b++) {
            vk_dwconv d = *proto;
            d.isa = isas[i];
            d.input = proto->input + b * IH * IW * C;
            d.output = out + b * OH * OW * C;
            d.zeros = zeros;
            const size_t mid = split_in(0, OH);
            vk_dwconv_run(&d, 0, mid);
            // Channel split at 16 (as threads split small layers).
            const size_t cmid = C > 16 ? 16 : C;
            vk_dwconv_run_channels(&d, mid, OH, 0, cmid);
            vk_dwconv_run_channels(&d, mid, OH, cmid, C);
        }
        snprintf(name, sizeof name, "%sdwconv", prefix);
        stat *s = stat_for(name, isas[i]);
        s->cases++;
        check_guard(s, out, count);
        if (i == 0) {
            ref = out;
            digest_f32(s, out, count);
        } else {
            compare_f32(s, ref, out, count);
        }
        // A band: output rows [r0, r1) into a band buffer (output_row_offset) reading a band of
        // input rows (input_row_offset), as the engine's fused bands do.
        if (batch == 1 && OH > 1) {
            const size_t r0 = split_in(0, OH - 1), r1 = split_in(r0 + 1, OH);
            ptrdiff_t first = (ptrdiff_t)(r0 * proto->stride_h) - (ptrdiff_t)proto->pad_top;
            ptrdiff_t last = (ptrdiff_t)((r1 - 1) * proto->stride_h) - (ptrdiff_t)proto->pad_top
                + (ptrdiff_t)((proto->kernel_height - 1) * proto->dilation_h);
            if (first < 0) first = 0;
            if (last >= (ptrdiff_t)IH) last = (ptrdiff_t)IH - 1;
            if (first <= last) {
                const size_t rows = (size_t)(last - first + 1);
                float *band_in = xalloc(rows * IW * C * sizeof(float));
                memcpy(band_in, proto->input + (size_t)first * IW * C, rows * IW * C * sizeof(float));
                float *band_out = out_buffer((r1 - r0) * OW * C);
                vk_dwconv d = *proto;
                d.isa = isas[i];
                d.input = band_in;
                d.input_row_offset = (size_t)first;
                d.output = band_out;
                d.output_row_offset = r0;
                d.zeros = zeros;
                vk_dwconv_run(&d, r0, r1);
                snprintf(name, sizeof name, "%sdwconv-band", prefix);
                s = stat_for(name, isas[i]);
                s->cases++;
                check_guard(s, band_out, (r1 - r0) * OW * C);
                compare_f32(s, (i == 0 ? out : ref) + r0 * OW * C, band_out, (r1 - r0) * OW * C);
                free(band_in);
                free(band_out);
            }
        }
        if (i != 0) free(out);
    }
    free(zeros);
    return ref;
}

static void test_dwconv(size_t cases) {
    for (size_t t = 0; t < cases; t++) {
        conv_case cc;
        if (!random_geometry(&cc, 7, 1, 0)) continue;
        vk_conv_geometry *g = &cc.g;
        // Half the cases take the fixed-window paths (3x3 / 5x5, stride 1 or 2, undilated) with
        // more channels.
        if (t % 2 == 0) {
            free(cc.input);
            g->kernel_height = g->kernel_width = rng_next() % 2 ? 3 : 5;
            g->stride_h = g->stride_w = rint_in(1, 2);
            g->dilation_h = g->dilation_w = 1;
            g->channels = rint_in(1, 70);
            g->input_height = rint_in(1, 12);
            g->input_width = rint_in(1, 20);
            size_t pad = rng_next() % 2 ? g->kernel_height - 1 : 0;
            g->pad_top = g->pad_left = pad / 2;
            g->output_height = out_size(g->input_height, g->kernel_height, g->stride_h, 1, pad);
            g->output_width = out_size(g->input_width, g->kernel_width, g->stride_w, 1, pad);
            if (g->output_height == 0 || g->output_width == 0) continue;
            size_t n = cc.batch * g->input_height * g->input_width * g->channels;
            cc.input = xalloc(n * sizeof(float));
            fill(cc.input, n, -1, 1);
        }
        const size_t C = g->channels, taps = g->kernel_height * g->kernel_width;
        float *weights = xalloc((taps + 1) * C * sizeof(float));
        fill(weights, (taps + 1) * C, -1, 1);
        vk_dwconv d = {0};
        d.input = cc.input;
        d.input_height = g->input_height, d.input_width = g->input_width, d.channels = C;
        d.output_height = g->output_height, d.output_width = g->output_width;
        d.kernel_height = g->kernel_height, d.kernel_width = g->kernel_width;
        d.stride_h = g->stride_h, d.stride_w = g->stride_w, d.dilation_h = g->dilation_h, d.dilation_w = g->dilation_w;
        d.pad_top = g->pad_top, d.pad_left = g->pad_left;
        d.weights = weights;
        random_clamp(&d.lo, &d.hi);
        free(run_dwconv("", &d, cc.batch));
        free(weights);
        free(cc.input);
    }
}

// MARK: Element-wise, pooling, resize

static void test_add_prelu(size_t cases) {
    for (size_t t = 0; t < cases; t++) {
        // Up to 40 pixels: past the 32-pixel blocks of an uneven add.
        const size_t pixels = rint_in(1, 40), C = rint_in(1, 70);
        const size_t bc = rng_next() % 2 ? C : rint_in(0, C);
        float *a = xalloc(pixels * C * sizeof(float)), *b = xalloc(pixels * bc * sizeof(float) + 4);
        float *alpha = xalloc(C * sizeof(float));
        fill_special(a, pixels * C, -2, 2);
        fill_special(b, pixels * bc, -2, 2);
        fill(alpha, C, -0.5f, 0.5f);
        const int with_alpha = rng_next() % 2;
        const vk_binary_op op = (vk_binary_op)(rng_next() % 8);
        const int b_kind = bc > 0 ? (int)(rng_next() % 2) : 0;
        float lo, hi;
        random_clamp(&lo, &hi);
        float *ref = NULL, *ref_prelu = NULL, *ref_scale = NULL;
        for (size_t i = 0; i < isa_count; i++) {
            float *out = out_buffer(pixels * C);
            vk_add_pixels(isas[i], a, b, bc, out, pixels, C, lo, hi, with_alpha ? alpha : NULL);
            stat *s = stat_for("add_pixels", isas[i]);
            s->cases++;
            check_guard(s, out, pixels * C);
            // In place (out == a).
            float *in_place = out_buffer(pixels * C);
            memcpy(in_place, a, pixels * C * sizeof(float));
            vk_add_pixels(isas[i], in_place, b, bc, in_place, pixels, C, lo, hi, with_alpha ? alpha : NULL);
            compare_f32(stat_get("add_pixels-in-place-vs-copy"), out, in_place, pixels * C);
            free(in_place);
            float *pr = out_buffer(pixels * C);
            vk_prelu_pixels(isas[i], a, pr, pixels, C, alpha);
            stat *sp = stat_for("prelu_pixels", isas[i]);
            sp->cases++;
            check_guard(sp, pr, pixels * C);
            // An element-wise operation over pixels with a channel vector (alpha) or a per-pixel
            // value broadcast along the row, clamped.
            float *sc = out_buffer(pixels * C);
            if (b_kind == 0) vk_binary_rows(isas[i], op, a, C, 1, alpha, 0, 1, sc, pixels, C, lo, hi);
            else vk_binary_rows(isas[i], op, a, C, 1, b, bc, 0, sc, pixels, C, lo, hi);
            stat *ss = stat_for("binary_rows", isas[i]);
            ss->cases++;
            check_guard(ss, sc, pixels * C);
            settle_f32(s, &ref, out, pixels * C);
            settle_f32(sp, &ref_prelu, pr, pixels * C);
            settle_f32(ss, &ref_scale, sc, pixels * C);
        }
        free(ref);
        free(ref_prelu);
        free(ref_scale);
        free(a);
        free(b);
        free(alpha);
    }
}

static void test_transpose(size_t cases) {
    for (size_t t = 0; t < cases; t++) {
        const size_t rows = rint_in(1, 40), cols = rint_in(1, 40);
        float *in = xalloc(rows * cols * sizeof(float));
        fill_special(in, rows * cols, -2, 2);
        float *ref = NULL;
        for (size_t i = 0; i < isa_count; i++) {
            float *out = out_buffer(rows * cols);
            const size_t mid = split_in(0, cols);
            vk_transpose(isas[i], in, rows, cols, out, 0, mid);
            vk_transpose(isas[i], in, rows, cols, out, mid, cols);
            stat *s = stat_for("transpose", isas[i]);
            s->cases++;
            check_guard(s, out, rows * cols);
            float *expected = xalloc(rows * cols * sizeof(float));
            for (size_t r = 0; r < rows; r++)
                for (size_t c = 0; c < cols; c++) expected[c * rows + r] = in[r * cols + c];
            compare_f32(stat_get("transpose-vs-definition"), expected, out, rows * cols);
            free(expected);
            settle_f32(s, &ref, out, rows * cols);
        }
        free(ref);
        free(in);
    }
}

// One input row of a transposed convolution, pixels in lanes (vk_deconv_row): every build against
// the portable one, and against bias-then-channels fused multiply-adds in order.
static void test_deconv(size_t cases) {
    for (size_t t = 0; t < cases; t++) {
        const size_t W = rint_in(1, 40), C = rint_in(1, VK_DECONV_MAX_CHANNELS);
        const size_t KH = rint_in(1, 2), KW = rint_in(1, 2), CO = rint_in(1, VK_DECONV_MAX_OUTPUTS / (KH * KW));
        const size_t n = KH * KW * CO, stride = W * KW * CO + rint_in(0, 5);
        float *in = xalloc(W * C * sizeof(float)), *w = xalloc(n * C * sizeof(float)), *bias = xalloc(n * sizeof(float));
        fill_special(in, W * C, -2, 2);
        fill(w, n * C, -1, 1);
        fill(bias, n, -1, 1);
        float *expected = xalloc(KH * stride * sizeof(float));
        for (size_t i = 0; i < KH * stride; i++) expected[i] = 0.0f;
        for (size_t x = 0; x < W; x++)
            for (size_t j = 0; j < n; j++) {
                float acc = bias[j];
                for (size_t c = 0; c < C; c++) acc = fmaf(in[x * C + c], w[j * C + c], acc);
                const size_t dy = j / (KW * CO), rest = j % (KW * CO);
                expected[dy * stride + x * KW * CO + rest] = acc;
            }
        float *ref = NULL;
        for (size_t i = 0; i < isa_count; i++) {
            float *out = out_buffer(KH * stride);
            for (size_t k = 0; k < KH * stride; k++) out[k] = 0.0f;
            vk_deconv_row(isas[i], in, W, C, w, bias, KH, KW, CO, out, stride);
            stat *s = stat_for("deconv_row", isas[i]);
            s->cases++;
            check_guard(s, out, KH * stride);
            compare_f32(stat_get("deconv_row-vs-definition"), expected, out, KH * stride);
            settle_f32(s, &ref, out, KH * stride);
        }
        free(ref);
        free(expected);
        free(in);
        free(w);
        free(bias);
    }
}

static void test_pools(size_t cases) {
    for (size_t t = 0; t < cases; t++) {
        conv_case cc;
        if (!random_geometry(&cc, 5, 0, 0)) continue;
        vk_conv_geometry *g = &cc.g;
        if (rng_next() % 3 == 0) {
            // More channels: the 8-lane, 4-lane and single-float tails.
            free(cc.input);
            g->channels = rint_in(17, 45);
            size_t n = cc.batch * g->input_height * g->input_width * g->channels;
            cc.input = xalloc(n * sizeof(float));
            fill_special(cc.input, n, -3, 3);
            g->input = cc.input;
        }
        const size_t rows = cc.batch * g->output_height, count = rows * g->output_width * g->channels;
        const int valid_only = rng_next() % 2;
        float lo, hi;
        random_clamp(&lo, &hi);
        float *ref_max = NULL, *ref_avg = NULL;
        for (size_t i = 0; i < isa_count; i++) {
            float *mx = out_buffer(count), *av = out_buffer(count);
            const size_t mid = split_in(0, rows);
            vk_max_pool(isas[i], g, mx, 0, mid, lo, hi);
            vk_max_pool(isas[i], g, mx, mid, rows, lo, hi);
            vk_avg_pool(isas[i], g, av, 0, mid, valid_only, lo, hi);
            vk_avg_pool(isas[i], g, av, mid, rows, valid_only, lo, hi);
            stat *sm = stat_for("max_pool", isas[i]), *sa = stat_for("avg_pool", isas[i]);
            sm->cases++;
            sa->cases++;
            check_guard(sm, mx, count);
            check_guard(sa, av, count);
            if (i == 0) {
                ref_max = mx, ref_avg = av;
                digest_f32(sm, mx, count);
                digest_f32(sa, av, count);
            } else {
                compare_f32(sm, ref_max, mx, count);
                compare_f32(sa, ref_avg, av, count);
                free(mx);
                free(av);
            }
        }
        free(ref_max);
        free(ref_avg);
        free(cc.input);
    }
}

typedef void (*unary_fn)(vk_isa, const float *, float *, size_t);

static void test_unary(const char *name, unary_fn fn, size_t cases, float lo, float hi, double x86_tolerance) {
    for (size_t t = 0; t < cases; t++) {
        const size_t count = t == 0 ? 0 : rint_in(1, 300);
        float *x = xalloc(count * sizeof(float) + 4);
        fill_special(x, count, lo, hi);
        float *ref = NULL;
        for (size_t i = 0; i < isa_count; i++) {
            float *y = out_buffer(count);
            fn(isas[i], x, y, count);
            stat *s = stat_for(name, isas[i]);
            s->cases++;
            if (isas[i] == VK_ISA_AVX2 || isas[i] == VK_ISA_AVX512) s->tolerance = x86_tolerance;
            check_guard(s, y, count);
            if (i == 0) {
                ref = y;
                digest_f32(s, y, count);
            } else {
                compare_f32(s, ref, y, count);
                free(y);
            }
        }
        free(ref);
        free(x);
    }
}

static void test_resize(size_t cases) {
    for (size_t t = 0; t < cases; t++) {
        vk_resize r = {0};
        const size_t batch = rint_in(1, 2);
        r.input_height = rint_in(1, 9), r.input_width = rint_in(1, 9), r.channels = rint_in(1, 40);
        r.output_height = rint_in(1, 17), r.output_width = rint_in(1, 17);
        const size_t in_count = batch * r.input_height * r.input_width * r.channels;
        float *input = xalloc(in_count * sizeof(float));
        fill(input, in_count, -5, 5);
        int32_t *yi = xalloc(2 * r.output_height * sizeof(int32_t)), *xi = xalloc(2 * r.output_width * sizeof(int32_t));
        float *yw = xalloc(r.output_height * sizeof(float)), *xw = xalloc(r.output_width * sizeof(float));
        for (size_t o = 0; o < r.output_height; o++) {
            yi[2 * o] = (int32_t)rint_in(0, r.input_height - 1);
            yi[2 * o + 1] = (int32_t)rint_in(0, r.input_height - 1);
            yw[o] = rfloat(0, 1);
        }
        for (size_t o = 0; o < r.output_width; o++) {
            xi[2 * o] = (int32_t)rint_in(0, r.input_width - 1);
            xi[2 * o + 1] = (int32_t)rint_in(0, r.input_width - 1);
            xw[o] = rfloat(0, 1);
        }
        r.input = input, r.y_index = yi, r.y_weight = yw, r.x_index = xi, r.x_weight = xw;
        const size_t rows = batch * r.output_height, count = rows * r.output_width * r.channels;
        float *ref = NULL;
        for (size_t i = 0; i < isa_count; i++) {
            float *out = out_buffer(count);
            r.output = out;
            const size_t mid = split_in(0, rows);
            vk_resize_bilinear(isas[i], &r, 0, mid);
            vk_resize_bilinear(isas[i], &r, mid, rows);
            stat *s = stat_for("resize_bilinear", isas[i]);
            s->cases++;
            check_guard(s, out, count);
            if (i == 0) {
                ref = out;
                digest_f32(s, out, count);
            } else {
                compare_f32(s, ref, out, count);
                free(out);
            }
        }
        free(ref);
        free(input);
        free(yi);
        free(xi);
        free(yw);
        free(xw);
    }
}

// MARK: Image to tensor

/// Random images (3 or 4 bytes a pixel, any channel order, any of the 8 orientations as strides),
/// random affine and projective maps (rotations, scales, crops partly outside), both borders,
/// byte and float outputs, rows split in two.
static void test_warp(size_t cases) {
    for (size_t t = 0; t < cases; t++) {
        const int64_t width = (int64_t)rint_in(1, 40), height = (int64_t)rint_in(1, 40);
        const int64_t pixel_bytes = (int64_t)rint_in(3, 4);
        const size_t byte_count = (size_t)(width * height * pixel_bytes);
        uint8_t *pixels = xalloc(byte_count);
        for (size_t i = 0; i < byte_count; i++) pixels[i] = (uint8_t)(rng_next() >> 32);
        vk_warp w;
        memset(&w, 0, sizeof w);
        w.pixels = pixels;
        w.byte_count = (int64_t)byte_count;
        // Orientation: the upright image walks the stored one along rows or columns, either way.
        const int transpose = (int)rint_in(0, 1), flip_x = (int)rint_in(0, 1), flip_y = (int)rint_in(0, 1);
        const int64_t row_bytes = width * pixel_bytes;
        int64_t along_x = pixel_bytes, along_y = row_bytes, upright_w = width, upright_h = height;
        if (transpose) along_x = row_bytes, along_y = pixel_bytes, upright_w = height, upright_h = width;
        w.width = upright_w, w.height = upright_h;
        w.step_x = flip_x ? -along_x : along_x;
        w.step_y = flip_y ? -along_y : along_y;
        w.origin = (flip_x ? (upright_w - 1) * along_x : 0) + (flip_y ? (upright_h - 1) * along_y : 0);
        w.red = (int32_t)rint_in(0, (size_t)pixel_bytes - 1);
        w.green = (int32_t)rint_in(0, (size_t)pixel_bytes - 1);
        w.blue = (int32_t)rint_in(0, (size_t)pixel_bytes - 1);
        w.zero_border = (int32_t)rint_in(0, 1);
        w.tensor_width = rint_in(1, 45);
        w.tensor_height = rint_in(1, 30);
        const double angle = rng_next() % 3 == 0 ? 0 : rfloat(-3.2f, 3.2f);
        const double sx = rfloat(0.2f, 3) * (double)upright_w / (double)w.tensor_width;
        const double sy = rfloat(0.2f, 3) * (double)upright_h / (double)w.tensor_height;
        w.m[0] = cos(angle) * sx, w.m[1] = -sin(angle) * sy, w.m[2] = rfloat(-10, (float)upright_w + 10);
        w.m[3] = sin(angle) * sx, w.m[4] = cos(angle) * sy, w.m[5] = rfloat(-10, (float)upright_h + 10);
        w.m[6] = 0, w.m[7] = 0, w.m[8] = 1;
        if (angle == 0) w.m[1] = 0, w.m[3] = 0;
        if (rng_next() % 4 == 0) w.m[6] = rfloat(-0.01f, 0.01f), w.m[7] = rfloat(-0.01f, 0.01f);
        const size_t count = w.tensor_width * w.tensor_height * 3, mid = split_in(0, w.tensor_height);
        uint8_t *byte_ref = NULL;
        float *float_ref = NULL;
        for (size_t i = 0; i < isa_count; i++) {
            uint8_t *bytes = xalloc(count + GUARD);
            memset(bytes, 0xA5, count + GUARD);
            vk_warp run = w;
            run.byte_output = bytes;
            vk_warp_rows(isas[i], &run, 0, mid);
            vk_warp_rows(isas[i], &run, mid, w.tensor_height);
            float *floats = out_buffer(count);
            run = w;
            run.float_output = floats;
            run.scale = 1.0f / 127.5f;
            run.offset = -1;
            vk_warp_rows(isas[i], &run, 0, w.tensor_height);
            stat *sb = stat_for("warp(bytes)", isas[i]), *sf = stat_for("warp(floats)", isas[i]);
            sb->cases++, sf->cases++;
            for (size_t g = count; g < count + GUARD; g++)
                if (bytes[g] != 0xA5) {
                    sb->oob++;
                    break;
                }
            check_guard(sf, floats, count);
            if (i == 0) {
                byte_ref = bytes, float_ref = floats;
                digest_bytes(sb, bytes, count);
                digest_f32(sf, floats, count);
            } else {
                compare_bytes(sb, byte_ref, bytes, count, 1);
                compare_f32(sf, float_ref, floats, count);
                free(bytes);
                free(floats);
            }
        }
        free(byte_ref);
        free(float_ref);
        free(pixels);
    }
}

// MARK: Quantized kernels

static int32_t q_round(float v) { return (int32_t)nearbyintf(v); }

/// Scalar requantization of the header's rule, independent of the kernels' code.
static int32_t q_requantize(int64_t sum, float scale, float lower, float upper, int32_t zero_point) {
    float v = (float)sum * scale;
    v = v < lower ? lower : v;
    v = v > upper ? upper : v;
    return q_round(v) + zero_point;
}

typedef struct qpacked {
    int16_t *weights;
    int32_t *bias;
    float *scales;
    size_t pair_count, panels;
} qpacked;

/// Packs `n` rows of `k` int16 weights (zero point removed) as vk_qgemm wants them.
static qpacked q_pack(const int16_t *w, const int32_t *bias, const float *scales, size_t n, size_t k) {
    qpacked p;
    p.pair_count = (k + 1) / 2;
    p.panels = (n + 15) / 16;
    p.weights = xalloc(p.panels * p.pair_count * 32 * sizeof(int16_t) + 64);
    p.bias = xalloc(p.panels * 16 * sizeof(int32_t) + 64);
    p.scales = xalloc(p.panels * 16 * sizeof(float) + 64);
    memset(p.weights, 0, p.panels * p.pair_count * 32 * sizeof(int16_t));
    memset(p.bias, 0, p.panels * 16 * sizeof(int32_t));
    memset(p.scales, 0, p.panels * 16 * sizeof(float));
    for (size_t r = 0; r < n; r++) {
        int16_t *dst = p.weights + (r / 16) * p.pair_count * 32 + (r % 16) * 2;
        for (size_t kk = 0; kk < k; kk++) dst[(kk / 2) * 32 + kk % 2] = w[r * k + kk];
        p.bias[r] = bias[r];
        p.scales[r] = scales[r];
    }
    return p;
}

static void q_free(qpacked *p) {
    free(p->weights);
    free(p->bias);
    free(p->scales);
}

/// Runs vk_qgemm for every build on int16 activations (rows x k, stride k rounded up to even)
/// and compares the bytes (or int32 sums) with each other and with a scalar reference.
/// Returns the portable output (rows * n bytes; caller frees).
static unsigned char *run_qgemm(const char *prefix, const int16_t *a, size_t rows, size_t k, const int16_t *w,
                                const int32_t *bias, const float *scales, size_t n, float lower, float upper,
                                int32_t zero_point, int is_signed, int sums_only) {
    qpacked p = q_pack(w, bias, scales, n, k);
    const size_t as = 2 * p.pair_count;
    // Activations padded to an even k with zeros.
    int16_t *ap = xalloc(rows * as * sizeof(int16_t) + 64);
    for (size_t r = 0; r < rows; r++) {
        for (size_t kk = 0; kk < as; kk++) ap[r * as + kk] = kk < k ? a[r * k + kk] : 0;
    }
    // Scalar reference.
    unsigned char *expected = xalloc(rows * n + 64);
    int32_t *expected_sums = xalloc(rows * n * sizeof(int32_t) + 64);
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < n; c++) {
            int64_t sum = bias[c];
            for (size_t kk = 0; kk < k; kk++) sum += (int64_t)a[r * k + kk] * w[c * k + kk];
            expected_sums[r * n + c] = (int32_t)sum;
            int32_t q = q_requantize(sum, scales[c], lower, upper, zero_point);
            expected[r * n + c] = (unsigned char)(is_signed ? (uint8_t)(int8_t)q : (uint8_t)q);
        }
    unsigned char *ref = NULL;
    char name[64];
    for (size_t i = 0; i < isa_count; i++) {
        vk_qgemm g = {0};
        g.isa = isas[i];
        g.vnni = vk_qgemm_uses_vnni(isas[i]);
        g.weights = p.weights, g.bias = p.bias, g.n = n, g.pair_count = p.pair_count;
        g.scales = sums_only ? NULL : p.scales;
        g.lower = lower, g.upper = upper, g.zero_point = zero_point, g.is_signed = is_signed;
        snprintf(name, sizeof name, "%sqgemm%s", prefix, sums_only ? "-sums" : "");
        stat *s = stat_for(name, isas[i]);
        s->cases++;
        if (sums_only) {
            int32_t *sums = xalloc(rows * n * sizeof(int32_t) + 64);
            const size_t mid = split_in(0, rows);
            vk_qgemm_run(&g, ap, as, mid, NULL, 0, sums, n);
            vk_qgemm_run(&g, ap + mid * as, as, rows - mid, NULL, 0, sums + mid * n, n);
            compare_bytes(s, expected_sums, sums, rows * n * sizeof(int32_t), 4);
            if (i == 0) digest_bytes(s, sums, rows * n * sizeof(int32_t));
            free(sums);
            continue;
        }
        unsigned char *out = xalloc(rows * n + 64);
        memset(out, 0xA5, rows * n + 64);
        const size_t mid = split_in(0, rows);
        vk_qgemm_run(&g, ap, as, mid, out, n, NULL, 0);
        vk_qgemm_run(&g, ap + mid * as, as, rows - mid, out + mid * n, n, NULL, 0);
        for (size_t j = rows * n; j < rows * n + 64; j++)
            if (out[j] != 0xA5) {
                s->oob++;
                break;
            }
        // Against the scalar reference (also for portable) and, for the others, portable.
        snprintf(name, sizeof name, "%sqgemm-vs-scalar", prefix);
        compare_bytes(stat_for(name, isas[i]), expected, out, rows * n, 1);
        if (i == 0) {
            ref = out;
            digest_bytes(s, out, rows * n);
        } else {
            compare_bytes(s, ref, out, rows * n, 1);
            free(out);
        }
    }
    free(ap);
    free(expected);
    free(expected_sums);
    q_free(&p);
    return ref;
}

static void test_qgemm(size_t cases) {
    for (size_t t = 0; t < cases; t++) {
        const size_t rows = rint_in(1, 20), k = rint_in(1, 90), n = rint_in(1, 70);
        const int is_signed = rng_next() % 2, sums_only = t % 5 == 0;
        int16_t *a = xalloc(rows * k * sizeof(int16_t) + 4), *w = xalloc(n * k * sizeof(int16_t) + 4);
        int32_t *bias = xalloc(n * sizeof(int32_t) + 4);
        float *scales = xalloc(n * sizeof(float) + 4);
        for (size_t i = 0; i < rows * k; i++) a[i] = is_signed ? (int16_t)((int)rint_in(0, 255) - 128) : (int16_t)rint_in(0, 255);
        for (size_t i = 0; i < n * k; i++) w[i] = (int16_t)((int)rint_in(0, 510) - 255);
        for (size_t i = 0; i < n; i++) bias[i] = (int32_t)rint_in(0, 200000) - 100000;
        for (size_t i = 0; i < n; i++) scales[i] = rfloat(1e-5f, 3e-3f);
        const int32_t zp = is_signed ? (int32_t)rint_in(0, 40) - 20 : (int32_t)rint_in(0, 255);
        const float lower = (float)((is_signed ? -128 : 0) - zp), upper = (float)((is_signed ? 127 : 255) - zp);
        free(run_qgemm("", a, rows, k, w, bias, scales, n, lower, upper, zp, is_signed, sums_only));
        free(a);
        free(w);
        free(bias);
        free(scales);
    }
}

/// Runs vk_qdwconv for every build; compares with each other and with a scalar reference.
/// `w` holds taps x channels int16 weights (zero point removed), not yet padded.
static unsigned char *run_qdwconv(const char *prefix, const vk_qdwconv *proto, size_t batch, const int16_t *w,
                                  const int32_t *bias, const float *scales) {
    const size_t C = proto->channels, taps = proto->kernel_height * proto->kernel_width;
    const size_t PC = (C + 15) / 16 * 16;
    int16_t *wp = xalloc(taps * PC * sizeof(int16_t) + 64);
    int32_t *bp = xalloc(PC * sizeof(int32_t) + 64);
    float *sp = xalloc(PC * sizeof(float) + 64);
    memset(wp, 0, taps * PC * sizeof(int16_t));
    memset(bp, 0, PC * sizeof(int32_t));
    memset(sp, 0, PC * sizeof(float));
    for (size_t t = 0; t < taps; t++) memcpy(wp + t * PC, w + t * C, C * sizeof(int16_t));
    memcpy(bp, bias, C * sizeof(int32_t));
    memcpy(sp, scales, C * sizeof(float));
    const size_t OH = proto->output_height, OW = proto->output_width, IH = proto->input_height, IW = proto->input_width;
    const size_t count = batch * OH * OW * C;
    unsigned char *expected = xalloc(count + 64);
    const unsigned char *in = proto->input;
    for (size_t b = 0; b < batch; b++)
        for (size_t oy = 0; oy < OH; oy++)
            for (size_t ox = 0; ox < OW; ox++)
                for (size_t c = 0; c < C; c++) {
                    int64_t sum = bias[c];
                    for (size_t ky = 0; ky < proto->kernel_height; ky++)
                        for (size_t kx = 0; kx < proto->kernel_width; kx++) {
                            ptrdiff_t iy = (ptrdiff_t)(oy * proto->stride_h + ky * proto->dilation_h) - (ptrdiff_t)proto->pad_top;
                            ptrdiff_t ix = (ptrdiff_t)(ox * proto->stride_w + kx * proto->dilation_w) - (ptrdiff_t)proto->pad_left;
                            if (iy < 0 || ix < 0 || iy >= (ptrdiff_t)IH || ix >= (ptrdiff_t)IW) continue;
                            unsigned char raw = in[((b * IH + (size_t)iy) * IW + (size_t)ix) * C + c];
                            int32_t x = proto->is_signed ? (int32_t)(int8_t)raw : (int32_t)raw;
                            sum += (int64_t)(x - proto->input_zero_point) * w[(ky * proto->kernel_width + kx) * C + c];
                        }
                    int32_t q = q_requantize(sum, scales[c], proto->lower, proto->upper, proto->zero_point);
                    expected[((b * OH + oy) * OW + ox) * C + c] = (unsigned char)q;
                }
    unsigned char *ref = NULL;
    char name[64];
    for (size_t i = 0; i < isa_count; i++) {
        unsigned char *out = xalloc(count + 64);
        memset(out, 0xA5, count + 64);
        vk_qdwconv d = *proto;
        d.isa = isas[i];
        d.output = out;
        d.weights = wp, d.bias = bp, d.scales = sp, d.padded_channels = PC;
        const size_t rows = batch * OH, mid = split_in(0, rows);
        vk_qdwconv_run(&d, 0, mid);
        vk_qdwconv_run(&d, mid, rows);
        snprintf(name, sizeof name, "%sqdwconv", prefix);
        stat *s = stat_for(name, isas[i]);
        s->cases++;
        for (size_t j = count; j < count + 64; j++)
            if (out[j] != 0xA5) {
                s->oob++;
                break;
            }
        snprintf(name, sizeof name, "%sqdwconv-vs-scalar", prefix);
        compare_bytes(stat_for(name, isas[i]), expected, out, count, 1);
        if (i == 0) {
            ref = out;
            digest_bytes(s, out, count);
        } else {
            compare_bytes(s, ref, out, count, 1);
            free(out);
        }
    }
    free(expected);
    free(wp);
    free(bp);
    free(sp);
    return ref;
}

static void test_qdwconv(size_t cases) {
    for (size_t t = 0; t < cases; t++) {
        vk_qdwconv d = {0};
        const size_t batch = rint_in(1, 2);
        d.input_height = rint_in(1, 10), d.input_width = rint_in(1, 12), d.channels = rint_in(1, 50);
        d.kernel_height = d.kernel_width = rng_next() % 2 ? 3 : rint_in(1, 5);
        d.stride_h = d.stride_w = rint_in(1, 2);
        d.dilation_h = d.dilation_w = rng_next() % 4 == 0 ? 2 : 1;
        const size_t pad = rint_in(0, d.kernel_height - 1);
        d.pad_top = d.pad_left = pad / 2;
        d.output_height = out_size(d.input_height, d.kernel_height, d.stride_h, d.dilation_h, pad);
        d.output_width = out_size(d.input_width, d.kernel_width, d.stride_w, d.dilation_w, pad);
        if (d.output_height == 0 || d.output_width == 0) continue;
        d.is_signed = rng_next() % 2;
        const size_t C = d.channels, taps = d.kernel_height * d.kernel_width;
        const size_t in_count = batch * d.input_height * d.input_width * C;
        unsigned char *input = xalloc(in_count + 64);
        for (size_t i = 0; i < in_count; i++) input[i] = (unsigned char)rint_in(0, 255);
        int16_t *w = xalloc(taps * C * sizeof(int16_t) + 4);
        int32_t *bias = xalloc(C * sizeof(int32_t) + 4);
        float *scales = xalloc(C * sizeof(float) + 4);
        for (size_t i = 0; i < taps * C; i++) w[i] = (int16_t)((int)rint_in(0, 510) - 255);
        for (size_t i = 0; i < C; i++) bias[i] = (int32_t)rint_in(0, 20000) - 10000;
        for (size_t i = 0; i < C; i++) scales[i] = rfloat(1e-4f, 1e-2f);
        d.input = input;
        d.input_zero_point = d.is_signed ? (int32_t)rint_in(0, 40) - 20 : (int32_t)rint_in(0, 255);
        d.zero_point = d.is_signed ? (int32_t)rint_in(0, 40) - 20 : (int32_t)rint_in(0, 255);
        d.lower = (float)((d.is_signed ? -128 : 0) - d.zero_point);
        d.upper = (float)((d.is_signed ? 127 : 255) - d.zero_point);
        free(run_qdwconv("", &d, batch, w, bias, scales));
        free(input);
        free(w);
        free(bias);
        free(scales);
    }
}

// MARK: Thread pool

typedef struct pool_job {
    vk_gemm_shape shape;
    const float *packed, *a;
    float *c;
    size_t m, k, tile;
    _Atomic size_t *hits;
    _Atomic size_t calls;
    vk_pool *pool;
} pool_job;

static void pool_task(void *context, size_t begin, size_t end, size_t thread) {
    (void)thread;
    pool_job *j = context;
    for (size_t t = begin; t < end; t++) {
        atomic_fetch_add(&j->hits[t], 1);
        size_t r0 = t * j->tile, r1 = r0 + j->tile < j->m ? r0 + j->tile : j->m;
        vk_gemm_run(j->shape, j->packed, j->a, j->k, j->c, j->shape.n, r0, r1, 0, vk_gemm_panel_count(j->shape),
                    -INFINITY, INFINITY);
    }
}

static void pool_entry(void *context, size_t thread) {
    pool_job *j = context;
    size_t begin, end;
    while (vk_pool_claim(j->pool, thread, &begin, &end)) pool_task(context, begin, end, thread);
}

static void each_task(void *context, size_t begin, size_t end, size_t thread) {
    pool_job *j = context;
    if (end == begin + 1 && begin == thread) atomic_fetch_add(&j->hits[thread], 1);
    atomic_fetch_add(&j->calls, 1);
}

static int test_pool(size_t rounds) {
    stat *s = stat_get("thread_pool");
    const size_t m = 97, k = 33, n = 41;
    float *a = xalloc(m * k * sizeof(float)), *w = xalloc(n * k * sizeof(float));
    fill(a, m * k, -1, 1);
    fill(w, n * k, -1, 1);
    const vk_isa isa = isas[isa_count - 1];
    vk_gemm_shape shape = {isa, n, k};
    float *packed = xalloc(vk_gemm_packed_count(shape) * sizeof(float));
    vk_gemm_pack(shape, w, NULL, packed);
    float *single = xalloc(m * n * sizeof(float));
    vk_gemm_run(shape, packed, a, k, single, n, 0, m, 0, vk_gemm_panel_count(shape), -INFINITY, INFINITY);
    int failures = 0;
    for (size_t threads = 1; threads <= 4; threads++) {
        vk_pool *pool = vk_pool_create(threads);
        if (!pool) {
            fprintf(stderr, "thread pool of %zu threads did not start\n", threads);
            failures++;
            continue;
        }
        for (size_t round = 0; round < rounds; round++) {
            const size_t tile = rint_in(1, 7), tasks = (m + tile - 1) / tile;
            _Atomic size_t hits[128];
            for (size_t i = 0; i < 128; i++) atomic_store(&hits[i], 0);
            float *c = xalloc(m * n * sizeof(float));
            memset(c, 0xff, m * n * sizeof(float));
            pool_job job = {shape, packed, a, c, m, k, tile, hits, 0, pool};
            if (round % 2 == 0) vk_pool_run(pool, pool_task, &job, tasks);
            else vk_pool_run_claiming(pool, pool_entry, &job, tasks);
            s->cases++;
            for (size_t i = 0; i < tasks; i++)
                if (atomic_load(&hits[i]) != 1) {
                    failures++;
                    fprintf(stderr, "pool %zu threads: task %zu ran %zu times\n", threads, i, atomic_load(&hits[i]));
                }
            compare_f32(s, single, c, m * n);
            free(c);
            // Exactly one call per thread.
            for (size_t i = 0; i < threads; i++) atomic_store(&hits[i], 0);
            atomic_store(&job.calls, 0);
            vk_pool_run_on_each_thread(pool, each_task, &job);
            if (atomic_load(&job.calls) != threads) {
                failures++;
                fprintf(stderr, "pool %zu threads: run_on_each_thread made %zu calls\n", threads, atomic_load(&job.calls));
            }
            for (size_t i = 0; i < threads; i++)
                if (atomic_load(&hits[i]) != 1) failures++;
        }
        (void)vk_pool_sleeping(pool);
        vk_pool_destroy(pool);
    }
    // Denormal flushing: FPCR.FZ on arm64, MXCSR FTZ/DAZ on x86-64.
    volatile float tiny = 0x1p-120f, scale = 0x1p-10f;
    const uint64_t state = vk_denormals_flush_begin();
    const float flushed = tiny * scale;
    vk_denormals_flush_end(state);
    const float kept = tiny * scale;
    if (flushed != 0.0f || kept != 0x1p-130f) {
        fprintf(stderr, "denormal flush: %a with the flush, %a after it\n", flushed, kept);
        failures++;
    }
    free(a);
    free(w);
    free(packed);
    free(single);
    return failures;
}

// MARK: Captured layers

enum { L_CONV = 1, L_DWCONV = 2, L_FC = 3, L_ADD = 4, L_PRELU = 5, L_MAXPOOL = 6, L_AVGPOOL = 7, L_HSWISH = 8,
       L_SIGMOID = 9, L_RESIZE = 10, L_QCONV = 20, L_QDWCONV = 21 };

typedef struct array {
    uint32_t dtype;  // 0 f32, 1 u8, 2 i8, 3 i32, 4 i16
    uint64_t count;
    void *data;
} array;

static int read_exact(FILE *f, void *p, size_t n) { return fread(p, 1, n, f) == n; }

static double worst_reference = 0;  // largest scaled difference to LiteRT's output (float layers)

/// Scaled difference `|a - b| / max(1, |b|)` of portable results to LiteRT's tensors (information
/// and a 1e-4 bound, the golden tolerance of the x86 parity tests) and the exact count.
static void compare_reference(const char *name, const float *ours, const float *lite, size_t n) {
    stat *s = stat_get(name);
    s->tolerance = 1e-4;
    s->cases++;
    compare_f32(s, lite, ours, n);
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)ours[i] - lite[i]) / fmax(1.0, fabs((double)lite[i]));
        if (d > worst_reference) worst_reference = d;
    }
}

static void run_layer(uint32_t kind, const char *label, const int64_t *p, const float *fp, array *arr, size_t narr) {
    char name[96];
    const float lo = fp[0], hi = fp[1];
    vk_conv_geometry g = {0};
    const size_t batch = (size_t)p[0];
    g.input_height = (size_t)p[1], g.input_width = (size_t)p[2], g.channels = (size_t)p[3];
    g.output_height = (size_t)p[4], g.output_width = (size_t)p[5];
    g.kernel_height = (size_t)p[6], g.kernel_width = (size_t)p[7];
    g.stride_h = (size_t)p[8], g.stride_w = (size_t)p[9], g.dilation_h = (size_t)p[10], g.dilation_w = (size_t)p[11];
    g.pad_top = (size_t)p[12], g.pad_left = (size_t)p[13];
    const size_t n = (size_t)p[14];
    const size_t out_count = batch * g.output_height * g.output_width * n;
    switch (kind) {
    case L_CONV: {
        g.input = arr[0].data;
        const float *filter = arr[1].data, *bias = arr[2].count ? arr[2].data : NULL;
        float *ours = run_convolutions("layer:conv:", &g, batch, filter, bias, n, lo, hi);
        snprintf(name, sizeof name, "litert:conv %s", label);
        compare_reference(name, ours, arr[3].data, out_count);
        free(ours);
        break;
    }
    case L_FC: {
        const size_t rows = batch, k = g.channels;
        const float *a = arr[0].data, *w = arr[1].data, *bias = arr[2].count ? arr[2].data : NULL;
        float *ref = NULL;
        for (size_t i = 0; i < isa_count; i++) {
            vk_gemm_shape shape = {isas[i], n, k};
            float *packed = xalloc(vk_gemm_packed_count(shape) * sizeof(float));
            vk_gemm_pack(shape, w, bias, packed);
            float *c = out_buffer(rows * n);
            vk_gemm_run(shape, packed, a, k, c, n, 0, rows, 0, vk_gemm_panel_count(shape), lo, hi);
            stat *s = stat_for("layer:fully_connected", isas[i]);
            s->cases++;
            check_guard(s, c, rows * n);
            if (i == 0) {
                ref = c;
                digest_f32(s, c, rows * n);
            } else {
                compare_f32(s, ref, c, rows * n);
                free(c);
            }
            free(packed);
        }
        snprintf(name, sizeof name, "litert:fully_connected %s", label);
        compare_reference(name, ref, arr[3].data, rows * n);
        free(ref);
        break;
    }
    case L_DWCONV: {
        vk_dwconv d = {0};
        d.input = arr[0].data;
        d.input_height = g.input_height, d.input_width = g.input_width, d.channels = g.channels;
        d.output_height = g.output_height, d.output_width = g.output_width;
        d.kernel_height = g.kernel_height, d.kernel_width = g.kernel_width;
        d.stride_h = g.stride_h, d.stride_w = g.stride_w, d.dilation_h = g.dilation_h, d.dilation_w = g.dilation_w;
        d.pad_top = g.pad_top, d.pad_left = g.pad_left;
        d.weights = arr[1].data;  // taps x C, then C biases
        d.lo = lo, d.hi = hi;
        float *ours = run_dwconv("layer:", &d, batch);
        snprintf(name, sizeof name, "litert:dwconv %s", label);
        compare_reference(name, ours, arr[2].data, batch * g.output_height * g.output_width * g.channels);
        free(ours);
        break;
    }
    case L_ADD: case L_PRELU: case L_HSWISH: case L_SIGMOID: {
        const size_t count = (size_t)arr[0].count, C = g.channels ? g.channels : 1, pixels = count / C;
        float *ref = NULL;
        const char *kname = kind == L_ADD ? "layer:add" : kind == L_PRELU ? "layer:prelu"
            : kind == L_HSWISH ? "layer:hard_swish" : "layer:sigmoid";
        for (size_t i = 0; i < isa_count; i++) {
            float *out = out_buffer(count);
            if (kind == L_ADD) vk_add_pixels(isas[i], arr[0].data, arr[1].data, C, out, pixels, C, lo, hi, NULL);
            else if (kind == L_PRELU) vk_prelu_pixels(isas[i], arr[0].data, out, pixels, C, arr[1].data);
            else if (kind == L_HSWISH) vk_hard_swish(isas[i], arr[0].data, out, count);
            else vk_sigmoid(isas[i], arr[0].data, out, count);
            stat *s = stat_for(kname, isas[i]);
            s->cases++;
            check_guard(s, out, count);
            if (i == 0) {
                ref = out;
                digest_f32(s, out, count);
            } else {
                compare_f32(s, ref, out, count);
                free(out);
            }
        }
        snprintf(name, sizeof name, "litert:%s %s", kname + 6, label);
        compare_reference(name, ref, arr[kind == L_ADD || kind == L_PRELU ? 2 : 1].data, count);
        free(ref);
        break;
    }
    case L_MAXPOOL: case L_AVGPOOL: {
        g.input = arr[0].data;
        const size_t rows = batch * g.output_height, count = rows * g.output_width * g.channels;
        float *ref = NULL;
        for (size_t i = 0; i < isa_count; i++) {
            float *out = out_buffer(count);
            if (kind == L_MAXPOOL) vk_max_pool(isas[i], &g, out, 0, rows, lo, hi);
            else vk_avg_pool(isas[i], &g, out, 0, rows, 1, lo, hi);
            stat *s = stat_for(kind == L_MAXPOOL ? "layer:max_pool" : "layer:avg_pool", isas[i]);
            s->cases++;
            check_guard(s, out, count);
            if (i == 0) {
                ref = out;
                digest_f32(s, out, count);
            } else {
                compare_f32(s, ref, out, count);
                free(out);
            }
        }
        snprintf(name, sizeof name, "litert:%s %s", kind == L_MAXPOOL ? "max_pool" : "avg_pool", label);
        compare_reference(name, ref, arr[1].data, count);
        free(ref);
        break;
    }
    case L_RESIZE: {
        vk_resize r = {0};
        r.input = arr[0].data;
        r.input_height = g.input_height, r.input_width = g.input_width, r.channels = g.channels;
        r.output_height = g.output_height, r.output_width = g.output_width;
        r.y_index = arr[1].data, r.y_weight = arr[2].data, r.x_index = arr[3].data, r.x_weight = arr[4].data;
        const size_t rows = batch * g.output_height, count = rows * g.output_width * g.channels;
        float *ref = NULL;
        for (size_t i = 0; i < isa_count; i++) {
            float *out = out_buffer(count);
            r.output = out;
            vk_resize_bilinear(isas[i], &r, 0, rows);
            stat *s = stat_for("layer:resize_bilinear", isas[i]);
            s->cases++;
            check_guard(s, out, count);
            if (i == 0) {
                ref = out;
                digest_f32(s, out, count);
            } else {
                compare_f32(s, ref, out, count);
                free(out);
            }
        }
        snprintf(name, sizeof name, "litert:resize_bilinear %s", label);
        compare_reference(name, ref, arr[5].data, count);
        free(ref);
        break;
    }
    case L_QCONV: {
        // arrays: input (u8/i8 NHWC), weights (int16, zero point removed, n x k OHWI), bias (int32,
        // input zero point folded in), scales (f32), LiteRT output (u8/i8).
        const int is_signed = (int)p[15];
        const int32_t in_zp = (int32_t)p[16], out_zp = (int32_t)p[17];
        const size_t KH = g.kernel_height, KW = g.kernel_width, C = g.channels, k = KH * KW * C;
        const size_t pixels = batch * g.output_height * g.output_width;
        // im2col of raw activations; taps outside the input hold the input zero point.
        int16_t *patches = xalloc(pixels * k * sizeof(int16_t) + 64);
        const unsigned char *in = arr[0].data;
        size_t m = 0;
        for (size_t b = 0; b < batch; b++)
            for (size_t oy = 0; oy < g.output_height; oy++)
                for (size_t ox = 0; ox < g.output_width; ox++, m++)
                    for (size_t ky = 0; ky < KH; ky++)
                        for (size_t kx = 0; kx < KW; kx++) {
                            ptrdiff_t iy = (ptrdiff_t)(oy * g.stride_h + ky * g.dilation_h) - (ptrdiff_t)g.pad_top;
                            ptrdiff_t ix = (ptrdiff_t)(ox * g.stride_w + kx * g.dilation_w) - (ptrdiff_t)g.pad_left;
                            int inside = iy >= 0 && ix >= 0 && iy < (ptrdiff_t)g.input_height && ix < (ptrdiff_t)g.input_width;
                            for (size_t c = 0; c < C; c++) {
                                int16_t v = (int16_t)in_zp;
                                if (inside) {
                                    unsigned char raw = in[((b * g.input_height + (size_t)iy) * g.input_width + (size_t)ix) * C + c];
                                    v = is_signed ? (int16_t)(int8_t)raw : (int16_t)raw;
                                }
                                patches[m * k + (ky * KW + kx) * C + c] = v;
                            }
                        }
        unsigned char *ours = run_qgemm("layer:", patches, pixels, k, arr[1].data, arr[2].data, arr[3].data, n,
                                        fp[0] - (float)out_zp, fp[1] - (float)out_zp, out_zp, is_signed, 0);
        snprintf(name, sizeof name, "litert:qconv %s", label);
        stat *s = stat_get(name);
        s->cases++;
        compare_bytes(s, arr[4].data, ours, pixels * n, 1);
        free(ours);
        free(patches);
        break;
    }
    case L_QDWCONV: {
        // arrays: input, weights (int16 taps x C), bias (int32), scales (f32), LiteRT output.
        vk_qdwconv d = {0};
        d.input = arr[0].data;
        d.input_height = g.input_height, d.input_width = g.input_width, d.channels = g.channels;
        d.output_height = g.output_height, d.output_width = g.output_width;
        d.kernel_height = g.kernel_height, d.kernel_width = g.kernel_width;
        d.stride_h = g.stride_h, d.stride_w = g.stride_w, d.dilation_h = g.dilation_h, d.dilation_w = g.dilation_w;
        d.pad_top = g.pad_top, d.pad_left = g.pad_left;
        d.is_signed = (int)p[15];
        d.input_zero_point = (int32_t)p[16];
        d.zero_point = (int32_t)p[17];
        d.lower = fp[0] - (float)d.zero_point, d.upper = fp[1] - (float)d.zero_point;
        unsigned char *ours = run_qdwconv("layer:", &d, batch, arr[1].data, arr[2].data, arr[3].data);
        snprintf(name, sizeof name, "litert:qdwconv %s", label);
        stat *s = stat_get(name);
        s->cases++;
        compare_bytes(s, arr[4].data, ours, batch * g.output_height * g.output_width * g.channels, 1);
        free(ours);
        break;
    }
    default: fprintf(stderr, "unknown layer kind %u\n", kind); exit(2);
    }
}

static size_t run_layers(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    char magic[4];
    if (!read_exact(f, magic, 4) || memcmp(magic, "VKL1", 4) != 0) {
        fprintf(stderr, "%s: not a capture file\n", path);
        exit(2);
    }
    size_t layers = 0;
    uint32_t kind;
    while (read_exact(f, &kind, 4)) {
        uint32_t label_length;
        char label[256];
        int64_t params[24];
        float fparams[4];
        uint32_t narr;
        array arr[8];
        if (!read_exact(f, &label_length, 4) || label_length >= sizeof label || !read_exact(f, label, label_length)
            || !read_exact(f, params, sizeof params) || !read_exact(f, fparams, sizeof fparams)
            || !read_exact(f, &narr, 4) || narr > 8) {
            fprintf(stderr, "%s: truncated record\n", path);
            exit(2);
        }
        label[label_length] = 0;
        for (uint32_t i = 0; i < narr; i++) {
            static const size_t sizes[] = {4, 1, 1, 4, 2};
            if (!read_exact(f, &arr[i].dtype, 4) || !read_exact(f, &arr[i].count, 8) || arr[i].dtype > 4) exit(2);
            const size_t bytes = arr[i].count * sizes[arr[i].dtype];
            arr[i].data = xalloc(bytes + 64);
            memset(arr[i].data, 0, bytes + 64);
            if (!read_exact(f, arr[i].data, bytes)) exit(2);
        }
        run_layer(kind, label, params, fparams, arr, narr);
        for (uint32_t i = 0; i < narr; i++) free(arr[i].data);
        layers++;
    }
    fclose(f);
    return layers;
}

// MARK: Main

static int report(void) {
    int failures = 0;
    printf("%-44s %6s %10s %9s %12s %10s %s\n", "kernel/build", "cases", "values", "differ", "max|d|", "max ulp",
           "verdict");
    for (size_t i = 0; i < stat_count; i++) {
        stat *s = &stats[i];
        const int is_reference = strncmp(s->name, "litert:", 7) == 0;
        const int ok = s->known || (s->oob == 0 && s->beyond == 0);
        if (!ok) failures++;
        char ulp[32];
        if (s->max_ulp == UINT64_MAX) snprintf(ulp, sizeof ulp, "nan");
        else snprintf(ulp, sizeof ulp, "%llu", (unsigned long long)s->max_ulp);
        const char *verdict = s->known == 2 ? (s->beyond ? "info: beyond 1e-4 (not a failure)" : "info: within 1e-4")
            : s->known ? "KNOWN ISSUE (not counted as a failure)" : !ok ? (s->oob ? "FAIL (wrote out of bounds)" : "FAIL")
            : s->differing == 0 ? "bit-identical"
            : is_reference ? "within 1e-4" : "within tolerance";
        printf("%-44s %6zu %10zu %9zu %12.3g %10s %s\n", s->name, s->cases, s->values, s->differing, s->max_abs, ulp,
               verdict);
    }
    // Digests of the portable results (compared across architectures by the script).
    for (size_t i = 0; i < stat_count; i++)
        if (strstr(stats[i].name, "/portable"))
            printf("digest %s %016llx\n", stats[i].name, (unsigned long long)stats[i].digest);
    return failures;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s random [scale] | layers FILE\n", argv[0]);
        return 2;
    }
    // VK_PARITY_PORTABLE_ONLY=1: only the portable build (the x86-64 digests the aarch64 run is
    // compared with; the x86 builds are held to the portable one by the Swift tests).
    const int portable_only = getenv("VK_PARITY_PORTABLE_ONLY") && atoi(getenv("VK_PARITY_PORTABLE_ONLY"));
    no_specials = getenv("VK_PARITY_NO_SPECIALS") != NULL;
    isa_init();
    if (portable_only) isa_count = 1;
    printf("builds: portable");
    for (size_t i = 1; i < isa_count; i++) printf(", %s", vk_isa_name(isas[i]));
    printf(" (detected best: %s)\n", vk_isa_name(vk_isa_detect()));
#if defined(__aarch64__)
    if (vk_isa_detect() != VK_ISA_NEON) {
        fprintf(stderr, "FAIL: vk_isa_detect() is not NEON on aarch64\n");
        return 1;
    }
#endif
    if (isa_count < 2 && !portable_only) {
        fprintf(stderr, "FAIL: no SIMD build to compare with the portable one\n");
        return 1;
    }
    int failures = 0;
    // The engine runs kernels with denormals flushed (vk_denormals_flush_begin); so do we.
    const uint64_t fp_state = vk_denormals_flush_begin();
    if (strcmp(argv[1], "random") == 0) {
        const size_t scale = argc > 2 ? (size_t)atoi(argv[2]) : 1;
        rng_seed(27);
        test_gemm(60 * scale);
        test_convolutions(90 * scale);
        test_sparse(50 * scale);
        test_dwconv(80 * scale);
        test_add_prelu(60 * scale);
        test_transpose(40 * scale);
        test_deconv(40 * scale);
        test_pools(60 * scale);
        test_unary("hard_swish", vk_hard_swish, 40 * scale, -8, 8, 0);
        test_unary("sigmoid", vk_sigmoid, 40 * scale, -30, 30, 0);
        test_unary("rsqrt", vk_rsqrt, 40 * scale, 0, 1000, 1e-4);
        test_unary("sqrt", vk_sqrt, 40 * scale, 0, 1000, 1e-4);
        test_resize(40 * scale);
        test_warp(60 * scale);
        test_qgemm(50 * scale);
        test_qdwconv(50 * scale);
        vk_denormals_flush_end(fp_state);
        // Element-wise kernels with denormals kept too (the thread's default mode).
        test_unary("hard_swish(no-flush)", vk_hard_swish, 20 * scale, -1e-37f, 1e-37f, 0);
        test_unary("sigmoid(no-flush)", vk_sigmoid, 20 * scale, -100, 100, 0);
        (void)vk_denormals_flush_begin();
        failures += test_pool(20 * scale);
    } else if (strcmp(argv[1], "layers") == 0 && argc > 2) {
        size_t layers = run_layers(argv[2]);
        printf("layers: %zu captured layers run\n", layers);
        printf("largest scaled difference to LiteRT over float layers: %.3g\n", worst_reference);
    } else {
        fprintf(stderr, "unknown mode %s\n", argv[1]);
        return 2;
    }
    vk_denormals_flush_end(fp_state);
    failures += report();
    printf("%s\n", failures ? "RESULT: FAIL" : "RESULT: PASS");
    return failures ? 1 : 0;
}
