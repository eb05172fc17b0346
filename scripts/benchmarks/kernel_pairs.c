// Times two revisions' kernels call for call in one process (`scripts/benchmarks/kernel_timing.sh
// --pairs` links two copies of kernel_timing.c and of Sources/CVisionKernels into this program, every
// global symbol of one copy prefixed `a_`, of the other `b_`). For each case of kernel_timing.c,
// after warm-up, PAIRS steps each make one call of A and one of B, in alternating order, and time
// both: on a machine whose cores slow down in phases of milliseconds to seconds, two calls a few
// microseconds apart see the same conditions, where kernel_timing.sh's rounds of separate runs
// differ by several per cent between identical builds.
//
// Prints one line per case: `case isa a_ms b_ms ratio`, the medians of each side's calls and
// the median of the per-step ratios b / a.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "kernel_timing.h"

// The two copies' entry points (kernel_timing.h's, prefixed).
void a_kt_collect(vk_isa isa, kt_collected then, void *context);
void b_kt_collect(vk_isa isa, kt_collected then, void *context);
void a_kt_chill(warm_range warm);
int a_vk_isa_is_supported(vk_isa isa);
const char *a_vk_isa_name(vk_isa isa);

enum { WARM_UP = 20 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int by_value(const void *x, const void *y) {
    const double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static double median(double *values, size_t count) {
    qsort(values, count, sizeof *values, by_value);
    return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

// One timed call; a cold case's caches are flushed first (kt_chill, either copy's).
static double timed(const kt_case *c) {
    if (c->cold) a_kt_chill(c->warm);
    const double start = now();
    c->fn(c->state);
    return now() - start;
}

typedef struct {
    vk_isa isa;
    size_t pairs;
    const kt_case *a;
    size_t a_count;
} run;

static void with_b(const kt_case *b, size_t b_count, void *context) {
    const run *r = context;
    double *ta = malloc(r->pairs * sizeof *ta), *tb = malloc(r->pairs * sizeof *tb);
    double *ratio = malloc(r->pairs * sizeof *ratio);
    for (size_t i = 0; i < r->a_count && i < b_count; i++) {
        const kt_case *ca = &r->a[i], *cb = &b[i];
        if (strcmp(ca->name, cb->name) != 0) {
            fprintf(stderr, "case %zu differs between the builds: %s, %s\n", i, ca->name, cb->name);
            exit(1);
        }
        const size_t pairs = ca->cold ? (r->pairs < 41 ? r->pairs : 41) : r->pairs;
        for (int w = 0; w < WARM_UP && !ca->cold; w++) ca->fn(ca->state), cb->fn(cb->state);
        for (size_t p = 0; p < pairs; p++) {
            // Alternating which goes first, so that neither always runs right after the other.
            if (p % 2) {
                tb[p] = timed(cb);
                ta[p] = timed(ca);
            } else {
                ta[p] = timed(ca);
                tb[p] = timed(cb);
            }
            ratio[p] = tb[p] / ta[p];
        }
        const double ma = median(ta, pairs), mb = median(tb, pairs), mr = median(ratio, pairs);
        printf("%s %s %.4f %.4f %.4f\n", ca->name, a_vk_isa_name(r->isa), ma, mb, mr);
        fflush(stdout);
    }
    free(ta);
    free(tb);
    free(ratio);
}

static void with_a(const kt_case *a, size_t a_count, void *context) {
    run *r = context;
    r->a = a;
    r->a_count = a_count;
    b_kt_collect(r->isa, with_b, r);
}

int main(int argc, char **argv) {
    const vk_isa isas[] = {VK_ISA_AVX512, VK_ISA_AVX2};
    const size_t pairs = argc > 1 ? (size_t)atol(argv[1]) : 400;
    for (size_t k = 0; k < sizeof isas / sizeof isas[0]; k++) {
        if (!a_vk_isa_is_supported(isas[k])) continue;
        run r = {isas[k], pairs > 0 ? pairs : 1, NULL, 0};
        a_kt_collect(isas[k], with_a, &r);
    }
    return 0;
}
