// Image → tensor resampling (`vk_warp_rows`), included by kernels_body.h once per instruction
// set. The arithmetic is OpenCV's classic fixed-point `warpPerspective` with `INTER_LINEAR`
// (OpenCV modules/imgproc/src/imgwarp.cpp, `WarpPerspectiveInvoker` and `remapBilinear`), which
// MediaPipe's CPU image converter calls; the reference is the Swift `ImageToTensor.warp` in
// module Imaging, which the tests compare this kernel with lane for lane:
// - tensor pixels go in OpenCV's blocks (up to 1024 / 16 columns); a pixel's image position is
//   computed in double from its block's first column, clamped to the int32 range, rounded half to
//   even and split into a whole pixel and a 1/32 fraction;
// - the four neighbours are weighted (32 − fx)(32 − fy), fx(32 − fy), (32 − fx)fy, fx·fy and
//   `(Σ v·w + 512) >> 10` rounds the blend; neighbours outside the image read 0 (zero border) or
//   the nearest edge pixel (replicate).
// Eight tensor pixels run side by side: their positions in double vectors, their neighbours
// gathered as 64-bit words (a pixel and the next one, where pixels are 3 or 4 bytes apart along
// the upright rows, or along the upright columns of a picture turned by a quarter), their
// channels blended in int32 lanes — or, where the instruction set file defines
// VK_WARP_BLEND8(p, index, first, second, upper, lower, distance) (x86), with 16-bit
// multiply-adds of each neighbour pair by its packed weights (`upper` = w00 | w01 << 16, `lower`
// = w10 | w11 << 16), the same sums. Groups with a neighbour outside the image read the words at
// their clamped neighbours and move or zero weights instead of values, in every orientation;
// where pixels are not 3 or 4 bytes apart along either axis, border groups read each neighbour
// as its own 32-bit word, clamped into the image or masked to zero as the border asks. Only a
// group none of this covers near the bitmap's last byte, and a block's partial last group, run
// pixel by pixel.

#pragma clang fp contract(off)

typedef int32_t VK_SUFFIX(vk_wi) __attribute__((ext_vector_type(8)));
typedef double VK_SUFFIX(vk_wd) __attribute__((ext_vector_type(8)));
typedef float VK_SUFFIX(vk_wf) __attribute__((ext_vector_type(8)));
typedef float VK_SUFFIX(vk_wfu) __attribute__((ext_vector_type(8), aligned(4), may_alias));
typedef uint8_t VK_SUFFIX(vk_wb) __attribute__((ext_vector_type(8)));
typedef uint64_t VK_SUFFIX(vk_wq) __attribute__((ext_vector_type(8)));

// `words[lane]` = the 32-bit word (one pixel) at `base + offsets[lane]` (unaligned). Plain loads:
// the hardware gathers of AVX2 and AVX-512 were slower on this project's AMD host (Zen 4: 0.43
// ms instead of 0.39 ms for a 300 × 300 tensor; for the 64-bit words below, 0.29 instead of 0.23
// ms), and microcode mitigations slow them on Intel.
static inline __attribute__((always_inline)) void VK_SUFFIX(warp_gather32)(const uint8_t *base,
                                                                          const VK_SUFFIX(vk_wi) *offsets,
                                                                          VK_SUFFIX(vk_wi) *words) {
    for (int lane = 0; lane < 8; lane++) {
        int32_t word;
        memcpy(&word, base + (*offsets)[lane], sizeof word);
        (*words)[lane] = word;
    }
}

// OpenCV's `saturate_cast<int>(value)` of an already rounded position scaled by 32: clamped
// to the int32 range (NaN fails both comparisons and ends as INT_MAX), rounded half to even
// by adding and subtracting 1.5 · 2^52, then converted (exact: the value is whole and in range).
static inline __attribute__((always_inline)) void VK_SUFFIX(warp_fixed)(const VK_SUFFIX(vk_wd) *value,
                                                                        VK_SUFFIX(vk_wi) *fixed) {
    const VK_SUFFIX(vk_wd) upper_bound = 2147483647.0;
    const VK_SUFFIX(vk_wd) lower_bound = -2147483648.0;
    const VK_SUFFIX(vk_wd) magic = 6755399441055744.0;
    VK_SUFFIX(vk_wd) upper = *value < upper_bound ? *value : upper_bound;
    VK_SUFFIX(vk_wd) clamped = lower_bound < upper ? upper : lower_bound;
    VK_SUFFIX(vk_wd) rounded = clamped + magic;
    rounded = rounded - magic;
    *fixed = __builtin_convertvector(rounded, VK_SUFFIX(vk_wi));
}

static inline __attribute__((always_inline)) int32_t VK_SUFFIX(warp_fixed1)(double value) {
    double upper = value < 2147483647.0 ? value : 2147483647.0;
    double clamped = -2147483648.0 < upper ? upper : -2147483648.0;
    double rounded = clamped + 6755399441055744.0;
    rounded = rounded - 6755399441055744.0;
    return (int32_t)rounded;
}

// Stores channel values `r`, `g`, `b` (0...255) of tensor pixel `index`.
static inline __attribute__((always_inline)) void VK_SUFFIX(warp_store1)(const vk_warp *p, size_t index, int32_t r,
                                                                         int32_t g, int32_t b) {
    if (p->float_output) {
        float *out = p->float_output + 3 * index;
        float scaled = (float)r * p->scale;
        out[0] = scaled + p->offset;
        scaled = (float)g * p->scale;
        out[1] = scaled + p->offset;
        scaled = (float)b * p->scale;
        out[2] = scaled + p->offset;
    } else {
        uint8_t *out = p->byte_output + 3 * index;
        out[0] = (uint8_t)r;
        out[1] = (uint8_t)g;
        out[2] = (uint8_t)b;
    }
}

// One tensor pixel with its neighbours anywhere: the Swift `ImageToTensor.sample` (whose
// separate branch for a pixel with all four neighbours inside gives what this one does then: no
// neighbour is clamped or zeroed).
VK_ALIGNED
static void VK_SUFFIX(warp_sample1)(const vk_warp *p, int32_t sx, int32_t sy, int32_t fx, int32_t fy, size_t index) {
    const int64_t last_x = p->width - 1, last_y = p->height - 1;
    if (p->zero_border && (sx > last_x || sx + 1 < 0 || sy > last_y || sy + 1 < 0)) {
        VK_SUFFIX(warp_store1)(p, index, 0, 0, 0);
        return;
    }
    const int32_t w00 = (32 - fy) * (32 - fx), w01 = (32 - fy) * fx, w10 = fy * (32 - fx), w11 = fy * fx;
    int64_t x0 = sx, x1 = (int64_t)sx + 1, y0 = sy, y1 = (int64_t)sy + 1;
    int inside00 = 1, inside01 = 1, inside10 = 1, inside11 = 1;
    if (p->zero_border) {
        const int x0_in = x0 >= 0 && x0 <= last_x, x1_in = x1 >= 0 && x1 <= last_x;
        const int y0_in = y0 >= 0 && y0 <= last_y, y1_in = y1 >= 0 && y1 <= last_y;
        inside00 = x0_in && y0_in;
        inside01 = x1_in && y0_in;
        inside10 = x0_in && y1_in;
        inside11 = x1_in && y1_in;
    }
    x0 = x0 < 0 ? 0 : (x0 > last_x ? last_x : x0);
    x1 = x1 < 0 ? 0 : (x1 > last_x ? last_x : x1);
    y0 = y0 < 0 ? 0 : (y0 > last_y ? last_y : y0);
    y1 = y1 < 0 ? 0 : (y1 > last_y ? last_y : y1);
    const uint8_t *pixels = p->pixels + p->origin;
    const uint8_t *p00 = pixels + x0 * p->step_x + y0 * p->step_y, *p01 = pixels + x1 * p->step_x + y0 * p->step_y;
    const uint8_t *p10 = pixels + x0 * p->step_x + y1 * p->step_y, *p11 = pixels + x1 * p->step_x + y1 * p->step_y;
    int32_t v[3];
    const int32_t channel[3] = {p->red, p->green, p->blue};
    for (int c = 0; c < 3; c++) {
        const int32_t k = channel[c];
        const int32_t v00 = inside00 ? p00[k] : 0, v01 = inside01 ? p01[k] : 0;
        const int32_t v10 = inside10 ? p10[k] : 0, v11 = inside11 ? p11[k] : 0;
        v[c] = (v00 * w00 + v01 * w01 + v10 * w10 + v11 * w11 + 512) >> 10;
    }
    VK_SUFFIX(warp_store1)(p, index, v[0], v[1], v[2]);
}

// The byte `shift / 8` of each lane of a gathered word, as int32 lanes.
#define VK_WARP_BYTE(word, shift) __builtin_convertvector(((word) >> (uint64_t)(shift)) & 255, vi)
// Channel `shift / 8` of the four neighbours, weighted and rounded.
#define VK_WARP_CHANNEL(shift)                                                                               \
    ((VK_WARP_BYTE(top, shift) * w00 + VK_WARP_BYTE(top, (shift) + next) * w01                              \
      + VK_WARP_BYTE(bottom, shift) * w10 + VK_WARP_BYTE(bottom, (shift) + next) * w11 + 512)               \
     >> 10)

// Stores eight tensor pixels' channel values `*red`, `*green`, `*blue` (0...255) from pixel
// `index` on, channels interleaved (vectors by address: by value they change the ABI).
static inline __attribute__((always_inline)) void VK_SUFFIX(warp_store8)(const vk_warp *p, size_t index,
                                                                         const VK_SUFFIX(vk_wi) *red,
                                                                         const VK_SUFFIX(vk_wi) *green,
                                                                         const VK_SUFFIX(vk_wi) *blue) {
    const VK_SUFFIX(vk_wi) r = *red, g = *green, b = *blue;
    if (p->float_output) {
        typedef VK_SUFFIX(vk_wf) vf;
        const vf scale = p->scale, offset = p->offset;
        vf rf = __builtin_convertvector(r, vf) * scale;
        rf = rf + offset;
        vf gf = __builtin_convertvector(g, vf) * scale;
        gf = gf + offset;
        vf bf = __builtin_convertvector(b, vf) * scale;
        bf = bf + offset;
        typedef float vf16 __attribute__((ext_vector_type(16)));
        const vf16 rg = __builtin_shufflevector(rf, gf, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        const vf16 bb = __builtin_shufflevector(bf, bf, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7);
        float *out = p->float_output + 3 * index;
        *(VK_SUFFIX(vk_wfu) *)out = __builtin_shufflevector(rg, bb, 0, 8, 16, 1, 9, 17, 2, 10);
        *(VK_SUFFIX(vk_wfu) *)(out + 8) = __builtin_shufflevector(rg, bb, 18, 3, 11, 19, 4, 12, 20, 5);
        *(VK_SUFFIX(vk_wfu) *)(out + 16) = __builtin_shufflevector(rg, bb, 13, 21, 6, 14, 22, 7, 15, 23);
    } else {
        typedef VK_SUFFIX(vk_wb) vb;
        typedef uint8_t vb16 __attribute__((ext_vector_type(16)));
        const vb rb = __builtin_convertvector(r, vb), gb = __builtin_convertvector(g, vb);
        const vb bb8 = __builtin_convertvector(b, vb);
        const vb16 rg = __builtin_shufflevector(rb, gb, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        const vb16 bb = __builtin_shufflevector(bb8, bb8, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7);
        const vb o0 = __builtin_shufflevector(rg, bb, 0, 8, 16, 1, 9, 17, 2, 10);
        const vb o1 = __builtin_shufflevector(rg, bb, 18, 3, 11, 19, 4, 12, 20, 5);
        const vb o2 = __builtin_shufflevector(rg, bb, 13, 21, 6, 14, 22, 7, 15, 23);
        uint8_t *out = p->byte_output + 3 * index;
        memcpy(out, &o0, 8);
        memcpy(out + 8, &o1, 8);
        memcpy(out + 16, &o2, 8);
    }
}

// Channel `shift / 8` of the four neighbours, each kept where its mask is set, weighted and rounded.
#define VK_WARP_BORDER_CHANNEL(shift)                                                                     \
    (((((v00 >> (shift)) & 255) & m00) * w00 + (((v01 >> (shift)) & 255) & m01) * w01                       \
      + (((v10 >> (shift)) & 255) & m10) * w10 + (((v11 >> (shift)) & 255) & m11) * w11 + 512)              \
     >> 10)

// The 64-bit words at `top_offsets[lane]` and `bottom_offsets[lane]` bytes into the bitmap (two
// neighbours each, along an upright row or, for a picture turned by a quarter, an upright
// column; without bottom offsets, `below` bytes after the top ones), and
// prefetches for the words four tensor rows further on (`lookahead` bytes away; a rotated crop
// reads a new set of scattered source lines on every tensor row, and after a model has run the
// image is no longer in the core's caches: a hand crop on business-person.png waited 0.8 ms on
// loads per conversion without them). Each lane's offsets leave their vectors once, through
// memory. With `near_end`, a word that would pass the bitmap's last byte is read as the last 8
// bytes, shifted down to start at its offset (bytes past the end read as zeros, which only a
// neighbour of weight 0 would use: the caller's concern).
static inline __attribute__((always_inline)) void VK_SUFFIX(warp_gather_words)(const vk_warp *p,
                                                                               const VK_SUFFIX(vk_wi) *top_offsets,
                                                                               const VK_SUFFIX(vk_wi) *bottom_offsets,
                                                                               intptr_t below, intptr_t lookahead,
                                                                               int near_end,
                                                                               VK_SUFFIX(vk_wq) *top,
                                                                               VK_SUFFIX(vk_wq) *bottom) {
    const uint8_t *ahead = p->pixels + lookahead;
    int32_t upper[8], lower[8];
    memcpy(upper, top_offsets, sizeof upper);
    if (bottom_offsets) memcpy(lower, bottom_offsets, sizeof lower);
    // Unrolled, so that each word goes straight into its lane (a loop writes the lanes through
    // memory and reads the whole vector back: a store-forwarding stall per word).
    VK_UNROLL for (int lane = 0; lane < 8; lane++) {
        const intptr_t first = upper[lane], second = bottom_offsets ? lower[lane] : first + below;
        if (lane % 2 == 0) {
            __builtin_prefetch(ahead + first);
            __builtin_prefetch(ahead + second);
        }
        uint64_t word;
        if (near_end) {
            const intptr_t last = (intptr_t)p->byte_count - 8;
            const intptr_t at_first = first < last ? first : last, at_second = second < last ? second : last;
            memcpy(&word, p->pixels + at_first, sizeof word);
            (*top)[lane] = word >> (8 * (first - at_first));
            memcpy(&word, p->pixels + at_second, sizeof word);
            (*bottom)[lane] = word >> (8 * (second - at_second));
            continue;
        }
        memcpy(&word, p->pixels + first, sizeof word);
        (*top)[lane] = word;
        memcpy(&word, p->pixels + second, sizeof word);
        (*bottom)[lane] = word;
    }
}

// Blends eight tensor pixels from two words each (`top_words`, `bottom_words`: two neighbours
// each, the second `distance` bytes after the first), the first word's weighted w00 and w01, the
// second's w10 and w11, and stores them.
static inline __attribute__((always_inline)) void VK_SUFFIX(warp_blend_words)(
    const vk_warp *p, size_t index, const VK_SUFFIX(vk_wq) *top_words, const VK_SUFFIX(vk_wq) *bottom_words,
    const VK_SUFFIX(vk_wi) *w00_, const VK_SUFFIX(vk_wi) *w01_, const VK_SUFFIX(vk_wi) *w10_,
    const VK_SUFFIX(vk_wi) *w11_, int64_t distance) {
    typedef VK_SUFFIX(vk_wi) vi;
    const vi w00 = *w00_, w01 = *w01_, w10 = *w10_, w11 = *w11_;
#ifdef VK_WARP_BLEND8
    const vi upper = w00 | (w01 << 16), lower = w10 | (w11 << 16);
    VK_WARP_BLEND8(p, index, top_words, bottom_words, &upper, &lower, distance);
#else
    const VK_SUFFIX(vk_wq) top = *top_words, bottom = *bottom_words;
    const int next = 8 * (int)distance;
    const vi r = VK_WARP_CHANNEL(8 * p->red), g = VK_WARP_CHANNEL(8 * p->green);
    const vi b = VK_WARP_CHANNEL(8 * p->blue);
    VK_SUFFIX(warp_store8)(p, index, &r, &g, &b);
#endif
}

// The bilinear weights of the two words a group reads along the pair axis (`x_pairs`: the
// upright rows; else the upright columns), each word's two in address order (`backwards`: the
// axis runs to lower addresses). `w01` and `w10` are the neighbours one step along x and along
// y. Where `same` is set (both neighbours along the axis clamped to one pixel, at which the word
// then starts), the second weight joins the first: v · w0 + v · w1 = v · (w0 + w1).
static inline __attribute__((always_inline)) void VK_SUFFIX(warp_word_weights)(
    int x_pairs, int backwards, const VK_SUFFIX(vk_wi) *w00, const VK_SUFFIX(vk_wi) *w01,
    const VK_SUFFIX(vk_wi) *w10, const VK_SUFFIX(vk_wi) *w11, const VK_SUFFIX(vk_wi) *same_,
    VK_SUFFIX(vk_wi) *first_low, VK_SUFFIX(vk_wi) *first_high, VK_SUFFIX(vk_wi) *second_low,
    VK_SUFFIX(vk_wi) *second_high) {
    typedef VK_SUFFIX(vk_wi) vi;
    const vi same = *same_;
    // Each word's weights in the axis' order, then in address order.
    const vi f0 = *w00, f1 = x_pairs ? *w01 : *w10, s0 = x_pairs ? *w10 : *w01, s1 = *w11;
    const vi first_lower = backwards ? f1 : f0, first_upper = backwards ? f0 : f1;
    const vi second_lower = backwards ? s1 : s0, second_upper = backwards ? s0 : s1;
    *first_low = first_lower + (first_upper & same);
    *first_high = first_upper & ~same;
    *second_low = second_lower + (second_upper & same);
    *second_high = second_upper & ~same;
}

// Eight tensor pixels from index `index` on (`count` of them stored), positions in 1/32 pixel.
static inline __attribute__((always_inline)) void VK_SUFFIX(warp_group)(const vk_warp *p,
                                                                        const VK_SUFFIX(vk_wi) *position_x,
                                                                        const VK_SUFFIX(vk_wi) *position_y,
                                                                        size_t index, size_t count,
                                                                        intptr_t lookahead) {
    typedef VK_SUFFIX(vk_wi) vi;
    const vi fixed_x = *position_x, fixed_y = *position_y;
    const vi lo = -32768, hi = 32767;
    vi sx = fixed_x >> 5, sy = fixed_y >> 5;
    sx = sx < lo ? lo : (sx > hi ? hi : sx);
    sy = sy < lo ? lo : (sy > hi ? hi : sy);
    const vi fx = fixed_x & 31, fy = fixed_y & 31;
    const vi inside = (sx >= 0) & (sx < (vi)(p->width - 1)) & (sy >= 0) & (sy < (vi)(p->height - 1));
    // The axis along which neighbours are 3 or 4 bytes apart in memory (`along`: their step, ± as
    // stored; `across`: the other axis' step): the upright rows when they are stored rows, the
    // upright columns when the orientation turns the picture by a quarter.
    const int64_t step_x = p->step_x, step_y = p->step_y;
    const int x_pairs = step_x == 3 || step_x == 4 || step_x == -3 || step_x == -4;
    const int y_pairs = step_y == 3 || step_y == 4 || step_y == -3 || step_y == -4;
    const int64_t along = x_pairs ? step_x : step_y, across = x_pairs ? step_y : step_x;
    const int backwards = along < 0;
    if (count == 8 && (x_pairs || y_pairs) && __builtin_reduce_and(inside) != 0) {
        // Offsets fit in int32: the caller checks that the bitmap is smaller than 2^31 bytes. One
        // 64-bit word holds both neighbours along that axis, read from the lower address of the
        // two; the other word is one step across.
        const vi o00 = (vi)(int32_t)p->origin + sx * (vi)(int32_t)step_x + sy * (vi)(int32_t)step_y;
        const vi first = o00 + (vi)(int32_t)(backwards ? along : 0);
        const vi second = first + (vi)(int32_t)across;
        const vi limit = (vi)(int32_t)(p->byte_count - 8);
        if (__builtin_reduce_and((first <= limit) & (second <= limit)) != 0) {
            VK_SUFFIX(vk_wq) words_first, words_second;
            VK_SUFFIX(warp_gather_words)(p, &first, NULL, (intptr_t)across, lookahead, 0, &words_first, &words_second);
            const vi w00 = (32 - fy) * (32 - fx), w01 = (32 - fy) * fx, w10 = fy * (32 - fx), w11 = fy * fx;
            const vi none = 0;
            vi first_low, first_high, second_low, second_high;
            VK_SUFFIX(warp_word_weights)(x_pairs, backwards, &w00, &w01, &w10, &w11, &none, &first_low, &first_high,
                                         &second_low, &second_high);
            VK_SUFFIX(warp_blend_words)(p, index, &words_first, &words_second, &first_low, &first_high, &second_low,
                                        &second_high, backwards ? -along : along);
            return;
        }
    }
    if (count == 8 && p->zero_border) {
        // Every lane's four neighbours outside the image (the padding of a letterbox): zeros, as
        // warp_sample1 gives them, without reading.
        const vi last_x = (vi)(int32_t)(p->width - 1), last_y = (vi)(int32_t)(p->height - 1);
        const vi outside = (sx > last_x) | (sx + 1 < 0) | (sy > last_y) | (sy + 1 < 0);
        if (__builtin_reduce_and(outside) != 0) {
            const vi zero = 0;
            VK_SUFFIX(warp_store8)(p, index, &zero, &zero, &zero);
            return;
        }
    }
    if (count == 8) {
        // A neighbour outside the image, a word past the bitmap's end or pixels not 3 or 4 bytes
        // apart: each neighbour's pixel read clamped into the image (replicate) or zeroed where it
        // lies outside (zero border) — what warp_sample1 does, eight at a time.
        const vi last_x = (vi)(int32_t)(p->width - 1), last_y = (vi)(int32_t)(p->height - 1);
        vi x0 = sx, x1 = sx + 1, y0 = sy, y1 = sy + 1;
        vi m00 = -1, m01 = -1, m10 = -1, m11 = -1;
        if (p->zero_border) {
            const vi x0_in = (x0 >= 0) & (x0 <= last_x), x1_in = (x1 >= 0) & (x1 <= last_x);
            const vi y0_in = (y0 >= 0) & (y0 <= last_y), y1_in = (y1 >= 0) & (y1 <= last_y);
            m00 = x0_in & y0_in;
            m01 = x1_in & y0_in;
            m10 = x0_in & y1_in;
            m11 = x1_in & y1_in;
        }
        const vi zero = 0;
        x0 = x0 < zero ? zero : (x0 > last_x ? last_x : x0);
        x1 = x1 < zero ? zero : (x1 > last_x ? last_x : x1);
        y0 = y0 < zero ? zero : (y0 > last_y ? last_y : y0);
        y1 = y1 < zero ? zero : (y1 > last_y ? last_y : y1);
        const vi origin = (vi)(int32_t)p->origin, step_x = (vi)(int32_t)p->step_x, step_y = (vi)(int32_t)p->step_y;
        if ((x_pairs || y_pairs) && p->byte_count >= 8) {
            // The words at the clamped neighbours, as inside: along the pair axis (the upright
            // rows, or the columns of a picture turned by a quarter), from the lower address of
            // the two, one word per neighbour across. A zeroed neighbour gets weight 0 instead
            // ((v & m) · w = v · (w & m)), and where both neighbours along the axis clamp to one
            // pixel (an image edge) the word starts at that pixel and takes both weights:
            // v · w0 + v · w1 = v · (w0 + w1), exact in integers. A word that would pass the
            // bitmap's end is read shifted: its first pixel's bytes are all there, and its second
            // one's too unless that pixel is not a neighbour (weight 0 then).
            const vi n0 = x_pairs ? x0 : y0, n1 = x_pairs ? x1 : y1, c0 = x_pairs ? y0 : x0, c1 = x_pairs ? y1 : x1;
            const vi step_across = (vi)(int32_t)across;
            const vi start = origin + (backwards ? n1 : n0) * (vi)(int32_t)along;
            const vi first_offsets = start + c0 * step_across, second_offsets = start + c1 * step_across;
            VK_SUFFIX(vk_wq) first, second;
            VK_SUFFIX(warp_gather_words)(p, &first_offsets, &second_offsets, 0, lookahead, 1, &first, &second);
            const vi same = n1 == n0;
            const vi w00 = (32 - fy) * (32 - fx) & m00, w01 = (32 - fy) * fx & m01;
            const vi w10 = fy * (32 - fx) & m10, w11 = fy * fx & m11;
            vi first_low, first_high, second_low, second_high;
            VK_SUFFIX(warp_word_weights)(x_pairs, backwards, &w00, &w01, &w10, &w11, &same, &first_low, &first_high,
                                         &second_low, &second_high);
            VK_SUFFIX(warp_blend_words)(p, index, &first, &second, &first_low, &first_high, &second_low,
                                        &second_high, backwards ? -along : along);
            return;
        }
        const vi o00 = origin + x0 * step_x + y0 * step_y, o01 = origin + x1 * step_x + y0 * step_y;
        const vi o10 = origin + x0 * step_x + y1 * step_y, o11 = origin + x1 * step_x + y1 * step_y;
        const vi limit = (vi)(int32_t)(p->byte_count - 4);
        if (__builtin_reduce_and((o00 <= limit) & (o01 <= limit) & (o10 <= limit) & (o11 <= limit)) != 0) {
            vi v00, v01, v10, v11;
            VK_SUFFIX(warp_gather32)(p->pixels, &o00, &v00);
            VK_SUFFIX(warp_gather32)(p->pixels, &o01, &v01);
            VK_SUFFIX(warp_gather32)(p->pixels, &o10, &v10);
            VK_SUFFIX(warp_gather32)(p->pixels, &o11, &v11);
            const vi w00 = (32 - fy) * (32 - fx), w01 = (32 - fy) * fx, w10 = fy * (32 - fx), w11 = fy * fx;
            const vi r = VK_WARP_BORDER_CHANNEL(8 * p->red), g = VK_WARP_BORDER_CHANNEL(8 * p->green);
            const vi b = VK_WARP_BORDER_CHANNEL(8 * p->blue);
            VK_SUFFIX(warp_store8)(p, index, &r, &g, &b);
            return;
        }
    }
    for (size_t lane = 0; lane < count; lane++)
        VK_SUFFIX(warp_sample1)(p, sx[lane], sy[lane], fx[lane], fy[lane], index + lane);
}
#undef VK_WARP_CHANNEL
#undef VK_WARP_BYTE
#undef VK_WARP_BORDER_CHANNEL

VK_ALIGNED
void VK_SUFFIX(vk_warp_rows)(const vk_warp *p, size_t row_begin, size_t row_end) {
    typedef VK_SUFFIX(vk_wd) vd;
    typedef VK_SUFFIX(vk_wi) vi;
    const double m0 = p->m[0], m1 = p->m[1], m2 = p->m[2], m3 = p->m[3], m4 = p->m[4], m5 = p->m[5];
    const double m6 = p->m[6], m7 = p->m[7], m8 = p->m[8];
    const size_t tensor_width = p->tensor_width;
    // OpenCV's invoker blocks: 16 rows (or fewer) by 1024 / rows columns; positions are summed
    // from a block's first column.
    const size_t block_height = p->tensor_height < 16 ? p->tensor_height : 16;
    const size_t block_width = 1024 / block_height < tensor_width ? 1024 / block_height : tensor_width;
    // m3 and m6 exactly zero (crops without rotation): the divisor and the source row depend on
    // the tensor row alone, as in the reference's row-invariant path.
    const int row_invariant = m3 == 0 && m6 == 0;
    const vd lanes = {0, 1, 2, 3, 4, 5, 6, 7};
    // Bytes between a source pixel and the one the same tensor column reads four tensor rows
    // later (the affine part of the map; only a prefetch distance).
    const double ahead_x = 4 * m1, ahead_y = 4 * m4;
    const intptr_t lookahead = (ahead_x > -65536 && ahead_x < 65536 && ahead_y > -65536 && ahead_y < 65536)
        ? (intptr_t)ahead_x * (intptr_t)p->step_x + (intptr_t)ahead_y * (intptr_t)p->step_y
        : 0;
    for (size_t y = row_begin; y < row_end; y++) {
        const double row = (double)y;
        for (size_t block_start = 0; block_start < tensor_width; block_start += block_width) {
            const size_t count = block_width < tensor_width - block_start ? block_width : tensor_width - block_start;
            const double column = (double)block_start;
            const double x0 = m0 * column + m1 * row + m2;
            const size_t row_index = y * tensor_width + block_start;
            if (row_invariant) {
                const double w0 = m7 * row + m8;
                const double w = w0 != 0 ? 32 / w0 : 0;
                const vi fixed_y = VK_SUFFIX(warp_fixed1)((m4 * row + m5) * w);
                for (size_t offset = 0; offset < count; offset += 8) {
                    const vd step = lanes + (double)offset;
                    vd x = m0 * step;
                    x = x0 + x;
                    x = x * w;
                    vi fixed_x;
                    VK_SUFFIX(warp_fixed)(&x, &fixed_x);
                    VK_SUFFIX(warp_group)(p, &fixed_x, &fixed_y, row_index + offset,
                                          count - offset < 8 ? count - offset : 8, lookahead);
                }
            } else {
                const double y0 = m3 * column + m4 * row + m5;
                const double w0 = m6 * column + m7 * row + m8;
                for (size_t offset = 0; offset < count; offset += 8) {
                    const vd step = lanes + (double)offset;
                    vd w = m6 * step;
                    w = w0 + w;
                    w = w != 0 ? 32 / w : 0;
                    vd x = m0 * step;
                    x = x0 + x;
                    vd yy = m3 * step;
                    yy = y0 + yy;
                    x = x * w;
                    yy = yy * w;
                    vi fixed_x, fixed_y;
                    VK_SUFFIX(warp_fixed)(&x, &fixed_x);
                    VK_SUFFIX(warp_fixed)(&yy, &fixed_y);
                    VK_SUFFIX(warp_group)(p, &fixed_x, &fixed_y, row_index + offset,
                                          count - offset < 8 ? count - offset : 8, lookahead);
                }
            }
        }
    }
}
