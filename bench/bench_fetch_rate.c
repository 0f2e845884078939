/* Interests per second that a producer behind the local ccnd answers, for
 * random segments of given streams: WINDOW Interests in flight, each
 * answer or timeout replaced by a new one, for SECONDS. The Interests'
 * AnswerOriginKind leaves out content stores, so ccnd forwards every one
 * and the rate is the producer's (a repository's reads of its store), not
 * ccnd's cache. Run by bench/repo_scale.sh; prints, never asserts.
 *
 *   bench_fetch_rate [-w WINDOW] [-t SECONDS] URI:SEGMENTS...
 *
 * URI names a version (URI/<segment> are the objects) and SEGMENTS how
 * many it has; a segment is picked uniformly over all the streams given.
 */
#include "bench_help.h"
#include <ccnx/client.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/name.h>
#include <ccnx/naming.h>
#include <ccnx/uri.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STREAMS_MAX 64

struct stream {
    struct ccnx_name name;
    uint64_t segments;
};

struct run {
    struct ccnx_client *c;
    struct stream s[STREAMS_MAX];
    size_t n;
    uint64_t total; /* segments over all streams */
    uint64_t answered, timeouts, sent;
    int stopping;
    uint64_t rng;
};

static uint64_t next_random(struct run *r)
{
    r->rng ^= r->rng << 13;
    r->rng ^= r->rng >> 7;
    r->rng ^= r->rng << 17;
    return r->rng;
}

static void send_one(struct run *r);

static void answered(void *arg, const uint8_t *obj, size_t len,
                     const struct ccnx_content_parsed *pc)
{
    (void)obj;
    (void)len;
    (void)pc;
    struct run *r = arg;
    r->answered++;
    send_one(r);
}

static void timed_out(void *arg)
{
    struct run *r = arg;
    r->timeouts++;
    send_one(r);
}

/* One Interest for a random segment: the stream's name, the segment, and
 * only the digest may follow (as a segmented fetch asks). */
static void send_one(struct run *r)
{
    if (r->stopping) {
        return;
    }
    uint64_t k = next_random(r) % r->total;
    size_t i = 0;
    while (k >= r->s[i].segments) {
        k -= r->s[i++].segments;
    }
    struct ccnx_name n;
    ccnx_name_init(&n);
    uint8_t comp[CCNX_NUMERIC_MAX_LEN];
    int cl = ccnx_naming_segment_build(k, comp);
    struct ccnx_buf msg = CCNX_BUF_INIT;
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    int rc = ccnx_name_copy(&n, &r->s[i].name);
    rc = rc == 0 ? ccnx_name_append(&n, comp, (size_t)cl) : rc;
    ip.name = n.enc.data;
    ip.name_len = n.enc.len;
    ip.max_suffix = 1;
    ip.answer_origin_kind = CCNX_AOK_NEW;
    ip.lifetime_units = 4 * 4096;
    rc = rc == 0 ? ccnx_interest_build(&msg, &ip) : rc;
    struct ccnx_express_opts o = {answered, timed_out, r, 0, 0, 0};
    rc = rc == 0 ? ccnx_client_express(r->c, msg.data, msg.len, &o, NULL) : rc;
    if (rc != 0) {
        fprintf(stderr, "bench_fetch_rate: cannot express an Interest: %s\n", ccnx_strerror(rc));
        exit(1);
    }
    r->sent++;
    ccnx_buf_free(&msg);
    ccnx_name_free(&n);
}

static void add_stream(struct run *r, const char *arg)
{
    const char *colon = strrchr(arg, ':');
    char *end = NULL;
    unsigned long long segs = colon != NULL ? strtoull(colon + 1, &end, 10) : 0;
    if (colon == NULL || end == colon + 1 || *end != '\0' || segs == 0 || r->n == STREAMS_MAX) {
        fprintf(stderr, "bench_fetch_rate: '%s' is not URI:SEGMENTS (at most %d streams)\n", arg,
                STREAMS_MAX);
        exit(2);
    }
    char uri[2048];
    snprintf(uri, sizeof uri, "%.*s", (int)(colon - arg), arg);
    struct stream *s = &r->s[r->n++];
    ccnx_name_init(&s->name);
    if (ccnx_uri_parse_str(&s->name, uri) != 0) {
        fprintf(stderr, "bench_fetch_rate: '%s' is not a ccnx URI\n", uri);
        exit(2);
    }
    s->segments = segs;
    r->total += segs;
}

int main(int argc, char **argv)
{
    bench_help(argc, argv,
               "usage: bench_fetch_rate [-w 1..4096] [-t 1..600] URI:SEGMENTS...\n"
               "Segments fetched per second from the named streams through ccnd, with a\n"
               "window of -w Interests (default 64) for -t seconds (default 5).\n");
    static struct run r;
    int window = 64, seconds = 5, ch;
    while ((ch = getopt(argc, argv, "w:t:")) != -1) {
        if (ch == 'w' && (window = atoi(optarg)) > 0 && window <= 4096) {
            continue;
        }
        if (ch == 't' && (seconds = atoi(optarg)) > 0 && seconds <= 600) {
            continue;
        }
        fprintf(stderr, "usage: bench_fetch_rate [-w 1..4096] [-t 1..600] URI:SEGMENTS...\n");
        return 2;
    }
    for (int i = optind; i < argc; i++) {
        add_stream(&r, argv[i]);
    }
    if (r.n == 0) {
        fprintf(stderr, "bench_fetch_rate: no stream given\n");
        return 2;
    }
    if (ccnx_client_open(&r.c) != 0) {
        fprintf(stderr, "bench_fetch_rate: %s\n",
                r.c != NULL ? ccnx_client_error(r.c) : "no memory");
        return 1;
    }
    r.rng = 0x9E3779B97F4A7C15ull ^ (uint64_t)getpid();
    for (int i = 0; i < window; i++) {
        send_one(&r);
    }
    /* a second to fill the pipe, then the measured span */
    int64_t start = ccnx_client_now_ms() + 1000, end = start + seconds * 1000, t0 = 0;
    uint64_t base = 0, base_to = 0;
    while (ccnx_client_now_ms() < end) {
        if (ccnx_client_run(r.c, 50) != 0) {
            fprintf(stderr, "bench_fetch_rate: lost ccnd: %s\n", ccnx_client_error(r.c));
            return 1;
        }
        if (t0 == 0 && ccnx_client_now_ms() >= start) {
            t0 = ccnx_client_now_ms();
            base = r.answered;
            base_to = r.timeouts;
        }
    }
    r.stopping = 1;
    double secs = (double)(ccnx_client_now_ms() - t0) / 1000.0;
    printf("%.0f Interests/s answered, %llu timeouts, window %d, %llu objects in %zu streams\n",
           (double)(r.answered - base) / secs, (unsigned long long)(r.timeouts - base_to), window,
           (unsigned long long)r.total, r.n);
    ccnx_client_destroy(r.c);
    return 0;
}
