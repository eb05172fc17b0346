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

__attribute__((target("avx512f"))) static double run_avx512(float *sink) {
    __m512 a0 = _mm512_set1_ps(0.0f), a1 = _mm512_set1_ps(0.001f), a2 = _mm512_set1_ps(0.002f);
    __m512 a3 = _mm512_set1_ps(0.003f), a4 = _mm512_set1_ps(0.004f), a5 = _mm512_set1_ps(0.005f);
    __m512 a6 = _mm512_set1_ps(0.006f), a7 = _mm512_set1_ps(0.007f), a8 = _mm512_set1_ps(0.008f);
    __m512 a9 = _mm512_set1_ps(0.009f), a10 = _mm512_set1_ps(0.010f), a11 = _mm512_set1_ps(0.011f);
    const __m512 scale = _mm512_set1_ps(0.9999f), bias = _mm512_set1_ps(1e-5f);
    const double start = now();
    for (long n = 0; n < ROUNDS; n++) {
        FMA12(_mm512_fmadd_ps);
    }
    const double seconds = now() - start;
    const __m512 sum = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)),
                                     _mm512_add_ps(_mm512_add_ps(a4, a5), _mm512_add_ps(a6, a7)));
    *sink += _mm512_reduce_add_ps(_mm512_add_ps(sum, _mm512_add_ps(_mm512_add_ps(a8, a9), _mm512_add_ps(a10, a11))));
    return (double)ROUNDS * CHAINS * 16 / seconds;
}

__attribute__((target("avx2,fma"))) static double run_avx2(float *sink) {
    __m256 a0 = _mm256_set1_ps(0.0f), a1 = _mm256_set1_ps(0.001f), a2 = _mm256_set1_ps(0.002f);
    __m256 a3 = _mm256_set1_ps(0.003f), a4 = _mm256_set1_ps(0.004f), a5 = _mm256_set1_ps(0.005f);
    __m256 a6 = _mm256_set1_ps(0.006f), a7 = _mm256_set1_ps(0.007f), a8 = _mm256_set1_ps(0.008f);
    __m256 a9 = _mm256_set1_ps(0.009f), a10 = _mm256_set1_ps(0.010f), a11 = _mm256_set1_ps(0.011f);
    const __m256 scale = _mm256_set1_ps(0.9999f), bias = _mm256_set1_ps(1e-5f);
    const double start = now();
    for (long n = 0; n < ROUNDS; n++) {
        FMA12(_mm256_fmadd_ps);
    }
    const double seconds = now() - start;
    const __m256 sum = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)),
                                     _mm256_add_ps(_mm256_add_ps(a4, a5), _mm256_add_ps(a6, a7)));
    float lanes[8];
    _mm256_storeu_ps(lanes, _mm256_add_ps(sum, _mm256_add_ps(_mm256_add_ps(a8, a9), _mm256_add_ps(a10, a11))));
    for (int l = 0; l < 8; l++) *sink += lanes[l];
    return (double)ROUNDS * CHAINS * 8 / seconds;
}

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
