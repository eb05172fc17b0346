// One core's float32 fused multiply-add peak, for the "share of FMA peak" column of
// docs/BENCHMARKS.md (scripts/benchmarks/run.sh builds and runs it before and after the rounds).
//
// Twelve independent accumulator vectors (more than latency × throughput on the x86 cores this
// project has met) are updated with vfmadd for about 0.1 s, using the widest vectors the kernels
// of `vision-tasks` would pick on this CPU (AVX-512 when it has F/VL/BW/DQ, else AVX2 + FMA).
// The best of several runs is the peak: the machine's cores are shared, so slower runs are
// disturbed ones. Prints one JSON object:
//   {"isa": "avx512", "lanes": 16, "peakGmacs": 58.3, "medianGmacs": 57.9, "runs": 7}
// (billions of float multiply-adds per second, one thread).
//
//   cc -O2 -o fma_peak scripts/benchmarks/fma_peak.c && ./fma_peak
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if defined(__x86_64__)
#include <immintrin.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#define CHAINS 12
#define ROUNDS 4000000L
// The twelve updates spelled out, so that every compiler keeps the accumulators in registers.
#define FMA12(fma)                                                                                          \
    a0 = fma(a0, scale, bias), a1 = fma(a1, scale, bias), a2 = fma(a2, scale, bias);                      \
    a3 = fma(a3, scale, bias), a4 = fma(a4, scale, bias), a5 = fma(a5, scale, bias);                      \
    a6 = fma(a6, scale, bias), a7 = fma(a7, scale, bias), a8 = fma(a8, scale, bias);                      \
    a9 = fma(a9, scale, bias), a10 = fma(a10, scale, bias), a11 = fma(a11, scale, bias)

// `run_NAME`: the rate of one run with vectors of type V (LANES floats), set by SET, fused by FMA
// and summed by ADD; STORE writes a vector to memory.
#define FMA_RUN(NAME, TARGET, V, LANES, SET, FMA, ADD, STORE)                                               \
    __attribute__((target(TARGET))) static double run_##NAME(float *sink) {                                 \
        V a0 = SET(0.0f), a1 = SET(0.001f), a2 = SET(0.002f), a3 = SET(0.003f), a4 = SET(0.004f);          \
        V a5 = SET(0.005f), a6 = SET(0.006f), a7 = SET(0.007f), a8 = SET(0.008f), a9 = SET(0.009f);        \
        V a10 = SET(0.010f), a11 = SET(0.011f);                                                             \
        const V scale = SET(0.9999f), bias = SET(1e-5f);                                                   \
        const double start = now();                                                                         \
        for (long n = 0; n < ROUNDS; n++) {                                                                 \
            FMA12(FMA);                                                                                     \
        }                                                                                                   \
        const double seconds = now() - start;                                                               \
        const V sum = ADD(ADD(ADD(ADD(a0, a1), ADD(a2, a3)), ADD(ADD(a4, a5), ADD(a6, a7))),                \
                          ADD(ADD(a8, a9), ADD(a10, a11)));                                                 \
        float lanes[LANES];                                                                                 \
        STORE(lanes, sum);                                                                                  \
        for (int l = 0; l < LANES; l++) *sink += lanes[l];                                                  \
        return (double)ROUNDS * CHAINS * LANES / seconds;                                                   \
    }

FMA_RUN(avx512, "avx512f", __m512, 16, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_add_ps, _mm512_storeu_ps)
FMA_RUN(avx2, "avx2,fma", __m256, 8, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_add_ps, _mm256_storeu_ps)

static int compare(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void) {
    __builtin_cpu_init();
    const int avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")
        && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq");
    const int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (!avx512 && !avx2) {
        printf("{\"isa\": \"none\"}\n");
        return 0;
    }
    enum { RUNS = 7 };
    double rates[RUNS];
    float sink = 0;
    for (int r = 0; r < RUNS; r++) rates[r] = avx512 ? run_avx512(&sink) : run_avx2(&sink);
    qsort(rates, RUNS, sizeof rates[0], compare);
    printf("{\"isa\": \"%s\", \"lanes\": %d, \"peakGmacs\": %.2f, \"medianGmacs\": %.2f, \"runs\": %d, \"sink\": %g}\n",
           avx512 ? "avx512" : "avx2", avx512 ? 16 : 8, rates[RUNS - 1] / 1e9, rates[RUNS / 2] / 1e9, RUNS,
           (double)sink);
    return 0;
}
#else
int main(void) {
    printf("{\"isa\": \"none\"}\n");
    return 0;
}
#endif
