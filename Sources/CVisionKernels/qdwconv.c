// Quantized depthwise convolution (DEPTHWISE_CONV_2D on UINT8 / INT8, depth multiplier 1, the
// float32 requantization of vk_qgemm): 16 channels at a time in int32 lanes, exact sums, so
// every build gives the same bytes.
#include <string.h>
#include "CVisionKernels.h"

typedef int32_t vk_qi __attribute__((ext_vector_type(16)));
typedef float vk_qf __attribute__((ext_vector_type(16)));
typedef uint8_t vk_qu8 __attribute__((ext_vector_type(16)));
typedef int8_t vk_qs8 __attribute__((ext_vector_type(16)));
typedef int16_t vk_qs16 __attribute__((ext_vector_type(16)));

#define VK_QDW_BODY(NAME, TARGET)                                                                                    \
    TARGET static void NAME(const vk_qdwconv *d, size_t row_begin, size_t row_end) {                                 \
        const size_t channels = d->channels, kw = d->kernel_width, kh = d->kernel_height;                            \
        size_t taps[64];                                                                                             \
        const int16_t *tap_weights[64];                                                                              \
        const vk_qf lower = d->lower, upper = d->upper, magic = 12582912.0f;                                         \
        const vk_qi correction = d->zero_point - 0x4B400000;                                                         \
        const vk_qi input_zero = d->input_zero_point;                                                                \
        const size_t image = d->input_height * d->input_width * channels;                                            \
        const size_t out_image = d->output_height * d->output_width * channels;                                      \
        for (size_t row = row_begin; row < row_end; row++) {                                                         \
            const size_t b = row / d->output_height, oy = row % d->output_height;                                    \
            const uint8_t *in = (const uint8_t *)d->input + b * image;                                               \
            uint8_t *out = (uint8_t *)d->output + b * out_image + oy * d->output_width * channels;                    \
            const long iy0 = (long)(oy * d->stride_h) - (long)d->pad_top;                                            \
            for (size_t ox = 0; ox < d->output_width; ox++, out += channels) {                                       \
                const long ix0 = (long)(ox * d->stride_w) - (long)d->pad_left;                                       \
                size_t count = 0;                                                                                    \
                for (size_t ky = 0; ky < kh; ky++) {                                                                 \
                    const long iy = iy0 + (long)(ky * d->dilation_h);                                                \
                    if (iy < 0 || iy >= (long)d->input_height) continue;                                             \
                    for (size_t kx = 0; kx < kw; kx++) {                                                             \
                        const long ix = ix0 + (long)(kx * d->dilation_w);                                            \
                        if (ix < 0 || ix >= (long)d->input_width) continue;                                          \
                        taps[count] = ((size_t)iy * d->input_width + (size_t)ix) * channels;                         \
                        tap_weights[count] = d->weights + (ky * kw + kx) * d->padded_channels;                       \
                        count++;                                                                                     \
                    }                                                                                                \
                }                                                                                                    \
                for (size_t c = 0; c < channels; c += 16) {                                                          \
                    /* The last block may be partial. Weights, biases and scales are padded to 16 channels */         \
                    /* with zero weights, so the lanes past the pixel's channels add nothing: they are read */        \
                    /* from the next pixel where the image goes on, else through a 16-byte buffer. */                 \
                    const size_t width = channels - c < 16 ? channels - c : 16;                                      \
                    vk_qi acc;                                                                                       \
                    memcpy(&acc, d->bias + c, sizeof acc);                                                           \
                    for (size_t t = 0; t < count; t++) {                                                             \
                        uint8_t lanes[16];                                                                           \
                        const uint8_t *src = in + taps[t] + c;                                                       \
                        if (width < 16 && taps[t] + c + 16 > image) {                                                \
                            memset(lanes, 0, sizeof lanes);                                                          \
                            memcpy(lanes, src, width);                                                               \
                            src = lanes;                                                                             \
                        }                                                                                            \
                        vk_qi x;                                                                                     \
                        if (d->is_signed) {                                                                          \
                            vk_qs8 v;                                                                                \
                            memcpy(&v, src, sizeof v);                                                               \
                            x = __builtin_convertvector(v, vk_qi);                                                   \
                        } else {                                                                                     \
                            vk_qu8 v;                                                                                \
                            memcpy(&v, src, sizeof v);                                                               \
                            x = __builtin_convertvector(v, vk_qi);                                                   \
                        }                                                                                            \
                        vk_qs16 w;                                                                                   \
                        memcpy(&w, tap_weights[t] + c, sizeof w);                                                    \
                        acc += (x - input_zero) * __builtin_convertvector(w, vk_qi);                                 \
                    }                                                                                                \
                    vk_qf scale;                                                                                     \
                    memcpy(&scale, d->scales + c, sizeof scale);                                                     \
                    vk_qf v = __builtin_convertvector(acc, vk_qf) * scale;                                           \
                    v = __builtin_elementwise_min(__builtin_elementwise_max(v, lower), upper);                       \
                    v = v + magic;                                                                                   \
                    vk_qi q;                                                                                         \
                    memcpy(&q, &v, sizeof q);                                                                        \
                    q += correction;                                                                                 \
                    vk_qu8 bytes = __builtin_convertvector(q, vk_qu8);                                               \
                    /* A partial block's extra bytes land on later pixels of this row, written after it; a     */    \
                    /* store that would pass the row's end (few channels, or the row's last pixel) is cut.     */    \
                    if (width == 16 || c + 16 <= (d->output_width - ox) * channels)                                  \
                        memcpy(out + c, &bytes, sizeof bytes);                                                       \
                    else                                                                                             \
                        memcpy(out + c, &bytes, width);                                                              \
                }                                                                                                    \
            }                                                                                                        \
        }                                                                                                            \
    }

#if defined(__x86_64__) || defined(_M_X64)
VK_QDW_BODY(vk_qdwconv_run_avx512, __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,avx2,fma"))))
VK_QDW_BODY(vk_qdwconv_run_avx2, __attribute__((target("avx2,fma"))))
#endif
#pragma clang fp contract(off)
VK_QDW_BODY(vk_qdwconv_run_portable, )

size_t vk_qdwconv_max_taps(void) { return 64; }

void vk_qdwconv_run(const vk_qdwconv *d, size_t row_begin, size_t row_end) {
    switch (d->isa) {
#if defined(__x86_64__) || defined(_M_X64)
    case VK_ISA_AVX512: vk_qdwconv_run_avx512(d, row_begin, row_end); return;
    case VK_ISA_AVX2: vk_qdwconv_run_avx2(d, row_begin, row_end); return;
#endif
    default: vk_qdwconv_run_portable(d, row_begin, row_end); return;
    }
}
