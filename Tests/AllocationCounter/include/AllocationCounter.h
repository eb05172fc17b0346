// Test-only allocation counter: wraps malloc and friends (glibc) to count the allocations made
// by threads that opted in. Used to check that Interpreter.invoke() allocates nothing.
#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Number of counting sessions (session 0 means "not counted").
#define ALLOCATION_COUNTER_SESSIONS 64

/// Starts counting the allocations of the calling thread into `session` (1...63), or stops
/// (`session` 0). Test suites that may run at the same time use different sessions.
void allocation_counter_track_this_thread(int session);

/// Allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) made so far
/// by threads while they counted into `session`.
uint64_t allocation_counter_session_total(int session);

/// The size in bytes of the largest single allocation made in `session` since it was last reset.
uint64_t allocation_counter_session_largest(int session);

/// Forgets the largest allocation of `session`.
void allocation_counter_reset_largest(int session);

/// The total of session 1.
uint64_t allocation_counter_total(void);

/// Whether allocations have gone through the counter (glibc on Linux only; the Swift runtime
/// allocates long before any test runs).
int allocation_counter_is_active(void);

#ifdef __cplusplus
}
#endif

#endif
