/* Shared by the fetch integration tests: a private ccnd on a port of the
 * fetch tests' own range, and a producer client running in a thread of its
 * own that answers Interests from a sorted set of signed objects (segments
 * signed in Merkle batches), optionally losing some of them. */
#ifndef TEST_FETCH_PRODUCER_H
#define TEST_FETCH_PRODUCER_H

#define _GNU_SOURCE
#include "ccndtest.h"
#include "testutil.h"

#include <ccnx/client.h>
#include <ccnx/content.h>
#include <ccnx/error.h>
#include <ccnx/match.h>
#include <ccnx/name.h>
#include <ccnx/naming.h>
#include <ccnx/content_sign.h>
#include <ccnx/key.h>
#include <ccnx/uri.h>

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define TF_UNUSED  __attribute__((unused))
#define TF_MAX_OBJ 65536

/* ---- ccnd on ports 31000-31499, with a socket path that survives restarts ---- */

static pid_t tf_ccnd_pid;

static TF_UNUSED void tf_kill_ccnd(void)
{
    if (tf_ccnd_pid > 0) {
        kill(tf_ccnd_pid, SIGKILL);
        waitpid(tf_ccnd_pid, NULL, 0);
        tf_ccnd_pid = 0;
    }
}

static TF_UNUSED int tf_try_connect(const char *path)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int ok = fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
    if (fd >= 0) {
        close(fd);
    }
    return ok;
}

/* Starts ccnd in d->dir (made on first use, kept across restarts). */
static TF_UNUSED void tf_ccnd_start(struct tu_ccnd *d, unsigned slot)
{
    static int registered;
    if (!registered) {
        atexit(tf_kill_ccnd);
        registered = 1;
    }
    signal(SIGPIPE, SIG_IGN);
    if (d->dir[0] == '\0') {
        snprintf(d->dir, sizeof d->dir, "/tmp/fetch-test-XXXXXX");
        assert_non_null(mkdtemp(d->dir));
        /* 31000-31499: 125 slots of 4 ports, chosen by pid, `slot` within */
        snprintf(d->port, sizeof d->port, "%u", 31000u + (unsigned)(getpid() % 125) * 4 + slot);
        snprintf(d->stem, sizeof d->stem, "%s/sock", d->dir);
        snprintf(d->sock, sizeof d->sock, "%s.%s", d->stem, d->port);
    }
    char exe[600];
    const char *bin = getenv("CCNX_BIN");
    snprintf(exe, sizeof exe, "%s/ccnd", bin != NULL ? bin : ".");
    d->pid = fork();
    assert_true(d->pid >= 0);
    if (d->pid == 0) {
        setenv("CCN_LOCAL_PORT", d->port, 1);
        setenv("CCN_LOCAL_SOCKNAME", d->stem, 1);
        setenv("CCND_KEYSTORE_DIRECTORY", d->dir, 1);
        setenv("CCND_DEBUG", "0", 1);
        execl(exe, "ccnd", (char *)NULL);
        _exit(127);
    }
    tf_ccnd_pid = d->pid;
    for (int tries = 0; tries < 200; tries++) {
        if (tf_try_connect(d->sock)) {
            return;
        }
        usleep(25000);
    }
    fail_msg("ccnd did not come up on %s", d->sock);
}

/* Kills ccnd as a crash would (the folder stays for a restart). */
static TF_UNUSED void tf_ccnd_crash(struct tu_ccnd *d)
{
    kill(d->pid, SIGKILL);
    waitpid(d->pid, NULL, 0);
    tf_ccnd_pid = 0;
    unlink(d->sock);
}

/* Stops ccnd (a clean exit expected); `keep` leaves the folder for a restart. */
static TF_UNUSED void tf_ccnd_stop(struct tu_ccnd *d, int keep)
{
    int status = 0;
    kill(d->pid, SIGTERM);
    waitpid(d->pid, &status, 0);
    tf_ccnd_pid = 0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fail_msg("ccnd did not exit cleanly: status %#x", (unsigned)status);
    }
    if (!keep) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf %s", d->dir);
        assert_int_equal(system(cmd), 0);
        d->dir[0] = '\0';
    }
}

static TF_UNUSED void tf_use_ccnd(const struct tu_ccnd *d)
{
    char user[96];
    snprintf(user, sizeof user, "%s/user", d->dir);
    setenv("CCN_LOCAL_PORT", d->port, 1);
    setenv("CCN_LOCAL_SOCKNAME", d->stem, 1);
    setenv("CCNX_DIR", user, 1);
    unsetenv("CCN_LOCAL_TRANSPORT");
}

static TF_UNUSED struct ccnx_client *tf_open_client(void)
{
    struct ccnx_client *c = NULL;
    if (ccnx_client_open(&c) != 0) {
        fail_msg("client: %s", c ? ccnx_client_error(c) : "no memory");
    }
    return c;
}

/* ---- The producer ---- */

struct tf_producer {
    struct ccnx_client *c;
    pthread_t thread;
    atomic_int stop;
    int running;
    struct ccnx_buf store;
    size_t *offs;
    size_t n, cap;
    struct ccnx_content_parsed *pcs;
    uint8_t (*digests)[32];
    struct ccnx_match_candidate *cands;
    int sorted;
    unsigned loss_permille; /* Interests ignored, at random */
    unsigned rng;
    /* A stream writer (one stream, objects in segment order): segment k is
     * made only once k-1 is, and only for an Interest seen for it. */
    int in_order;
    uint64_t next_write;  /* the next segment to make */
    uint8_t *seen;        /* per segment: an Interest for it has come */
    uint64_t drop_seg1;   /* when not 0, the first Interest for segment drop_seg1 - 1 is lost */
    unsigned make_us;     /* the time making (signing) a segment takes */
    uint64_t stall_every; /* when not 0, a pause of stall_us after each such count made */
    unsigned stall_us;
    atomic_uint interests, answered;
};

/* Adds objects (back to back in buf[0..len)). */
static TF_UNUSED void tf_add(struct tf_producer *p, const uint8_t *buf, size_t len)
{
    size_t pos = 0;
    while (pos < len) {
        size_t end;
        assert_int_equal(ccnx_ccnb_element_end(buf, len, pos, &end), 0);
        if (p->n + 1 >= p->cap) {
            p->cap = p->cap ? p->cap * 2 : 64;
            p->offs = realloc(p->offs, (p->cap + 1) * sizeof *p->offs);
            assert_non_null(p->offs);
        }
        p->offs[p->n] = p->store.len;
        assert_int_equal(ccnx_buf_append(&p->store, buf + pos, end - pos), 0);
        p->n++;
        p->offs[p->n] = p->store.len;
        pos = end;
    }
    p->sorted = 0;
}

static TF_UNUSED void tf_sort(struct tf_producer *p)
{
    free(p->pcs);
    free(p->digests);
    free(p->cands);
    p->pcs = calloc(p->n + 1, sizeof *p->pcs);
    p->digests = calloc(p->n + 1, sizeof *p->digests);
    p->cands = calloc(p->n + 1, sizeof *p->cands);
    assert_true(p->pcs && p->digests && p->cands);
    for (size_t i = 0; i < p->n; i++) {
        const uint8_t *o = p->store.data + p->offs[i];
        size_t len = p->offs[i + 1] - p->offs[i];
        assert_int_equal(ccnx_content_parse(o, len, &p->pcs[i]), 0);
        assert_int_equal(ccnx_content_digest(o, len, p->digests[i]), 0);
        p->cands[i] = (struct ccnx_match_candidate){o, len, &p->pcs[i], p->digests[i], 0};
    }
    qsort(p->cands, p->n, sizeof *p->cands, ccnx_match_candidate_compare);
    p->sorted = 1;
}

static void tf_put_segment(struct tf_producer *p, uint64_t seg)
{
    atomic_fetch_add(&p->answered, 1);
    ccnx_client_put(p->c, p->store.data + p->offs[seg], p->offs[seg + 1] - p->offs[seg]);
}

/* The stream writer's way (the reference's ccnseqwriter's): a segment
 * already made is sent again; an Interest for a later one waits in ccnd
 * until every segment before it is made (tf_make_next). */
static int tf_in_order_interest(struct tf_producer *p, const uint8_t *msg,
                                const struct ccnx_interest_parsed *pi)
{
    uint64_t seg;
    if (ccnx_naming_last_is_segment_ccnb(msg + pi->name.off, pi->name.len, &seg) != 1 ||
        seg >= p->n) {
        return 0;
    }
    if (seg + 1 == p->drop_seg1) {
        p->drop_seg1 = 0;
        return 1;
    }
    if (seg < p->next_write) {
        tf_put_segment(p, seg);
        return 1;
    }
    p->seen[seg] = 1;
    return 1;
}

/* The writer makes the next segment when an Interest for it has come,
 * taking make_us to do it; one at a time, so that each goes out as it is
 * made. */
static void tf_make_next(struct tf_producer *p)
{
    if (p->next_write < p->n && p->seen[p->next_write]) {
        usleep(p->make_us);
        tf_put_segment(p, p->next_write++);
        if (p->stall_every != 0 && p->next_write % p->stall_every == 0) {
            usleep(p->stall_us); /* busy elsewhere, deaf to Interests */
        }
    }
}

static int tf_on_interest(void *arg, const uint8_t *msg, size_t len,
                          const struct ccnx_interest_parsed *pi)
{
    (void)len;
    struct tf_producer *p = arg;
    atomic_fetch_add(&p->interests, 1);
    if (p->in_order) {
        return tf_in_order_interest(p, msg, pi);
    }
    if (p->loss_permille > 0) {
        p->rng = p->rng * 1103515245u + 12345u;
        if ((p->rng >> 16) % 1000 < p->loss_permille) {
            return 1;
        }
    }
    ssize_t i = ccnx_match_pick(p->cands, p->n, msg, pi);
    if (i < 0) {
        return 0;
    }
    atomic_fetch_add(&p->answered, 1);
    ccnx_client_put(p->c, p->cands[i].buf, p->cands[i].len);
    return 1;
}

static void *tf_thread(void *arg)
{
    struct tf_producer *p = arg;
    while (!atomic_load(&p->stop)) {
        if (p->in_order) {
            ccnx_client_run(p->c, 1);
            tf_make_next(p);
        } else {
            ccnx_client_run(p->c, 20);
        }
    }
    return NULL;
}

/* Producers still running when a test fails (an assertion leaves the test
 * function early) are stopped by tf_cleanup, the tests' teardown. */
#define TF_MAX_RUNNING 4
static struct tf_producer *tf_running[TF_MAX_RUNNING];

static void tf_note_running(struct tf_producer *p, struct tf_producer *gone)
{
    for (int i = 0; i < TF_MAX_RUNNING; i++) {
        if (tf_running[i] == gone) {
            tf_running[i] = p;
            return;
        }
    }
}

/* Registers prefix_uri and starts answering (objects added before). The
 * producer must outlive a failing test: give it static storage. */
static TF_UNUSED void tf_producer_start(struct tf_producer *p, const char *prefix_uri)
{
    if (!p->sorted) {
        tf_sort(p);
    }
    if (p->in_order) {
        p->seen = calloc(p->n + 1, 1);
        assert_non_null(p->seen);
    }
    p->c = tf_open_client();
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, prefix_uri), 0);
    uint64_t id = 0;
    assert_int_equal(
        ccnx_client_set_filter(p->c, &n, CCNX_FILTER_REGISTER, 0, tf_on_interest, p, &id), 0);
    ccnx_name_free(&n);
    if (ccnx_client_wait_registered(p->c, id, 5000) != 0) {
        fail_msg("registration: %s", ccnx_client_error(p->c));
    }
    atomic_store(&p->stop, 0);
    assert_int_equal(pthread_create(&p->thread, NULL, tf_thread, p), 0);
    p->running = 1;
    tf_note_running(p, NULL);
}

static TF_UNUSED void tf_producer_free(struct tf_producer *p)
{
    if (p->running) {
        atomic_store(&p->stop, 1);
        pthread_join(p->thread, NULL);
        tf_note_running(NULL, p);
    }
    ccnx_client_destroy(p->c);
    ccnx_buf_free(&p->store);
    free(p->offs);
    free(p->pcs);
    free(p->digests);
    free(p->cands);
    free(p->seen);
    memset(p, 0, sizeof *p);
}

static TF_UNUSED int tf_cleanup(void **state)
{
    (void)state;
    for (int i = 0; i < TF_MAX_RUNNING; i++) {
        if (tf_running[i] != NULL) {
            tf_producer_free(tf_running[i]);
        }
    }
    return 0;
}

/* ---- Content ---- */

struct tf_stream {
    const char *uri;     /* unversioned prefix */
    const uint8_t *data; /* the bytes to publish */
    size_t len;
    size_t seg_size;
    const uint8_t *version; /* version component (NULL: a fixed one) */
    size_t version_len;
    size_t batch;             /* objects per Merkle batch */
    uint32_t type;            /* content type of every segment */
    const char *key_name_uri; /* KeyLocator KeyName instead of the key */
    const struct ccnx_key *key;
};

static const uint8_t tf_version1[7] = {0xFD, 0x05, 0x00, 0x00, 0x00, 0x00, 0x01};

/* Appends the segments to out, with FinalBlockID on the last one. */
static TF_UNUSED size_t tf_make_stream(const struct tf_stream *s, struct ccnx_buf *out)
{
    size_t nseg = s->len == 0 ? 1 : (s->len + s->seg_size - 1) / s->seg_size;
    struct ccnx_name base, keyname;
    ccnx_name_init(&base);
    ccnx_name_init(&keyname);
    assert_int_equal(ccnx_uri_parse_str(&base, s->uri), 0);
    assert_int_equal(ccnx_name_append(&base, s->version ? s->version : tf_version1,
                                      s->version ? s->version_len : sizeof tf_version1),
                     0);
    if (s->key_name_uri != NULL) {
        assert_int_equal(ccnx_uri_parse_str(&keyname, s->key_name_uri), 0);
    }
    uint8_t last[CCNX_NUMERIC_MAX_LEN];
    int last_len = ccnx_naming_segment_build(nseg - 1, last);
    size_t batch = s->batch ? s->batch : 1;
    struct ccnx_name *names = calloc(batch, sizeof *names);
    struct ccnx_content_params *ps = calloc(batch, sizeof *ps);
    assert_true(names && ps);
    for (size_t i = 0; i < batch; i++) {
        ccnx_name_init(&names[i]);
    }
    for (size_t first = 0; first < nseg; first += batch) {
        size_t k = nseg - first < batch ? nseg - first : batch;
        for (size_t j = 0; j < k; j++) {
            size_t seg = first + j, off = seg * s->seg_size;
            size_t n = off >= s->len ? 0 : s->len - off < s->seg_size ? s->len - off : s->seg_size;
            ccnx_name_copy(&names[j], &base);
            ccnx_naming_append_segment(&names[j], seg);
            ccnx_content_params_init(&ps[j]);
            ps[j].name = names[j].enc.data;
            ps[j].name_len = names[j].enc.len;
            ps[j].type = s->type ? s->type : CCNX_TYPE_DATA;
            ps[j].content = n ? s->data + off : NULL;
            ps[j].content_len = n;
            if (seg == nseg - 1) {
                ps[j].final_block_id = last;
                ps[j].final_block_id_len = (size_t)last_len;
            }
            if (s->key_name_uri != NULL) {
                ps[j].key_locator = CCNX_KEYLOC_KEYNAME;
                ps[j].key_locator_value = keyname.enc.data;
                ps[j].key_locator_value_len = keyname.enc.len;
            }
        }
        assert_int_equal(ccnx_content_sign_batch(out, ps, k, s->key, NULL), 0);
    }
    for (size_t i = 0; i < batch; i++) {
        ccnx_name_free(&names[i]);
    }
    free(names);
    free(ps);
    ccnx_name_free(&base);
    ccnx_name_free(&keyname);
    return nseg;
}

static TF_UNUSED void tf_random(uint8_t *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        p[i] = (uint8_t)(seed >> 16);
    }
}

/* A fetch's output collected. */
struct tf_sink {
    struct ccnx_buf data;
    uint64_t next_seg;
    int out_of_order;
};

static TF_UNUSED void tf_sink_data(void *arg, uint64_t seg, const uint8_t *p, size_t n)
{
    struct tf_sink *s = arg;
    if (seg != s->next_seg) {
        s->out_of_order = 1;
    }
    s->next_seg = seg + 1;
    ccnx_buf_append(&s->data, p, n);
}

#endif
