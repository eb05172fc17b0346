// Fork-join thread pool: persistent workers that poll briefly after each job (so the next
// kernel of an invoke starts without a wake-up) and then sleep on a futex (Linux) or a
// condition variable (elsewhere), so an idle pool burns no CPU.
//
// A job's tasks are split into one contiguous range per thread (`ranges`, begin and end packed in
// one atomic word per cache line). Each thread takes chunks from the front of its own range —
// no contention — and, when it is empty, steals chunks from the back of the others' ranges, so a
// thread that is slow or descheduled does not hold the others back. `ticket` carries the job's
// generation and whether it is still open. The caller works too; when no task is left it closes
// the ticket and waits only for workers that are inside a chunk (`active`), never for workers
// that are asleep or descheduled — on shared, oversubscribed cores the caller then simply does
// the work itself.
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include "CVisionKernels.h"
#if defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>
#endif

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#define VK_USE_FUTEX 1
#else
#define VK_USE_FUTEX 0
#endif

/// How long a worker keeps polling for the next job before it sleeps: long enough to bridge the
/// gaps between the kernels of an invoke, short enough not to compete for a busy machine's
/// cores (measured: 200 µs made two threads slower under load; polling through whole invokes
/// made two processes of two threads each on two cores 40–75 % slower).
#define VK_WORKER_SPIN_NS 50000
/// How long the caller polls for workers still inside a chunk before it sleeps.
#define VK_CALLER_SPIN_NS 50000
/// The low word of `ticket` that marks a closed job.
#define VK_CLOSED 0xFFFFFFFFu
/// Chunks per thread's share (the unit of work taken at a time, and stolen).
#define VK_CHUNKS_PER_THREAD 16

/// One thread's range of tasks: begin in the low 32 bits, end in the high 32, alone in its
/// cache line.
typedef struct vk_range {
    _Atomic uint64_t bounds;
    char padding[64 - sizeof(uint64_t)];
} vk_range;

struct vk_pool {
    size_t thread_count;
    pthread_t *threads;
    size_t started;

    // The current job; written by the caller before it publishes the job's ticket, stable
    // while any worker is `active` in it.
    vk_task_fn fn;
    vk_entry_fn entry;
    void *context;
    size_t task_count;
    size_t chunk;
    int each;
    /// One range per thread (64-byte aligned).
    vk_range *ranges;

    /// Generation (high 32 bits) of the current job; the low 32 bits are VK_CLOSED once closed.
    _Atomic uint64_t ticket;
    /// The current generation, for sleeping workers (futex word).
    _Atomic uint32_t signal;
    /// Workers inside the current job.
    _Atomic uint32_t active;
    /// Workers that have not yet run their call of a run-on-each-thread job.
    _Atomic uint32_t pending;
    _Atomic uint32_t sleepers;
    _Atomic uint32_t caller_waiting;
    _Atomic int stop;

#if !VK_USE_FUTEX
    pthread_mutex_t mutex;
    pthread_cond_t cond;
#endif
};

typedef struct vk_worker_start {
    vk_pool *pool;
    size_t index;
} vk_worker_start;

static inline void vk_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static inline uint64_t vk_now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/// Sleeps while `*word == expected` (may return spuriously).
static void vk_wait(vk_pool *pool, _Atomic uint32_t *word, uint32_t expected) {
#if VK_USE_FUTEX
    (void)pool;
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
#else
    pthread_mutex_lock(&pool->mutex);
    while (atomic_load(word) == expected) pthread_cond_wait(&pool->cond, &pool->mutex);
    pthread_mutex_unlock(&pool->mutex);
#endif
}

/// Wakes every thread sleeping on `word` (after `word` was changed).
static void vk_wake(vk_pool *pool, _Atomic uint32_t *word) {
#if VK_USE_FUTEX
    (void)pool;
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
#else
    (void)word;
    pthread_mutex_lock(&pool->mutex);
    pthread_cond_broadcast(&pool->cond);
    pthread_mutex_unlock(&pool->mutex);
#endif
}

static inline uint64_t vk_bounds(size_t begin, size_t end) { return ((uint64_t)end << 32) | (uint64_t)begin; }

/// Claims the next chunk of the current job for `thread`: from the front of its own range (a
/// quarter of what is left, at most the job's chunk size, so chunks shrink to single tasks at the
/// end), else half of what is left at the back of another's range. Returns 0 when every range
/// is empty. Small last chunks keep the threads' finishing times close.
int vk_pool_claim(vk_pool *pool, size_t thread, size_t *begin_out, size_t *end_out) {
    const size_t chunk = pool->chunk, threads = pool->thread_count;
    _Atomic uint64_t *own = &pool->ranges[thread].bounds;
    for (;;) {
        uint64_t bounds = atomic_load_explicit(own, memory_order_acquire);
        size_t begin = (uint32_t)bounds, end = (size_t)(bounds >> 32);
        if (begin >= end) break;
        size_t take = (end - begin) / 4;
        take = take < 1 ? 1 : take > chunk ? chunk : take;
        size_t next = begin + take;
        if (atomic_compare_exchange_weak_explicit(own, &bounds, vk_bounds(next, end), memory_order_acq_rel,
                                                  memory_order_acquire)) {
            *begin_out = begin;
            *end_out = next;
            return 1;
        }
    }
    for (size_t offset = 1; offset < threads; offset++) {
        _Atomic uint64_t *victim = &pool->ranges[(thread + offset) % threads].bounds;
        for (;;) {
            uint64_t bounds = atomic_load_explicit(victim, memory_order_acquire);
            size_t begin = (uint32_t)bounds, end = (size_t)(bounds >> 32);
            if (begin >= end) break;
            size_t first = end - (end - begin + 1) / 2;
            if (atomic_compare_exchange_weak_explicit(victim, &bounds, vk_bounds(begin, first), memory_order_acq_rel,
                                                      memory_order_acquire)) {
                *begin_out = first;
                *end_out = end;
                return 1;
            }
        }
    }
    return 0;
}

/// This thread's part of the current job: the entry callback claims its own chunks, or chunks
/// are claimed here and handed to the task callback.
static void vk_run_chunks(vk_pool *pool, size_t thread) {
    if (pool->entry) {
        pool->entry(pool->context, thread);
        return;
    }
    size_t begin, end;
    while (vk_pool_claim(pool, thread, &begin, &end)) pool->fn(pool->context, begin, end, thread);
}

/// A worker's part of generation `generation` (if that job is still open).
static void vk_join(vk_pool *pool, uint32_t generation, size_t thread) {
    atomic_fetch_add(&pool->active, 1);
    uint64_t ticket = atomic_load(&pool->ticket);
    if ((uint32_t)(ticket >> 32) == generation && (uint32_t)ticket != VK_CLOSED) {
        // The job is open and cannot be replaced while this thread is active: its fields are stable.
        if (pool->each) {
            pool->fn(pool->context, thread, thread + 1, thread);
            if (atomic_fetch_sub(&pool->pending, 1) == 1 && atomic_load(&pool->caller_waiting))
                vk_wake(pool, &pool->pending);
        } else {
            vk_run_chunks(pool, thread);
        }
    }
    if (atomic_fetch_sub(&pool->active, 1) == 1 && atomic_load(&pool->caller_waiting)) vk_wake(pool, &pool->active);
}

static void *vk_worker_main(void *argument) {
    vk_worker_start start = *(vk_worker_start *)argument;
    free(argument);
    // Workers only run kernels: flush denormals for their whole life (see vk_denormals_flush_begin).
    (void)vk_denormals_flush_begin();
    vk_pool *pool = start.pool;
    uint32_t seen = 0;
    for (;;) {
        // Poll for a new generation for a bounded time, then sleep.
        uint32_t generation = atomic_load_explicit(&pool->signal, memory_order_acquire);
        if (generation == seen) {
            uint64_t deadline = vk_now_ns() + VK_WORKER_SPIN_NS;
            unsigned spins = 0;
            while ((generation = atomic_load_explicit(&pool->signal, memory_order_acquire)) == seen) {
                vk_pause();
                if (++spins % 64 == 0 && vk_now_ns() > deadline) break;
            }
            while (generation == seen) {
                atomic_fetch_add(&pool->sleepers, 1);
                if (atomic_load(&pool->signal) == seen) vk_wait(pool, &pool->signal, seen);
                atomic_fetch_sub(&pool->sleepers, 1);
                generation = atomic_load_explicit(&pool->signal, memory_order_acquire);
            }
        }
        seen = generation;
        if (atomic_load_explicit(&pool->stop, memory_order_acquire)) break;
        vk_join(pool, generation, start.index);
    }
    return NULL;
}

uint64_t vk_denormals_flush_begin(void) {
#if defined(__x86_64__) || defined(_M_X64)
    // MXCSR flush-to-zero (bit 15) and denormals-are-zero (bit 6).
    const uint32_t old = _mm_getcsr();
    _mm_setcsr(old | 0x8040u);
    return old;
#elif defined(__aarch64__)
    // FPCR.FZ (bit 24).
    uint64_t old;
    __asm__ volatile("mrs %0, fpcr" : "=r"(old));
    __asm__ volatile("msr fpcr, %0" : : "r"(old | ((uint64_t)1 << 24)));
    return old;
#else
    return 0;
#endif
}

void vk_denormals_flush_end(uint64_t state) {
#if defined(__x86_64__) || defined(_M_X64)
    _mm_setcsr((uint32_t)state);
#elif defined(__aarch64__)
    __asm__ volatile("msr fpcr, %0" : : "r"(state));
#else
    (void)state;
#endif
}

vk_pool *vk_pool_create(size_t thread_count) {
    if (thread_count < 1) thread_count = 1;
    vk_pool *pool = calloc(1, sizeof(vk_pool));
    if (!pool) return NULL;
    pool->thread_count = thread_count;
    atomic_store(&pool->ticket, (uint64_t)VK_CLOSED);
    pool->ranges = aligned_alloc(64, thread_count * sizeof(vk_range));
    if (!pool->ranges) {
        free(pool);
        return NULL;
    }
    for (size_t t = 0; t < thread_count; t++) atomic_store(&pool->ranges[t].bounds, 0);
#if !VK_USE_FUTEX
    pthread_mutex_init(&pool->mutex, NULL);
    pthread_cond_init(&pool->cond, NULL);
#endif
    if (thread_count > 1) {
        pool->threads = calloc(thread_count - 1, sizeof(pthread_t));
        if (!pool->threads) {
            vk_pool_destroy(pool);
            return NULL;
        }
        for (size_t i = 1; i < thread_count; i++) {
            vk_worker_start *start = malloc(sizeof(vk_worker_start));
            if (!start) break;
            start->pool = pool;
            start->index = i;
            if (pthread_create(&pool->threads[i - 1], NULL, vk_worker_main, start) != 0) {
                free(start);
                break;
            }
#if defined(__linux__)
            pthread_setname_np(pool->threads[i - 1], "vk-worker");
#endif
            pool->started += 1;
        }
        if (pool->started != thread_count - 1) {
            vk_pool_destroy(pool);
            return NULL;
        }
    }
    return pool;
}

void vk_pool_destroy(vk_pool *pool) {
    if (!pool) return;
    if (pool->started > 0) {
        atomic_store(&pool->stop, 1);
        atomic_fetch_add(&pool->signal, 1);
        vk_wake(pool, &pool->signal);
        for (size_t i = 0; i < pool->started; i++) pthread_join(pool->threads[i], NULL);
    }
#if !VK_USE_FUTEX
    pthread_cond_destroy(&pool->cond);
    pthread_mutex_destroy(&pool->mutex);
#endif
    free(pool->threads);
    free(pool->ranges);
    free(pool);
}

/// Waits (polling, then sleeping) until `*word` is zero.
static void vk_wait_for_zero(vk_pool *pool, _Atomic uint32_t *word) {
    if (atomic_load_explicit(word, memory_order_acquire) == 0) return;
    uint64_t deadline = vk_now_ns() + VK_CALLER_SPIN_NS;
    unsigned spins = 0;
    while (atomic_load_explicit(word, memory_order_acquire) != 0) {
        vk_pause();
        if (++spins % 64 == 0 && vk_now_ns() > deadline) break;
    }
    atomic_store(&pool->caller_waiting, 1);
    uint32_t left;
    while ((left = atomic_load(word)) != 0) vk_wait(pool, word, left);
    atomic_store(&pool->caller_waiting, 0);
}

static void vk_pool_dispatch(vk_pool *pool, vk_task_fn fn, vk_entry_fn entry, void *context, size_t task_count,
                             int each) {
    uint32_t generation = atomic_load_explicit(&pool->signal, memory_order_relaxed) + 1;
    pool->fn = fn;
    pool->entry = entry;
    pool->context = context;
    pool->task_count = task_count;
    pool->each = each;
    // Several chunks per thread's share, so that a slow or descheduled thread's share can be
    // taken over; which thread runs a task never changes its result.
    const size_t threads = pool->thread_count;
    size_t chunk = task_count / (threads * VK_CHUNKS_PER_THREAD);
    pool->chunk = chunk < 1 ? 1 : chunk;
    for (size_t t = 0; t < threads; t++) {
        size_t begin, end;
        vk_pool_share(task_count, t, threads, &begin, &end);
        atomic_store_explicit(&pool->ranges[t].bounds, each ? 0 : vk_bounds(begin, end), memory_order_relaxed);
    }
    atomic_store_explicit(&pool->pending, (uint32_t)(pool->thread_count - 1), memory_order_relaxed);
    atomic_store_explicit(&pool->ticket, (uint64_t)generation << 32, memory_order_release);
    atomic_store(&pool->signal, generation);
    if (atomic_load(&pool->sleepers) > 0) vk_wake(pool, &pool->signal);

    if (each) {
        fn(context, 0, 1, 0);
        vk_wait_for_zero(pool, &pool->pending);
    } else {
        vk_run_chunks(pool, 0);
    }
    // Close the job, then wait for the workers still inside a chunk.
    atomic_store(&pool->ticket, ((uint64_t)generation << 32) | VK_CLOSED);
    vk_wait_for_zero(pool, &pool->active);
}

void vk_pool_run(vk_pool *pool, vk_task_fn fn, void *context, size_t task_count) {
    if (task_count == 0) return;
    if (task_count > 0xFFFFFFFEu) {
        // Ranges hold 32-bit indices; run such a job in parts (no model comes close).
        for (size_t done = 0; done < task_count;) {
            size_t part = task_count - done < 0x40000000u ? task_count - done : 0x40000000u;
            fn(context, done, done + part, 0);
            done += part;
        }
        return;
    }
    if (pool->thread_count == 1 || task_count == 1) {
        fn(context, 0, task_count, 0);
        return;
    }
    vk_pool_dispatch(pool, fn, NULL, context, task_count, 0);
}

void vk_pool_run_claiming(vk_pool *pool, vk_entry_fn entry, void *context, size_t task_count) {
    if (task_count == 0) return;
    if (pool->thread_count == 1 || task_count == 1 || task_count > 0xFFFFFFFEu) {
        // One thread claims everything (the ranges hold 32-bit indices).
        pool->chunk = task_count;
        atomic_store_explicit(&pool->ranges[0].bounds, vk_bounds(0, task_count > 0xFFFFFFFEu ? 0xFFFFFFFEu : task_count),
                              memory_order_relaxed);
        for (size_t t = 1; t < pool->thread_count; t++) atomic_store_explicit(&pool->ranges[t].bounds, 0, memory_order_relaxed);
        entry(context, 0);
        return;
    }
    vk_pool_dispatch(pool, NULL, entry, context, task_count, 0);
}

size_t vk_pool_sleeping(vk_pool *pool) { return atomic_load(&pool->sleepers); }

void vk_pool_run_on_each_thread(vk_pool *pool, vk_task_fn fn, void *context) {
    if (pool->thread_count == 1) {
        fn(context, 0, 1, 0);
        return;
    }
    vk_pool_dispatch(pool, fn, NULL, context, pool->thread_count, 1);
}
