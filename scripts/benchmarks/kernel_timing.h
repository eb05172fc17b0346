// The case table of scripts/benchmarks/kernel_timing.c, shared with kernel_pairs.c (which links two
// copies of kernel_timing.c built with -DKT_LIBRARY, their symbols prefixed a_ and b_).
#ifndef KERNEL_TIMING_H
#define KERNEL_TIMING_H
#include <stddef.h>
#include "CVisionKernels.h"

/// One call of a case.
typedef void (*case_fn)(void *state);

/// Data a cold case reads back after the caches are flushed (its input).
typedef struct {
    const float *data;
    size_t count;
} warm_range;

/// One timed case: `fn(state)` is one call. A cold case is timed after the caches are flushed,
/// with `warm` read back first (kernel_timing.c's cold_median).
typedef struct {
    const char *name;
    case_fn fn;
    void *state;
    int cold;
    warm_range warm;
} kt_case;

/// What kt_collect hands the cases to.
typedef void (*kt_collected)(const kt_case *cases, size_t count, void *context);

/// Before a cold case's call: writes 64 MB elsewhere (the caches then hold none of the case's
/// data), then reads `warm` back.
void kt_chill(warm_range warm);

/// Builds every case for `isa` and calls `then` with them; their data lives until `then` returns.
void kt_collect(vk_isa isa, kt_collected then, void *context);
#endif
