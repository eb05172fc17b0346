// How fast one core runs fused multiply-adds that read their operands from the first-level cache:
// none, one or two vector loads per multiply-add, with 256-bit (AVX2) and, where the CPU has it,
// 512-bit (AVX-512) vectors. docs/ENGINE.md cites it for why the AVX2 depthwise kernels keep their
// weights in registers (and so have room for only four sums) rather than reading them per
// multiply-add.
//
// Each case updates twelve independent accumulators for about 0.1 s; every load reads a different
// 64-byte line of a 7 KB buffer (first-level cache), at offsets fixed at compile time, so that
// nothing but the loads and the multiply-adds counts. The best of five runs is printed (the
// machine's cores are shared: slower runs are disturbed ones), one JSON object per line:
//   {"isa": "avx2", "loadsPerFma": 1, "gLanes": 54.8, "nsPer12Fma": 1.75}
// (gLanes: billions of float multiply-adds per second, one thread).
//
//   cc -O2 -o load_fma scripts/benchmarks/load_fma.c && ./load_fma
#include <stdio.h>
#include <time.h>

#if defined(__x86_64__)
#include <immintrin.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#define STEPS 10000000L
// The two buffers: 64 positions of 16 floats, and twelve lines per position apart.
#define WINDOW 64
static float first[WINDOW * 16 + 12 * 64] __attribute__((aligned(64)));
static float second[WINDOW * 16 + 12 * 16] __attribute__((aligned(64)));

// The twelve updates spelled out, so that the accumulators stay in registers. UPDATE(a, i) is one.
#define TWELVE(UPDATE)                                                                                       \
    UPDATE(a0, 0) UPDATE(a1, 1) UPDATE(a2, 2) UPDATE(a3, 3) UPDATE(a4, 4) UPDATE(a5, 5) UPDATE(a6, 6)          \
    UPDATE(a7, 7) UPDATE(a8, 8) UPDATE(a9, 9) UPDATE(a10, 10) UPDATE(a11, 11)

// `NAME`: STEPS steps of twelve updates with vectors of type V (set by SET, fused by FMA, read by
// LOAD). Returns a lane of the sum so that the work is not optimised away.
#define LOAD_FMA_RUN(NAME, TARGET, V, SET, FMA, LOAD, UPDATE)                                                \
    __attribute__((target(TARGET), noinline)) static float NAME(void) {                                      \
        V a0 = SET(0.0f), a1 = SET(0.001f), a2 = SET(0.002f), a3 = SET(0.003f), a4 = SET(0.004f);            \
        V a5 = SET(0.005f), a6 = SET(0.006f), a7 = SET(0.007f), a8 = SET(0.008f), a9 = SET(0.009f);          \
        V a10 = SET(0.010f), a11 = SET(0.011f);                                                              \
        const V scale = SET(0.5f);                                                                           \
        for (long step = 0; step < STEPS; step++) {                                                          \
            const float *p = first + (step % WINDOW) * 16, *q = second + (step % WINDOW) * 16;               \
            (void)p, (void)q;                                                                                \
            TWELVE(UPDATE)                                                                                   \
        }                                                                                                    \
        V s = FMA(a0, a1, FMA(a2, a3, FMA(a4, a5, FMA(a6, a7, FMA(a8, a9, FMA(a10, a11, scale))))));          \
        float lanes[16];                                                                                     \
        __builtin_memcpy(lanes, &s, sizeof s);                                                               \
        return lanes[0];                                                                                     \
    }

#define NONE_256(a, i) a = _mm256_fmadd_ps(a, scale, scale);
#define ONE_256(a, i) a = _mm256_fmadd_ps(_mm256_loadu_ps(p + (i) * 64), scale, a);
#define TWO_256(a, i) a = _mm256_fmadd_ps(_mm256_loadu_ps(p + (i) * 64), _mm256_loadu_ps(q + (i) * 16), a);
#define NONE_512(a, i) a = _mm512_fmadd_ps(a, scale, scale);
#define ONE_512(a, i) a = _mm512_fmadd_ps(_mm512_loadu_ps(p + (i) * 64), scale, a);
#define TWO_512(a, i) a = _mm512_fmadd_ps(_mm512_loadu_ps(p + (i) * 64), _mm512_loadu_ps(q + (i) * 16), a);

LOAD_FMA_RUN(avx2_none, "avx2,fma", __m256, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_loadu_ps, NONE_256)
LOAD_FMA_RUN(avx2_one, "avx2,fma", __m256, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_loadu_ps, ONE_256)
LOAD_FMA_RUN(avx2_two, "avx2,fma", __m256, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_loadu_ps, TWO_256)
LOAD_FMA_RUN(avx512_none, "avx512f", __m512, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_loadu_ps, NONE_512)
LOAD_FMA_RUN(avx512_one, "avx512f", __m512, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_loadu_ps, ONE_512)
LOAD_FMA_RUN(avx512_two, "avx512f", __m512, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_loadu_ps, TWO_512)

typedef struct load_fma_case {
    const char *isa;
    int lanes;
    int loads;
    float (*run)(void);
} load_fma_case;

int main(void) {
    const load_fma_case cases[] = {
        {"avx2", 8, 0, avx2_none},     {"avx2", 8, 1, avx2_one},     {"avx2", 8, 2, avx2_two},
        {"avx512", 16, 0, avx512_none}, {"avx512", 16, 1, avx512_one}, {"avx512", 16, 2, avx512_two},
    };
    __builtin_cpu_init();
    float sink = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const load_fma_case *c = &cases[k];
        if (c->lanes == 16 ? !__builtin_cpu_supports("avx512f") : !__builtin_cpu_supports("fma")) continue;
        double best = 1e9;
        for (int run = 0; run < 5; run++) {
            const double start = now();
            sink += c->run();
            const double seconds = now() - start;
            if (seconds < best) best = seconds;
        }
        printf("{\"isa\": \"%s\", \"loadsPerFma\": %d, \"gLanes\": %.1f, \"nsPer12Fma\": %.2f}\n", c->isa, c->loads,
               (double)STEPS * 12 * c->lanes / best / 1e9, best / (double)STEPS * 1e9);
    }
    return sink == 12345.0f;  // (never: keeps `sink` live)
}
#else
int main(void) {
    fprintf(stderr, "load_fma: x86-64 only\n");
    return 1;
}
#endif
