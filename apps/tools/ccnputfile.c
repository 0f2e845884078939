/* ccnputfile: publish a file as a versioned, segmented stream: into a
 * repository when one answers the start-write, else by serving it from
 * memory until interrupted or for a given time. */
#define _POSIX_C_SOURCE 200809L

#include <ccnx/client.h>
#include <ccnx/error.h>
#include <ccnx/name.h>
#include <ccnx/seqwriter.h>
#include <ccnx/repo.h>
#include <ccnx/keystore.h>
#include <ccnx/uri.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tool.h"
#include "tool_client.h"
#include "tool_signal.h"

#define REGISTER_WAIT_MS 5000
#define PROGRESS_MS      250
#define REPO_STALL_S     20 /* a repository that fetches nothing for this long has given up */
/* A repository that fetches nothing for this long is asked again whether
 * it takes the file: one that stopped (full) answers so at once. */
#define REPO_RECHECK_MS 1000
#define REPO_BUFFER     ((size_t)16 << 20) /* signed bytes held while a repository fetches */

struct put_opts {
    const char *uri;
    const char *file;
    const char *keystore;
    size_t block;
    long freshness;
    long expire_s;    /* serving time limit; -1: until interrupted */
    long repo_wait_s; /* wait for a repository's answer */
    int scope;
    int raw;
    int verbose;
};

struct job {
    struct put_opts o;
    struct ccnx_client *c;
    struct ccnx_seqwriter *w;
    struct ccnx_buf uri; /* the versioned name */
    int fd;
    uint64_t size;
    enum { REPO_ASKING, REPO_NONE, REPO_TAKES } repo; /* the answer to the start-write */
    int streaming;  /* the writer holds a bounded amount, for the repository */
    int stored;     /* the repository answered for the final segment itself */
    int rechecking; /* a start-write sent again is out (REPO_RECHECK_MS) */
    int asked_idle; /* asked again since the repository last fetched */
    int progress;   /* stderr is a terminal */
    int64_t started_ms;
};

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: %s [-hvr] [-l | -a] [-b BLOCKSIZE] [-f FRESHNESS] [-x SECONDS] [-w SECONDS]\n"
            "       [-k KEYSTORE] URI FILE\n"
            "Publish FILE under URI as a versioned, segmented stream (URI/<version>/%%00, ...),\n"
            "signed in Merkle batches. When a repository answers the start-write it stores\n"
            "the file, and %s exits once the repository has fetched every segment and\n"
            "answers itself for the last one; otherwise the file is served from memory\n"
            "until interrupted (SIGINT, SIGTERM) or for -x SECONDS.\n"
            "\n"
            "  -b BLOCKSIZE  bytes per segment, 1 to %d (default %d)\n"
            "  -f SECONDS    FreshnessSeconds of every segment\n"
            "  -l            only a repository on this host may answer (Scope 1; default)\n"
            "  -a            any repository may answer (no Scope)\n"
            "  -r            raw: do not ask a repository, serve the file directly\n"
            "  -w SECONDS    how long to wait for a repository's answer (default 3)\n"
            "  -x SECONDS    stop serving after SECONDS (default: until interrupted)\n"
            "  -k KEYSTORE   sign with the key in this keystore file\n"
            "  -v            report each step on standard error\n"
            "  -h, --help    show this help\n"
            "\n"
            "Progress is shown on standard error when it is a terminal; a summary line\n"
            "with the goodput ends every run.\n"
            "Exit status: 0 published, 1 failure (no ccnd, unreadable file, registration\n"
            "refused, repository stopped fetching or did not confirm, interrupted), 2 usage.\n",
            tool_name(), tool_name(), CCNX_SEQWRITER_BLOCK_MAX, CCNX_SEQWRITER_BLOCK_DEFAULT);
}

static void parse_args(int argc, char **argv, struct put_opts *o)
{
    memset(o, 0, sizeof *o);
    o->block = CCNX_SEQWRITER_BLOCK_DEFAULT;
    o->freshness = -1;
    o->expire_s = -1;
    o->repo_wait_s = 3;
    o->scope = 1;
    tool_help_first(argc, argv, usage);
    int ch;
    while ((ch = getopt(argc, argv, ":ab:f:hk:lrvw:x:")) != -1) {
        switch (ch) {
        case 'a':
            o->scope = 3;
            break;
        case 'b':
            o->block = (size_t)tool_number(optarg, "-b BLOCKSIZE", 1, CCNX_SEQWRITER_BLOCK_MAX);
            break;
        case 'f':
            o->freshness = tool_number(optarg, "-f FRESHNESS", 0, INT32_MAX);
            break;
        case 'h':
            usage(stdout);
            exit(0);
        case 'k':
            o->keystore = optarg;
            break;
        case 'l':
            o->scope = 1;
            break;
        case 'r':
            o->raw = 1;
            break;
        case 'v':
            o->verbose = 1;
            break;
        case 'w':
            o->repo_wait_s = tool_number(optarg, "-w SECONDS", 1, 3600);
            break;
        case 'x':
            o->expire_s = tool_number(optarg, "-x SECONDS", 1, 86400L * 365);
            break;
        default:
            tool_bad_option(ch, argv);
        }
    }
    if (argc - optind != 2) {
        tool_usage_error("a URI and a FILE are needed");
    }
    o->uri = argv[optind];
    o->file = argv[optind + 1];
}

static void open_input(struct job *j)
{
    j->fd = open(j->o.file, O_RDONLY);
    struct stat st;
    if (j->fd < 0 || fstat(j->fd, &st) != 0) {
        tool_die("cannot read %s: %s", j->o.file, strerror(errno));
    }
    if (S_ISDIR(st.st_mode)) {
        tool_die("cannot read %s: it is a directory", j->o.file);
    }
    j->size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}

static void open_client(struct job *j, struct ccnx_keystore **ks)
{
    if (ccnx_client_open(&j->c) != 0) {
        tool_die("%s", j->c != NULL ? ccnx_client_error(j->c) : "out of memory");
    }
    if (j->o.keystore != NULL) {
        int rc = ccnx_keystore_open(j->o.keystore, NULL, ks);
        if (rc != 0) {
            tool_die("cannot open the keystore %s: %s", j->o.keystore, ccnx_strerror(rc));
        }
        ccnx_client_set_keystore(j->c, *ks);
    }
}

static void open_writer(struct job *j)
{
    struct ccnx_name name;
    ccnx_name_init(&name);
    if (ccnx_uri_parse_str(&name, j->o.uri) != 0) {
        tool_usage_error("'%s' is not a valid ccnx URI", j->o.uri);
    }
    struct ccnx_seqwriter_opts so;
    ccnx_seqwriter_opts_init(&so);
    so.block_size = j->o.block;
    so.freshness = j->o.freshness;
    so.keep_all = 1;
    /* A file has no pauses worth signing at: segments are signed in full
     * batches, or at once for an Interest that waits for them. */
    so.flush_ms = -1;
    int rc = ccnx_seqwriter_create(j->c, &name, &so, &j->w);
    if (rc == CCNX_E_NOKEY) {
        tool_die("no signing key: %s", ccnx_client_error(j->c));
    }
    if (rc != 0) {
        tool_die("cannot publish under %s: %s", j->o.uri, ccnx_strerror(rc));
    }
    if (ccnx_client_wait_registered(j->c, ccnx_seqwriter_filter_id(j->w), REGISTER_WAIT_MS) != 0) {
        tool_die("cannot register %s with ccnd: %s", j->o.uri, ccnx_client_error(j->c));
    }
    ccnx_uri_append_name(&j->uri, ccnx_seqwriter_name(j->w));
    if (ccnx_buf_cstr(&j->uri) == NULL) {
        tool_die("out of memory");
    }
    ccnx_name_free(&name);
}

/* The repository's answer to the start-write, while the file is read. */
static void on_repo_answer(void *arg, int rc, const uint8_t *reply, size_t len,
                           const struct ccnx_repo_info *ri)
{
    (void)len;
    struct job *j = arg;
    if (rc == CCNX_E_REFUSED) {
        tool_die("the repository does not take %s: %.*s", (const char *)j->uri.data,
                 (int)ri->info_string.len, (const char *)reply + ri->info_string.off);
    }
    if (j->rechecking) {
        j->rechecking = 0; /* it still takes the file, or did not answer: wait on */
        return;
    }
    if (rc == CCNX_E_NOTFOUND) {
        tool_warn("no repository answered within %ld s; serving %s until %s", j->o.repo_wait_s,
                  (const char *)j->uri.data, j->o.expire_s > 0 ? "-x expires" : "interrupted");
        j->repo = REPO_NONE;
        return;
    }
    if (rc == CCNX_E_VALUE) {
        tool_die("the answer to the start-write is not a RepositoryInfo");
    }
    if (rc != 0) {
        tool_die("start-write failed: %s (%s)", ccnx_strerror(rc), ccnx_client_error(j->c));
    }
    if (j->o.verbose) {
        struct ccnx_name gp;
        struct ccnx_buf text = CCNX_BUF_INIT;
        ccnx_name_init(&gp);
        ccnx_repo_info_global_prefix(reply, ri, &gp);
        ccnx_uri_append_name(&text, &gp);
        tool_warn("repository %s accepted the start-write", ccnx_buf_cstr(&text));
        ccnx_buf_free(&text);
        ccnx_name_free(&gp);
    }
    j->repo = REPO_TAKES;
}

/* Sends the start-write; on_repo_answer takes the answer. */
static int ask_repo(struct job *j, int timeout_ms)
{
    struct ccnx_repo_write_opts ro;
    ccnx_repo_write_opts_init(&ro);
    ro.scope = j->o.scope;
    ro.timeout_ms = timeout_ms;
    return ccnx_seqwriter_start_write_async(j->w, &ro, on_repo_answer, j);
}

/* Asks for a repository; the answer comes while the file is read. */
static void start_write(struct job *j)
{
    if (j->o.raw) {
        j->repo = REPO_NONE;
        return;
    }
    int rc = ask_repo(j, (int)j->o.repo_wait_s * 1000);
    if (rc != 0) {
        tool_die("cannot ask for a repository: %s", ccnx_strerror(rc));
    }
    j->repo = REPO_ASKING;
}

/* A repository fetches each segment about once: from its answer on, the
 * whole file need not stay in memory, as it must when it is served from
 * here. */
static void follow_repo_answer(struct job *j)
{
    if (j->repo == REPO_TAKES && !j->streaming) {
        int rc = ccnx_seqwriter_set_stream(j->w, REPO_BUFFER);
        if (rc != 0) {
            tool_die("cannot publish: %s", ccnx_strerror(rc));
        }
        j->streaming = 1;
    }
}

static void show_progress(struct job *j, int64_t *last)
{
    int64_t now = ccnx_client_now_ms();
    if (!j->progress || now - *last < PROGRESS_MS) {
        return;
    }
    *last = now;
    struct ccnx_seqwriter_stats st;
    ccnx_seqwriter_get_stats(j->w, &st);
    fprintf(stderr, "\r%s: %llu segments signed, %llu fetched, %.1f MB read ", tool_name(),
            (unsigned long long)st.segments, (unsigned long long)st.segments_sent,
            (double)st.bytes / 1e6);
}

static void step(struct job *j, int ms)
{
    int rc = ms > 0 ? ccnx_client_run(j->c, ms) : ccnx_client_process(j->c);
    if (rc != 0) {
        tool_die("lost the connection to ccnd at %s", ccnx_client_where(j->c));
    }
}

/* Asks the repository again whether it takes the file (on_repo_answer
 * dies when it says no). */
static void recheck_repo(struct job *j)
{
    j->rechecking = ask_repo(j, REPO_RECHECK_MS) == 0;
}

/* Dies when the repository has fetched nothing for REPO_STALL_S, or
 * refuses the file when asked again after REPO_RECHECK_MS without
 * progress: *seen and *moved track the segments fetched and when that
 * last changed. */
static void check_stall(struct job *j, uint64_t *seen, int64_t *moved)
{
    struct ccnx_seqwriter_stats st;
    ccnx_seqwriter_get_stats(j->w, &st);
    int64_t idle = ccnx_client_now_ms() - *moved;
    if (st.segments_sent != *seen) {
        *seen = st.segments_sent;
        *moved = ccnx_client_now_ms();
        j->asked_idle = 0;
    } else if (j->repo == REPO_TAKES && !j->rechecking && idle > REPO_RECHECK_MS &&
               !j->asked_idle) {
        j->asked_idle = 1;
        recheck_repo(j);
    } else if (idle > REPO_STALL_S * 1000) {
        tool_die("the repository stopped fetching %s after %llu of %llu segments",
                 (const char *)j->uri.data, (unsigned long long)*seen,
                 (unsigned long long)st.segments);
    }
}

/* Hands buf[0..n) to the writer. Into a repository the writer holds a
 * bounded amount (stream mode), so this runs the loop while the
 * repository fetches what is held. */
static void write_chunk(struct job *j, const uint8_t *buf, size_t n, int64_t *last)
{
    uint64_t seen = 0;
    int64_t moved = ccnx_client_now_ms();
    size_t off = 0;
    while (off < n && !tool_stop_requested) {
        long took = ccnx_seqwriter_write(j->w, buf + off, n - off);
        if (took < 0) {
            tool_die("cannot publish: %s", ccnx_strerror((int)took));
        }
        off += (size_t)took;
        step(j, off < n ? 10 : 0);
        show_progress(j, last);
        if (off < n) {
            check_stall(j, &seen, &moved);
        }
    }
}

/* Bytes taken beyond the segments fetched so far. */
static uint64_t read_ahead(const struct job *j)
{
    struct ccnx_seqwriter_stats st;
    ccnx_seqwriter_get_stats(j->w, &st);
    uint64_t fetched = st.segments_sent * j->o.block;
    return st.bytes > fetched ? st.bytes - fetched : 0;
}

/* write_file's loop, reading into buf (size bytes). */
static int read_into_writer(struct job *j, uint8_t *buf, size_t size)
{
    int64_t last = 0;
    for (;;) {
        follow_repo_answer(j);
        if (j->repo == REPO_ASKING && read_ahead(j) >= REPO_BUFFER) {
            step(j, 10);
            show_progress(j, &last);
            if (tool_stop_requested) {
                return 0;
            }
            continue;
        }
        ssize_t n = read(j->fd, buf, size);
        if (n < 0 && errno == EINTR && !tool_stop_requested) {
            continue;
        }
        if (n < 0) {
            tool_die("cannot read %s: %s", j->o.file, strerror(errno));
        }
        if (tool_stop_requested) {
            return 0;
        }
        if (n == 0) {
            return 1;
        }
        write_chunk(j, buf, (size_t)n, &last);
    }
}

/* Reads the whole file into the writer, answering Interests between
 * chunks: 1 at the end of the file, 0 when interrupted (a stream cut short
 * is never closed as if it were the whole file). Until a repository has
 * answered or the wait is over, it reads at most REPO_BUFFER beyond what
 * consumers have fetched: that much signed ahead keeps a consumer that
 * starts at once at full speed, and a repository that answers late never
 * finds more than that held in memory. */
static int write_file(struct job *j)
{
    /* One Merkle batch a read: each write signs a full batch at once. */
    size_t chunk = j->o.block * CCNX_SEQWRITER_BATCH_DEFAULT;
    uint8_t *buf = malloc(chunk);
    if (buf == NULL) {
        tool_die("out of memory");
    }
    int whole = read_into_writer(j, buf, chunk);
    free(buf);
    return whole;
}

static void close_writer(struct job *j)
{
    if (ccnx_seqwriter_close(j->w) != 0) {
        tool_die("cannot sign the last segment");
    }
}

/* After the whole file was read: until the repository question is decided. */
static void wait_repo_answer(struct job *j)
{
    int64_t last = 0;
    while (j->repo == REPO_ASKING && !tool_stop_requested) {
        step(j, 100);
        show_progress(j, &last);
    }
    follow_repo_answer(j);
}

/* Runs until the repository has fetched every segment. */
static void wait_repository(struct job *j)
{
    int64_t last = 0, moved = ccnx_client_now_ms();
    uint64_t seen = 0;
    while (!ccnx_seqwriter_all_sent(j->w) && !tool_stop_requested) {
        step(j, 100);
        show_progress(j, &last);
        check_stall(j, &seen, &moved);
    }
}

static void serve(struct job *j)
{
    int64_t last = 0;
    int64_t end = j->o.expire_s > 0 ? j->started_ms + j->o.expire_s * 1000 : INT64_MAX;
    while (!tool_stop_requested && ccnx_client_now_ms() < end) {
        step(j, 100);
        show_progress(j, &last);
    }
}

static void summary(struct job *j)
{
    struct ccnx_seqwriter_stats st;
    ccnx_seqwriter_get_stats(j->w, &st);
    double secs = (double)(ccnx_client_now_ms() - j->started_ms) / 1000.0;
    double mbps = secs > 0 ? (double)st.bytes / 1e6 / secs : 0.0;
    if (j->progress) {
        fputc('\n', stderr);
    }
    if (j->repo == REPO_TAKES && !j->stored) {
        tool_warn("%s %s: the repository fetched %llu of %llu segments%s",
                  tool_stop_requested ? "interrupted storing" : "cannot confirm storing",
                  (const char *)j->uri.data, (unsigned long long)st.segments_sent,
                  (unsigned long long)st.segments,
                  tool_stop_requested ? "" : " but did not answer for the last one; see its log");
    } else if (j->repo == REPO_TAKES) {
        tool_warn("stored %s in a repository: %llu bytes in %llu segments (%llu signatures), "
                  "%.2f s, %.1f MB/s",
                  (const char *)j->uri.data, (unsigned long long)st.bytes,
                  (unsigned long long)st.segments, (unsigned long long)st.batches, secs, mbps);
    } else {
        tool_warn("served %s: %llu bytes in %llu segments (%llu signatures), %llu fetched "
                  "(%llu objects sent), %.2f s",
                  (const char *)j->uri.data, (unsigned long long)st.bytes,
                  (unsigned long long)st.segments, (unsigned long long)st.batches,
                  (unsigned long long)st.segments_sent, (unsigned long long)st.objects_sent, secs);
    }
}

int main(int argc, char **argv)
{
    tool_init(argv[0]);
    struct job j;
    memset(&j, 0, sizeof j);
    parse_args(argc, argv, &j.o);
    tool_catch_stop();
    j.progress = isatty(2);

    open_input(&j);
    struct ccnx_keystore *ks = NULL;
    open_client(&j, &ks);
    open_writer(&j);
    if (j.o.verbose) {
        tool_warn("publishing %s as %s", j.o.file, (const char *)j.uri.data);
    }
    /* The file is read, signed and served while a repository is asked
     * for: Interests are answered from the first moment, not after the wait. */
    j.started_ms = ccnx_client_now_ms();
    start_write(&j);
    int whole = write_file(&j);
    if (whole) {
        close_writer(&j); /* the last segment, final, signed at once */
    }
    wait_repo_answer(&j);
    if (!whole) {
        tool_warn("interrupted while reading %s: the stream is not closed", j.o.file);
    } else if (j.repo == REPO_ASKING) {
        tool_warn("interrupted while waiting for a repository");
        whole = 0;
    } else if (j.repo == REPO_TAKES) {
        wait_repository(&j);
        j.stored = !tool_stop_requested && tool_confirm_stored(j.w, j.o.scope);
    } else {
        serve(&j);
    }
    int64_t end = ccnx_client_now_ms() + 2000;
    while (ccnx_client_output_pending(j.c) > 0 && ccnx_client_now_ms() < end) {
        step(&j, 10);
    }
    int ok = whole && (j.repo != REPO_TAKES || j.stored);
    summary(&j);
    ccnx_seqwriter_destroy(j.w);
    ccnx_client_destroy(j.c);
    ccnx_keystore_destroy(ks);
    ccnx_buf_free(&j.uri);
    close(j.fd);
    return ok ? 0 : TOOL_EXIT_FAILURE;
}
