// CVisionKernels: SIMD micro-kernels and the fork-join thread pool of the Inference engine.
//
// Every kernel exists in several builds of the same source: AVX-512 and AVX2/FMA on x86-64
// (selected at run time with __builtin_cpu_supports), NEON on arm64, and a portable build that
// compiles for any target. All builds compute every output with the same sequence of fused
// multiply-adds (the portable build through __builtin_elementwise_fma: an instruction where the
// target has one, a correctly rounded libm call where it does not), so a result never depends
// on the build or on how work is split over threads or tiles.
#ifndef CVISIONKERNELS_H
#define CVISIONKERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: Instruction sets

/// The instruction sets a kernel table can be built for.
typedef enum vk_isa {
    /// Plain C vectors for the compilation target (SSE2 on baseline x86-64); no fused multiply-add.
    VK_ISA_PORTABLE = 0,
    /// x86-64 AVX2 with FMA3: 8-lane vectors.
    VK_ISA_AVX2 = 1,
    /// x86-64 AVX-512 (F, VL, BW, DQ): 16-lane vectors.
    VK_ISA_AVX512 = 2,
    /// arm64 NEON (always present there).
    VK_ISA_NEON = 3,
} vk_isa;

/// The best instruction set this CPU supports.
vk_isa vk_isa_detect(void);

/// Whether this CPU (and this build) can run kernels for `isa`.
int vk_isa_is_supported(vk_isa isa);

/// A short lowercase name ("avx512", "avx2", "neon", "portable").
const char *vk_isa_name(vk_isa isa);

// MARK: Matrix product (CONV_2D, FULLY_CONNECTED)

/// Weights of `c[m][n] = min(max(bias[n] + sum_k a[m][k] * w[n][k], lo), hi)` packed for one
/// instruction set: output columns in panels (widths 8, 16 or 32); each panel holds its bias
/// then, for every k, its columns side by side. The accumulation order is bias, then k = 0, 1, ….
typedef struct vk_gemm_shape {
    vk_isa isa;
    size_t n;
    size_t k;
} vk_gemm_shape;

/// Number of floats the packed weights take (pass memory 64-byte aligned).
size_t vk_gemm_packed_count(vk_gemm_shape shape);

/// Number of column panels; tasks split the output by panels and by rows.
size_t vk_gemm_panel_count(vk_gemm_shape shape);

/// The output columns `[*column_begin, *column_end)` that panels `[panel_begin, panel_end)` cover.
void vk_gemm_panel_columns(vk_gemm_shape shape, size_t panel_begin, size_t panel_end, size_t *column_begin,
                           size_t *column_end);

/// Rows per micro-kernel call for the main panels of `isa` (a good task granule).
size_t vk_gemm_tile_rows(vk_isa isa);

/// Packs `weights` (`n` rows of `k` floats) and `bias` (`n` floats, or NULL for zeros).
void vk_gemm_pack(vk_gemm_shape shape, const float *weights, const float *bias, float *packed);

/// Computes rows `[row_begin, row_end)` and panels `[panel_begin, panel_end)` of the output.
/// Row `m` of `a` starts at `a + m * a_stride`; row `m` of `c` at `c + m * c_stride`.
void vk_gemm_run(vk_gemm_shape shape, const float *packed, const float *a, size_t a_stride, float *c,
                 size_t c_stride, size_t row_begin, size_t row_end, size_t panel_begin, size_t panel_end,
                 float lo, float hi);

/// vk_gemm_run for inputs with whole columns of zeros (the 1×1 convolution after a RELU): within
/// a tile of rows, the k steps at which every row reads ±0 are left out, and the others run in
/// the same order. With every weight finite and no bias -0 (the caller checks), the results are
/// vk_gemm_run's bit for bit: a sum that starts from a bias other than -0 is never -0, and adding
/// ±0 to anything else leaves it unchanged. Products with k above 4096 are not skipped.
void vk_gemm_run_skipping_zeros(vk_gemm_shape shape, const float *packed, const float *a, size_t a_stride, float *c,
                                size_t c_stride, size_t row_begin, size_t row_end, size_t panel_begin,
                                size_t panel_end, float lo, float hi);

// MARK: Quantized matrix product (CONV_2D on UINT8 / INT8)

/// Weights and requantization of `out[m][n] = requantize(bias[n] + sum_k a[m][k] * w[n][k])` with
/// int16 activations and weights (zero points already removed from the weights and folded into
/// the bias by the caller) and exact int32 sums.
typedef struct vk_qgemm {
    vk_isa isa;
    /// Whether the AVX-512 build may use AVX512-VNNI (vk_qgemm_uses_vnni).
    int vnni;
    /// Panels of 16 output channels; in each, for every pair of k values, 32 int16: channel c's
    /// weights for k and k + 1 at 2c and 2c + 1 (zeros beyond n and for an odd k's last pair).
    const int16_t *weights;
    /// 16 int32 biases per panel (zeros beyond n).
    const int32_t *bias;
    size_t n;
    /// Pairs of k values (k rounded up to even, halved).
    size_t pair_count;
    /// Per channel (readable up to the panels' end): `round_to_nearest_even(clamp(float(sum) * scale,
    /// lower, upper)) + zero_point`; NULL stores the int32 sums instead.
    const float *scales;
    float lower, upper;
    int32_t zero_point;
    /// INT8 (1) or UINT8 (0) outputs.
    int is_signed;
    /// The 8-bit layout that vk_qgemm8_run reads (UINT8 activations and weights), or NULL: panels
    /// of 16 output channels; in each, for every group of 4 k values, 64 int8: channel c's
    /// `w - 128` for those k at 4c ... 4c + 3 (zeros beyond n and for k's padding to a multiple of 4).
    const int8_t *quads;
    /// Groups of 4 k values (k rounded up to a multiple of 4, divided by 4).
    size_t quad_count;
    /// 16 int32 per panel: `128 - w_zp[c]`, the factor of a row's activation sum (zeros beyond n).
    const int32_t *row_sum_factors;
} vk_qgemm;

/// Whether the AVX-512 quantized product can use AVX512-VNNI on this CPU.
int vk_qgemm_uses_vnni(vk_isa isa);

/// Computes `rows` output rows: row m's `2 * pair_count` int16 activations at `a + m * a_stride`,
/// its `n` 8-bit outputs at `out + m * out_stride` (bytes), or, when `scales` is NULL, its int32
/// sums at `sums + m * sums_stride`.
void vk_qgemm_run(const vk_qgemm *g, const int16_t *a, size_t a_stride, size_t rows, void *out, size_t out_stride,
                  int32_t *sums, size_t sums_stride);

/// The same product on raw UINT8 activations over the 8-bit layout (`quads`, `quad_count`,
/// `row_sum_factors`; `bias` as for vk_qgemm_run): row m's `4 * quad_count` bytes at
/// `a + m * a_stride`, zero beyond k. Sums `x * (w - 128)` with AVX512-VNNI's vpdpbusd (portable
/// C elsewhere), then adds `(128 - w_zp[c]) * sum(x)`: the same exact int32 sums as vk_qgemm_run.
void vk_qgemm8_run(const vk_qgemm *g, const uint8_t *a, size_t a_stride, size_t rows, void *out, size_t out_stride,
                   int32_t *sums, size_t sums_stride);

/// Window geometry of a quantized convolution over NHWC UINT8 / INT8 input (`input_count` values
/// in all): the window of output `(oy, ox)` starts at `(oy * stride_h - pad_top, ox * stride_w -
/// pad_left)`.
typedef struct vk_qpatch_geometry {
    const void *input;
    size_t input_count;
    int is_signed;
    size_t input_height, input_width, channels;
    size_t output_height, output_width;
    size_t kernel_height, kernel_width;
    size_t stride_h, stride_w, dilation_h, dilation_w;
    size_t pad_top, pad_left;
    /// Written for positions outside the input.
    int16_t zero_point;
} vk_qpatch_geometry;

/// Writes the patches of output pixels `[pixel, pixel + count)` (counted over the batch, row by
/// row) widened to int16, row m at `out + m * out_stride`: `kernel_height * kernel_width *
/// channels` values, the zero point outside the input. The values from there to the next row
/// are unspecified (their weights are zero), and up to 16 values after the last row's may be
/// written: `out` needs `count * out_stride + 16` of room.
void vk_qim2col(const vk_qpatch_geometry *geometry, size_t pixel, size_t count, int16_t *out, size_t out_stride);

/// A quantized depthwise convolution with depth multiplier 1 on NHWC UINT8 / INT8 tensors:
/// `out[c] = requantize(bias[c] + sum over the taps inside the input of (x[c] - input_zero_point) * w[tap][c])`
/// with the float32 rule of vk_qgemm. The window of output `(oy, ox)` starts at
/// `(oy * stride_h - pad_top, ox * stride_w - pad_left)`.
typedef struct vk_qdwconv {
    vk_isa isa;
    const void *input;
    size_t input_height, input_width, channels;
    void *output;
    size_t output_height, output_width;
    size_t kernel_height, kernel_width;
    size_t stride_h, stride_w, dilation_h, dilation_w;
    size_t pad_top, pad_left;
    /// `kernel_height * kernel_width` rows of `padded_channels` (`channels` rounded up to 16) int16
    /// weights, zero point removed.
    const int16_t *weights;
    size_t padded_channels;
    /// `padded_channels` int32 biases and float scales.
    const int32_t *bias;
    const float *scales;
    int32_t input_zero_point;
    float lower, upper;
    int32_t zero_point;
    int is_signed;
    /// For the x86 kernel (`isa` AVX2 or AVX-512), which sums two taps per 16-bit multiply-add
    /// (the portable one reads `weights`, `bias` and `scales`), channels in *lane order*: each
    /// block of 32 channels (from channel 0 while 32 remain) holds at positions 8i ... 8i + 7
    /// channels 4i ... 4i + 3 and 4i + 16 ... 4i + 19; then one block of 16, if 16 remain,
    /// channels 4i ... 4i + 3 and 4i + 8 ... 4i + 11; the rest in order. `pair_weights`: `(kernel_height * kernel_width +
    /// 1) / 2` rows of `padded_channels` pairs of int16 weights (tap `2j`, then tap `2j + 1`;
    /// zeros for a missing last tap); `pair_bias`: the biases with the input zero point folded
    /// in (`bias - input_zero_point * Σ_taps w`); `pair_scales`: the scales; `zero_pixel`:
    /// `padded_channels + 16` bytes of the input zero point, standing in for taps outside the
    /// input (they add `input_zero_point * w`, which the folded bias takes back).
    const int16_t *pair_weights;
    const int32_t *pair_bias;
    const float *pair_scales;
    const void *zero_pixel;
} vk_qdwconv;

/// Largest `kernel_height * kernel_width` vk_qdwconv_run takes.
size_t vk_qdwconv_max_taps(void);

/// Computes output rows `[row_begin, row_end)` (counted over the batch).
void vk_qdwconv_run(const vk_qdwconv *conv, size_t row_begin, size_t row_end);

// MARK: Convolution patches

/// Window geometry of a convolution over NHWC floats: the input window of output `(oy, ox)`
/// starts at `(oy * stride_h - pad_top, ox * stride_w - pad_left)`.
typedef struct vk_conv_geometry {
    const float *input;
    size_t input_height, input_width, channels;
    size_t output_height, output_width;
    size_t kernel_height, kernel_width;
    size_t stride_h, stride_w, dilation_h, dilation_w;
    size_t pad_top, pad_left;
} vk_conv_geometry;

/// Writes the patches of output pixels `[pixel, pixel + count)` (counted over the batch, row
/// by row) as rows of `kernel_height * kernel_width * channels` floats, zeros outside the
/// input (im2col).
void vk_im2col(const vk_conv_geometry *geometry, size_t pixel, size_t count, float *out);

/// Largest `kernel_height * kernel_width` vk_gemm_conv takes.
size_t vk_gemm_conv_max_taps(void);

/// A convolution through matrix-product weights packed from its OHWI filter (`k` = kernel_height
/// * kernel_width * channels): output pixels `[pixel_begin, pixel_end)` (counted over the batch,
/// pixel m written at `c + m * c_stride`) and panels `[panel_begin, panel_end)`. The kernel reads
/// each tap's input pixel in place (`zeros`, at least `kernel_width * channels` of them, outside
/// the input), in the same order as vk_gemm_run on im2col patches, so the results are identical.
/// Tiles whose window rows all lie inside the input columns read each window row as one run of
/// `kernel_width * channels` floats.
void vk_gemm_conv(vk_gemm_shape shape, const float *packed, const vk_conv_geometry *geometry, const float *zeros,
                  float *c, size_t c_stride, size_t pixel_begin, size_t pixel_end, size_t panel_begin, size_t panel_end,
                  float lo, float hi);

/// A convolution with few output channels (`n`, best for 1...4), computed pixel by pixel as dot
/// products of the input window with each filter, read in place (no patch copy). Output `o`
/// of pixel `m` is `bias[o]` plus the window's dot product with `filter + o * k` (`k` =
/// kernel_height * kernel_width * channels, OHWI), added one fused multiply-add at a time in
/// (row, column, channel) order (XNNPACK's igemm order), then clamped.
/// Computes pixels `[pixel, pixel + count)` (counted over the batch) into `output` (`n` floats
/// per pixel). `zeros` holds at least `input_width * channels` zeros.
void vk_conv_dot(vk_isa isa, const vk_conv_geometry *geometry, const float *filter, const float *bias, size_t n,
                 float *output, size_t pixel, size_t count, float lo, float hi, const float *zeros);

/// A stride-1, undilated convolution with at most 4 output channels, computed with pixels in
/// vector lanes: each input row is transposed once into zero-padded channel planes, then each
/// output is `bias[o]` plus the window's terms in (row, column, channel) order (XNNPACK's igemm
/// order), clamped.
/// Computes output rows `[row_begin, row_end)` (counted over the batch). `scratch` holds
/// vk_conv_planar_scratch_floats() floats; consecutive rows reuse the transposed rows in it.
void vk_conv_planar(vk_isa isa, const vk_conv_geometry *geometry, const float *filter, const float *bias, size_t n,
                    float *output, size_t row_begin, size_t row_end, float lo, float hi, float *scratch);

/// Most outputs per input pixel (`kernel_height * kernel_width * output_channels`) and most
/// input channels vk_deconv_row takes.
#define VK_DECONV_MAX_OUTPUTS 8
#define VK_DECONV_MAX_CHANNELS 64

/// One input row (`width` pixels of `channels` floats) of a transposed convolution whose
/// windows do not overlap (strides equal to the kernel size), pixels in vector lanes: output
/// `j = (dy * kernel_width + dx) * output_channels + o` of input pixel `x` is `bias[j]` (0 when
/// `bias` is NULL) plus one fused multiply-add per input channel, in order, with
/// `weights[j * channels + c]`, stored at `output + dy * output_row_stride + (x * kernel_width +
/// dx) * output_channels + o`. Does nothing beyond VK_DECONV_MAX_OUTPUTS outputs per pixel or
/// VK_DECONV_MAX_CHANNELS channels.
void vk_deconv_row(vk_isa isa, const float *input, size_t width, size_t channels, const float *weights,
                   const float *bias, size_t kernel_height, size_t kernel_width, size_t output_channels, float *output,
                   size_t output_row_stride);

/// Floats of scratch memory vk_conv_planar needs per thread.
size_t vk_conv_planar_scratch_floats(const vk_conv_geometry *geometry);

// MARK: Depthwise convolution (DEPTHWISE_CONV_2D with depth multiplier 1)

/// One image of a depthwise convolution on NHWC floats. The input window of output `(oy, ox)`
/// starts at `(oy * stride_h - pad_top, ox * stride_w - pad_left)`; taps outside the input
/// read zero.
typedef struct vk_dwconv {
    vk_isa isa;
    const float *input;
    size_t input_height, input_width, channels;
    float *output;
    size_t output_height, output_width;
    /// Output row `oy` is stored at `output + (oy - output_row_offset) * output_width * channels`
    /// (0 for a whole output; a band's first row when computing into a band buffer).
    size_t output_row_offset;
    /// Input row `iy` is read at `input + (iy - input_row_offset) * input_width * channels` (0 for
    /// a whole input; a band's first row when the input is a band buffer, which must then hold
    /// every row inside the input that the computed output rows' windows reach).
    size_t input_row_offset;
    size_t kernel_height, kernel_width;
    size_t stride_h, stride_w, dilation_h, dilation_w;
    size_t pad_top, pad_left;
    /// `kernel_height * kernel_width` rows of `channels` weights, then `channels` biases.
    const float *weights;
    /// At least `input_width * channels` zeros.
    const float *zeros;
    float lo, hi;
} vk_dwconv;

/// Computes output rows `[row_begin, row_end)`. Each output is the bias, then the taps column by
/// column (XNNPACK's dwconv order; taps outside the input add zero), then the clamp.
void vk_dwconv_run(const vk_dwconv *conv, size_t row_begin, size_t row_end);

/// Channels `[channel_begin, channel_end)` of output rows `[row_begin, row_end)` (the same values
/// as vk_dwconv_run; splits of small layers between threads use multiples of 16 channels).
void vk_dwconv_run_channels(const vk_dwconv *conv, size_t row_begin, size_t row_end, size_t channel_begin,
                            size_t channel_end);

// MARK: Sparse 1x1 convolution

/// What vk_sparse_run applies to its results before storing them (a fused residual ADD):
/// `out = prelu(clamp(x + residual, lo, hi), alpha)`, the residual having `residual_channels`
/// floats per pixel (zero beyond them), no PRELU when `alpha` is NULL.
typedef struct vk_epilogue {
    const float *residual;
    size_t residual_channels;
    float lo, hi;
    const float *alpha;
} vk_epilogue;

/// Number of non-zero values among `n * k` weights.
size_t vk_sparse_nonzeros(size_t n, size_t k, const float *weights);

/// Number of floats (words) the packed sparse weights take for `isa`; 0 when memory runs out.
size_t vk_sparse_packed_count(vk_isa isa, size_t n, size_t k, const float *weights);

/// Packs the non-zero weights (`n` rows of `k`) and `bias` (or NULL) for vk_sparse_run on `isa`;
/// returns 0 when memory runs out.
int vk_sparse_pack(vk_isa isa, size_t n, size_t k, const float *weights, const float *bias, float *packed);

/// Floats of scratch memory vk_sparse_run needs per thread.
size_t vk_sparse_scratch_count(vk_isa isa, const float *packed, size_t n);

/// Number of channel groups (tasks may split them).
size_t vk_sparse_group_count(const float *packed);

/// The first channel group of part `part` (0...`parts`) when the groups are cut into `parts`
/// consecutive parts of about equal packed size (groups are sorted by non-zero count, so equal
/// group counts would not be equal work); `part == parts` gives the group count.
size_t vk_sparse_group_split(const float *packed, size_t parts, size_t part);

/// Output pixels per tile of vk_sparse_run for `isa`.
size_t vk_sparse_tile_pixels(vk_isa isa);

/// Pixels per vector of vk_sparse_run's tiles for `isa` (a partial tile computes whole vectors).
size_t vk_sparse_vector_pixels(vk_isa isa);

/// A 1x1 convolution with sparse weights: rows (pixels) `[row_begin, row_end)` and channel
/// groups `[group_begin, group_end)` of `c[m][o] = clamp(bias[o] + sum_k a[m][k] * w[o][k])`,
/// summing the non-zero weights in increasing k (so the result equals the dense product's), then
/// `epilogue` (may be NULL).
/// Tiles of pixels are transposed into scratch, a block of input channels at a time, so that each
/// weight multiplies a vector of pixels.
void vk_sparse_run(vk_isa isa, const float *packed, size_t n, size_t k, const float *a, size_t a_stride, float *c,
                   size_t c_stride, size_t row_begin, size_t row_end, size_t group_begin, size_t group_end, float lo,
                   float hi, const vk_epilogue *epilogue, float *scratch);

// MARK: Element-wise and pooling

/// For `pixels` pixels of `channels` floats: `out = prelu(clamp(a + b, lo, hi), alpha)`, where `b`
/// has `b_channels` (<= `channels`) floats per pixel and is zero beyond them (a channel PAD
/// folded in), and the PRELU (`x >= 0 ? x : x * alpha[c]`) is skipped when `alpha` is NULL.
/// `out` may be `a`.
void vk_add_pixels(vk_isa isa, const float *a, const float *b, size_t b_channels, float *out, size_t pixels,
                   size_t channels, float lo, float hi, const float *alpha);

/// For `pixels` pixels of `channels` floats: `out = clamp(a · scale + b, lo, hi)` with one scale
/// per channel, the product rounded before the sum (a MUL, then an ADD: never a fused
/// multiply-add). `out` may be `a` or `b`.
void vk_scale_add_pixels(vk_isa isa, const float *a, const float *scale, const float *b, float *out, size_t pixels,
                         size_t channels, float lo, float hi);

/// PRELU over `pixels` pixels of `channels` floats with one slope per channel; `out` may be `x`.
void vk_prelu_pixels(vk_isa isa, const float *x, float *out, size_t pixels, size_t channels, const float *alpha);

/// The element-wise operations of vk_binary_rows.
typedef enum vk_binary_op {
    VK_BINARY_ADD,
    VK_BINARY_SUB,
    VK_BINARY_MUL,
    VK_BINARY_DIV,
    /// `x > y ? x : y`.
    VK_BINARY_MAXIMUM,
    /// `x < y ? x : y`.
    VK_BINARY_MINIMUM,
    /// `x >= 0 ? x : x · y` (TFLite's PRELU).
    VK_BINARY_PRELU,
    /// `(x − y) · (x − y)`, the difference rounded first (XNNPACK's vsqrdiff).
    VK_BINARY_SQUARED_DIFFERENCE,
} vk_binary_op;

/// `rows` rows of `inner` outputs of `clamp(x op y, lo, hi)`: row `r`'s operands start at
/// `a + r · a_row` and `b + r · b_row`; an operand with `a_inner` (`b_inner`) 0 repeats its row's
/// first value along the row (a broadcast), else steps by one. `out` (rows of `inner` floats)
/// may be an operand that steps by one with a row step of `inner`.
void vk_binary_rows(vk_isa isa, vk_binary_op op, const float *a, size_t a_row, int a_inner, const float *b,
                    size_t b_row, int b_inner, float *out, size_t rows, size_t inner, float lo, float hi);

/// Output rows `[row_begin, row_end)` of the transpose of a `rows` × `columns` matrix:
/// `output[j][i] = input[i][j]` (output row `j` is input column `j`).
void vk_transpose(vk_isa isa, const float *input, size_t rows, size_t columns, float *output, size_t row_begin,
                  size_t row_end);

/// AVERAGE_POOL_2D rows `[row_begin, row_end)` (counted over the batch) as XNNPACK computes it
/// (src/f32-avgpool/avgpool.c.in, src/operators/average-pooling-nhwc.c): the window's taps
/// column by column (`kx · kernel_height + ky`, src/indirection.c), zeros for taps outside the
/// input, nine per pass summed as `((i2+i3)+(i4+i5)) + (((i0+i1)+i8)+(i6+i7))` and added to the
/// running sum; then times `1 / n` rounded to float — n the whole window when `valid_only` is 0,
/// the taps inside the input otherwise — and clamped.
void vk_avg_pool(vk_isa isa, const vk_conv_geometry *geometry, float *output, size_t row_begin, size_t row_end,
                 int valid_only, float lo, float hi);

/// The pass sums of vk_avg_pool for a window that is the whole image `geometry->input` (one
/// output pixel, no padding; `input_height` × `input_width` taps): pass k, its nine taps
/// `9k … 9k + 8` column by column (zeros past the last), summed as vk_avg_pool sums them, goes
/// to `sums + k · channels`, for the passes whose first tap lies in image rows
/// `[row_begin, row_end)`. Passes are independent, so threads may compute bands of rows (a band
/// reads its own rows, up to eight below them, and the top rows of the next column for passes
/// that run off a column's foot); vk_avg_pool_chain then adds the passes in order.
void vk_avg_pool_pass_rows(vk_isa isa, const vk_conv_geometry *geometry, size_t row_begin, size_t row_end,
                           float *sums);

/// The end of vk_avg_pool from its pass sums: the running sum from zero over `passes` pass
/// sums in order, times `1 / count` rounded to float, clamped to `[lo, hi]`, to `output`.
void vk_avg_pool_chain(vk_isa isa, const float *sums, size_t passes, size_t channels, size_t count, float lo,
                       float hi, float *output);

/// HARD_SWISH as XNNPACK's f32-vhswish kernels compute it (src/f32-vhswish/simd.c.in):
/// `min(max(fma(x, 0x1.555556p-3f, 0.5f), 0), 1) · x`.
void vk_hard_swish(vk_isa isa, const float *x, float *y, size_t count);

/// RSQRT as XNNPACK computes it (src/f32-vrsqrt/simd-rsqrt.c.in): the instruction set's
/// reciprocal square root estimate (rsqrt14 on AVX-512, rsqrtps on AVX2; the exact value in the
/// portable and NEON builds), one Newton-Raphson step `y0 - (x·y0·y0 - 1)·(0.5·y0)` without fused
/// multiply-adds, 0 for +inf. On AVX2 the estimate, and so the result, is the CPU's.
void vk_rsqrt(vk_isa isa, const float *x, float *y, size_t count);

/// SQRT as XNNPACK computes it (src/f32-vsqrt/simd-rsqrt.c.in): `x · rsqrt(x)` with the
/// reciprocal square root of ``vk_rsqrt`` (without its +inf rule), 0 where x is 0.
void vk_sqrt(vk_isa isa, const float *x, float *y, size_t count);

/// MEAN or SUM over the last axis: `out[r] = 0 + sum · scale` for each of `rows` rows of `n`
/// contiguous floats, the sum in the order of XNNPACK's f32-rsum AVX-512 kernel (src/f32-rsum,
/// avx512f u32 acc2; its AVX kernel gives the same bits), in every build.
void vk_row_sums(vk_isa isa, const float *x, size_t rows, size_t n, float scale, float *out);

/// A layer normalisation over the last axis of pixels `[pixel_begin, pixel_end)` of `x` (rows of
/// `channels` floats) into `y`, as its ten TensorFlow Lite operators compute it one after the
/// other: `m` = MEAN of the row (``vk_row_sums`` with scale `1 / channels`), `v` = MEAN of
/// `(x − m)·(x − m)`, `r` = ``vk_rsqrt`` of `v + epsilon`, and `y = x·s + (0 − m)·s` with
/// `s = r·gamma[c]`, no operation fused. `scratch` holds three floats per pixel of the range.
void vk_layer_norm(vk_isa isa, const float *x, float *y, size_t pixel_begin, size_t pixel_end, size_t channels,
                   float epsilon, const float *gamma, float *scratch);

/// MAX_POOL_2D rows `[row_begin, row_end)` (counted over the batch): the maximum over the window
/// clipped to the input, starting from the lowest finite float, then clamped.
void vk_max_pool(vk_isa isa, const vk_conv_geometry *geometry, float *output, size_t row_begin, size_t row_end,
                 float lo, float hi);

/// RESIZE_BILINEAR over NHWC floats with precomputed source rows and columns: output row `oy`
/// blends input rows `y_index[2 oy]` and `y_index[2 oy + 1]` with weight `y_weight[oy]` on the
/// second, and likewise for columns.
typedef struct vk_resize {
    const float *input;
    size_t input_height, input_width, channels;
    float *output;
    size_t output_height, output_width;
    const int32_t *y_index;
    const float *y_weight;
    const int32_t *x_index;
    const float *x_weight;
} vk_resize;

/// Output rows `[row_begin, row_end)` (counted over the batch) of a bilinear resize with
/// XNNPACK's arithmetic: `t = tl + (tr - tl)·ax`, `b = bl + (br - bl)·ax`, `t + (b - t)·ay`,
/// every product and sum rounded separately.
void vk_resize_bilinear(vk_isa isa, const vk_resize *resize, size_t row_begin, size_t row_end);

/// `y[i] = 1 / (1 + e^-x[i])` for `count` elements, bit for bit as XNNPACK's AVX-512 sigmoid
/// (src/f32-vsigmoid/gen/f32-vsigmoid-avx512f-rr2-lut32-p2-perm2-scalef-div-u64.c) on every
/// instruction set.
void vk_sigmoid(vk_isa isa, const float *x, float *y, size_t count);

// MARK: Image to tensor

/// A bilinear resampling of an 8-bit image into a 3-channel tensor, OpenCV's fixed-point
/// `warpPerspective` (`INTER_LINEAR`) as MediaPipe's CPU image converter runs it.
typedef struct vk_warp {
    /// The stored pixels and their byte count (below 2^31).
    const uint8_t *pixels;
    int64_t byte_count;
    /// The upright image: pixel (x, y) starts at `origin + x·step_x + y·step_y`.
    int64_t width, height, origin, step_x, step_y;
    /// Byte offsets of the three channels in a pixel (0...3).
    int32_t red, green, blue;
    /// 1 for a zero border (neighbours outside read 0), 0 for replicating the edge.
    int32_t zero_border;
    /// The inverse map, tensor pixel → image position, row-major 3 × 3.
    double m[9];
    size_t tensor_width, tensor_height;
    /// The output: floats (`value · scale + offset`, each rounded) or, when NULL, `byte_output`.
    float *float_output;
    uint8_t *byte_output;
    float scale, offset;
} vk_warp;

/// Tensor rows `[row_begin, row_end)` of `warp`, bit for bit as module Imaging's
/// `ImageToTensor.warp`.
void vk_warp_rows(vk_isa isa, const vk_warp *warp, size_t row_begin, size_t row_end);

// MARK: Thread pool

/// Makes the calling thread flush denormal results and inputs to zero (x86 MXCSR FTZ and DAZ,
/// ARM64 FPCR.FZ), as XNNPACK does while it runs operators (src/operator-run.c passes
/// PTHREADPOOL_FLAG_DISABLE_DENORMALS to pthreadpool), and returns the previous state.
uint64_t vk_denormals_flush_begin(void);
/// Restores the state `vk_denormals_flush_begin` returned.
void vk_denormals_flush_end(uint64_t state);

/// Work callback: run tasks `[begin, end)` on thread `thread` (0 is the caller).
typedef void (*vk_task_fn)(void *context, size_t begin, size_t end, size_t thread);

typedef struct vk_pool vk_pool;

/// Starts `thread_count - 1` workers (none for 1). Returns NULL when threads cannot start.
vk_pool *vk_pool_create(size_t thread_count);

/// Stops and joins the workers, then frees the pool.
void vk_pool_destroy(vk_pool *pool);

/// Runs `task_count` tasks of `fn`, handed out in contiguous chunks to whichever thread is
/// free, and returns when all are done. The caller takes part. Does not allocate.
void vk_pool_run(vk_pool *pool, vk_task_fn fn, void *context, size_t task_count);

/// Entry callback: thread `thread` takes part in a job, claiming its tasks with vk_pool_claim.
typedef void (*vk_entry_fn)(void *context, size_t thread);

/// Runs a job of `task_count` tasks calling `entry` once on each participating thread (the caller
/// included); each loops on vk_pool_claim until it returns 0. Does not allocate. (One callback
/// per thread instead of one per chunk: callers in languages with reference counting touch the
/// job object once per thread.) More than 2^32 - 2 tasks: only that many are handed out.
void vk_pool_run_claiming(vk_pool *pool, vk_entry_fn entry, void *context, size_t task_count);

/// The tasks `[*begin, *end)` a job of `task_count` tasks starts thread `thread` of `threads` on:
/// equal shares within one task, in thread order. (A thread may still steal from another's
/// share or lose part of its own; kernels that balance their work between threads cut it
/// knowing this split.)
static inline void vk_pool_share(size_t task_count, size_t thread, size_t threads, size_t *begin, size_t *end) {
    *begin = threads ? task_count * thread / threads : 0;
    *end = threads ? task_count * (thread + 1) / threads : task_count;
}

/// Inside an entry callback: the next chunk `[*begin, *end)` for `thread`; 0 when none is left.
int vk_pool_claim(vk_pool *pool, size_t thread, size_t *begin, size_t *end);

/// Calls `fn(context, t, t + 1, t)` exactly once on every thread `t` of the pool.
void vk_pool_run_on_each_thread(vk_pool *pool, vk_task_fn fn, void *context);

/// Workers asleep right now (for tests).
size_t vk_pool_sleeping(vk_pool *pool);

#ifdef __cplusplus
}
#endif

#endif
