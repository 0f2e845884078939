/* ccngetfile: fetch versioned, segmented content (the newest version by
 * default), verify every segment and write it to a file: through a
 * temporary file in the same folder renamed at the end, so FILE is never
 * left partial. */
#define _GNU_SOURCE

#include <ccnx/client.h>
#include <ccnx/error.h>
#include <ccnx/verifier.h>
#include <ccnx/name.h>
#include <ccnx/uri.h>
#include <ccnx/fetch.h>

#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fetch_opts.h"
#include "file_writer.h"
#include "tool.h"

#define PROGRESS_MS 250

struct getfile {
    struct ccnx_client *c;
    struct ccnx_fetch *fetch;
    int fd; /* the temporary file */
    /* write(2) took a fifth to a quarter of a fetch's time; on the
     * writer's thread it overlaps receiving and verifying. */
    struct file_writer writer;
    int write_errno;
    int done, result;
    int progress; /* stderr is a terminal and -q was not given */
    int64_t start_ms;
    uint64_t seg_bytes; /* size of a full segment, from the first one */
    struct ccnx_buf err;
};

/* The temporary file, removed if the program is interrupted. */
static char tmp_path[4096];

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: %s [-achquvV] [-p PIPELINE] [-s SCOPE] [-t MILLIS] [-P DIGEST]... URI FILE\n"
            "Fetch the content published under URI (segmented, by default its newest\n"
            "version), verify every segment and write it to FILE. The data goes to a\n"
            "temporary file next to FILE, renamed to FILE once complete: FILE is never\n"
            "left partial. Progress (bytes, rate, time left once the end is known) is\n"
            "shown on standard error when it is a terminal; a last line gives the goodput.\n"
            "\n"
            "  -a            accept stale content from caches\n"
            "  -c            segments named in decimal text with no version, as the\n"
            "                reference's ccnsendchunks names them (implies -u)\n"
            "  -p PIPELINE   Interests in flight at most (default 256)\n"
            "  -s SCOPE      Scope of the Interests: 0, 1, 2 (3: unlimited, the default)\n"
            "  -t MILLIS     give up when nothing arrives for MILLIS ms (default 8000);\n"
            "                also -timeout MILLIS\n"
            "  -u            URI already names the version (or the content is not\n"
            "                versioned): do not look for the newest; also -unversioned\n"
            "  -P DIGEST     accept only this publisher (64 hex digits of its key digest);\n"
            "                may be repeated\n"
            "  -V            do not verify signatures (trust whatever arrives)\n"
            "  -q            no progress and no final line\n"
            "  -v            more detail on the final line\n"
            "  -h, --help    show this help\n"
            "\n"
            "Verification: each segment must verify with the key its KeyLocator carries or\n"
            "names (a named key is fetched once). A refused segment stops the transfer:\n"
            "'rejected: ...' says which and why.\n"
            "\n"
            "Exit status: 0 FILE written, 1 failure (no ccnd, nothing found, rejected,\n"
            "timeout, write error), 2 usage.\n",
            tool_name());
}

static void on_signal(int sig)
{
    if (tmp_path[0] != '\0') {
        unlink(tmp_path);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void print_progress(struct getfile *g)
{
    const struct ccnx_fetch_stats *st = ccnx_fetch_stats(g->fetch);
    double secs = st->elapsed_s > 0 ? st->elapsed_s : 1e-9;
    double rate = (double)st->bytes / secs;
    fprintf(stderr, "\r%.1f MB, %.1f MB/s", (double)st->bytes / 1e6, rate / 1e6);
    if (st->final_segment >= 0 && rate > 0 && g->seg_bytes > 0) {
        double left =
            (double)((uint64_t)st->final_segment + 1 - st->segments) * (double)g->seg_bytes;
        fprintf(stderr, " of ~%.1f MB, %.0f s left", (double)st->bytes / 1e6 + left / 1e6,
                left / rate);
    }
    fprintf(stderr, "   ");
}

static void progress_tick(void *arg)
{
    struct getfile *g = arg;
    if (g->done) {
        return;
    }
    print_progress(g);
    ccnx_client_schedule(g->c, PROGRESS_MS, progress_tick, g, NULL);
}

static void on_data(void *arg, uint64_t seg, const uint8_t *p, size_t n)
{
    (void)seg;
    struct getfile *g = arg;
    if (g->seg_bytes == 0) {
        g->seg_bytes = n;
    }
    g->write_errno = file_writer_append(&g->writer, p, n);
    if (g->write_errno != 0) {
        ccnx_client_stop(g->c);
    }
}

static void on_done(void *arg, int result, const char *error)
{
    struct getfile *g = arg;
    g->done = 1;
    g->result = result;
    ccnx_buf_append_str(&g->err, error);
    ccnx_client_stop(g->c);
}

struct options {
    struct fetch_opts f;
    int quiet;
    const char *uri, *file;
};

/* The reference's long single-dash options, rewritten to short ones. */
static void rewrite_long(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-unversioned") == 0) {
            argv[i] = "-u";
        } else if (strcmp(argv[i], "-timeout") == 0) {
            argv[i] = "-t";
        } else if (strcmp(argv[i], "--") == 0) {
            break;
        }
    }
}

static void parse(int argc, char **argv, struct options *o)
{
    static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    fetch_opts_init(&o->f, argc);
    rewrite_long(argc, argv);
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, ":qh" FETCH_OPTS_LETTERS, longopts, NULL)) != -1) {
        if (fetch_opts_take(&o->f, ch, optarg)) {
            continue;
        }
        switch (ch) {
        case 'q':
            o->quiet = 1;
            break;
        case 'h':
            usage(stdout);
            exit(0);
        default:
            tool_bad_option(ch, argv);
        }
    }
    if (argc - optind != 2) {
        tool_usage_error("expected a URI and a FILE");
    }
    o->uri = argv[optind];
    o->file = argv[optind + 1];
}

/* mkstemp next to the target, so the final rename stays in one file system. */
static int open_temporary(const char *file)
{
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", file);
    const char *base = basename(copy);
    char dcopy[4096];
    snprintf(dcopy, sizeof dcopy, "%s", file);
    const char *dir = dirname(dcopy);
    if ((size_t)snprintf(tmp_path, sizeof tmp_path, "%s/.%s.XXXXXX", dir, base) >=
        sizeof tmp_path) {
        tool_die("%s: path too long", file);
    }
    int fd = mkstemp(tmp_path);
    if (fd < 0) {
        int e = errno;
        tmp_path[0] = '\0';
        tool_die("cannot create a temporary file in %s: %s", dir, strerror(e));
    }
    return fd;
}

static void report(const struct options *o, struct getfile *g)
{
    const struct ccnx_fetch_stats *st = ccnx_fetch_stats(g->fetch);
    double secs = st->elapsed_s > 0 ? st->elapsed_s : 1e-9;
    if (g->progress) {
        fputc('\n', stderr);
    }
    if (o->quiet) {
        return;
    }
    struct ccnx_buf name = CCNX_BUF_INIT;
    ccnx_uri_append_name(&name, ccnx_fetch_name(g->fetch));
    fprintf(stderr, "%s: %llu bytes in %.2f s (%.1f MB/s) to %s\n", tool_name(),
            (unsigned long long)st->bytes, secs, (double)st->bytes / secs / 1e6, o->file);
    if (o->f.verbose) {
        fprintf(stderr,
                "%s: %s: %llu segments, %llu Interests, %llu retransmissions (%llu on a timeout), "
                "%llu window cuts, srtt %.2f ms, version found in %.0f ms\n",
                tool_name(), ccnx_buf_cstr(&name), (unsigned long long)st->segments,
                (unsigned long long)st->interests, (unsigned long long)st->retransmissions,
                (unsigned long long)st->timeouts, (unsigned long long)st->window_cuts, st->srtt_ms,
                st->resolve_s * 1e3);
    }
    ccnx_buf_free(&name);
}

static int run(struct options *o, struct getfile *g)
{
    struct ccnx_verifier *v = fetch_opts_verifier(&o->f, g->c);
    o->f.p.verifier = v;
    o->f.p.on_data = on_data;
    o->f.p.on_done = on_done;
    o->f.p.arg = g;
    int rc = ccnx_fetch_start(g->c, &o->f.p, &g->fetch);
    if (rc != 0) {
        unlink(tmp_path);
        tool_die("cannot start: %s", ccnx_strerror(rc));
    }
    /* Started after the fetch, whose data only comes from the loop below. */
    rc = file_writer_start(&g->writer, g->fd);
    if (rc != 0) {
        unlink(tmp_path);
        tool_die("cannot start the writer thread: %s", strerror(rc));
    }
    g->progress = !o->quiet && isatty(STDERR_FILENO);
    if (g->progress) {
        ccnx_client_schedule(g->c, PROGRESS_MS, progress_tick, g, NULL);
    }
    /* Ends by on_done (every Interest has a timer; -t bounds the silence)
     * or a write error. */
    while (!g->done && g->write_errno == 0) {
        ccnx_client_run(g->c, -1);
    }
    /* Also on failure: the thread is joined on every path. */
    g->write_errno = file_writer_finish(&g->writer);
    if (g->done && g->result == 0 && g->write_errno == 0) {
        report(o, g);
    } else if (g->progress) {
        fputc('\n', stderr);
    }
    ccnx_fetch_destroy(g->fetch);
    ccnx_verifier_destroy(v);
    return g->write_errno != 0 ? -1 : g->result;
}

int main(int argc, char **argv)
{
    tool_init(argv[0]);
    struct options o;
    memset(&o, 0, sizeof o);
    parse(argc, argv, &o);
    struct ccnx_name name;
    ccnx_name_init(&name);
    if (ccnx_uri_parse_str(&name, o.uri) != 0) {
        tool_usage_error("'%s' is not a ccnx URI", o.uri);
    }
    o.f.p.name = &name;
    struct getfile g;
    memset(&g, 0, sizeof g);
    ccnx_buf_init(&g.err);
    if (ccnx_client_open(&g.c) != 0) {
        tool_die("%s", g.c != NULL ? ccnx_client_error(g.c) : "out of memory");
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    /* A file size limit (ulimit -f) is then a write error (EFBIG) reported
     * like the others, not a signal that would leave the temporary file. */
    signal(SIGXFSZ, SIG_IGN);
    g.fd = open_temporary(o.file);
    int rc = run(&o, &g);
    int close_failed = close(g.fd) != 0;
    if (rc == 0 && !close_failed && rename(tmp_path, o.file) == 0) {
        tmp_path[0] = '\0';
    } else {
        int e = errno;
        unlink(tmp_path);
        if (g.write_errno != 0 || close_failed) {
            tool_warn("cannot write %s: %s", o.file, strerror(g.write_errno ? g.write_errno : e));
        } else if (rc != 0) {
            tool_warn("%s", ccnx_buf_cstr(&g.err));
        } else {
            tool_warn("cannot rename the temporary file to %s: %s", o.file, strerror(e));
        }
        rc = -1;
    }
    ccnx_client_destroy(g.c);
    fetch_opts_free(&o.f);
    ccnx_name_free(&name);
    ccnx_buf_free(&g.err);
    return rc == 0 ? 0 : TOOL_EXIT_FAILURE;
}
