/* How the forwarder's tables scale: ns per operation for the content store
 * (insert, exact-name lookup, lookup with selectors), FIB longest-prefix
 * match and PIT insert/match at 10^3..10^6 entries (PIT to 10^5), and the
 * content store's bytes of overhead per entry (malloc usage plus the
 * store's own arena, minus object bytes). Each figure is the median of 5 rounds; within a size the
 * rounds interleave the operations. Prints, never asserts. */
#define _GNU_SOURCE
#include "bench_help.h"
#include "table/cs.h"
#include "table/fib.h"
#include "table/pit.h"

#include <ccnx/buf.h>
#include <ccnx/ccnb.h>
#include <ccnx/dtag.h>
#include <ccnx/interest.h>
#include <ccnx/name.h>

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROUNDS  5
#define QUERIES 20000

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v)
{
    qsort(v, ROUNDS, sizeof *v, cmp_d);
    return v[ROUNDS / 2];
}

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)rng;
}

/* /bench/<i % 1000>/<i>[/seg] as an encoded Name. */
static void bench_name(struct ccnx_name *n, const char *root, size_t i, int extra)
{
    char c[32];
    ccnx_name_truncate(n, 0);
    ccnx_name_append_str(n, root);
    snprintf(c, sizeof c, "%zu", i % 1000);
    ccnx_name_append_str(n, c);
    snprintf(c, sizeof c, "%zu", i);
    ccnx_name_append_str(n, c);
    if (extra) {
        ccnx_name_append(n, "\x00\x03", 2);
    }
}

static void build_object(struct ccnx_buf *b, const struct ccnx_name *n)
{
    static const uint8_t sig[128] = {1}, pub[32] = {2}, stamp[6] = {3};
    static const uint8_t payload[100] = {4};
    ccnx_buf_reset(b);
    ccnx_ccnb_open(b, CCNX_DTAG_ContentObject);
    ccnx_ccnb_open(b, CCNX_DTAG_Signature);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_SignatureBits, sig, sizeof sig);
    ccnx_ccnb_append_closer(b);
    ccnx_buf_append(b, n->enc.data, n->enc.len);
    ccnx_ccnb_open(b, CCNX_DTAG_SignedInfo);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_PublisherPublicKeyDigest, pub, 32);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_Timestamp, stamp, sizeof stamp);
    ccnx_ccnb_append_closer(b);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_Content, payload, sizeof payload);
    ccnx_ccnb_append_closer(b);
}

struct query {
    struct ccnx_buf b;
    struct ccnx_interest_parsed pi;
};

static void build_interest(struct query *q, const struct ccnx_name *n, int child, const char *nonce)
{
    struct ccnx_interest_params p;
    ccnx_interest_params_init(&p);
    p.name = n->enc.data;
    p.name_len = n->enc.len;
    p.child_selector = child;
    if (child >= 0) {
        static const struct ccnx_exclude_item ex[2] = {
            {CCNX_EXCLUDE_COMPONENT, (const uint8_t *)"99999999", 8}, {CCNX_EXCLUDE_ANY, NULL, 0}};
        p.exclude = ex;
        p.exclude_count = 2;
    }
    if (nonce != NULL) {
        p.nonce = (const uint8_t *)nonce;
        p.nonce_len = strlen(nonce);
    }
    ccnx_buf_init(&q->b);
    ccnx_interest_build(&q->b, &p);
    ccnx_interest_parse(q->b.data, q->b.len, &q->pi);
}

static void free_queries(struct query *q, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        ccnx_buf_free(&q[i].b);
    }
}

static void bench_cs(size_t n)
{
    struct ccnx_name name;
    struct ccnx_buf b = CCNX_BUF_INIT;
    ccnx_name_init(&name);
    struct query *exact = calloc(QUERIES, sizeof *exact), *sel = calloc(QUERIES, sizeof *sel);
    for (size_t k = 0; k < QUERIES; k++) {
        size_t i = rnd() % n;
        bench_name(&name, "bench", i, 0);
        build_interest(&exact[k], &name, -1, NULL);
        /* Rightmost child under /bench/<i % 1000> with an Exclude. */
        ccnx_name_truncate(&name, 2);
        build_interest(&sel[k], &name, 1, NULL);
    }
    struct mallinfo2 m0 = mallinfo2();
    struct cs *cs = cs_create(CS_DEFAULT_CAPACITY);
    size_t objbytes = 0;
    double t0 = now_ns();
    for (size_t i = 0; i < n; i++) {
        bench_name(&name, "bench", i, 0);
        build_object(&b, &name);
        cs_insert(cs, b.data, b.len, NULL, NULL, 0, NULL);
        objbytes += b.len;
    }
    double ins = (now_ns() - t0) / (double)n;
    struct mallinfo2 m1 = mallinfo2();
    /* Entries live in the store's arena (mmap), which malloc's counters do
     * not see; the index and anything else still come from malloc. */
    struct cs_stats st;
    cs_get_stats(cs, &st);
    double held = (double)(m1.uordblks - m0.uordblks) + (double)st.memory;
    double overhead = (held - (double)objbytes) / (double)n;
    double r_exact[ROUNDS], r_sel[ROUNDS];
    size_t hits = 0;
    for (int r = 0; r < ROUNDS; r++) {
        t0 = now_ns();
        for (size_t k = 0; k < QUERIES; k++) {
            hits += cs_lookup(cs, exact[k].b.data, &exact[k].pi, 1) != NULL;
        }
        r_exact[r] = (now_ns() - t0) / QUERIES;
        t0 = now_ns();
        for (size_t k = 0; k < QUERIES; k++) {
            hits += cs_lookup(cs, sel[k].b.data, &sel[k].pi, 1) != NULL;
        }
        r_sel[r] = (now_ns() - t0) / QUERIES;
    }
    printf("cs   n=%-8zu insert %7.0f ns  exact %6.0f ns  selectors %6.0f ns  "
           "overhead %5.1f B/entry  (hits %zu/%d)\n",
           n, ins, median(r_exact), median(r_sel), overhead, hits, 2 * ROUNDS * QUERIES);
    cs_destroy(cs);
    free_queries(exact, QUERIES);
    free_queries(sel, QUERIES);
    free(exact);
    free(sel);
    ccnx_buf_free(&b);
    ccnx_name_free(&name);
}

static void bench_fib(size_t n)
{
    struct ccnx_name name;
    ccnx_name_init(&name);
    struct fib *fib = fib_create();
    for (size_t i = 0; i < n; i++) {
        bench_name(&name, "fib", i, 0);
        fib_add(fib, name.enc.data, name.enc.len, (unsigned)(i % 50) + 1, FIB_ACTIVE, FIB_NEVER,
                FIB_OWNER_NONE);
    }
    struct ccnx_buf *q = calloc(QUERIES, sizeof *q);
    for (size_t k = 0; k < QUERIES; k++) {
        bench_name(&name, "fib", rnd() % n, 1);
        ccnx_buf_init(&q[k]);
        ccnx_buf_append(&q[k], name.enc.data, name.enc.len);
    }
    double r_lpm[ROUNDS];
    struct fib_result res;
    size_t found = 0;
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now_ns();
        for (size_t k = 0; k < QUERIES; k++) {
            fib_lookup(fib, q[k].data, q[k].len, 0, &res);
            found += res.nfaces;
        }
        r_lpm[r] = (now_ns() - t0) / QUERIES;
    }
    printf("fib  n=%-8zu longest-prefix match %6.0f ns  (faces %zu)\n", n, median(r_lpm), found);
    for (size_t k = 0; k < QUERIES; k++) {
        ccnx_buf_free(&q[k]);
    }
    free(q);
    fib_destroy(fib);
    ccnx_name_free(&name);
}

/* A second face sends CLOSE_HELD of the Interests already pending (so
 * their entries get a second downstream record) and then closes: the time
 * pit_remove_face takes with the table full of the first face's. */
#define CLOSE_HELD 10
static double face_close_ns(struct pit *pit, struct query *q)
{
    struct pit_entry *e;
    for (size_t i = 0; i < CLOSE_HELD; i++) {
        pit_insert(pit, q[i].b.data, q[i].b.len, &q[i].pi, 2, 0, &e);
    }
    size_t held = pit_face_pending(pit, 2);
    double t0 = now_ns();
    pit_remove_face(pit, 2, NULL, NULL);
    double t = now_ns() - t0;
    if (held != CLOSE_HELD) {
        fprintf(stderr, "bench_table_scale: the closing face held %zu records\n", held);
    }
    return t;
}

static void bench_pit(size_t n)
{
    struct ccnx_name name;
    struct ccnx_buf b = CCNX_BUF_INIT;
    struct ccnx_content_parsed pc;
    ccnx_name_init(&name);
    struct query *q = calloc(n, sizeof *q);
    char nonce[24];
    for (size_t i = 0; i < n; i++) {
        bench_name(&name, "pit", i, 0);
        snprintf(nonce, sizeof nonce, "%zu", i);
        build_interest(&q[i], &name, -1, nonce);
    }
    double r_ins[ROUNDS], r_match[ROUNDS], r_close[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        struct pit *pit = pit_create(n);
        struct pit_entry *e;
        double t0 = now_ns();
        for (size_t i = 0; i < n; i++) {
            pit_insert(pit, q[i].b.data, q[i].b.len, &q[i].pi, 1, 0, &e);
        }
        r_ins[r] = (now_ns() - t0) / (double)n;
        size_t matched = 0, m = n < QUERIES ? n : QUERIES;
        double total = 0;
        for (size_t k = 0; k < m; k++) {
            bench_name(&name, "pit", rnd() % n, 1);
            build_object(&b, &name);
            ccnx_content_parse(b.data, b.len, &pc);
            uint8_t dig[32];
            ccnx_content_digest(b.data, b.len, dig);
            t0 = now_ns();
            matched += pit_match(pit, b.data, b.len, &pc, dig, &e, 1);
            total += now_ns() - t0;
        }
        r_match[r] = total / (double)m;
        (void)matched;
        r_close[r] = face_close_ns(pit, q);
        pit_destroy(pit);
    }
    printf("pit  n=%-8zu insert %6.0f ns  match %6.0f ns  face close %8.0f ns\n", n, median(r_ins),
           median(r_match), median(r_close));
    free_queries(q, n);
    free(q);
    ccnx_buf_free(&b);
    ccnx_name_free(&name);
}

/* Whether the table named t is to be measured: all of them when no table
 * is named on the command line. */
static int wanted(int argc, char **argv, const char *t)
{
    if (argc < 2) {
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], t) == 0) {
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    bench_help(argc, argv,
               "usage: bench_table_scale [-n MAX_ENTRIES] [cs] [fib] [pit]\n"
               "ccnd's content store, FIB and PIT at 10^3 to 10^6 entries (at most\n"
               "MAX_ENTRIES): time per operation and bytes per entry. Naming tables\n"
               "measures only those.\n");
    size_t max = 1000000;
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "-n") == 0) {
        max = strtoul(argv[2], NULL, 10);
        first = 3;
    }
    for (int i = first; i < argc; i++) {
        if (strcmp(argv[i], "cs") != 0 && strcmp(argv[i], "fib") != 0 &&
            strcmp(argv[i], "pit") != 0) {
            fprintf(stderr, "bench_table_scale: unknown table '%s' (cs, fib or pit)\n", argv[i]);
            return 2;
        }
    }
    argc -= first - 1;
    argv += first - 1;
    static const size_t sizes[] = {1000, 10000, 100000, 1000000};
    for (size_t s = 0; s < 4 && sizes[s] <= max; s++) {
        if (wanted(argc, argv, "cs")) {
            bench_cs(sizes[s]);
        }
        if (wanted(argc, argv, "fib")) {
            bench_fib(sizes[s]);
        }
        if (sizes[s] <= 100000 && wanted(argc, argv, "pit")) {
            bench_pit(sizes[s]);
        }
        fflush(stdout);
    }
    return 0;
}
