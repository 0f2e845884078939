/* ccncat: fetch versioned, segmented content (the newest version by
 * default), verify every segment and write it to standard output. */
#define _GNU_SOURCE

#include <ccnx/client.h>
#include <ccnx/error.h>
#include <ccnx/verifier.h>
#include <ccnx/name.h>
#include <ccnx/uri.h>
#include <ccnx/fetch.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fetch_opts.h"
#include "tool.h"

struct cat {
    struct ccnx_client *c;
    int write_errno;
    int done, result;
    struct ccnx_buf err;
};

struct options {
    struct fetch_opts f;
};

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: %s [-hacquvV] [-d FLAGS] [-p PIPELINE] [-s SCOPE] [-t MILLIS] [-P DIGEST]...\n"
            "       URI...\n"
            "Fetch the content published under each URI (segmented, by default its newest\n"
            "version), verify every segment and write it to standard output.\n"
            "\n"
            "  -a            accept stale content from caches\n"
            "  -c            segments named in decimal text with no version, as the\n"
            "                reference's ccnsendchunks names them (implies -u)\n"
            "  -d FLAGS      the reference's fetch debug flags; any nonzero value prints\n"
            "                each transfer's statistics on standard error (as -v)\n"
            "  -p PIPELINE   Interests in flight at most (default 256; the window starts\n"
            "                small and grows while the path keeps up)\n"
            "  -s SCOPE      Scope of the Interests: 0 (cache), 1 (local), 2 (neighborhood),\n"
            "                3 (unlimited, the default)\n"
            "  -t MILLIS     give up when nothing arrives for MILLIS ms (default 8000)\n"
            "  -u            URI already names the version (or the content is not\n"
            "                versioned): do not look for the newest\n"
            "  -P DIGEST     accept only this publisher (64 hex digits of its key digest);\n"
            "                may be repeated\n"
            "  -V            do not verify signatures (trust whatever arrives)\n"
            "  -v            statistics of each transfer on standard error\n"
            "  -h, --help    show this help\n"
            "\n"
            "Verification: each segment must verify with the key its KeyLocator carries or\n"
            "names (a named key is fetched once). A refused segment stops that transfer:\n"
            "'rejected: ...' says which and why.\n"
            "\n"
            "Exit status: 0 every URI was written completely, 1 some failed (no ccnd,\n"
            "nothing found, rejected, timeout, write error), 2 usage.\n",
            tool_name());
}

static void parse(int argc, char **argv, struct options *o)
{
    static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    fetch_opts_init(&o->f, argc);
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, ":d:h" FETCH_OPTS_LETTERS, longopts, NULL)) != -1) {
        if (fetch_opts_take(&o->f, ch, optarg)) {
            continue;
        }
        switch (ch) {
        case 'd': /* the reference's debug flags: any of them means verbose */
            o->f.verbose |= tool_number(optarg, "-d", 0, 1 << 20) != 0;
            break;
        case 'h':
            usage(stdout);
            exit(0);
        default:
            tool_bad_option(ch, argv);
        }
    }
    if (optind == argc) {
        tool_usage_error("expected at least one URI");
    }
}

static void on_data(void *arg, uint64_t seg, const uint8_t *p, size_t n)
{
    (void)seg;
    struct cat *k = arg;
    if (k->write_errno == 0 && n > 0 && fwrite(p, 1, n, stdout) != n) {
        k->write_errno = errno != 0 ? errno : EIO;
        ccnx_client_stop(k->c);
    }
}

static void on_done(void *arg, int result, const char *error)
{
    struct cat *k = arg;
    k->done = 1;
    k->result = result;
    ccnx_buf_reset(&k->err);
    ccnx_buf_append_str(&k->err, error);
    ccnx_client_stop(k->c);
}

static void print_stats(const char *uri, struct ccnx_fetch *f)
{
    const struct ccnx_fetch_stats *st = ccnx_fetch_stats(f);
    double secs = st->elapsed_s > 0 ? st->elapsed_s : 1e-9;
    struct ccnx_buf name = CCNX_BUF_INIT;
    ccnx_uri_append_name(&name, ccnx_fetch_name(f));
    fprintf(stderr,
            "%s: %s (%s): %llu bytes, %llu segments in %.2f s (%.1f MB/s), %llu Interests, "
            "%llu retransmissions (%llu on a timeout), %llu window cuts, srtt %.2f ms\n",
            tool_name(), uri, ccnx_buf_cstr(&name), (unsigned long long)st->bytes,
            (unsigned long long)st->segments, secs, (double)st->bytes / secs / 1e6,
            (unsigned long long)st->interests, (unsigned long long)st->retransmissions,
            (unsigned long long)st->timeouts, (unsigned long long)st->window_cuts, st->srtt_ms);
    ccnx_buf_free(&name);
}

/* One URI to standard output: 0, or 1 after saying why not. */
static int cat_one(struct cat *k, struct options *o, struct ccnx_verifier *v, const char *uri)
{
    struct ccnx_name name;
    ccnx_name_init(&name);
    if (ccnx_uri_parse_str(&name, uri) != 0) {
        tool_warn("'%s' is not a ccnx URI", uri);
        ccnx_name_free(&name);
        return 1;
    }
    k->done = 0;
    struct ccnx_fetch_params p = o->f.p;
    p.name = &name;
    p.verifier = v;
    p.on_data = on_data;
    p.on_done = on_done;
    p.arg = k;
    struct ccnx_fetch *f = NULL;
    int rc = ccnx_fetch_start(k->c, &p, &f);
    if (rc != 0) {
        tool_die("cannot start: %s", ccnx_strerror(rc));
    }
    /* Ends by on_done (every Interest has a timer; -t bounds the silence)
     * or a write error. */
    while (!k->done && k->write_errno == 0) {
        ccnx_client_run(k->c, -1);
    }
    int bad = 0;
    if (k->write_errno != 0) {
        tool_warn("cannot write to standard output: %s", strerror(k->write_errno));
        bad = 1;
    } else if (k->result != 0) {
        tool_warn("%s", ccnx_buf_cstr(&k->err));
        bad = 1;
    } else if (o->f.verbose) {
        print_stats(uri, f);
    }
    ccnx_fetch_destroy(f);
    ccnx_name_free(&name);
    return bad;
}

int main(int argc, char **argv)
{
    tool_init(argv[0]);
    struct options o;
    memset(&o, 0, sizeof o);
    parse(argc, argv, &o);
    for (int i = optind; i < argc; i++) {
        struct ccnx_name n;
        ccnx_name_init(&n);
        if (ccnx_uri_parse_str(&n, argv[i]) != 0) {
            tool_usage_error("'%s' is not a ccnx URI", argv[i]);
        }
        ccnx_name_free(&n);
    }
    struct cat k;
    memset(&k, 0, sizeof k);
    ccnx_buf_init(&k.err);
    if (ccnx_client_open(&k.c) != 0) {
        tool_die("%s", k.c != NULL ? ccnx_client_error(k.c) : "out of memory");
    }
    struct ccnx_verifier *v = fetch_opts_verifier(&o.f, k.c);
    int bad = 0;
    for (int i = optind; i < argc && k.write_errno == 0; i++) {
        bad |= cat_one(&k, &o, v, argv[i]);
    }
    if (fflush(stdout) != 0 && k.write_errno == 0) {
        tool_warn("cannot write to standard output: %s", strerror(errno));
        bad = 1;
    }
    ccnx_verifier_destroy(v);
    ccnx_client_destroy(k.c);
    ccnx_buf_free(&k.err);
    fetch_opts_free(&o.f);
    return bad ? TOOL_EXIT_FAILURE : 0;
}
