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

// (input − zero point) · weight of one tap for a block of 16 channels starting at `source`, as
// int32 lanes. Lanes past the pixel's channels (a partial last block, `width` < 16) have zero
// weights and add nothing: they are read from the next pixel where the image goes on, else
// through a 16-byte buffer.
#define VK_QDW_PRODUCT(VECTOR, t)                                                                                    \
    ({                                                                                                               \
        const uint8_t *source = src[t] + c;                                                                          \
        uint8_t lanes[16];                                                                                           \
        if (width < 16 && (size_t)(source - in) + 16 > image) {                                                      \
            memset(lanes, 0, sizeof lanes);                                                                          \
            memcpy(lanes, source, width);                                                                            \
            source = lanes;                                                                                          \
        }                                                                                                            \
        VECTOR x;                                                                                                    \
        memcpy(&x, source, sizeof x);                                                                                \
        vk_qs16 w;                                                                                                   \
        memcpy(&w, weights[t] + c, sizeof w);                                                                        \
        (__builtin_convertvector(x, vk_qi) - input_zero) * __builtin_convertvector(w, vk_qi);                       \
    })

// One 16-channel block of one output pixel: `count` taps, tap t reading `src[t] + c` with
// weights `weights[t] + c`, then the float32 requantization of vk_qgemm.
#define VK_QDW_BLOCK(VECTOR)                                                                                         \
    do {                                                                                                             \
        const size_t width = channels - c < 16 ? channels - c : 16;                                                  \
        vk_qi acc, odd = 0;                                                                                          \
        memcpy(&acc, d->bias + c, sizeof acc);                                                                       \
        /* Two chains of additions (even and odd taps): int32 sums are exact in any order. */                         \
        size_t t = 0;                                                                                                \
        for (; t + 2 <= count; t += 2) {                                                                             \
            acc += VK_QDW_PRODUCT(VECTOR, t);                                                                        \
            odd += VK_QDW_PRODUCT(VECTOR, t + 1);                                                                    \
        }                                                                                                            \
        if (t < count) acc += VK_QDW_PRODUCT(VECTOR, t);                                                             \
        acc += odd;                                                                                                  \
        vk_qf scale;                                                                                                 \
        memcpy(&scale, d->scales + c, sizeof scale);                                                                 \
        vk_qf v = __builtin_convertvector(acc, vk_qf) * scale;                                                       \
        /* v is never NaN (a whole number times a finite scale): comparisons clamp as min/max do. */             \
        v = v < lower ? lower : v;                                                                                   \
        v = v > upper ? upper : v;                                                                                   \
        v = v + magic;                                                                                               \
        vk_qi q;                                                                                                     \
        memcpy(&q, &v, sizeof q);                                                                                    \
        q += correction;                                                                                             \
        vk_qu8 bytes = __builtin_convertvector(q, vk_qu8);                                                           \
        /* A partial block's extra bytes land on later pixels of this row, written after it; a store */              \
        /* that would pass the row's end (few channels, or the row's last pixel) is cut.             */              \
        if (width == 16 || c + 16 <= (d->output_width - ox) * channels)                                              \
            memcpy(out + c, &bytes, sizeof bytes);                                                                   \
        else                                                                                                         \
            memcpy(out + c, &bytes, width);                                                                          \
    } while (0)

// Output rows [row_begin, row_end). A pixel whose whole window lies inside the input reads its
// taps at fixed offsets from its window's corner (computed once per call); a border pixel lists
// the taps inside the input.
#define VK_QDW_BODY(NAME, TARGET, VECTOR)                                                                            \
    TARGET static void NAME(const vk_qdwconv *d, size_t row_begin, size_t row_end) {                                 \
        const size_t channels = d->channels, kw = d->kernel_width, kh = d->kernel_height;                            \
        const size_t width_in = d->input_width, height_in = d->input_height;                                         \
        const uint8_t *src[64];                                                                                      \
        const int16_t *tap_weights[64];                                                                              \
        size_t offsets[64];                                                                                          \
        const int16_t *window_weights[64];                                                                           \
        const vk_qf lower = d->lower, upper = d->upper, magic = 12582912.0f;                                         \
        const vk_qi correction = d->zero_point - 0x4B400000;                                                         \
        const vk_qi input_zero = d->input_zero_point;                                                                \
        const size_t image = d->input_height * width_in * channels;                                                  \
        const size_t out_image = d->output_height * d->output_width * channels;                                      \
        const long window_h = (long)((kh - 1) * d->dilation_h), window_w = (long)((kw - 1) * d->dilation_w);         \
        for (size_t ky = 0, t = 0; ky < kh; ky++)                                                                    \
            for (size_t kx = 0; kx < kw; kx++, t++) {                                                                \
                offsets[t] = (ky * d->dilation_h * width_in + kx * d->dilation_w) * channels;                        \
                window_weights[t] = d->weights + t * d->padded_channels;                                             \
            }                                                                                                        \
        for (size_t row = row_begin; row < row_end; row++) {                                                         \
            const size_t b = row / d->output_height, oy = row % d->output_height;                                    \
            const uint8_t *in = (const uint8_t *)d->input + b * image;                                               \
            uint8_t *out = (uint8_t *)d->output + b * out_image + oy * d->output_width * channels;                    \
            const long iy0 = (long)(oy * d->stride_h) - (long)d->pad_top;                                            \
            const int rows_inside = iy0 >= 0 && iy0 + window_h < (long)height_in;                                    \
            for (size_t ox = 0; ox < d->output_width; ox++, out += channels) {                                       \
                const long ix0 = (long)(ox * d->stride_w) - (long)d->pad_left;                                       \
                size_t count = 0;                                                                                    \
                const int16_t *const *weights = tap_weights;                                                         \
                if (rows_inside && ix0 >= 0 && ix0 + window_w < (long)width_in) {                                    \
                    const uint8_t *corner = in + ((size_t)iy0 * width_in + (size_t)ix0) * channels;                  \
                    count = kh * kw;                                                                                 \
                    for (size_t t = 0; t < count; t++) src[t] = corner + offsets[t];                                 \
                    weights = window_weights;                                                                        \
                } else {                                                                                             \
                    for (size_t ky = 0; ky < kh; ky++) {                                                             \
                        const long iy = iy0 + (long)(ky * d->dilation_h);                                            \
                        if (iy < 0 || iy >= (long)height_in) continue;                                               \
                        for (size_t kx = 0; kx < kw; kx++) {                                                         \
                            const long ix = ix0 + (long)(kx * d->dilation_w);                                        \
                            if (ix < 0 || ix >= (long)width_in) continue;                                            \
                            src[count] = in + ((size_t)iy * width_in + (size_t)ix) * channels;                       \
                            tap_weights[count] = window_weights[ky * kw + kx];                                       \
                            count++;                                                                                 \
                        }                                                                                            \
                    }                                                                                                \
                }                                                                                                    \
                for (size_t c = 0; c < channels; c += 16) VK_QDW_BLOCK(VECTOR);                                      \
            }                                                                                                        \
        }                                                                                                            \
    }

// Unsigned and signed bodies per instruction set.
#define VK_QDW_BOTH(NAME, TARGET)                                                                                    \
    VK_QDW_BODY(NAME##_u8, TARGET, vk_qu8)                                                                           \
    VK_QDW_BODY(NAME##_s8, TARGET, vk_qs8)                                                                           \
    TARGET static void NAME(const vk_qdwconv *d, size_t row_begin, size_t row_end) {                                 \
        if (d->is_signed)                                                                                            \
            NAME##_s8(d, row_begin, row_end);                                                                        \
        else                                                                                                         \
            NAME##_u8(d, row_begin, row_end);                                                                        \
    }

#if defined(__x86_64__) || defined(_M_X64)
VK_QDW_BOTH(vk_qdwconv_run_avx512, __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,avx2,fma"))))
VK_QDW_BOTH(vk_qdwconv_run_avx2, __attribute__((target("avx2,fma"))))
#endif
#pragma clang fp contract(off)
VK_QDW_BOTH(vk_qdwconv_run_portable, )

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
