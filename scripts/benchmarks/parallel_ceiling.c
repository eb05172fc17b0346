// How much faster two threads can be than one on this machine, for work that needs no memory at
// all: a fixed amount of floating-point arithmetic (independent multiply-add chains in
// registers), run on one thread and then split in two halves between the calling thread and a
// persistent worker. Timed the way `vision-tasks bench-model --paired-threads 2` times a model:
// one- and two-thread runs alternate, each timed run right after an untimed one of the same kind
// (so the worker is awake), and the ratio of each adjacent pair is taken. Between two-thread runs
// the worker polls for 50 µs and then sleeps, as the engine's pool does.
//
// The result bounds what any engine's two-thread speed-up can reach on this machine: on a shared
// virtual machine the two virtual cores are not always equally fast.
//
//     cc -O2 -pthread scripts/benchmarks/parallel_ceiling.c -o /tmp/parallel_ceiling
//     /tmp/parallel_ceiling [PAIRS] [MILLISECONDS]
//
// Prints one JSON object: {"pairs", "oneThreadMs", "twoThreadsMs", "medianRatio"} (medians).
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/// `steps` rounds of eight independent multiply-add chains; returns their sum so the compiler
/// keeps them.
static float arithmetic(long steps) {
    float a0 = 1, a1 = 2, a2 = 3, a3 = 4, a4 = 5, a5 = 6, a6 = 7, a7 = 8;
    const float m = 0.9999f, c = 0.0001f;
    for (long i = 0; i < steps; i++) {
        a0 = a0 * m + c; a1 = a1 * m + c; a2 = a2 * m + c; a3 = a3 * m + c;
        a4 = a4 * m + c; a5 = a5 * m + c; a6 = a6 * m + c; a7 = a7 * m + c;
    }
    return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}

static _Atomic unsigned generation, finished;
static _Atomic long worker_steps;
static _Atomic int stop;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static volatile float sink;

static void *worker(void *unused) {
    (void)unused;
    unsigned seen = 0;
    for (;;) {
        double deadline = seconds() + 50e-6;
        while (atomic_load(&generation) == seen && seconds() < deadline) {}
        pthread_mutex_lock(&mutex);
        while (atomic_load(&generation) == seen) pthread_cond_wait(&wake, &mutex);
        pthread_mutex_unlock(&mutex);
        seen = atomic_load(&generation);
        if (atomic_load(&stop)) return NULL;
        sink = arithmetic(atomic_load(&worker_steps));
        atomic_store(&finished, seen);
    }
}

/// Runs `steps` on the calling thread alone, or half of them on each thread.
static double run(long steps, int threads) {
    double start = seconds();
    if (threads == 1) {
        sink = arithmetic(steps);
    } else {
        atomic_store(&worker_steps, steps / 2);
        pthread_mutex_lock(&mutex);
        unsigned next = atomic_fetch_add(&generation, 1) + 1;
        pthread_cond_signal(&wake);
        pthread_mutex_unlock(&mutex);
        sink = arithmetic(steps - steps / 2);
        while (atomic_load(&finished) != next) {}
    }
    return (seconds() - start) * 1e3;
}

static int ascending(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, int count) {
    qsort(values, (size_t)count, sizeof(double), ascending);
    return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

int main(int argc, char **argv) {
    int pairs = argc > 1 ? atoi(argv[1]) : 150;
    double milliseconds = argc > 2 ? atof(argv[2]) : 6.0;
    if (pairs < 1 || milliseconds <= 0) {
        fprintf(stderr, "usage: parallel_ceiling [PAIRS] [MILLISECONDS]\n");
        return 2;
    }
    pthread_t thread;
    if (pthread_create(&thread, NULL, worker, NULL) != 0) {
        fprintf(stderr, "parallel_ceiling: cannot start a thread\n");
        return 1;
    }
    // Size the work to about `milliseconds` on one thread.
    long steps = 100000;
    double calibration = run(steps, 1);
    steps = (long)((double)steps * milliseconds / (calibration > 1e-3 ? calibration : 1e-3));
    double *one = malloc(sizeof(double) * (size_t)pairs), *two = malloc(sizeof(double) * (size_t)pairs);
    double *ratios = malloc(sizeof(double) * (size_t)pairs);
    if (!one || !two || !ratios) return 1;
    for (int i = 0; i < pairs; i++) {
        run(steps, 1);
        one[i] = run(steps, 1);
        run(steps, 2);
        two[i] = run(steps, 2);
        ratios[i] = one[i] / two[i];
    }
    double ratio = median(ratios, pairs);
    printf("{\"pairs\": %d, \"oneThreadMs\": %.3f, \"twoThreadsMs\": %.3f, \"medianRatio\": %.4f}\n", pairs,
           median(one, pairs), median(two, pairs), ratio);
    pthread_mutex_lock(&mutex);
    atomic_store(&stop, 1);
    atomic_fetch_add(&generation, 1);
    pthread_cond_signal(&wake);
    pthread_mutex_unlock(&mutex);
    pthread_join(thread, NULL);
    return 0;
}
