// Test-only allocation counter: wraps malloc and friends (glibc) to count the allocations made
// by threads that opted in. Used to check that Interpreter.invoke() allocates nothing.
#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Starts (`on` != 0) or stops counting the allocations of the calling thread.
void allocation_counter_track_this_thread(int on);

/// Allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) made so far
/// by threads while they were tracked.
uint64_t allocation_counter_total(void);

/// Whether allocations have gone through the counter (glibc on Linux only; the Swift runtime
/// allocates long before any test runs).
int allocation_counter_is_active(void);

#ifdef __cplusplus
}
#endif

#endif
