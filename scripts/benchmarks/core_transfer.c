// How long one core takes to read 512 KB that the other core has just written: what a kernel
// pays at two threads when it reads what the other thread's half of the previous kernel wrote.
// On a virtual machine this depends on where the hypervisor put the two virtual cores: two cores
// that share a last-level cache pass the data through it; cores on different dies (on AMD EPYC,
// different core complexes, each with its own L3) pass it across the package, several times
// slower. The thread on CPU 0 writes the buffer, the thread on CPU 1 reads it, and then reads it
// again (from its own caches now), alternately, `ROUNDS` times; the fastest of each is printed.
//
//     cc -O2 -pthread scripts/benchmarks/core_transfer.c -o /tmp/core_transfer
//     /tmp/core_transfer [ROUNDS]
//
// Prints one JSON object: {"rounds", "otherCoreMicroseconds", "ownCacheMicroseconds"}. Linux only
// (it pins its two threads to CPUs 0 and 1).
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/// 512 KB of 8-byte words; one word per 64-byte line is touched.
#define WORDS (512 * 1024 / 8)

static volatile long *buffer;
/// 0: the writer's turn, 1: the reader's.
static _Atomic int turn;
static int rounds = 100;
static double other_core = 1e9, own_cache = 1e9;
static volatile long sink;

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void pin(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/// Sums one word per line of the buffer and returns the seconds it took.
static double read_lines(void) {
    double start = seconds();
    long sum = 0;
    for (int i = 0; i < WORDS; i += 8) sum += buffer[i];
    sink = sum;
    return seconds() - start;
}

static void *reader(void *unused) {
    (void)unused;
    pin(1);
    for (int r = 0; r < rounds; r++) {
        while (atomic_load(&turn) != 1) {
        }
        double t = read_lines();
        if (t < other_core) other_core = t;
        t = read_lines();
        if (t < own_cache) own_cache = t;
        atomic_store(&turn, 0);
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc > 1) rounds = atoi(argv[1]) > 0 ? atoi(argv[1]) : rounds;
    buffer = aligned_alloc(64, WORDS * 8);
    if (!buffer) return 1;
    memset((void *)buffer, 0, WORDS * 8);
    pthread_t thread;
    if (pthread_create(&thread, NULL, reader, NULL) != 0) return 1;
    pin(0);
    for (int r = 0; r < rounds; r++) {
        while (atomic_load(&turn) != 0) {
        }
        for (int i = 0; i < WORDS; i += 8) buffer[i] = r + i;
        atomic_store(&turn, 1);
    }
    pthread_join(thread, NULL);
    printf("{\"rounds\": %d, \"otherCoreMicroseconds\": %.1f, \"ownCacheMicroseconds\": %.1f}\n", rounds,
           other_core * 1e6, own_cache * 1e6);
    return 0;
}
