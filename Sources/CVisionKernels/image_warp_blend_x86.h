// The bilinear blend of `vk_warp_rows`' fast path with x86 16-bit multiply-adds, included by
// kernels_avx512.c (VK_LANES 16) and kernels_avx2.c (VK_LANES 8) inside their target regions,
// before kernels_body.h; image_warp_body.h calls it through VK_WARP_BLEND8.
//
// Eight tensor pixels come with their neighbour words gathered (`top`, `bottom`: one 64-bit
// word per pixel and source row, the first neighbour's bytes first and the second one's
// `distance` bytes later; for a picture turned by a quarter the words run along its columns, and
// the caller orders the weights to match). Each word is moved to its own 128-bit lane, where a
// byte shuffle widens each channel's two neighbours into adjacent 16-bit values (red first, red
// second, green first, ... , then two zeros), and `pmaddwd` by the pixel's packed weights
// (`upper` = w00 | w01 << 16 for the first word, `lower` = w10 | w11 << 16 for the second) gives
// per channel v00·w00 + v01·w01 in a 32-bit lane. The sums are exact (values ≤ 255, weights ≤
// 1024), so adding the two words' sums, 512, and shifting by 10 gives the generic path's bits. A
// pixel's lane then holds red, green, blue and a zero, which permutes drop while writing the
// interleaved output.

typedef int32_t vk_warp_weights __attribute__((ext_vector_type(8)));
typedef uint64_t vk_warp_words __attribute__((ext_vector_type(8)));

// The byte shuffle of one 128-bit lane (the same in every lane) that widens the word's three
// channels to neighbour pairs of 16-bit values; 0x80 gives a zero byte.
static inline __attribute__((always_inline)) __m128i vk_warp_pairs(const vk_warp *p, int64_t distance) {
    const int64_t step = distance, red = p->red, green = p->green, blue = p->blue;
    const int64_t high_bytes = (int64_t)0x8000800080008000ull;
    const int64_t first = red | (red + step) << 16 | green << 32 | (green + step) << 48 | high_bytes;
    const int64_t second = blue | (blue + step) << 16 | (int64_t)0x8080808080008000ull;
    return _mm_set_epi64x(second, first);
}

// Stores 24 bytes at `out`: eight pixels given as 32-bit groups of bytes (red, green, blue, zero),
// four in `low` and four in `high`, without their zeros.
static inline __attribute__((always_inline)) void vk_warp_store_bytes(uint8_t *out, __m128i low, __m128i high) {
    const __m128i drop = _mm_set_epi8(-1, -1, -1, -1, 14, 13, 12, 10, 9, 8, 6, 5, 4, 2, 1, 0);
    const __m128i f = _mm_shuffle_epi8(low, drop), g = _mm_shuffle_epi8(high, drop);
    _mm_storeu_si64(out, f);
    _mm_storeu_si32(out + 8, _mm_srli_si128(f, 8));
    _mm_storeu_si64(out + 12, g);
    _mm_storeu_si32(out + 20, _mm_srli_si128(g, 8));
}

#if VK_LANES == 16
static inline __attribute__((always_inline)) void vk_warp_blend8(const vk_warp *p, size_t index,
                                                                 const vk_warp_words *top,
                                                                 const vk_warp_words *bottom,
                                                                 const vk_warp_weights *upper,
                                                                 const vk_warp_weights *lower, int64_t distance) {
    const __m512i pairs = _mm512_broadcast_i32x4(vk_warp_pairs(p, distance));
    // Pixels 0–3 and 4–7, one per 128-bit lane; their weights in all four 32-bit lanes of it.
    const __m512i first_words = _mm512_set_epi64(3, 3, 2, 2, 1, 1, 0, 0);
    const __m512i last_words = _mm512_set_epi64(7, 7, 6, 6, 5, 5, 4, 4);
    const __m512i first_weights = _mm512_set_epi32(3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0);
    const __m512i last_weights = _mm512_set_epi32(7, 7, 7, 7, 6, 6, 6, 6, 5, 5, 5, 5, 4, 4, 4, 4);
    const __m512i t = _mm512_loadu_si512(top), b = _mm512_loadu_si512(bottom);
    const __m512i u = _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)upper));
    const __m512i l = _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)lower));
    const __m512i round = _mm512_set1_epi32(512);
    __m512i first = _mm512_add_epi32(
        _mm512_madd_epi16(_mm512_shuffle_epi8(_mm512_permutexvar_epi64(first_words, t), pairs),
                          _mm512_permutexvar_epi32(first_weights, u)),
        _mm512_madd_epi16(_mm512_shuffle_epi8(_mm512_permutexvar_epi64(first_words, b), pairs),
                          _mm512_permutexvar_epi32(first_weights, l)));
    __m512i last = _mm512_add_epi32(
        _mm512_madd_epi16(_mm512_shuffle_epi8(_mm512_permutexvar_epi64(last_words, t), pairs),
                          _mm512_permutexvar_epi32(last_weights, u)),
        _mm512_madd_epi16(_mm512_shuffle_epi8(_mm512_permutexvar_epi64(last_words, b), pairs),
                          _mm512_permutexvar_epi32(last_weights, l)));
    first = _mm512_srli_epi32(_mm512_add_epi32(first, round), 10);
    last = _mm512_srli_epi32(_mm512_add_epi32(last, round), 10);
    if (p->float_output) {
        // value · scale, rounded, then + offset, rounded (no fused multiply-add).
        const __m512 scale = _mm512_set1_ps(p->scale), offset = _mm512_set1_ps(p->offset);
        const __m512 f = _mm512_add_ps(_mm512_mul_ps(_mm512_cvtepi32_ps(first), scale), offset);
        const __m512 g = _mm512_add_ps(_mm512_mul_ps(_mm512_cvtepi32_ps(last), scale), offset);
        // Lanes 0–15 index f, 16–31 g; every fourth lane (the zero) is left out.
        const __m512i head = _mm512_set_epi32(20, 18, 17, 16, 14, 13, 12, 10, 9, 8, 6, 5, 4, 2, 1, 0);
        const __m512i tail = _mm512_set_epi32(0, 0, 0, 0, 0, 0, 0, 0, 30, 29, 28, 26, 25, 24, 22, 21);
        float *out = p->float_output + 3 * index;
        _mm512_storeu_ps(out, _mm512_permutex2var_ps(f, head, g));
        _mm256_storeu_ps(out + 16, _mm512_castps512_ps256(_mm512_permutex2var_ps(f, tail, g)));
    } else {
        vk_warp_store_bytes(p->byte_output + 3 * index, _mm512_cvtepi32_epi8(first), _mm512_cvtepi32_epi8(last));
    }
}
#else
static inline __attribute__((always_inline)) void vk_warp_blend8(const vk_warp *p, size_t index,
                                                                 const vk_warp_words *top,
                                                                 const vk_warp_words *bottom,
                                                                 const vk_warp_weights *upper,
                                                                 const vk_warp_weights *lower, int64_t distance) {
    const __m128i pairs128 = vk_warp_pairs(p, distance);
    const __m256i pairs = _mm256_set_m128i(pairs128, pairs128);
    const __m256i u = _mm256_loadu_si256((const __m256i *)upper), l = _mm256_loadu_si256((const __m256i *)lower);
    const __m256i round = _mm256_set1_epi32(512);
    // sums[q]: pixels 2q and 2q + 1, one per 128-bit lane, as red, green, blue, zero.
    __m256i sums[4];
    for (int half = 0; half < 2; half++) {
        const __m256i t = _mm256_loadu_si256((const __m256i *)top + half);
        const __m256i b = _mm256_loadu_si256((const __m256i *)bottom + half);
        for (int pair = 0; pair < 2; pair++) {
            const int q = 2 * half + pair;
            const __m256i words_t = pair ? _mm256_permute4x64_epi64(t, 0xFA) : _mm256_permute4x64_epi64(t, 0x50);
            const __m256i words_b = pair ? _mm256_permute4x64_epi64(b, 0xFA) : _mm256_permute4x64_epi64(b, 0x50);
            const int even = 2 * q, odd = 2 * q + 1;
            const __m256i lanes = _mm256_set_epi32(odd, odd, odd, odd, even, even, even, even);
            const __m256i sum = _mm256_add_epi32(
                _mm256_madd_epi16(_mm256_shuffle_epi8(words_t, pairs), _mm256_permutevar8x32_epi32(u, lanes)),
                _mm256_madd_epi16(_mm256_shuffle_epi8(words_b, pairs), _mm256_permutevar8x32_epi32(l, lanes)));
            sums[q] = _mm256_srli_epi32(_mm256_add_epi32(sum, round), 10);
        }
    }
    if (p->float_output) {
        const __m256 scale = _mm256_set1_ps(p->scale), offset = _mm256_set1_ps(p->offset);
        // Each pair's six values first: overlapping stores put them side by side, the last pair's
        // in two pieces so that nothing past the group's 24 floats is written.
        const __m256i six = _mm256_set_epi32(7, 7, 6, 5, 4, 2, 1, 0);
        float *out = p->float_output + 3 * index;
        __m256 packed[4];
        for (int q = 0; q < 4; q++) {
            const __m256 f = _mm256_add_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(sums[q]), scale), offset);
            packed[q] = _mm256_permutevar8x32_ps(f, six);
        }
        _mm256_storeu_ps(out, packed[0]);
        _mm256_storeu_ps(out + 6, packed[1]);
        _mm256_storeu_ps(out + 12, packed[2]);
        _mm_storeu_ps(out + 18, _mm256_castps256_ps128(packed[3]));
        _mm_storeu_si64(out + 22, _mm_castps_si128(_mm256_extractf128_ps(packed[3], 1)));
    } else {
        // Pixels as 32-bit groups of bytes (red, green, blue, zero), in order.
        const __m256i words = _mm256_packus_epi16(_mm256_packus_epi32(sums[0], sums[1]),
                                                  _mm256_packus_epi32(sums[2], sums[3]));
        const __m256i ordered = _mm256_permutevar8x32_epi32(words, _mm256_set_epi32(7, 3, 6, 2, 5, 1, 4, 0));
        vk_warp_store_bytes(p->byte_output + 3 * index, _mm256_castsi256_si128(ordered),
                            _mm256_extracti128_si256(ordered, 1));
    }
}
#endif
#define VK_WARP_BLEND8(p, index, top, bottom, upper, lower, distance)                                        \
    vk_warp_blend8((p), (index), (const vk_warp_words *)(top), (const vk_warp_words *)(bottom),               \
                   (const vk_warp_weights *)(upper), (const vk_warp_weights *)(lower), (distance))
