/* ccnseqwriter: stream standard input as a versioned, segmented stream,
 * answering Interests for it (and optionally asking a repository to store
 * it) until every segment has been fetched. */
#define _POSIX_C_SOURCE 200809L

#include <ccnx/client.h>
#include <ccnx/error.h>
#include <ccnx/name.h>
#include <ccnx/seqwriter.h>
#include <ccnx/repo.h>
#include <ccnx/uri.h>

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"
#include "tool_client.h"
#include "tool_signal.h"

#define SEQW_BLOCK_MAX   8192 /* the reference tool's limit */
#define REGISTER_WAIT_MS 5000
#define READ_CHUNK       65536

struct seqw_opts {
    const char *uri;
    size_t block;
    int repo;
    int scope;
    long freshness;
    int verbose;
};

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: %s [-hv] [-b BLOCKSIZE] [-r] [-s SCOPE] [-x FRESHNESS] URI\n"
            "Read standard input and publish it under URI as a versioned, segmented stream\n"
            "(URI/<version>/%%00, %%00%%01, ...), signed in Merkle batches, answering the\n"
            "Interests ccnd sends for it. After the end of input it keeps answering until\n"
            "every segment has been fetched once, or until interrupted.\n"
            "\n"
            "  -b BLOCKSIZE  bytes per segment, 1 to %d (default %d)\n"
            "  -r            ask a repository to store the stream (start-write); fail when\n"
            "                none answers within 60 s, or when it does not answer itself\n"
            "                for the final segment within 20 s of fetching everything\n"
            "  -s SCOPE      scope of the start-write: 1 local (default), 2 neighbourhood,\n"
            "                3 unlimited\n"
            "  -x SECONDS    FreshnessSeconds of every segment\n"
            "  -v            report the stream's name and a summary on standard error\n"
            "  -h, --help    show this help\n"
            "\n"
            "Exit status: 0 every segment was fetched, 1 failure (no ccnd, no repository,\n"
            "repository did not confirm, registration refused, interrupted), 2 usage.\n",
            tool_name(), SEQW_BLOCK_MAX, CCNX_SEQWRITER_BLOCK_DEFAULT);
}

static void parse_args(int argc, char **argv, struct seqw_opts *o)
{
    memset(o, 0, sizeof *o);
    o->block = CCNX_SEQWRITER_BLOCK_DEFAULT;
    o->scope = 1;
    o->freshness = -1;
    tool_help_first(argc, argv, usage);
    int ch;
    while ((ch = getopt(argc, argv, ":b:hrs:vx:")) != -1) {
        switch (ch) {
        case 'b':
            o->block = (size_t)tool_number(optarg, "-b BLOCKSIZE", 1, SEQW_BLOCK_MAX);
            break;
        case 'h':
            usage(stdout);
            exit(0);
        case 'r':
            o->repo = 1;
            break;
        case 's':
            o->scope = (int)tool_number(optarg, "-s SCOPE", 1, 3);
            break;
        case 'v':
            o->verbose = 1;
            break;
        case 'x':
            o->freshness = tool_number(optarg, "-x FRESHNESS", 0, INT32_MAX);
            break;
        default:
            tool_bad_option(ch, argv);
        }
    }
    if (optind != argc - 1) {
        tool_usage_error(optind == argc ? "a URI is needed" : "only one URI, please");
    }
    o->uri = argv[optind];
}

static struct ccnx_seqwriter *open_writer(struct ccnx_client *c, const struct seqw_opts *o)
{
    struct ccnx_name name;
    ccnx_name_init(&name);
    if (ccnx_uri_parse_str(&name, o->uri) != 0) {
        tool_usage_error("'%s' is not a valid ccnx URI", o->uri);
    }
    struct ccnx_seqwriter_opts so;
    ccnx_seqwriter_opts_init(&so);
    so.block_size = o->block;
    so.freshness = o->freshness;
    struct ccnx_seqwriter *w = NULL;
    int rc = ccnx_seqwriter_create(c, &name, &so, &w);
    if (rc == CCNX_E_NOKEY) {
        tool_die("no signing key: %s", ccnx_client_error(c));
    }
    if (rc != 0) {
        tool_die("cannot publish under %s: %s", o->uri, ccnx_strerror(rc));
    }
    if (ccnx_client_wait_registered(c, ccnx_seqwriter_filter_id(w), REGISTER_WAIT_MS) != 0) {
        tool_die("cannot register %s with ccnd: %s", o->uri, ccnx_client_error(c));
    }
    ccnx_name_free(&name);
    return w;
}

static void start_write(struct ccnx_seqwriter *w, struct ccnx_client *c, const struct seqw_opts *o)
{
    struct ccnx_repo_write_opts ro;
    ccnx_repo_write_opts_init(&ro);
    ro.scope = o->scope;
    int rc = ccnx_seqwriter_start_write(w, &ro, NULL, NULL);
    if (rc == CCNX_E_NOTFOUND) {
        tool_die("no repository answered the start-write for %s within %d s (is ccnr running, "
                 "and does its policy cover the name?)",
                 o->uri, ro.timeout_ms / 1000);
    }
    if (rc == CCNX_E_VALUE) {
        tool_die("the answer to the start-write for %s is not a RepositoryInfo", o->uri);
    }
    if (rc != 0) {
        tool_die("start-write failed: %s (%s)", ccnx_strerror(rc), ccnx_client_error(c));
    }
}

struct pump {
    uint8_t buf[READ_CHUNK];
    size_t have, off;
    int eof;
};

/* Reads what standard input has and hands the writer what it takes. */
static void pump_input(struct pump *p, struct ccnx_seqwriter *w, int readable)
{
    if (readable && p->off == p->have && !p->eof) {
        ssize_t n = read(0, p->buf, sizeof p->buf);
        if (n < 0 && errno != EINTR && errno != EAGAIN) {
            tool_die("cannot read standard input: %s", strerror(errno));
        }
        p->off = 0;
        p->have = n > 0 ? (size_t)n : 0;
        if (n == 0) {
            p->eof = 1;
            if (ccnx_seqwriter_close(w) != 0) {
                tool_die("cannot sign the last segment");
            }
        }
    }
    if (p->off < p->have) {
        long n = ccnx_seqwriter_write(w, p->buf + p->off, p->have - p->off);
        if (n < 0) {
            tool_die("cannot publish: %s", ccnx_strerror((int)n));
        }
        p->off += (size_t)n;
    }
}

static void run(struct ccnx_client *c, struct ccnx_seqwriter *w)
{
    static struct pump p;
    while (!tool_stop_requested && !(p.eof && ccnx_seqwriter_all_sent(w))) {
        struct pollfd pfd[2] = {{-1, POLLIN, 0}, {ccnx_client_fd(c), 0, 0}};
        if (!p.eof && p.off == p.have && ccnx_seqwriter_writable(w) > 0) {
            pfd[0].fd = 0;
        }
        pfd[1].events = ccnx_client_poll_events(c);
        int t = ccnx_client_timeout_ms(c);
        if (t < 0 || t > 200 || p.off < p.have) {
            t = p.off < p.have ? 10 : 200;
        }
        if (poll(pfd, 2, t) < 0 && errno != EINTR) {
            tool_die("poll: %s", strerror(errno));
        }
        pump_input(&p, w, pfd[0].fd == 0 && (pfd[0].revents & (POLLIN | POLLHUP)) != 0);
        if (ccnx_client_process(c) != 0) {
            tool_die("lost the connection to ccnd at %s", ccnx_client_where(c));
        }
    }
}

int main(int argc, char **argv)
{
    tool_init(argv[0]);
    struct seqw_opts o;
    parse_args(argc, argv, &o);
    tool_catch_stop();

    struct ccnx_client *c = NULL;
    if (ccnx_client_open(&c) != 0) {
        tool_die("%s", c != NULL ? ccnx_client_error(c) : "out of memory");
    }
    struct ccnx_seqwriter *w = open_writer(c, &o);
    struct ccnx_buf uri = CCNX_BUF_INIT;
    ccnx_uri_append_name(&uri, ccnx_seqwriter_name(w));
    if (o.verbose) {
        tool_warn("publishing %s", ccnx_buf_cstr(&uri));
    }
    if (o.repo) {
        tool_stop_exits("waiting for a repository"); /* the start-write runs its own loop */
        start_write(w, c, &o);
        tool_stop_exits(NULL);
    }
    run(c, w);
    int64_t end = ccnx_client_now_ms() + 2000;
    while (ccnx_client_output_pending(c) > 0 && ccnx_client_now_ms() < end) {
        ccnx_client_run(c, 10);
    }
    struct ccnx_seqwriter_stats st;
    ccnx_seqwriter_get_stats(w, &st);
    int ok = ccnx_seqwriter_all_sent(w);
    if (!ok) {
        tool_warn("interrupted: %llu of %llu segments of %s were fetched",
                  (unsigned long long)st.segments_sent, (unsigned long long)st.segments,
                  ccnx_buf_cstr(&uri));
    } else if (o.repo && !tool_confirm_stored(w, o.scope)) {
        ok = 0;
        tool_warn("the repository fetched all of %s but did not answer for its final segment%s",
                  ccnx_buf_cstr(&uri),
                  tool_stop_requested ? " before the interruption" : "; see its log");
    } else if (o.verbose) {
        tool_warn("%llu bytes in %llu segments (%llu signatures) under %s",
                  (unsigned long long)st.bytes, (unsigned long long)st.segments,
                  (unsigned long long)st.batches, ccnx_buf_cstr(&uri));
    }
    ccnx_buf_free(&uri);
    ccnx_seqwriter_destroy(w);
    ccnx_client_destroy(c);
    return ok ? 0 : TOOL_EXIT_FAILURE;
}
