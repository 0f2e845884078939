/* How the repository's store (apps/ccnr/store.c, LMDB) scales, without
 * ccnr or ccnd around it:
 *
 * - small objects (100-byte payloads, names /bench/<i/1000>/<i>, a fixed
 *   16-byte signature instead of an RSA one) added in batches of 1000 per
 *   begin/commit, growing a fresh store through 10^4, 10^5, ... objects; at
 *   each size: the cost per object of the last batches (commit included),
 *   an exact-name lookup of a random stored object, a lookup with
 *   selectors (rightmost child under /bench/<k> with an Exclude) and the
 *   bytes of data.mdb on disk per object;
 * - a 256 MB file as 65536 segments of 4 KB (Merkle-signed in batches of
 *   1024 before the clock starts, as ccnputfile's are), committed 256 per
 *   batch, then read back by exact-name lookups; beside it a raw write of
 *   the same bytes to a file in the same directory, fsync'd once and every
 *   256 objects, as the disk's ceiling (LMDB's commits are synchronous).
 *
 * Lookup figures are medians of interleaved rounds over pre-built
 * Interests; insert figures the median over the last batches before each
 * size; file figures the median of three rounds, each into a fresh store.
 * MB are 10^6 bytes. Data lives in /tmp/sb-store-* directories, removed at
 * exit. Prints, never asserts.
 *
 *   bench_ccnr_store [MAX_OBJECTS]     (10^4..10^8, default 10^7)
 */
#define _GNU_SOURCE
#include "bench_help.h"
#include "store.h"

#include <ccnx/buf.h>
#include <ccnx/ccnb.h>
#include <ccnx/dtag.h>
#include <ccnx/interest.h>
#include <ccnx/name.h>
#include <ccnx/naming.h>
#include <ccnx/content_sign.h>
#include <ccnx/key.h>
#include <ccnx/uri.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BATCH       1000 /* small objects per begin/commit */
#define INS_ROUNDS  9    /* batches before each size whose cost is reported */
#define ROUNDS      5
#define QUERIES     20000
#define SEL_QUERIES 500 /* a selector lookup visits all 1000 children: ~1 ms */
#define SEG         4096
#define SEGS        65536
#define SEG_COMMIT  256  /* segments per begin/commit */
#define SIGN_BATCH  1024 /* segments per Merkle tree: ccnputfile's default */
#define FILE_ROUNDS 3

static char dirs[2][32]; /* removed at exit, also after a failure */

static double clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double now_ns(void)
{
    return clock_ns(CLOCK_MONOTONIC);
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..n), which it sorts. */
static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_d);
    return v[n / 2];
}

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)rng;
}

static void die(const char *what, int rc)
{
    fprintf(stderr, "bench_ccnr_store: %s failed (%d)\n", what, rc);
    exit(1);
}

/* Removes what a store directory can hold; the store's files first. */
static void remove_dir(const char *dir)
{
    static const char *const files[] = {"store/data.mdb", "store/lock.mdb", "store", "raw"};
    char path[128];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        if (unlink(path) != 0) {
            rmdir(path);
        }
    }
    rmdir(dir);
}

static void cleanup(void)
{
    for (size_t i = 0; i < 2; i++) {
        if (dirs[i][0] != '\0') {
            remove_dir(dirs[i]);
        }
    }
}

static const char *make_dir(size_t slot)
{
    snprintf(dirs[slot], sizeof dirs[slot], "/tmp/sb-store-XXXXXX");
    if (mkdtemp(dirs[slot]) == NULL) {
        dirs[slot][0] = '\0';
        die("mkdtemp", -1);
    }
    return dirs[slot];
}

static struct ccnr_store *open_store(const char *dir)
{
    char err[512];
    struct ccnr_store *s = ccnr_store_open(dir, 0, err, sizeof err);
    if (s == NULL) {
        fprintf(stderr, "bench_ccnr_store: %s\n", err);
        exit(1);
    }
    return s;
}

/* Bytes the store's data file takes on disk (du, not its apparent size). */
static double disk_bytes(const char *dir)
{
    char path[128];
    struct stat st;
    snprintf(path, sizeof path, "%s/store/data.mdb", dir);
    return stat(path, &st) == 0 ? (double)st.st_blocks * 512.0 : 0.0;
}

struct query {
    struct ccnx_buf b;
    struct ccnx_interest_parsed pi;
};

/* child < 0: a plain Interest; else that ChildSelector with an Exclude of
 * "99999999" and everything after it (which names no stored object, but
 * the pick must test every candidate against it). */
static void build_interest(struct query *q, const struct ccnx_name *n, int child)
{
    static const struct ccnx_exclude_item ex[2] = {
        {CCNX_EXCLUDE_COMPONENT, (const uint8_t *)"99999999", 8}, {CCNX_EXCLUDE_ANY, NULL, 0}};
    struct ccnx_interest_params p;
    ccnx_interest_params_init(&p);
    p.name = n->enc.data;
    p.name_len = n->enc.len;
    p.child_selector = child;
    if (child >= 0) {
        p.exclude = ex;
        p.exclude_count = 2;
    }
    ccnx_buf_init(&q->b);
    int rc = ccnx_interest_build(&q->b, &p);
    if (rc != 0 || (rc = ccnx_interest_parse(q->b.data, q->b.len, &q->pi)) != 0) {
        die("interest build", rc);
    }
}

static void free_queries(struct query *q, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        ccnx_buf_free(&q[i].b);
    }
    free(q);
}

/* ---- Small objects, growing store ---- */

/* /bench/<i / 1000>/<i>: a thousand objects under each /bench/<k>. */
static void small_name(struct ccnx_name *n, size_t i, size_t comps)
{
    char c[32];
    ccnx_name_truncate(n, 0);
    ccnx_name_append_str(n, "bench");
    snprintf(c, sizeof c, "%zu", i / 1000);
    ccnx_name_append_str(n, c);
    if (comps > 2) {
        snprintf(c, sizeof c, "%zu", i);
        ccnx_name_append_str(n, c);
    }
}

/* Appends the small object number i to b: a fixed signature, so that
 * building 10^7 of them costs no RSA (the store does not verify). */
static void small_object(struct ccnx_buf *b, struct ccnx_name *n, size_t i)
{
    static const uint8_t sig[16] = {1}, pub[32] = {2}, stamp[6] = {3}, payload[100] = {4};
    small_name(n, i, 3);
    ccnx_ccnb_open(b, CCNX_DTAG_ContentObject);
    ccnx_ccnb_open(b, CCNX_DTAG_Signature);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_SignatureBits, sig, sizeof sig);
    ccnx_ccnb_append_closer(b);
    ccnx_buf_append(b, n->enc.data, n->enc.len);
    ccnx_ccnb_open(b, CCNX_DTAG_SignedInfo);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_PublisherPublicKeyDigest, pub, sizeof pub);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_Timestamp, stamp, sizeof stamp);
    ccnx_ccnb_append_closer(b);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_Content, payload, sizeof payload);
    ccnx_ccnb_append_closer(b);
}

struct fill {
    struct ccnx_buf objs;
    size_t off[BATCH + 1];
    struct ccnx_name name;
    double ns_obj[INS_ROUNDS], commit_ms[INS_ROUNDS]; /* the last batches, a ring */
    size_t batches;
    double obj_bytes; /* of the last batch */
};

/* Adds objects first..first+BATCH-1 as one batch; only the store's calls
 * are timed (the objects are encoded before). */
static void fill_batch(struct ccnr_store *s, struct fill *f, size_t first)
{
    ccnx_buf_reset(&f->objs);
    for (size_t k = 0; k < BATCH; k++) {
        f->off[k] = f->objs.len;
        small_object(&f->objs, &f->name, first + k);
    }
    f->off[BATCH] = f->objs.len;
    if (ccnx_buf_status(&f->objs) != 0) {
        die("object build", ccnx_buf_status(&f->objs));
    }
    double t0 = now_ns();
    int rc = ccnr_store_begin(s);
    for (size_t k = 0; k < BATCH && rc >= 0; k++) {
        rc = ccnr_store_add(s, f->objs.data + f->off[k], f->off[k + 1] - f->off[k]);
    }
    if (rc != CCNR_STORE_ADDED) {
        die("ccnr_store_add", rc);
    }
    double t1 = now_ns();
    if ((rc = ccnr_store_commit(s)) != 0) {
        die("ccnr_store_commit", rc);
    }
    double t2 = now_ns();
    f->ns_obj[f->batches % INS_ROUNDS] = (t2 - t0) / BATCH;
    f->commit_ms[f->batches % INS_ROUNDS] = (t2 - t1) / 1e6;
    f->obj_bytes = (double)f->objs.len;
    f->batches++;
}

/* Medians (ns) of ROUNDS interleaved rounds of exact and selector lookups
 * over n stored objects; first: the exact lookups' first round, which
 * meets the pages cold in this process. */
static void lookups(struct ccnr_store *s, size_t n, double *exact, double *sel, double *first,
                    size_t *hits)
{
    struct query *qe = calloc(QUERIES, sizeof *qe), *qs = calloc(SEL_QUERIES, sizeof *qs);
    struct ccnx_name name;
    struct ccnx_buf out = CCNX_BUF_INIT;
    double re[ROUNDS], rs[ROUNDS];
    ccnx_name_init(&name);
    for (size_t k = 0; k < QUERIES; k++) {
        small_name(&name, rnd() % n, 3);
        build_interest(&qe[k], &name, -1);
    }
    for (size_t k = 0; k < SEL_QUERIES; k++) {
        small_name(&name, (rnd() % (n / 1000)) * 1000, 2);
        build_interest(&qs[k], &name, 1);
    }
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now_ns();
        for (size_t k = 0; k < QUERIES; k++) {
            *hits += ccnr_store_lookup(s, qe[k].b.data, &qe[k].pi, &out) == 1;
        }
        re[r] = (now_ns() - t0) / QUERIES;
        t0 = now_ns();
        for (size_t k = 0; k < SEL_QUERIES; k++) {
            *hits += ccnr_store_lookup(s, qs[k].b.data, &qs[k].pi, &out) == 1;
        }
        rs[r] = (now_ns() - t0) / SEL_QUERIES;
    }
    *first = re[0];
    *exact = median(re, ROUNDS);
    *sel = median(rs, ROUNDS);
    free_queries(qe, QUERIES);
    free_queries(qs, SEL_QUERIES);
    ccnx_buf_free(&out);
    ccnx_name_free(&name);
}

static void report_size(struct ccnr_store *s, const char *dir, struct fill *f, size_t n)
{
    double exact, sel, first;
    size_t hits = 0;
    lookups(s, n, &exact, &sel, &first, &hits);
    double ns = median(f->ns_obj, INS_ROUNDS), commit = median(f->commit_ms, INS_ROUNDS);
    struct ccnr_store_stats st;
    ccnr_store_get_stats(s, &st);
    printf("small n=%-9zu insert %6.0f ns/object (%8.0f /s, %5.1f MB/s; commit %5.2f ms/batch)  "
           "exact %5.0f ns (first round %5.0f)  selectors %6.0f ns  disk %5.1f B/object "
           "(object %5.1f B)  (hits %zu/%d)\n",
           n, ns, 1e9 / ns, f->obj_bytes / BATCH / ns * 1e3, commit, exact, first, sel,
           disk_bytes(dir) / (double)n, (double)st.bytes / (double)n, hits,
           ROUNDS * (QUERIES + SEL_QUERIES));
    fflush(stdout);
}

static void bench_small(size_t max_n)
{
    const char *dir = make_dir(0);
    struct ccnr_store *s = open_store(dir);
    struct fill *f = calloc(1, sizeof *f);
    ccnx_buf_init(&f->objs);
    ccnx_name_init(&f->name);
    double t0 = now_ns();
    size_t n = 0;
    for (size_t next = 10000; next <= max_n; next *= 10) {
        for (; n < next; n += BATCH) {
            fill_batch(s, f, n);
        }
        report_size(s, dir, f, n);
    }
    printf("small: %zu objects stored and measured in %.1f s\n", n, (now_ns() - t0) / 1e9);
    ccnr_store_close(s);
    ccnx_buf_free(&f->objs);
    ccnx_name_free(&f->name);
    free(f);
    remove_dir(dir);
    dirs[0][0] = '\0';
}

/* ---- A 256 MB file in 4 KB segments ---- */

struct file {
    struct ccnx_buf objs; /* the SEGS signed segments, one after the other */
    size_t off[SEGS + 1];
    struct query *q; /* one plain Interest per segment, by name */
};

/* Signs SIGN_BATCH segments of /bench/file/%FD%01 from `first` into f. */
static void sign_segments(struct file *f, const struct ccnx_key *key, const uint8_t *payload,
                          size_t first, struct ccnx_buf *tmp)
{
    static struct ccnx_content_params p[SIGN_BATCH];
    static struct ccnx_name names[SIGN_BATCH];
    size_t off[SIGN_BATCH + 1];
    for (size_t k = 0; k < SIGN_BATCH; k++) {
        ccnx_name_init(&names[k]);
        ccnx_uri_parse_str(&names[k], "ccnx:/bench/file/%FD%01");
        ccnx_naming_append_segment(&names[k], first + k);
        build_interest(&f->q[first + k], &names[k], -1);
        ccnx_content_params_init(&p[k]);
        p[k].name = names[k].enc.data;
        p[k].name_len = names[k].enc.len;
        p[k].content = payload + (first + k) * SEG;
        p[k].content_len = SEG;
    }
    ccnx_buf_reset(tmp);
    int rc = ccnx_content_sign_batch(tmp, p, SIGN_BATCH, key, off);
    if (rc != 0) {
        die("ccnx_content_sign_batch", rc);
    }
    for (size_t k = 0; k < SIGN_BATCH; k++) {
        f->off[first + k] = f->objs.len + off[k];
        ccnx_name_free(&names[k]);
    }
    ccnx_buf_append(&f->objs, tmp->data, tmp->len);
    f->off[first + SIGN_BATCH] = f->objs.len;
}

static struct file *file_setup(void)
{
    struct file *f = calloc(1, sizeof *f);
    struct ccnx_key *key;
    struct ccnx_buf tmp = CCNX_BUF_INIT;
    uint8_t *payload = malloc((size_t)SEGS * SEG);
    int rc = ccnx_key_generate(2048, &key);
    if (f == NULL || payload == NULL || rc != 0) {
        die("file setup", rc);
    }
    for (size_t i = 0; i < (size_t)SEGS * SEG; i++) {
        payload[i] = (uint8_t)(i * 2654435761u >> 13);
    }
    if ((f->q = calloc(SEGS, sizeof *f->q)) == NULL) {
        die("file setup", -1);
    }
    ccnx_buf_init(&f->objs);
    for (size_t first = 0; first < SEGS; first += SIGN_BATCH) {
        sign_segments(f, key, payload, first, &tmp);
    }
    if (ccnx_buf_status(&f->objs) != 0) {
        die("segment buffer", ccnx_buf_status(&f->objs));
    }
    ccnx_key_destroy(key);
    ccnx_buf_free(&tmp);
    free(payload);
    return f;
}

/* Seconds to write all segments to dir/raw in 1 MB writes, fdatasync'd
 * after every `every` segments (0: once, at the end); the file is removed. */
static double raw_write(const char *dir, const struct file *f, size_t every)
{
    char path[128];
    snprintf(path, sizeof path, "%s/raw", dir);
    double t0 = now_ns();
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    size_t step = every != 0 ? every : SEGS;
    for (size_t i = 0; fd >= 0 && i < SEGS; i += step) {
        const uint8_t *p = f->objs.data + f->off[i];
        size_t left = f->off[i + step] - f->off[i];
        while (left > 0) {
            ssize_t w = write(fd, p, left < (1u << 20) ? left : (1u << 20));
            if (w <= 0) {
                die("raw write", -1);
            }
            p += w;
            left -= (size_t)w;
        }
        if (fdatasync(fd) != 0) {
            die("fdatasync", -1);
        }
    }
    if (fd < 0 || close(fd) != 0) {
        die("raw file", -1);
    }
    double s = (now_ns() - t0) / 1e9;
    unlink(path);
    return s;
}

/* Seconds to add all segments, SEG_COMMIT per batch; *cpu gets the CPU
 * seconds of them, the rest being the wait for the disk. */
static double file_ingest(struct ccnr_store *s, const struct file *f, double *cpu)
{
    double c0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID), t0 = now_ns();
    for (size_t i = 0; i < SEGS; i += SEG_COMMIT) {
        int rc = ccnr_store_begin(s);
        for (size_t k = i; k < i + SEG_COMMIT && rc >= 0; k++) {
            rc = ccnr_store_add(s, f->objs.data + f->off[k], f->off[k + 1] - f->off[k]);
        }
        if (rc != CCNR_STORE_ADDED || (rc = ccnr_store_commit(s)) != 0) {
            die("segment ingest", rc);
        }
    }
    *cpu = (clock_ns(CLOCK_PROCESS_CPUTIME_ID) - c0) / 1e9;
    return (now_ns() - t0) / 1e9;
}

/* Seconds to look every segment up by name, in order, as a fetch asks. */
static double file_read(struct ccnr_store *s, const struct file *f, size_t *bad)
{
    struct ccnx_buf out = CCNX_BUF_INIT;
    double t0 = now_ns();
    for (size_t i = 0; i < SEGS; i++) {
        if (ccnr_store_lookup(s, f->q[i].b.data, &f->q[i].pi, &out) != 1 ||
            out.len != f->off[i + 1] - f->off[i]) {
            (*bad)++;
        }
    }
    double sec = (now_ns() - t0) / 1e9;
    ccnx_buf_free(&out);
    return sec;
}

static void bench_file(void)
{
    struct file *f = file_setup();
    const char *dir = make_dir(1);
    double raw1[FILE_ROUNDS], rawb[FILE_ROUNDS], ing[FILE_ROUNDS], cpu[FILE_ROUNDS];
    double rd[FILE_ROUNDS], disk = 0;
    size_t bad = 0;
    for (int r = 0; r < FILE_ROUNDS; r++) {
        raw1[r] = raw_write(dir, f, 0);
        rawb[r] = raw_write(dir, f, SEG_COMMIT);
        struct ccnr_store *s = open_store(dir);
        ing[r] = file_ingest(s, f, &cpu[r]);
        rd[r] = file_read(s, f, &bad);
        ccnr_store_close(s);
        disk = disk_bytes(dir);
        remove_dir(dir);
        if (mkdir(dir, 0700) != 0) {
            die("mkdir", -1);
        }
    }
    double mb = (double)SEGS * SEG / 1e6, objmb = (double)f->objs.len / 1e6;
    double a = median(raw1, FILE_ROUNDS), b = median(rawb, FILE_ROUNDS);
    double i = median(ing, FILE_ROUNDS), rr = median(rd, FILE_ROUNDS);
    printf("file  %d x 4 KB segments (%.1f MB of objects), medians of %d rounds, MB/s of "
           "payload:\n",
           SEGS, objmb, FILE_ROUNDS);
    printf("file  raw write, one fsync          %7.1f MB/s\n", mb / a);
    printf("file  raw write, fdatasync per %d  %7.1f MB/s\n", SEG_COMMIT, mb / b);
    printf(
        "file  store ingest, %d per commit   %7.1f MB/s  %8.0f objects/s  (CPU %.2f s of %.2f s)\n",
        SEG_COMMIT, mb / i, SEGS / i, median(cpu, FILE_ROUNDS), i);
    printf("file  store read, exact names       %7.1f MB/s  %8.0f objects/s  (misses %zu)\n",
           mb / rr, SEGS / rr, bad);
    printf("file  store on disk %.1f MB (%.0f B/segment)\n", disk / 1e6, disk / SEGS);
    free_queries(f->q, SEGS);
    ccnx_buf_free(&f->objs);
    free(f);
}

int main(int argc, char **argv)
{
    bench_help(argc, argv,
               "usage: bench_ccnr_store [MAX_OBJECTS]\n"
               "Store figures of the repository's LMDB store, up to MAX_OBJECTS objects\n"
               "(10^4..10^8, default 10^7).\n");
    double max = argc > 1 ? strtod(argv[1], NULL) : 1e7;
    if (max < 1e4 || max > 1e8) {
        fprintf(stderr, "usage: bench_ccnr_store [MAX_OBJECTS] (10^4..10^8)\n");
        return 2;
    }
    atexit(cleanup);
    bench_file();
    bench_small((size_t)max);
    return 0;
}
