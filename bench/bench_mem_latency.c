/* What one dependent random memory access costs on this machine, for
 * working sets from 64 KB to 512 MB: each load's address comes from the
 * previous one (a random cyclic permutation of 64-byte lines), so nothing
 * overlaps, as in a table lookup that must read a slot before the entry it
 * points to. The floor under how flat any lookup over 10^6 objects can be
 * (bench_table_scale). Prints, never asserts.
 *
 *   bench_mem_latency [MAX_MB]      (default 512)
 */
#include "bench_help.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define LINE  64
#define LOADS 2000000

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* ns per load over `bytes` of memory, or a negative value without memory. */
static double chase(size_t bytes)
{
    size_t n = bytes / LINE, stride = LINE / sizeof(size_t);
    size_t *mem = malloc(n * LINE), *order = malloc(n * sizeof *order);
    if (mem == NULL || order == NULL) {
        free(mem);
        free(order);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        order[i] = i;
    }
    for (size_t i = n - 1; i > 0; i--) { /* Fisher-Yates */
        size_t j = (size_t)(next_random() % (i + 1)), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (size_t i = 0; i < n; i++) {
        mem[order[i] * stride] = order[(i + 1) % n] * stride;
    }
    size_t p = 0;
    for (size_t i = 0; i < n && i < LOADS; i++) { /* warm the caches and the TLB */
        p = mem[p];
    }
    double t0 = now_ns();
    for (int i = 0; i < LOADS; i++) {
        p = mem[p];
    }
    double ns = (now_ns() - t0) / LOADS;
    volatile size_t sink = p; /* keeps the chain */
    (void)sink;
    free(mem);
    free(order);
    return ns;
}

int main(int argc, char **argv)
{
    bench_help(argc, argv,
               "usage: bench_mem_latency [MAX_MB]\n"
               "Latency of dependent loads over working sets up to MAX_MB (default 512).\n");
    long max_mb = argc > 1 ? strtol(argv[1], NULL, 10) : 512;
    if (max_mb < 1 || max_mb > 65536) {
        fprintf(stderr, "usage: bench_mem_latency [MAX_MB] (1..65536)\n");
        return 2;
    }
    for (size_t kb = 64; kb <= (size_t)max_mb * 1024; kb *= 4) {
        double ns = chase(kb * 1024);
        if (ns < 0) {
            fprintf(stderr, "bench_mem_latency: out of memory at %zu KB\n", kb);
            return 1;
        }
        printf("mem  %8zu KB  %6.1f ns per dependent load\n", kb, ns);
    }
    return 0;
}
