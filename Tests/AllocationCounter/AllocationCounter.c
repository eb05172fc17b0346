// Counting wrappers around glibc's allocator. Defined in the test executable, these symbols
// take precedence over libc's for the whole process (the Swift runtime included); each one
// forwards to glibc's own entry point.
#include "AllocationCounter.h"

// Sanitizer builds (swift test --sanitize=thread|address) intercept malloc themselves; wrapping
// it again bypasses their bookkeeping and crashes the test binary, so there the counter is off
// (allocation_counter_is_active() returns 0 and the allocation tests skip).
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define ALLOCATION_COUNTER_SANITIZED 1
#endif
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(ALLOCATION_COUNTER_SANITIZED)
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static __thread int tracked __attribute__((tls_model("initial-exec")));
static _Atomic uint64_t totals[ALLOCATION_COUNTER_SESSIONS];
static _Atomic uint64_t largest[ALLOCATION_COUNTER_SESSIONS];
static _Atomic int seen;

static inline void count_one_of(size_t size) {
    atomic_store_explicit(&seen, 1, memory_order_relaxed);
    if (tracked) {
        atomic_fetch_add_explicit(&totals[tracked], 1, memory_order_relaxed);
        uint64_t previous = atomic_load_explicit(&largest[tracked], memory_order_relaxed);
        while (size > previous &&
               !atomic_compare_exchange_weak_explicit(&largest[tracked], &previous, size,
                                                      memory_order_relaxed, memory_order_relaxed)) {
        }
    }
}

void *malloc(size_t size) {
    count_one_of(size);
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_one_of(count * size);
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    count_one_of(size);
    return __libc_realloc(pointer, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    count_one_of(size);
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer && size > 0) return ENOMEM;
    *result = pointer;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_one_of(size);
    return __libc_memalign(alignment, size);
}

void *memalign(size_t alignment, size_t size) {
    count_one_of(size);
    return __libc_memalign(alignment, size);
}

void allocation_counter_track_this_thread(int session) {
    tracked = session > 0 && session < ALLOCATION_COUNTER_SESSIONS ? session : 0;
}

uint64_t allocation_counter_session_total(int session) {
    return session > 0 && session < ALLOCATION_COUNTER_SESSIONS ? atomic_load(&totals[session]) : 0;
}

uint64_t allocation_counter_total(void) { return allocation_counter_session_total(1); }

uint64_t allocation_counter_session_largest(int session) {
    return session > 0 && session < ALLOCATION_COUNTER_SESSIONS ? atomic_load(&largest[session]) : 0;
}

void allocation_counter_reset_largest(int session) {
    if (session > 0 && session < ALLOCATION_COUNTER_SESSIONS) atomic_store(&largest[session], 0);
}

int allocation_counter_is_active(void) { return atomic_load(&seen); }

#else

void allocation_counter_track_this_thread(int session) { (void)session; }
uint64_t allocation_counter_session_total(int session) { (void)session; return 0; }
uint64_t allocation_counter_total(void) { return 0; }
uint64_t allocation_counter_session_largest(int session) { (void)session; return 0; }
void allocation_counter_reset_largest(int session) { (void)session; }
int allocation_counter_is_active(void) { return 0; }

#endif
