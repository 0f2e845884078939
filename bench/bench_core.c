/* bench_core: per-operation rates of the core library.
 *
 * Usage: bench_core [VECTORS_DIR] [ROUNDS]
 *
 * Each figure is measured ROUNDS times (default 7), the rounds of all
 * figures interleaved so that machine noise hits them alike; the median is
 * printed. Ratios are computed from medians of the same run. */
#include "bench_help.h"
#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/match.h>
#include <ccnx/name.h>
#include <ccnx/naming.h>
#include <ccnx/content_sign.h>
#include <ccnx/key.h>
#include <ccnx/uri.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SEGMENT 4096
#define BATCH   256

struct fixture {
    struct ccnx_buf interest; /* a typical consumer Interest */
    struct ccnx_buf object;   /* a 4 KB ContentObject */
    struct ccnx_interest_parsed pi;
    struct ccnx_content_parsed pc;
    uint8_t digest[32];
    struct ccnx_key *key;       /* 2048-bit RSA, as new keystores get */
    struct ccnx_buf signed_obj; /* one object signed by key */
    struct ccnx_content_parsed signed_pc;
    uint8_t *payload; /* BATCH segments of SEGMENT bytes */
    struct ccnx_name names[BATCH];
    struct ccnx_content_params params[BATCH];
    struct ccnx_buf batch_out;
    size_t offsets[BATCH + 1]; /* batch signing reports n + 1 boundaries */
    struct ccnx_name uri_name;
};

typedef double (*bench_fn)(struct fixture *f); /* returns operations (or bytes) per second */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what, int code)
{
    fprintf(stderr, "bench_core: %s: %s\n", what, ccnx_strerror(code));
    exit(1);
}

static volatile size_t sink;

/* Runs op repeatedly for at least `seconds`, returning operations per second. */
#define RATE(seconds, units_per_op, body)                                                          \
    do {                                                                                           \
        size_t n_ = 0, batch_ = 1;                                                                 \
        double t0_ = now(), t_;                                                                    \
        do {                                                                                       \
            for (size_t i_ = 0; i_ < batch_; i_++) {                                               \
                body;                                                                              \
            }                                                                                      \
            n_ += batch_;                                                                          \
            batch_ *= 2;                                                                           \
        } while ((t_ = now() - t0_) < (seconds));                                                  \
        return (double)n_ * (units_per_op) / t_;                                                   \
    } while (0)

static double b_interest_parse(struct fixture *f)
{
    struct ccnx_interest_parsed pi;
    RATE(0.2, 1, sink += (size_t)ccnx_interest_parse(f->interest.data, f->interest.len, &pi));
}

static double b_content_parse(struct fixture *f)
{
    struct ccnx_content_parsed pc;
    RATE(0.2, 1, sink += (size_t)ccnx_content_parse(f->object.data, f->object.len, &pc));
}

static double b_skeleton(struct fixture *f)
{
    struct ccnx_skel s;
    size_t used;
    ccnx_skel_init(&s);
    RATE(0.2, f->object.len,
         sink += (size_t)ccnx_skel_feed(&s, f->object.data, f->object.len, &used));
}

static double b_match(struct fixture *f)
{
    RATE(0.2, 1,
         sink += (size_t)ccnx_match(f->interest.data, &f->pi, f->object.data, f->object.len, &f->pc,
                                    f->digest));
}

static double b_uri_parse(struct fixture *f)
{
    static const char uri[] = "ccnx:/example/vec/stream/%FD%06%B1%12%1D%95%18/%00%01";
    RATE(0.2, 1, sink += (size_t)ccnx_uri_parse(&f->uri_name, uri, sizeof uri - 1, NULL));
}

static double b_sign_one(struct fixture *f)
{
    RATE(0.3, 1, {
        ccnx_buf_reset(&f->batch_out);
        sink += (size_t)ccnx_content_sign(&f->batch_out, &f->params[0], f->key);
    });
}

static double b_verify_one(struct fixture *f)
{
    RATE(0.3, 1,
         sink +=
         (size_t)ccnx_content_verify(f->signed_obj.data, f->signed_obj.len, &f->signed_pc, f->key));
}

/* Bytes of segment payload signed per second, BATCH segments per Merkle tree. */
static double b_merkle_batch(struct fixture *f)
{
    size_t n_ = 0;
    double t0_ = now(), t_;
    do {
        ccnx_buf_reset(&f->batch_out);
        int res = ccnx_content_sign_batch(&f->batch_out, f->params, BATCH, f->key, f->offsets);
        if (res != 0)
            die("batch sign", res);
        n_++;
    } while ((t_ = now() - t0_) < 0.4);
    return (double)n_ * BATCH * SEGMENT / t_;
}

/* SHA-256 over the same segment bytes: the ceiling for any signing scheme. */
static double b_sha256(struct fixture *f)
{
    uint8_t out[32];
    RATE(0.2, (double)BATCH * SEGMENT, {
        for (size_t k = 0; k < BATCH; k++)
            ccnx_sha256(f->payload + k * SEGMENT, SEGMENT, out);
        sink += out[0];
    });
}

static void load(const char *dir, const char *file, struct ccnx_buf *b)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (ccnx_buf_read_file(b, path) != 0) {
        fprintf(stderr, "bench_core: cannot read %s (give the vectors folder as argument)\n", path);
        exit(1);
    }
}

static void setup(struct fixture *f, const char *dir)
{
    int res;
    memset(f, 0, sizeof *f);
    ccnx_name_init(&f->uri_name);
    load(dir, "int_lib_ccncat_segment1.ccnb", &f->interest);
    load(dir, "co_data_large.ccnb", &f->object);
    if ((res = ccnx_interest_parse(f->interest.data, f->interest.len, &f->pi)) != 0)
        die("interest vector", res);
    if ((res = ccnx_content_parse(f->object.data, f->object.len, &f->pc)) != 0)
        die("content vector", res);
    ccnx_content_digest(f->object.data, f->object.len, f->digest);
    if ((res = ccnx_key_generate(2048, &f->key)) != 0)
        die("key generation", res);
    f->payload = malloc((size_t)BATCH * SEGMENT);
    for (size_t i = 0; i < (size_t)BATCH * SEGMENT; i++)
        f->payload[i] = (uint8_t)(i * 2654435761u >> 13);
    for (size_t k = 0; k < BATCH; k++) {
        ccnx_name_init(&f->names[k]);
        ccnx_uri_parse_str(&f->names[k], "ccnx:/bench/file/%FD%01");
        ccnx_naming_append_segment(&f->names[k], k);
        ccnx_content_params_init(&f->params[k]);
        f->params[k].name = f->names[k].enc.data;
        f->params[k].name_len = f->names[k].enc.len;
        f->params[k].content = f->payload + k * SEGMENT;
        f->params[k].content_len = SEGMENT;
        f->params[k].key_locator = CCNX_KEYLOC_KEY;
    }
    if ((res = ccnx_content_sign(&f->signed_obj, &f->params[0], f->key)) != 0)
        die("sign", res);
    if ((res = ccnx_content_parse(f->signed_obj.data, f->signed_obj.len, &f->signed_pc)) != 0)
        die("parse signed", res);
    if (ccnx_match(f->interest.data, &f->pi, f->object.data, f->object.len, &f->pc, f->digest) != 0)
        fprintf(stderr, "note: match fixture does not match (still timed)\n");
}

struct figure {
    const char *label;
    const char *unit;
    double scale; /* divide the raw rate by this for display */
    bench_fn fn;
    double *samples;
};

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    bench_help(argc, argv,
               "usage: bench_core [VECTORS_DIR] [ROUNDS]\n"
               "Core library figures (parsing, matching, signing, ...) on the reference\n"
               "vectors (default ../shared/vectors/ccnx082), medians of ROUNDS (default 7).\n");
    const char *dir = argc > 1 ? argv[1] : "../shared/vectors/ccnx082";
    int rounds = argc > 2 ? atoi(argv[2]) : 7;
    if (rounds < 1)
        rounds = 1;
    struct fixture *f = calloc(1, sizeof *f);
    setup(f, dir);
    struct figure figs[] = {
        {"Interest parse (ccncat segment Interest)", "M/s", 1e6, b_interest_parse, NULL},
        {"ContentObject parse (4398-byte object)", "M/s", 1e6, b_content_parse, NULL},
        {"Skeleton framing (4398-byte object)", "MB/s", 1e6, b_skeleton, NULL},
        {"Interest/ContentObject match", "M/s", 1e6, b_match, NULL},
        {"URI parse (versioned segment name)", "M/s", 1e6, b_uri_parse, NULL},
        {"Sign one 4 KB object (RSA-2048)", "/s", 1, b_sign_one, NULL},
        {"Verify one 4 KB object (RSA-2048)", "/s", 1, b_verify_one, NULL},
        {"Merkle batch sign, 4 KB segments x1024", "MB/s", 1e6, b_merkle_batch, NULL},
        {"SHA-256 of the same segments (ceiling)", "MB/s", 1e6, b_sha256, NULL},
    };
    size_t nf = sizeof figs / sizeof figs[0];
    for (size_t i = 0; i < nf; i++)
        figs[i].samples = calloc((size_t)rounds, sizeof(double));
    for (int r = 0; r < rounds; r++)
        for (size_t i = 0; i < nf; i++)
            figs[i].samples[r] = figs[i].fn(f);
    printf("bench_core: median of %d interleaved rounds\n", rounds);
    double med[16];
    for (size_t i = 0; i < nf; i++) {
        med[i] = median(figs[i].samples, rounds);
        printf("  %-44s %10.2f %s\n", figs[i].label, med[i] / figs[i].scale, figs[i].unit);
    }
    printf("  %-44s %10.1f %%\n", "Merkle batch signing / SHA-256", 100.0 * med[7] / med[8]);
    return 0;
}
