/* ccnd-bench: drives any ccnd that speaks the CCNx 0.x protocol over its
 * unix socket and prints what it sustains.
 *
 *   ccnd-bench [-s SOCKET] [-c CLIENTS] [-w WINDOW] [-t SECONDS] [-N NAMES] [-b BYTES] MODE
 *
 * MODE is one of
 *   cs        content-store hits: NAMES objects of BYTES are fetched once
 *             through a producer, then CLIENTS consumers with WINDOW
 *             Interests outstanding each re-fetch random ones for SECONDS;
 *   exchange  full exchanges, consumer -> ccnd -> producer -> back, unique
 *             names, objects signed before the clock starts;
 *   transfer  one consumer fetches NAMES segments of BYTES in order with
 *             WINDOW outstanding, from a producer (a segmented transfer);
 *   relay     the ceiling: raw bytes copied through a relay process over
 *             the same socket type, no ccnd involved.
 * The producer registers its prefix with selfreg, signing the request with
 * a key made for the run, so any ccnd that accepts local requests works. */
#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/local.h>
#include <ccnx/mgmt.h>
#include <ccnx/name.h>
#include <ccnx/naming.h>
#include <ccnx/content_sign.h>
#include <ccnx/key.h>
#include <ccnx/uri.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CLIENTS 64

struct conn {
    int fd;
    struct ccnx_buf in;    /* bytes read, not yet cut into messages */
    size_t in_pos;         /* start of the first uncut byte */
    size_t scanned;        /* bytes of `in` the framing decoder has seen */
    struct ccnx_skel skel; /* frames as a forwarder does: BLOBs are skipped, not read */
    struct ccnx_buf out;   /* bytes to write */
    size_t out_pos;
};

struct opts {
    char sock[108];
    int clients, window, seconds;
    size_t names, bytes;
    const char *mode;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what)
{
    fprintf(stderr, "ccnd-bench: %s\n", what);
    exit(1);
}

static int connect_unix(const char *path)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        fprintf(stderr, "ccnd-bench: no ccnd at %s (%s): start one, or give -s\n", path,
                strerror(errno));
        exit(1);
    }
    return fd;
}

static void conn_open(struct conn *c, const char *path)
{
    memset(c, 0, sizeof *c);
    ccnx_skel_init(&c->skel);
    c->fd = connect_unix(path);
}

/* Writes what it can without blocking. */
static void conn_flush(struct conn *c)
{
    while (c->out_pos < c->out.len) {
        ssize_t w = send(c->fd, c->out.data + c->out_pos, c->out.len - c->out_pos, MSG_DONTWAIT);
        if (w <= 0) {
            if (w < 0 && (errno == EAGAIN || errno == EINTR))
                return;
            die("write to ccnd failed");
        }
        c->out_pos += (size_t)w;
    }
    ccnx_buf_reset(&c->out);
    c->out_pos = 0;
}

/* Drops the bytes of messages already handed out, so the buffer holds at
 * most one partial message plus one read. */
static void conn_compact(struct conn *c)
{
    size_t keep = c->in.len - c->in_pos;
    memmove(c->in.data, c->in.data + c->in_pos, keep);
    c->in.len = keep;
    c->scanned -= c->in_pos;
    c->in_pos = 0;
}

/* Reads what is there; returns the next whole message or NULL. The message
 * stays valid until the next call that reads. */
static const uint8_t *conn_next(struct conn *c, size_t *len, int do_read)
{
    if (do_read) {
        if (c->in_pos > 0)
            conn_compact(c);
        /* What is there, up to 1 MB: a reader that takes one chunk per
         * wakeup would be the bottleneck, not the forwarder. */
        for (int i = 0; i < 16; i++) {
            uint8_t *dst = ccnx_buf_reserve(&c->in, 1 << 16);
            ssize_t r = dst ? recv(c->fd, dst, 1 << 16, MSG_DONTWAIT) : -1;
            if (r == 0)
                die("ccnd closed the connection");
            if (r <= 0)
                break;
            c->in.len += (size_t)r;
            if (r < (1 << 16))
                break;
        }
    }
    while (c->scanned < c->in.len) {
        size_t used;
        int res = ccnx_skel_feed(&c->skel, c->in.data + c->scanned, c->in.len - c->scanned, &used);
        if (res < 0)
            die("ccnd sent bytes that are not ccnb");
        c->scanned += used;
        if (res == 1) {
            const uint8_t *m = c->in.data + c->in_pos;
            *len = c->scanned - c->in_pos;
            c->in_pos = c->scanned;
            return m;
        }
    }
    return NULL;
}

/* Blocks until one message arrives (5 s budget). */
static const uint8_t *conn_wait(struct conn *c, size_t *len)
{
    double deadline = now_s() + 5;
    for (;;) {
        conn_flush(c);
        const uint8_t *m = conn_next(c, len, 0);
        if (m != NULL)
            return m;
        struct pollfd p = {c->fd, POLLIN, 0};
        if (now_s() > deadline || poll(&p, 1, 100) < 0)
            die("ccnd did not answer within 5 s");
        if (p.revents && (m = conn_next(c, len, 1)) != NULL)
            return m;
    }
}

static void interest_for(struct ccnx_buf *out, const struct ccnx_name *n)
{
    struct ccnx_interest_params p;
    ccnx_interest_params_init(&p);
    p.name = n->enc.data;
    p.name_len = n->enc.len;
    ccnx_interest_build(out, &p);
}

/* selfreg of prefix on the producer's connection, signed with key. */
static void register_prefix(struct conn *prod, const struct ccnx_name *prefix,
                            const struct ccnx_key *key)
{
    struct ccnx_name n;
    ccnx_name_init(&n);
    const char *key_uri = "ccnx:/%C1.M.S.localhost/%C1.M.SRV/ccnd/KEY";
    ccnx_uri_parse_str(&n, key_uri);
    interest_for(&prod->out, &n);
    size_t len;
    const uint8_t *m = conn_wait(prod, &len);
    struct ccnx_content_parsed pc;
    if (ccnx_content_parse(m, len, &pc) != 0 || pc.publisher.len != 32)
        die("ccnd's KEY object did not parse");
    uint8_t ccndid[32];
    memcpy(ccndid, m + pc.publisher.off, 32);
    struct ccnx_forwarding_entry fe;
    ccnx_forwarding_entry_init(&fe);
    fe.action = (struct ccnx_view){(const uint8_t *)"selfreg", 7};
    fe.name = (struct ccnx_view){prefix->enc.data, prefix->enc.len};
    fe.flags = CCNX_FORW_DEFAULT;
    struct ccnx_buf body = CCNX_BUF_INIT, req = CCNX_BUF_INIT;
    ccnx_forwarding_entry_build(&body, &fe);
    struct ccnx_name empty;
    ccnx_name_init(&empty);
    struct ccnx_content_params cp;
    ccnx_content_params_init(&cp);
    cp.name = empty.enc.data;
    cp.name_len = empty.enc.len;
    cp.key_locator = CCNX_KEYLOC_KEY;
    cp.content = body.data;
    cp.content_len = body.len;
    if (ccnx_content_sign(&req, &cp, key) != 0)
        die("cannot sign the selfreg request");
    ccnx_mgmt_request_name(&n, ccndid, "selfreg", req.data, req.len);
    interest_for(&prod->out, &n);
    m = conn_wait(prod, &len);
    if (ccnx_content_parse(m, len, &pc) != 0 || pc.type != CCNX_TYPE_DATA)
        die("selfreg refused");
    ccnx_buf_free(&body);
    ccnx_buf_free(&req);
    ccnx_name_free(&n);
    ccnx_name_free(&empty);
}

/* The objects the producer serves: name prefix/<i as segment>, signed in
 * Merkle batches before any clock starts. */
struct pool {
    struct ccnx_buf objects;
    size_t *offsets; /* names + 1 */
    size_t count;
};

static void make_pool(struct pool *p, const struct ccnx_name *prefix, size_t count, size_t bytes,
                      const struct ccnx_key *key)
{
    uint8_t *payload = calloc(1, bytes ? bytes : 1);
    struct ccnx_name *names = calloc(count, sizeof *names);
    struct ccnx_content_params *params = calloc(count, sizeof *params);
    p->offsets = calloc(count + 1, sizeof *p->offsets);
    p->count = count;
    ccnx_buf_init(&p->objects);
    for (size_t i = 0; i < count; i++) {
        ccnx_name_init(&names[i]);
        ccnx_name_copy(&names[i], prefix);
        ccnx_naming_append_segment(&names[i], i);
        ccnx_content_params_init(&params[i]);
        params[i].name = names[i].enc.data;
        params[i].name_len = names[i].enc.len;
        params[i].content = payload;
        params[i].content_len = bytes;
        params[i].key_locator = CCNX_KEYLOC_KEY;
        params[i].freshness = 3600;
    }
    for (size_t start = 0; start < count; start += 4096) {
        size_t n = count - start < 4096 ? count - start : 4096;
        size_t base = p->objects.len;
        size_t offs[4097];
        if (ccnx_content_sign_batch(&p->objects, params + start, n, key, offs) != 0)
            die("cannot sign the object pool");
        for (size_t i = 0; i <= n; i++)
            p->offsets[start + i] = offs[i];
        (void)base;
    }
    for (size_t i = 0; i < count; i++)
        ccnx_name_free(&names[i]);
    free(names);
    free(params);
    free(payload);
}

/* The producer answers every Interest whose last component is a segment
 * number in the pool. */
static void producer_serve(struct conn *prod, const struct pool *pool, int do_read)
{
    size_t len;
    const uint8_t *m;
    while ((m = conn_next(prod, &len, do_read)) != NULL) {
        do_read = 0;
        struct ccnx_interest_parsed pi;
        uint64_t seg;
        if (ccnx_interest_parse(m, len, &pi) != 0 ||
            ccnx_naming_last_is_segment_ccnb(m + pi.name.off, pi.name.len, &seg) != 1 ||
            seg >= pool->count)
            continue;
        ccnx_buf_append(&prod->out, pool->objects.data + pool->offsets[seg],
                        pool->offsets[seg + 1] - pool->offsets[seg]);
    }
    conn_flush(prod);
}

struct consumer {
    struct conn c;
    int outstanding;
};

struct run {
    const struct opts *o;
    struct conn prod;
    struct consumer cons[MAX_CLIENTS];
    int ncons;
    struct pool pool;
    struct ccnx_buf interests; /* one Interest per pool name, built before the clock starts */
    size_t *ioff;              /* names + 1 */
    struct ccnx_name prefix;
    size_t next_seg; /* exchange/transfer: next name to ask for */
    uint64_t received, bytes, lost;
    unsigned seed;
};

static size_t pick_segment(struct run *r)
{
    if (strcmp(r->o->mode, "cs") == 0) {
        r->seed = r->seed * 1103515245u + 12345u;
        return (r->seed >> 8) % r->pool.count;
    }
    return r->next_seg < r->pool.count ? r->next_seg++ : SIZE_MAX;
}

static void ask(struct run *r, struct consumer *k)
{
    while (k->outstanding < r->o->window) {
        size_t seg = pick_segment(r);
        if (seg == SIZE_MAX)
            break; /* nothing left to ask; what was queued still goes out */
        ccnx_buf_append(&k->c.out, r->interests.data + r->ioff[seg],
                        r->ioff[seg + 1] - r->ioff[seg]);
        k->outstanding++;
    }
    conn_flush(&k->c);
}

static void take(struct run *r, struct consumer *k, int do_read)
{
    size_t len;
    const uint8_t *m;
    while ((m = conn_next(&k->c, &len, do_read)) != NULL) {
        do_read = 0;
        struct ccnx_content_parsed pc;
        if (ccnx_content_parse(m, len, &pc) == 0) {
            k->outstanding--;
            r->received++;
            r->bytes += pc.content_value.len;
        }
    }
}

/* Runs consumers and producer until `seconds` pass or nothing is left to ask. */
static double pump(struct run *r, double seconds)
{
    struct pollfd pf[MAX_CLIENTS + 1];
    double t0 = now_s(), t, last_progress = t0;
    for (int i = 0; i < r->ncons; i++)
        ask(r, &r->cons[i]);
    while ((t = now_s() - t0) < seconds) {
        int idle = 1;
        for (int i = 0; i < r->ncons; i++)
            idle &= r->cons[i].outstanding == 0;
        if (idle)
            break;
        /* Output left over when a socket was full is written when it drains. */
        pf[0] = (struct pollfd){r->prod.fd, POLLIN | (r->prod.out.len ? POLLOUT : 0), 0};
        for (int i = 0; i < r->ncons; i++)
            pf[i + 1] =
                (struct pollfd){r->cons[i].c.fd, POLLIN | (r->cons[i].c.out.len ? POLLOUT : 0), 0};
        int ready = poll(pf, (nfds_t)r->ncons + 1, 100);
        if (ready <= 0) {
            /* No answer for a while: count what is outstanding as lost (the
             * figure reports it) and go on, as a consumer would retransmit. */
            if (now_s() - last_progress > 0.5) {
                for (int i = 0; i < r->ncons; i++) {
                    r->lost += (uint64_t)r->cons[i].outstanding;
                    r->cons[i].outstanding = 0;
                    ask(r, &r->cons[i]);
                }
                last_progress = now_s();
            }
            continue;
        }
        last_progress = now_s();
        if (pf[0].revents)
            producer_serve(&r->prod, &r->pool, (pf[0].revents & POLLIN) != 0);
        for (int i = 0; i < r->ncons; i++) {
            if (pf[i + 1].revents) {
                take(r, &r->cons[i], (pf[i + 1].revents & POLLIN) != 0);
                ask(r, &r->cons[i]);
            }
        }
    }
    return t;
}

/* The consumers' Interests, one per pool name, built up front as the
 * producer's objects are: the clock then times the forwarder, not the
 * bench's encoder. */
static void make_interests(struct run *r)
{
    struct ccnx_name n;
    ccnx_name_init(&n);
    ccnx_buf_init(&r->interests);
    r->ioff = calloc(r->pool.count + 1, sizeof *r->ioff);
    if (r->ioff == NULL)
        die("out of memory");
    for (size_t i = 0; i < r->pool.count; i++) {
        ccnx_name_copy(&n, &r->prefix);
        ccnx_naming_append_segment(&n, i);
        interest_for(&r->interests, &n);
        r->ioff[i + 1] = r->interests.len;
    }
    if (ccnx_buf_status(&r->interests) != 0)
        die("out of memory");
    ccnx_name_free(&n);
}

static void setup_run(struct run *r, const struct opts *o, const char *prefix_uri, size_t bytes)
{
    memset(r, 0, sizeof *r);
    r->o = o;
    r->seed = 12345;
    struct ccnx_key *key;
    if (ccnx_key_generate(1024, &key) != 0)
        die("cannot make a key");
    ccnx_name_init(&r->prefix);
    ccnx_uri_parse_str(&r->prefix, prefix_uri);
    /* A fresh prefix per run keeps earlier runs' cached objects out of the way. */
    char unique[32];
    snprintf(unique, sizeof unique, "%ld-%d", (long)time(NULL), (int)getpid());
    ccnx_name_append_str(&r->prefix, unique);
    conn_open(&r->prod, o->sock);
    register_prefix(&r->prod, &r->prefix, key);
    make_pool(&r->pool, &r->prefix, o->names, bytes, key);
    ccnx_key_destroy(key);
    make_interests(r);
    r->ncons = o->clients;
    for (int i = 0; i < r->ncons; i++)
        conn_open(&r->cons[i].c, o->sock);
}

static void conn_free(struct conn *c)
{
    close(c->fd);
    ccnx_buf_free(&c->in);
    ccnx_buf_free(&c->out);
}

/* Everything setup_run made, so a sanitizer run of the bench is clean. */
static void free_run(struct run *r)
{
    conn_free(&r->prod);
    for (int i = 0; i < r->ncons; i++)
        conn_free(&r->cons[i].c);
    ccnx_buf_free(&r->pool.objects);
    free(r->pool.offsets);
    ccnx_buf_free(&r->interests);
    free(r->ioff);
    ccnx_name_free(&r->prefix);
}

static void report(const char *what, const struct run *r, double secs)
{
    printf("%-10s clients=%d window=%d objects=%zu bytes=%zu: %.0f objects/s, %.1f MB/s "
           "(%llu in %.2f s, %llu unanswered)\n",
           what, r->o->clients, r->o->window, r->o->names, r->o->bytes, (double)r->received / secs,
           (double)r->bytes / secs / 1e6, (unsigned long long)r->received, secs,
           (unsigned long long)r->lost);
}

static void mode_cs(const struct opts *o)
{
    struct run r;
    setup_run(&r, o, "ccnx:/bench/cs", o->bytes);
    /* Warm the store: fetch every object once, in order, through the producer. */
    int clients = r.ncons;
    r.ncons = 1;
    struct opts warm = *o;
    warm.mode = "transfer";
    r.o = &warm;
    pump(&r, 60);
    r.o = o;
    r.ncons = clients;
    r.received = r.bytes = r.lost = 0;
    double secs = pump(&r, o->seconds);
    report("cs-hits", &r, secs);
    free_run(&r);
}

static void mode_exchange(const struct opts *o, const char *label, size_t bytes)
{
    struct run r;
    setup_run(&r, o, "ccnx:/bench/ex", bytes);
    double secs = pump(&r, o->seconds);
    report(label, &r, secs);
    free_run(&r);
}

/* The ceiling: a child copies bytes between two unix stream socket pairs. */
static void mode_relay(const struct opts *o)
{
    int a[2], b[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, a) != 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, b) != 0)
        die("socketpair failed");
    pid_t pid = fork();
    if (pid == 0) {
        static uint8_t buf[1 << 16];
        close(a[0]);
        close(b[0]);
        ssize_t n;
        while ((n = read(a[1], buf, sizeof buf)) > 0) {
            for (ssize_t off = 0; off < n;) {
                ssize_t w = write(b[1], buf + off, (size_t)(n - off));
                if (w <= 0)
                    _exit(0);
                off += w;
            }
        }
        _exit(0);
    }
    close(a[1]);
    close(b[1]);
    static uint8_t buf[1 << 16];
    uint64_t got = 0;
    double t0 = now_s(), t;
    while ((t = now_s() - t0) < o->seconds) {
        struct pollfd pf[2] = {{a[0], POLLOUT, 0}, {b[0], POLLIN, 0}};
        poll(pf, 2, 100);
        if (pf[0].revents & POLLOUT)
            (void)!send(a[0], buf, sizeof buf, MSG_DONTWAIT);
        if (pf[1].revents & POLLIN) {
            ssize_t n = recv(b[0], buf, sizeof buf, MSG_DONTWAIT);
            if (n > 0)
                got += (uint64_t)n;
        }
    }
    close(a[0]);
    close(b[0]);
    waitpid(pid, NULL, 0);
    printf("%-10s unix stream relay: %.1f MB/s (%.0f MB in %.2f s)\n", "relay",
           (double)got / t / 1e6, (double)got / 1e6, t);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: ccnd-bench [-s SOCKET] [-c CLIENTS] [-w WINDOW] [-t SECONDS] [-N NAMES]\n"
               "                  [-b BYTES] cs|exchange|transfer|relay\n"
               "Drives the ccnd on SOCKET (default: the local ccnd's unix socket) and prints\n"
               "objects/s and MB/s. See the comment at the top of bench/ccnd_bench.c.\n");
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        }
    }
    struct opts o = {"", 1, 16, 5, 100000, 100, NULL};
    ccnx_local_sockname(o.sock, sizeof o.sock, getenv(CCNX_ENV_SOCKNAME), getenv(CCNX_ENV_PORT));
    int ch;
    while ((ch = getopt(argc, argv, "s:c:w:t:N:b:h")) != -1) {
        switch (ch) {
        case 's':
            snprintf(o.sock, sizeof o.sock, "%s", optarg);
            break;
        case 'c':
            o.clients = atoi(optarg);
            break;
        case 'w':
            o.window = atoi(optarg);
            break;
        case 't':
            o.seconds = atoi(optarg);
            break;
        case 'N':
            o.names = (size_t)strtoull(optarg, NULL, 10);
            break;
        case 'b':
            o.bytes = (size_t)strtoull(optarg, NULL, 10);
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (optind != argc - 1 || o.clients < 1 || o.clients > MAX_CLIENTS || o.window < 1 ||
        o.seconds < 1 || o.names < 1) {
        usage(stderr);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    o.mode = argv[optind];
    if (strcmp(o.mode, "cs") == 0)
        mode_cs(&o);
    else if (strcmp(o.mode, "exchange") == 0)
        mode_exchange(&o, "exchange", o.bytes);
    else if (strcmp(o.mode, "transfer") == 0) {
        o.clients = 1;
        mode_exchange(&o, "transfer", o.bytes);
    } else if (strcmp(o.mode, "relay") == 0)
        mode_relay(&o);
    else {
        usage(stderr);
        return 2;
    }
    return 0;
}
