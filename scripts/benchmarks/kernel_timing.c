// Times single C kernels of CVisionKernels on fixed layer shapes taken from the models, for
// before/after figures of kernel changes (scripts/benchmarks/kernel_timing.sh builds it against
// two revisions' kernels and alternates them). Only entry points whose signatures are unchanged
// since 6627030 (the whole-image average's pass sums) are timed, so the same file builds against
// either revision from there on; the cases of
// vk_gemm_run_skipping_zeros (from 32a17d6 on) only with -DKT_SKIPPING, which kernel_timing.sh
// passes when both revisions have it.
//
// Prints one line per case and instruction set: `case isa median_ms`, each the median over
// ROUNDS rounds of the best of five runs of ITERATIONS calls (the cores are shared: slower runs
// are disturbed ones). Built with -DKT_LIBRARY it has no main and offers kt_collect instead, for
// scripts/benchmarks/kernel_pairs.c, which links two revisions' copies into one program.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "kernel_timing.h"

#define ITERATIONS 200

#ifndef KT_LIBRARY
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
#endif

static float *filled(size_t count, unsigned seed) {
    float *p = aligned_alloc(64, (count * sizeof(float) + 127) / 64 * 64);
    for (size_t i = 0; i < count; i++) p[i] = (float)((i * 2654435761u + seed) % 2000) * 0.001f - 1.0f;
    return p;
}

#ifndef KT_LIBRARY  // the timing loops of the stand-alone program (kernel_pairs.c has its own)
static double best_of_five(case_fn fn, void *state) {
    double best = 1e30;
    for (int run = 0; run < 5; run++) {
        double start = now();
        for (int i = 0; i < ITERATIONS; i++) fn(state);
        double t = (now() - start) / ITERATIONS;
        if (t < best) best = t;
    }
    return best * 1e3;
}
#endif

// Median of 41 single calls, each after 64 MB have been written (the caches hold none of the
// case's data; the kernel's inputs are then re-read, so only its weights stay cold), in ms.
static char *junk;
enum { JUNK_BYTES = 64 << 20 };
void kt_chill(warm_range warm) {
    if (!junk) junk = calloc(JUNK_BYTES, 1);
    for (size_t i = 0; i < JUNK_BYTES; i += 64) junk[i]++;
    volatile float sink = 0;
    for (size_t i = 0; i < warm.count; i += 16) sink += warm.data[i];
}

#ifndef KT_LIBRARY
static double cold_median(case_fn fn, void *state, warm_range warm) {
    double times[41];
    for (int run = 0; run < 41; run++) {
        kt_chill(warm);
        double start = now();
        fn(state);
        times[run] = now() - start;
    }
    for (int i = 0; i < 41; i++)
        for (int j = i + 1; j < 41; j++)
            if (times[j] < times[i]) {
                double t = times[i];
                times[i] = times[j];
                times[j] = t;
            }
    return times[20] * 1e3;
}
#endif

// The hand landmark model's 7 x 7 projection, 49 x 1152 -> 192, with its weights cold, panel by
// panel (the one-thread order of Inference's GemmTiling: each panel over all rows).
typedef struct { vk_gemm_shape shape; float *packed, *a, *c; size_t m; } gemm_state;
static void run_gemm_panels(void *p) {
    gemm_state *s = p;
    for (size_t panel = 0; panel < vk_gemm_panel_count(s->shape); panel++)
        vk_gemm_run(s->shape, s->packed, s->a, s->shape.k, s->c, s->shape.n, 0, s->m, panel, panel + 1, -1e30f,
                    1e30f);
}

// The face landmark model's 1x1 narrowing, 128 x 128 x 16 -> 8, all rows in one call (hot).
static void run_gemm(void *p) {
    gemm_state *s = p;
    vk_gemm_run(s->shape, s->packed, s->a, s->shape.k, s->c, s->shape.n, 0, s->m, 0, vk_gemm_panel_count(s->shape),
                -1e30f, 1e30f);
}

// The same 7 x 7 projection (hot) on the bands the fused depthwise -> 1x1 kernel hands it (28
// and 21 of the 49 pixels, rows left over after the whole tiles with either tile height), its
// input after a RELU6: 45 % of the columns zero in every row, a third of the rest zero here and
// there; and on one row alone, every step (a row left over).
#ifdef KT_SKIPPING
static void run_gemm_skipping(void *p) {
    gemm_state *s = p;
    vk_gemm_run_skipping_zeros(s->shape, s->packed, s->a, s->shape.k, s->c, s->shape.n, 0, s->m, 0,
                               vk_gemm_panel_count(s->shape), 0, 6);
}

// The face blendshapes model's token-mixing and channel-mixing projections after their RELU
// (64 x 384 -> 97, 97 x 256 -> 64): half the values zero, no step zero in every row of a tile,
// so every tile runs dense and the cases time what finding that out costs.
static float *scattered_zeros(size_t m, size_t k, unsigned seed) {
    float *a = filled(m * k, seed);
    for (size_t i = 0; i < m * k; i++)
        if ((i * 2654435761u >> 16) & 1) a[i] = 0;
    return a;
}

static float *zero_columns(size_t m, size_t k, unsigned seed) {
    float *a = filled(m * k, seed);
    for (size_t j = 0; j < k; j++)
        for (size_t i = 0; i < m; i++)
            if ((j * 7919u) % 100 < 45 || (i * k + j) * 2654435761u % 3 == 0) a[i * k + j] = 0;
    return a;
}
#endif

// The face blendshapes model's first SUM: 146 rows of 2 values.
typedef struct { vk_isa isa; float *x, *sums; } row_sums_state;
static void run_row_sums(void *p) {
    row_sums_state *s = p;
    vk_row_sums(s->isa, s->x, 146, 2, 1, s->sums);
}

// LOGISTIC over the selfie segmenter's 256 x 256 output, logits in [-100, 100].
typedef struct { vk_isa isa; float *x, *y; } sigmoid_state;
static void run_sigmoid(void *p) {
    sigmoid_state *s = p;
    vk_sigmoid(s->isa, s->x, s->y, 65536);
}

// The hand landmark model's stem (3x3 stride 2 over 224 x 224 x 3 to 112 x 112 x 24) and
// BlazeFace's (5x5 stride 2 over 128 x 128 x 3).
typedef struct { vk_gemm_shape shape; float *packed, *out, *zeros; vk_conv_geometry g; } stem_state;

// A stride-2 window of `window` x `window` taps from an `input` x `input` x 3 image to 24 channels
// (`pad` rows and columns of zeros before the first), data seeded from `seed` on.
static stem_state make_stem(vk_isa isa, size_t input, size_t window, size_t pad, unsigned seed) {
    stem_state s;
    const size_t k = window * window * 3, output = input / 2;
    s.shape = (vk_gemm_shape){isa, 24, k};
    float *w = filled(24 * k, seed), *bias = filled(24, seed + 1);
    s.packed = aligned_alloc(64, (vk_gemm_packed_count(s.shape) * sizeof(float) + 63) / 64 * 64);
    vk_gemm_pack(s.shape, w, bias, s.packed);
    s.out = filled(output * output * 24, seed + 2);
    s.zeros = calloc(4096, sizeof(float));
    s.g = (vk_conv_geometry){filled(input * input * 3, seed + 3), input, input, 3, output, output, window, window,
                             2, 2, 1, 1, pad, pad};
    return s;
}

static void run_stem(void *p) {
    stem_state *s = p;
    size_t pixels = s->g.output_height * s->g.output_width;
    vk_gemm_conv(s->shape, s->packed, &s->g, s->zeros, s->out, s->shape.n, 0, pixels, 0,
                 vk_gemm_panel_count(s->shape), -1e30f, 1e30f);
}

// Sparse 1x1 convolutions: the hand landmark model's 7 x 7 projection 1152 -> 192 (36 % of the
// weights non-zero) and a pose detector layer, 14 x 14 x 112 -> 672 (25 %), tile by tile as
// Inference's SparseConvKernel runs them on one thread.
typedef struct { vk_isa isa; float *packed, *a, *c, *scratch; size_t m, n, k; } sparse_state;
static sparse_state make_sparse(vk_isa isa, size_t m, size_t k, size_t n, unsigned percent, unsigned seed) {
    sparse_state s = {isa, NULL, filled(m * k, seed), filled(m * n, seed + 1), NULL, m, n, k};
    float *w = filled(n * k, seed + 2), *bias = filled(n, seed + 3);
    for (size_t i = 0; i < n * k; i++)
        if ((i * 2246822519u + seed) % 100 >= percent) w[i] = 0.0f;
    s.packed = aligned_alloc(64, (vk_sparse_packed_count(isa, n, k, w) * sizeof(float) + 63) / 64 * 64);
    vk_sparse_pack(isa, n, k, w, bias, s.packed);
    s.scratch = aligned_alloc(64, (vk_sparse_scratch_count(isa, s.packed, n) * sizeof(float) + 63) / 64 * 64);
    return s;
}
static void run_sparse(void *p) {
    sparse_state *s = p;
    const size_t tile = vk_sparse_tile_pixels(s->isa);
    for (size_t m0 = 0; m0 < s->m; m0 += tile)
        vk_sparse_run(s->isa, s->packed, s->n, s->k, s->a, s->k, s->c, s->n, m0, m0 + tile < s->m ? m0 + tile : s->m, 0,
                      vk_sparse_group_count(s->packed), -1e30f, 1e30f, NULL, s->scratch);
}

// Depthwise convolutions (the hand landmark model's 5x5 layers at 14 x 14 x 672, 7 x 7 x 1152
// and 28 x 28 x 240, and its 3x3 layers at 56 x 56 x 144 and 112 x 112 x 24, all stride 1; its
// stride-2 layers: 5x5 from 14 x 14 x 672 and 56 x 56 x 144, 3x3 from 112 x 112 x 64 and
// 28 x 28 x 240).
typedef struct { vk_dwconv d; } dw_state;
static void run_dw(void *p) {
    dw_state *s = p;
    vk_dwconv_run(&s->d, 0, s->d.output_height);
}

// BlazeFace's residual ADD + RELU fused after a 1x1 convolution of 64 x 64 pixels, 24 -> 28
// channels (the residual has 24, zero beyond them), applied tile by tile (8 pixels) as
// Conv2DKernel applies its epilogue.
typedef struct { vk_isa isa; float *out, *residual; size_t pixels, channels, residual_channels, tile; } add_state;
static void run_add_tiles(void *p) {
    add_state *s = p;
    for (size_t first = 0; first < s->pixels; first += s->tile)
        vk_add_pixels(s->isa, s->out + first * s->channels, s->residual + first * s->residual_channels,
                      s->residual_channels, s->out + first * s->channels, s->tile, s->channels, 0.0f, 1e30f, NULL);
}

// Whole-image averages of the selfie segmenter, one thread: its largest (128 x 128 x 16) and one
// of its squeeze-and-excitation blocks' (16 x 16 x 96).
typedef struct { vk_isa isa; vk_conv_geometry g; float out[96]; } pool_state;
static void run_pool(void *p) {
    pool_state *s = p;
    vk_avg_pool(s->isa, &s->g, s->out, 0, 1, 1, -1e30f, 1e30f);
}

// 2 x 2 stride-2 max pooling, one thread: BlazeFace's first (64 x 64 x 28) and the face landmark
// model's (128 x 128 x 16).
typedef struct { vk_isa isa; vk_conv_geometry g; float *out; } max_pool_state;
static void run_max_pool(void *p) {
    max_pool_state *s = p;
    vk_max_pool(s->isa, &s->g, s->out, 0, s->g.output_height, -1e30f, 1e30f);
}

// The largest of them the way Pool2DKernel sums it: pass sums over all rows (one thread's band),
// then added in order.
typedef struct { pool_state pool; float *sums; } pool_passes_state;
static void run_pool_passes(void *p) {
    pool_passes_state *s = p;
    const vk_conv_geometry *g = &s->pool.g;
    const size_t taps = g->input_height * g->input_width;
    vk_avg_pool_pass_rows(s->pool.isa, g, 0, g->input_height, s->sums);
    vk_avg_pool_chain(s->pool.isa, s->sums, (taps + 8) / 9, g->channels, taps, -1e30f, 1e30f, s->pool.out);
}

// Bilinear 2x upsamplings with half-pixel centres, as the decoders run them: the selfie
// segmenter's 64 x 64 x 16 -> 128 x 128 and the pose landmark model's 32 x 32 x 48 -> 64 x 64 and
// 128 x 128 x 8 -> 256 x 256 (source rows, columns and weights as XNNPACK computes them).
typedef struct { vk_isa isa; vk_resize r; } resize_state;
static void run_resize(void *p) {
    resize_state *s = p;
    vk_resize_bilinear(s->isa, &s->r, 0, s->r.output_height);
}
static resize_state make_resize(vk_isa isa, size_t size, size_t channels, unsigned seed) {
    const size_t out = 2 * size;
    int32_t *index = malloc(2 * out * sizeof(int32_t));
    float *weight = malloc(out * sizeof(float));
    for (size_t o = 0; o < out; o++) {
        float v = (float)o * 0.5f + (0.5f * 0.5f - 0.5f);
        v = v < 0 ? 0 : v > (float)(size - 1) ? (float)(size - 1) : v;
        const int32_t lower = (int32_t)v;
        index[2 * o] = lower;
        index[2 * o + 1] = lower + 1 < (int32_t)size ? lower + 1 : (int32_t)size - 1;
        weight[o] = v - (float)lower;
    }
    return (resize_state){isa, {filled(size * size * channels, seed), size, size, channels,
                                filled(out * out * channels, seed + 1), out, out, index, weight, index, weight}};
}

// The palm detector's input: business-person.png's size (958 x 1358 RGB, pseudo-random bytes)
// letterboxed into 192 x 192 floats with a zero border (29 % of the tensor is padding); a landmark
// crop of hand_thumb_up.png's size (640 x 521) rotated by 0.4 into 256 x 256 floats, centred
// in the image, moved past its bottom-right corner (edge pixels replicated), on the picture
// mirrored (EXIF orientation 2: upright rows run backwards in memory), and on the picture turned
// by a quarter (stored 640 x 521, shown 521 x 640: EXIF orientation 6, as phones store portrait
// photos; upright rows are stored columns), centred and past the corner; and that image
// stretched whole into 300 x 300 bytes (the object detector's input, no rotation).
typedef struct { vk_isa isa; vk_warp w; } warp_state;
static void run_warp(void *p) {
    warp_state *s = p;
    vk_warp_rows(s->isa, &s->w, 0, s->w.tensor_height);
}

// Every case (kernel_timing.h). The data lives until `then` returns, so that kernel_pairs.c can
// hold two revisions' cases at once.
void kt_collect(vk_isa isa, kt_collected then, void *context) {
    {
        sigmoid_state sig = {isa, filled(65536, 1), filled(65536, 2)};
        row_sums_state short_rows = {isa, filled(146 * 2, 40), filled(146, 41)};
        for (size_t i = 0; i < 65536; i++) sig.x[i] *= 100.0f;

        stem_state stem = make_stem(isa, 224, 3, 0, 3);
        sparse_state projection_sparse = make_sparse(isa, 49, 1152, 192, 36, 31);
        sparse_state expansion_sparse = make_sparse(isa, 196, 112, 672, 25, 37);

        dw_state dws[12];
        // Input height (= width), channels, window, stride (see run_dw).
        // The last three: the palm detector's 96 x 96 x 32 and 12 x 12 x 256 (rows of 12 KB, a multiple of
        // 4 KB) and 11 x 11 x 256 beside the latter (docs/ENGINE.md, the fifteenth session).
        const size_t sizes[12][4] = {{14, 672, 5, 1}, {7, 1152, 5, 1}, {28, 240, 5, 1},  {56, 144, 3, 1},
                                     {14, 672, 5, 2}, {112, 64, 3, 2}, {28, 240, 3, 2},  {112, 24, 3, 1},
                                     {56, 144, 5, 2}, {96, 32, 5, 1},  {12, 256, 5, 1}, {11, 256, 5, 1}};
        for (size_t d = 0; d < sizeof sizes / sizeof sizes[0]; d++) {
            const size_t H = sizes[d][0], C = sizes[d][1], K = sizes[d][2], S = sizes[d][3], OH = (H + S - 1) / S;
            memset(&dws[d].d, 0, sizeof dws[d].d);
            vk_dwconv *c = &dws[d].d;
            c->isa = isa, c->input = filled(H * H * C, 7), c->input_height = H, c->input_width = H;
            c->channels = C, c->output = filled(OH * OH * C, 8), c->output_height = OH, c->output_width = OH;
            c->kernel_height = K, c->kernel_width = K, c->stride_h = S, c->stride_w = S;
            c->dilation_h = 1, c->dilation_w = 1, c->pad_top = S == 1 ? K / 2 : 1, c->pad_left = S == 1 ? K / 2 : 1;
            c->weights = filled((K * K + 1) * C, 9), c->zeros = calloc(H * C + 64, sizeof(float));
            c->lo = -1e30f, c->hi = 1e30f;
        }

        gemm_state projection;
        projection.shape = (vk_gemm_shape){isa, 192, 1152};
        projection.m = 49;
        float *pw = filled(192 * 1152, 12), *pb = filled(192, 13);
        projection.packed = aligned_alloc(64, (vk_gemm_packed_count(projection.shape) * sizeof(float) + 63) / 64 * 64);
        vk_gemm_pack(projection.shape, pw, pb, projection.packed);
        projection.a = filled(49 * 1152, 14), projection.c = filled(49 * 192, 15);
        gemm_state row = projection;
        row.m = 1;
#ifdef KT_SKIPPING
        gemm_state band28 = projection, band21 = projection;
        band28.m = 28, band28.a = zero_columns(28, 1152, 16);
        band21.m = 21, band21.a = zero_columns(21, 1152, 17);
        gemm_state token_mixing, channel_mixing;
        token_mixing.shape = (vk_gemm_shape){isa, 97, 384};
        channel_mixing.shape = (vk_gemm_shape){isa, 64, 256};
        token_mixing.m = 64, channel_mixing.m = 97;
        gemm_state *const mixing[] = {&token_mixing, &channel_mixing};
        for (size_t i = 0; i < 2; i++) {
            gemm_state *s = mixing[i];
            const size_t n = s->shape.n, k = s->shape.k;
            float *w = filled(n * k, 30 + i), *bias = filled(n, 32 + i);
            s->packed = aligned_alloc(64, (vk_gemm_packed_count(s->shape) * sizeof(float) + 63) / 64 * 64);
            vk_gemm_pack(s->shape, w, bias, s->packed);
            s->a = scattered_zeros(s->m, k, 34 + i), s->c = filled(s->m * n, 36 + i);
        }
#endif

        gemm_state narrowing;
        narrowing.shape = (vk_gemm_shape){isa, 8, 16};
        narrowing.m = 128 * 128;
        float *nw = filled(8 * 16, 23), *nb = filled(8, 24);
        narrowing.packed = aligned_alloc(64, (vk_gemm_packed_count(narrowing.shape) * sizeof(float) + 63) / 64 * 64);
        vk_gemm_pack(narrowing.shape, nw, nb, narrowing.packed);
        narrowing.a = filled(128 * 128 * 16, 25), narrowing.c = filled(128 * 128 * 8, 26);

        warp_state letterbox = {isa, {0}};
        uint8_t *image = malloc(958 * 1358 * 3);
        for (size_t i = 0; i < 958 * 1358 * 3; i++) image[i] = (uint8_t)((i * 2654435761u) >> 24);
        const double scale = 1358.0 / 192;
        letterbox.w = (vk_warp){image, 958 * 1358 * 3, 958, 1358, 0, 3, 958 * 3, 0, 1, 2, 1,
                                {scale, 0, -200, 0, scale, 0, 0, 0, 1}, 192, 192, filled(192 * 192 * 3, 16), NULL,
                                1.0f / 255, 0};

        uint8_t *hand = malloc(640 * 521 * 3);
        for (size_t i = 0; i < 640 * 521 * 3; i++) hand[i] = (uint8_t)((i * 2246822519u) >> 24);
        const double c = cos(0.4) * 300 / 256, s = sin(0.4) * 300 / 256;
        warp_state rotated = {isa, {hand, 640 * 521 * 3, 640, 521, 0, 3, 640 * 3, 0, 1, 2, 0,
                                    {c, -s, 320 - 128 * (c - s), s, c, 260 - 128 * (s + c), 0, 0, 1}, 256, 256,
                                    filled(256 * 256 * 3, 18), NULL, 1.0f / 127.5f, -1}};
        warp_state past_edges = rotated;
        past_edges.w.m[2] += 250;
        past_edges.w.m[5] += 200;
        warp_state mirrored = rotated;
        mirrored.w.origin = 639 * 3;
        mirrored.w.step_x = -3;
        warp_state turned = rotated;
        turned.w.width = 521;
        turned.w.height = 640;
        turned.w.origin = 520 * 640 * 3;
        turned.w.step_x = -640 * 3;
        turned.w.step_y = 3;
        turned.w.m[2] += 260 - 320;
        turned.w.m[5] += 320 - 260;
        warp_state turned_past_edges = turned;
        turned_past_edges.w.m[2] += 200;
        turned_past_edges.w.m[5] += 250;
        warp_state whole = {isa, {hand, 640 * 521 * 3, 640, 521, 0, 3, 640 * 3, 0, 1, 2, 0,
                                  {640.0 / 300, 0, 0, 0, 521.0 / 300, 0, 0, 0, 1}, 300, 300, NULL,
                                  malloc(300 * 300 * 3), 1, 0}};

        stem_state face_stem = make_stem(isa, 128, 5, 1, 17);

        add_state padded_add = {isa, filled(64 * 64 * 28, 21), filled(64 * 64 * 24, 22), 64 * 64, 28, 24, 8};

        resize_state selfie_resize = make_resize(isa, 64, 16, 27);
        resize_state pose_resize = make_resize(isa, 32, 48, 29);
        resize_state pose_mask_resize = make_resize(isa, 128, 8, 31);

        pool_state pool = {isa, {filled(128 * 128 * 16, 10), 128, 128, 16, 1, 1, 128, 128, 1, 1, 1, 1, 0, 0}, {0}};
        max_pool_state face_max_pool = {
            isa, {filled(64 * 64 * 28, 33), 64, 64, 28, 32, 32, 2, 2, 2, 2, 1, 1, 0, 0}, filled(32 * 32 * 28, 34)};
        max_pool_state mesh_max_pool = {
            isa, {filled(128 * 128 * 16, 35), 128, 128, 16, 64, 64, 2, 2, 2, 2, 1, 1, 0, 0}, filled(64 * 64 * 16, 36)};
        pool_passes_state pool_passes = {pool, filled((128 * 128 + 8) / 9 * 16, 12)};
        pool_state se = {isa, {filled(16 * 16 * 96, 11), 16, 16, 96, 1, 1, 16, 16, 1, 1, 1, 1, 0, 0}, {0}};

        // A case timed with its data in cache.
#define HOT(name, fn, state) {name, fn, state, 0, {NULL, 0}}
        const kt_case cases[] = {
            HOT("sigmoid-65536", run_sigmoid, &sig),
            HOT("rowsums-146x2", run_row_sums, &short_rows),
            HOT("stem-3x3s2-224x224x3-24", run_stem, &stem),
            HOT("stem-5x5s2-128x128x3-24", run_stem, &face_stem),
            HOT("add-padded-tiles-64x64-24to28", run_add_tiles, &padded_add),
            HOT("dw5x5-14x14x672", run_dw, &dws[0]),
            HOT("dw5x5-7x7x1152", run_dw, &dws[1]),
            HOT("dw5x5-28x28x240", run_dw, &dws[2]),
            HOT("dw3x3-56x56x144", run_dw, &dws[3]),
            HOT("dw5x5s2-14x14x672", run_dw, &dws[4]),
            HOT("dw3x3s2-112x112x64", run_dw, &dws[5]),
            HOT("dw3x3s2-28x28x240", run_dw, &dws[6]),
            HOT("dw3x3-112x112x24", run_dw, &dws[7]),
            HOT("dw5x5s2-56x56x144", run_dw, &dws[8]),
            HOT("dw5x5-96x96x32", run_dw, &dws[9]),
            HOT("dw5x5-12x12x256", run_dw, &dws[10]),
            HOT("dw5x5-11x11x256", run_dw, &dws[11]),
            {"gemm-cold-weights-49x1152x192", run_gemm_panels, &projection, 1, {projection.a, 49 * 1152}},
            HOT("gemm-16384x16x8", run_gemm, &narrowing),
#ifdef KT_SKIPPING
            HOT("gemm-skipping-28x1152x192", run_gemm_skipping, &band28),
            HOT("gemm-skipping-21x1152x192", run_gemm_skipping, &band21),
            HOT("gemm-skipping-dense-64x384x97", run_gemm_skipping, &token_mixing),
            HOT("gemm-skipping-dense-97x256x64", run_gemm_skipping, &channel_mixing),
#endif
            HOT("gemm-row-1x1152x192", run_gemm, &row),
            HOT("sparse-49x1152x192-36pct", run_sparse, &projection_sparse),
            HOT("sparse-196x112x672-25pct", run_sparse, &expansion_sparse),
            HOT("resize-64x64x16-to-128", run_resize, &selfie_resize),
            HOT("resize-32x32x48-to-64", run_resize, &pose_resize),
            HOT("resize-128x128x8-to-256", run_resize, &pose_mask_resize),
            HOT("maxpool-2x2s2-64x64x28", run_max_pool, &face_max_pool),
            HOT("maxpool-2x2s2-128x128x16", run_max_pool, &mesh_max_pool),
            HOT("avgpool-whole-128x128x16", run_pool, &pool),
            HOT("avgpool-passes-128x128x16", run_pool_passes, &pool_passes),
            HOT("avgpool-whole-16x16x96", run_pool, &se),
            HOT("warp-letterbox-958x1358-192", run_warp, &letterbox),
            HOT("warp-rotated-640x521-256", run_warp, &rotated),
            HOT("warp-past-edges-640x521-256", run_warp, &past_edges),
            HOT("warp-mirrored-640x521-256", run_warp, &mirrored),
            HOT("warp-turned-640x521-256", run_warp, &turned),
            HOT("warp-turned-past-edges-640x521-256", run_warp, &turned_past_edges),
            HOT("warp-whole-bytes-640x521-300", run_warp, &whole),
        };
#undef HOT
        then(cases, sizeof cases / sizeof cases[0], context);
    }
}

#ifndef KT_LIBRARY
typedef struct {
    int rounds;
    vk_isa isa;
} print_settings;

static void print_rounds(const kt_case *cases, size_t count, void *context) {
    const print_settings *settings = context;
    for (int r = 0; r < settings->rounds; r++)
        for (size_t i = 0; i < count; i++) {
            const kt_case *c = &cases[i];
            const double ms = c->cold ? cold_median(c->fn, c->state, c->warm) : best_of_five(c->fn, c->state);
            printf("%s %s %.4f\n", c->name, vk_isa_name(settings->isa), ms);
        }
}

int main(int argc, char **argv) {
    const vk_isa isas[] = {VK_ISA_AVX512, VK_ISA_AVX2};
    for (size_t k = 0; k < sizeof isas / sizeof isas[0]; k++) {
        if (!vk_isa_is_supported(isas[k])) continue;
        print_settings settings = {argc > 1 ? atoi(argv[1]) : 1, isas[k]};
        kt_collect(isas[k], print_rounds, &settings);
    }
    return 0;
}
#endif

