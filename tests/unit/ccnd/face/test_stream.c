/* Stream faces over real sockets: unix sockets in a temp dir and TCP on
 * loopback. The reference's recorded streams must come out as exactly the
 * elements they contain, however the bytes are split. */
#define _GNU_SOURCE
#include "io_harness.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <ccnx/dtag.h>

static char tmpdir[64];
static char sockpath[128];

static int setup_dir(void **state)
{
    (void)state;
    strcpy(tmpdir, "/tmp/ccnd_io_XXXXXX");
    if (mkdtemp(tmpdir) == NULL) {
        return -1;
    }
    snprintf(sockpath, sizeof(sockpath), "%s/ccnd.sock", tmpdir);
    return 0;
}

static int teardown_dir(void **state)
{
    (void)state;
    unlink(sockpath);
    rmdir(tmpdir);
    return 0;
}

static int unix_client(const char *path)
{
    struct sockaddr_un sun;
    memset(&sun, 0, sizeof(sun));
    sun.sun_family = AF_UNIX;
    strcpy(sun.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    assert_true(fd >= 0);
    assert_int_equal(connect(fd, (struct sockaddr *)&sun, sizeof(sun)), 0);
    return fd;
}

/* Writes b in pieces of 1..maxpiece bytes, letting the loop run between. */
static void write_split(struct harness *h, int fd, const uint8_t *p, size_t n, size_t maxpiece)
{
    size_t pos = 0;
    while (pos < n) {
        size_t piece = 1 + (size_t)rand() % maxpiece;
        if (piece > n - pos) {
            piece = n - pos;
        }
        assert_int_equal(write(fd, p + pos, piece), (ssize_t)piece);
        pos += piece;
        loop_run_once(h->loop, 0);
    }
}

static void replay_stream(struct harness *h, const char *name, size_t maxpiece)
{
    struct ccnx_buf v = CCNX_BUF_INIT;
    tu_read_vector(name, &v);
    size_t want = h_count_elements(&v);
    int fd = unix_client(sockpath);
    h_reset(h);
    write_split(h, fd, v.data, v.len, maxpiece);
    H_RUN_UNTIL(h, h->nmsgs >= want, 2000);
    assert_int_equal(h->nmsgs, want);
    assert_int_equal(h->bytes.len, v.len);
    assert_memory_equal(h->bytes.data, v.data, v.len);
    unsigned id = h->msg_face[0];
    struct face_info info;
    assert_int_equal(face_get_info(h->ft, id, &info), 0);
    assert_int_equal(info.kind, FACE_KIND_UNIX);
    assert_true(info.flags & FACE_F_LOCAL);
    assert_int_equal(info.counters.msgs_in, want);
    assert_int_equal(info.counters.bytes_in, v.len);
    close(fd);
    H_RUN_UNTIL(h, h_destroyed_index(h, id) >= 0, 2000);
    int k = h_destroyed_index(h, id);
    assert_true(k >= 0);
    assert_int_equal(h->why[k], FACE_CLOSE_EOF);
    ccnx_buf_free(&v);
}

static void test_unix_vectors(void **state)
{
    (void)state;
    struct harness h;
    h_init(&h, NULL);
    unsigned lid;
    assert_int_equal(face_listen_unix(h.ft, sockpath, &lid), 0);
    size_t count;
    char **names = tu_list_vectors(".ccnb", &count);
    int streams = 0;
    srand(12345);
    for (size_t i = 0; i < count; i++) {
        if (strncmp(names[i], "stream_", 7) != 0) {
            continue;
        }
        streams++;
        replay_stream(&h, names[i], 1);       /* one message over many writes */
        replay_stream(&h, names[i], 700);     /* random split points */
        replay_stream(&h, names[i], 1 << 16); /* several messages in one write */
    }
    tu_free_list(names, count);
    assert_true(streams >= 6);
    h_free(&h);
    struct stat st;
    assert_int_equal(stat(sockpath, &st), -1); /* the listener removed its file */
}

static void test_unix_stale_and_live(void **state)
{
    (void)state;
    /* A socket file nobody listens on is replaced. */
    int stale = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un sun;
    memset(&sun, 0, sizeof(sun));
    sun.sun_family = AF_UNIX;
    strcpy(sun.sun_path, sockpath);
    assert_int_equal(bind(stale, (struct sockaddr *)&sun, sizeof(sun)), 0);
    close(stale);
    struct harness a, b;
    h_init(&a, NULL);
    h_init(&b, NULL);
    assert_int_equal(face_listen_unix(a.ft, sockpath, NULL), 0);
    /* A live one is left alone. */
    errno = 0;
    assert_int_equal(face_listen_unix(b.ft, sockpath, NULL), CCNX_E_IO);
    assert_int_equal(errno, EADDRINUSE);
    /* b's liveness probe was a real connection to a: listener + probe + us. */
    int fd = unix_client(sockpath);
    H_RUN_UNTIL(&a, a.ncreated >= 3, 1000);
    assert_int_equal(a.ncreated, 3);
    close(fd);
    /* A regular file is never deleted. */
    h_free(&b);
    h_free(&a);
    FILE *f = fopen(sockpath, "w");
    fclose(f);
    h_init(&a, NULL);
    assert_int_equal(face_listen_unix(a.ft, sockpath, NULL), CCNX_E_IO);
    h_free(&a);
    assert_int_equal(unlink(sockpath), 0);
}

static void test_pdu_and_seq_on_stream(void **state)
{
    (void)state;
    struct harness h;
    h_init(&h, NULL);
    assert_int_equal(face_listen_unix(h.ft, sockpath, NULL), 0);
    struct ccnx_buf inner = CCNX_BUF_INIT, wire = CCNX_BUF_INIT;
    tu_read_vector("int_name_only.ccnb", &inner);
    ccnx_ccnb_open(&wire, CCNX_DTAG_CCNProtocolDataUnit);
    ccnx_buf_append(&wire, inner.data, inner.len);
    ccnx_buf_append(&wire, inner.data, inner.len);
    ccnx_ccnb_append_closer(&wire);
    ccnx_ccnb_append_blob_element(&wire, CCNX_DTAG_SequenceNumber, "\x01\x02", 2);
    int fd = unix_client(sockpath);
    write_split(&h, fd, wire.data, wire.len, 5);
    H_RUN_UNTIL(&h, h.nmsgs >= 2, 1000);
    assert_int_equal(h.nmsgs, 2);
    assert_int_equal(h.msg_len[0], inner.len);
    assert_memory_equal(h.bytes.data, inner.data, inner.len);
    struct face_info info;
    assert_int_equal(face_get_info(h.ft, h.msg_face[0], &info), 0);
    assert_int_equal(info.counters.link_seq_in, 1);
    close(fd);
    ccnx_buf_free(&inner);
    ccnx_buf_free(&wire);
    h_free(&h);
}

static void expect_closed(struct harness *h, const uint8_t *bytes, size_t n,
                          enum face_close_reason why, enum face_drop drop)
{
    int fd = unix_client(sockpath);
    H_RUN_UNTIL(h, h->ncreated >= 2, 1000);
    unsigned id = h_last_created(h);
    assert_int_equal(write(fd, bytes, n), (ssize_t)n);
    H_RUN_UNTIL(h, h_destroyed_index(h, id) >= 0, 2000);
    int k = h_destroyed_index(h, id);
    assert_true(k >= 0);
    assert_int_equal(h->why[k], why);
    assert_int_equal(h->final[k].counters.drops[drop], 1);
    assert_int_equal(h->nmsgs, 0);
    /* The server closed its end: the client sees EOF. */
    char c;
    assert_int_equal(read(fd, &c, 1), 0);
    close(fd);
}

static void test_malformed_and_oversize(void **state)
{
    (void)state;
    struct face_config cfg;
    face_config_default(&cfg);
    cfg.max_message = 1000;
    struct harness h;
    h_init(&h, &cfg);
    assert_int_equal(face_listen_unix(h.ft, sockpath, NULL), 0);
    static const uint8_t junk[] = {0x00, 0x01, 0x02};
    expect_closed(&h, junk, sizeof(junk), FACE_CLOSE_MALFORMED, FACE_DROP_MALFORMED);
    h.ncreated = 1;
    struct ccnx_buf big = CCNX_BUF_INIT;
    tu_read_vector("co_data_large.ccnb", &big);
    expect_closed(&h, big.data, big.len, FACE_CLOSE_OVERSIZE, FACE_DROP_OVERSIZE);
    /* Output is bounded the same way. */
    int fd = unix_client(sockpath);
    H_RUN_UNTIL(&h, h.ncreated >= 3, 1000);
    unsigned id = h_last_created(&h);
    assert_int_equal(face_send(h.ft, id, big.data, big.len), CCNX_E_TOOBIG);
    struct face_info info;
    face_get_info(h.ft, id, &info);
    assert_int_equal(info.counters.drops[FACE_DROP_OVERSIZE], 1);
    close(fd);
    ccnx_buf_free(&big);
    h_free(&h);
}

/* One peer never reads: its queue fills and drops while another face keeps
 * working; after the stall timeout it is closed. */
static void test_queue_bound_and_stall(void **state)
{
    (void)state;
    struct face_config cfg;
    face_config_default(&cfg);
    cfg.queue_limit = 64 * 1024;
    cfg.stall_timeout_us = 300000;
    cfg.sweep_interval_us = 50000;
    struct harness h;
    h_init(&h, &cfg);
    assert_int_equal(face_listen_unix(h.ft, sockpath, NULL), 0);
    int lazy = unix_client(sockpath);
    int busy = unix_client(sockpath);
    H_RUN_UNTIL(&h, h.ncreated >= 3, 1000);
    unsigned lazy_id = h.created[1], busy_id = h.created[2];
    struct ccnx_buf m = CCNX_BUF_INIT;
    tu_read_vector("co_data_large.ccnb", &m);
    int full = 0;
    for (int i = 0; i < 2000 && !full; i++) {
        int res = face_send(h.ft, lazy_id, m.data, m.len);
        assert_true(res == 0 || res == FACE_E_QUEUE_FULL);
        full = res == FACE_E_QUEUE_FULL;
        loop_run_once(h.loop, 0);
    }
    assert_true(full);
    struct face_info info;
    face_get_info(h.ft, lazy_id, &info);
    assert_int_equal(info.counters.drops[FACE_DROP_QUEUE], 1);
    assert_true(info.queued_bytes <= cfg.queue_limit);
    /* The other face is not held up. */
    assert_int_equal(face_send(h.ft, busy_id, m.data, m.len), 0);
    uint8_t buf[8192];
    size_t got = 0;
    fcntl(busy, F_SETFL, O_NONBLOCK);
    uint64_t end = loop_update_time(h.loop) + 1000000;
    while (got < m.len && loop_update_time(h.loop) < end) {
        loop_run_once(h.loop, 5);
        ssize_t n = read(busy, buf + got, sizeof(buf) - got);
        if (n > 0) {
            got += (size_t)n;
        }
    }
    assert_int_equal(got, m.len);
    assert_memory_equal(buf, m.data, m.len);
    H_RUN_UNTIL(&h, h_destroyed_index(&h, lazy_id) >= 0, 3000);
    int k = h_destroyed_index(&h, lazy_id);
    assert_true(k >= 0);
    assert_int_equal(h.why[k], FACE_CLOSE_STALLED);
    assert_int_equal(h_destroyed_index(&h, busy_id), -1);
    close(lazy);
    close(busy);
    ccnx_buf_free(&m);
    h_free(&h);
}

/* TCP on a loopback address: the table connects to its own listener and the
 * messages cross both ways. */
static void tcp_roundtrip(const struct sockaddr *addr, socklen_t len)
{
    struct harness h;
    h_init(&h, NULL);
    unsigned lid, cid;
    int res = face_listen_tcp(h.ft, addr, len, &lid);
    if (res != 0 && addr->sa_family == AF_INET6) {
        h_free(&h);
        skip(); /* no IPv6 loopback here */
    }
    assert_int_equal(res, 0);
    struct sockaddr_storage ss;
    socklen_t sl;
    assert_int_equal(face_local_addr(h.ft, lid, &ss, &sl), 0);
    struct ccnx_buf v = CCNX_BUF_INIT;
    tu_read_vector("stream_tcp_ccndc_to_ccnd.ccnb", &v);
    size_t want = h_count_elements(&v);
    assert_int_equal(face_connect_tcp(h.ft, (struct sockaddr *)&ss, sl, &cid), 0);
    /* Queued while the connect is in progress, sent once it completes. */
    size_t pos = 0, end;
    while (pos < v.len && ccnx_ccnb_element_end(v.data, v.len, pos, &end) == 0) {
        assert_int_equal(face_send(h.ft, cid, v.data + pos, end - pos), 0);
        pos = end;
    }
    H_RUN_UNTIL(&h, h.nmsgs >= want, 2000);
    assert_int_equal(h.nmsgs, want);
    assert_memory_equal(h.bytes.data, v.data, v.len);
    unsigned aid = h.msg_face[0];
    struct face_info info;
    assert_int_equal(face_get_info(h.ft, aid, &info), 0);
    assert_int_equal(info.kind, FACE_KIND_TCP);
    assert_true(info.flags & FACE_F_LOOPBACK);
    assert_true(info.flags & (addr->sa_family == AF_INET6 ? FACE_F_INET6 : FACE_F_INET));
    assert_int_equal(info.listener, lid);
    face_get_info(h.ft, cid, &info);
    assert_int_equal(info.counters.msgs_out, want);
    assert_false(info.flags & FACE_F_CONNECTING);
    /* Closing one end destroys the other on EOF. */
    face_close(h.ft, cid);
    H_RUN_UNTIL(&h, h_destroyed_index(&h, aid) >= 0, 2000);
    int k = h_destroyed_index(&h, aid);
    assert_true(k >= 0);
    assert_int_equal(h.why[k], FACE_CLOSE_EOF);
    ccnx_buf_free(&v);
    h_free(&h);
}

static void test_tcp4(void **state)
{
    (void)state;
    struct sockaddr_in in;
    memset(&in, 0, sizeof(in));
    in.sin_family = AF_INET;
    in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    tcp_roundtrip((struct sockaddr *)&in, sizeof(in));
}

static void test_tcp6(void **state)
{
    (void)state;
    struct sockaddr_in6 in6;
    memset(&in6, 0, sizeof(in6));
    in6.sin6_family = AF_INET6;
    in6.sin6_addr = in6addr_loopback;
    tcp_roundtrip((struct sockaddr *)&in6, sizeof(in6));
}

static void test_tcp_connect_refused(void **state)
{
    (void)state;
    struct harness h;
    h_init(&h, NULL);
    /* Find a free port by binding and closing. */
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in in;
    memset(&in, 0, sizeof(in));
    in.sin_family = AF_INET;
    in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t sl = sizeof(in);
    bind(s, (struct sockaddr *)&in, sizeof(in));
    getsockname(s, (struct sockaddr *)&in, &sl);
    close(s);
    unsigned cid;
    int res = face_connect_tcp(h.ft, (struct sockaddr *)&in, sizeof(in), &cid);
    if (res == 0) {
        H_RUN_UNTIL(&h, h_destroyed_index(&h, cid) >= 0, 2000);
        int k = h_destroyed_index(&h, cid);
        assert_true(k >= 0);
        assert_int_equal(h.why[k], FACE_CLOSE_ERROR);
        assert_int_equal(h.final[k].last_errno, ECONNREFUSED);
    }
    h_free(&h);
}

static int tcp_client(const struct sockaddr_storage *ss, socklen_t sl)
{
    int fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    assert_true(fd >= 0);
    assert_int_equal(connect(fd, (const struct sockaddr *)ss, sl), 0);
    return fd;
}

static uint64_t listener_drops(struct harness *h, unsigned lid, enum face_drop kind)
{
    struct face_info info;
    assert_int_equal(face_get_info(h->ft, lid, &info), 0);
    return info.counters.drops[kind];
}

/* The face accepted for a client socket: the one whose remote address is
 * the client's own. */
static unsigned face_for_client(struct harness *h, int fd)
{
    struct sockaddr_storage me;
    socklen_t ml = sizeof me;
    assert_int_equal(getsockname(fd, (struct sockaddr *)&me, &ml), 0);
    char text[FACE_ADDR_TEXT];
    snprintf(text, sizeof text, "127.0.0.1:%u",
             (unsigned)ntohs(((struct sockaddr_in *)&me)->sin_port));
    for (unsigned id = face_next(h->ft, FACE_NONE); id != FACE_NONE; id = face_next(h->ft, id)) {
        struct face_info info;
        if (face_get_info(h->ft, id, &info) == 0 && strcmp(info.remote, text) == 0) {
            return id;
        }
    }
    fail_msg("no face for %s", text);
    return FACE_NONE;
}

/* The face a client's message arrived on (the client sends one). */
static unsigned face_of(struct harness *h, int fd, const uint8_t *msg, size_t n)
{
    size_t before = h->nmsgs;
    assert_int_equal(write(fd, msg, n), (ssize_t)n);
    H_RUN_UNTIL(h, h->nmsgs > before, 2000);
    assert_true(h->nmsgs > before);
    return h->msg_face[before];
}

static enum face_close_reason closed_why(struct harness *h, unsigned id, int ms)
{
    H_RUN_UNTIL(h, h_destroyed_index(h, id) >= 0, ms);
    int k = h_destroyed_index(h, id);
    assert_true(k >= 0);
    return h->why[k];
}

/* Accepted TCP faces alive now. */
static size_t tcp_faces(struct harness *h)
{
    size_t n = 0;
    for (unsigned id = face_next(h->ft, FACE_NONE); id != FACE_NONE; id = face_next(h->ft, id)) {
        struct face_info info;
        n += face_get_info(h->ft, id, &info) == 0 && info.kind == FACE_KIND_TCP;
    }
    return n;
}

/* Connections from other hosts (loopback counts as one here): beyond the
 * bound per address they are refused; one that holds part of a message,
 * sends none, or goes quiet while nothing holds it is closed after its
 * time limit. */
static void test_tcp_guard(void **state)
{
    (void)state;
    struct face_config cfg;
    face_config_default(&cfg);
    cfg.guard_loopback = 1;
    cfg.max_per_address = 3;
    cfg.sweep_interval_us = 20000;
    cfg.partial_timeout_us = 200000;
    cfg.silent_timeout_us = 400000;
    cfg.tcp_idle_timeout_us = 300000;
    struct harness h;
    h_init(&h, &cfg);
    struct sockaddr_in in = {.sin_family = AF_INET};
    in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    unsigned lid;
    assert_int_equal(face_listen_tcp(h.ft, (struct sockaddr *)&in, sizeof in, &lid), 0);
    struct sockaddr_storage ss;
    socklen_t sl;
    assert_int_equal(face_local_addr(h.ft, lid, &ss, &sl), 0);
    int c[5];
    for (int i = 0; i < 5; i++)
        c[i] = tcp_client(&ss, sl);
    H_RUN_UNTIL(&h, listener_drops(&h, lid, FACE_DROP_REFUSED) >= 2, 2000);
    assert_int_equal(listener_drops(&h, lid, FACE_DROP_REFUSED), 2);
    for (int i = 3; i < 5; i++) { /* the last two were refused: closed at once */
        struct pollfd p = {c[i], POLLIN, 0};
        uint8_t b;
        assert_int_equal(poll(&p, 1, 2000), 1);
        assert_int_equal(read(c[i], &b, 1), 0);
    }
    struct ccnx_buf m = CCNX_BUF_INIT;
    tu_read_vector("int_name_only.ccnb", &m);
    unsigned whole = face_of(&h, c[0], m.data, m.len);
    unsigned quiet = whole;
    h.busy[h.nbusy++] = whole; /* something holds it: kept while quiet */
    assert_int_equal(write(c[1], m.data, m.len / 2), (ssize_t)(m.len / 2));
    unsigned partial = face_for_client(&h, c[1]), silent = face_for_client(&h, c[2]);
    assert_int_equal(face_for_client(&h, c[0]), whole);
    assert_int_equal(closed_why(&h, partial, 2000), FACE_CLOSE_SILENT);
    assert_int_equal(closed_why(&h, silent, 2000), FACE_CLOSE_SILENT);
    assert_int_equal(h_destroyed_index(&h, quiet), -1);
    h.nbusy = 0;
    assert_int_equal(closed_why(&h, quiet, 2000), FACE_CLOSE_IDLE);
    /* the count per address went down with them: three are taken again */
    int d[3];
    for (int i = 0; i < 3; i++)
        d[i] = tcp_client(&ss, sl);
    H_RUN_UNTIL(&h, tcp_faces(&h) >= 3, 2000);
    for (int i = 0; i < 3; i++)
        face_for_client(&h, d[i]);
    assert_int_equal(listener_drops(&h, lid, FACE_DROP_REFUSED), 2);
    for (int i = 0; i < 5; i++)
        close(c[i]);
    for (int i = 0; i < 3; i++)
        close(d[i]);
    ccnx_buf_free(&m);
    h_free(&h);
}

/* Ids of closed faces are not handed out again at once. */
static void test_faceid_reuse(void **state)
{
    (void)state;
    struct harness h;
    h_init(&h, NULL);
    unsigned lid;
    assert_int_equal(face_listen_unix(h.ft, sockpath, &lid), 0);
    assert_true(lid != 0);
    unsigned seen[40];
    for (int i = 0; i < 40; i++) {
        int fd = unix_client(sockpath);
        size_t before = h.ncreated;
        H_RUN_UNTIL(&h, h.ncreated > before, 1000);
        seen[i] = h_last_created(&h);
        assert_int_equal(face_close(h.ft, seen[i]), 0);
        assert_int_equal(face_close(h.ft, seen[i]), CCNX_E_NOTFOUND);
        close(fd);
        for (int j = 0; j < i; j++) {
            assert_true(seen[j] != seen[i]);
        }
    }
    h_free(&h);
}

/* ---- Forwarding without a copy ---- */

struct relay {
    struct harness h; /* first: the callbacks get a pointer to it */
    unsigned to;
};

static void relay_message(void *arg, unsigned faceid, const uint8_t *msg, size_t len)
{
    struct relay *r = arg;
    h_message(&r->h, faceid, msg, len);
    if (faceid != r->to) {
        assert_int_equal(face_send(r->h.ft, r->to, msg, len), 0);
    }
}

/* Messages forwarded from one stream face to another are queued by
 * reference to the input buffer while the read is handled; what the
 * receiver's socket cannot take at once must be copied before that buffer
 * is read into again. A receiver that does not read for a while, then
 * does, must get every byte in order. */
static void test_forward_borrowed(void **state)
{
    (void)state;
    struct face_config cfg;
    face_config_default(&cfg);
    cfg.queue_limit = 16u << 20;
    struct relay r;
    memset(&r, 0, sizeof(r));
    ccnx_buf_init(&r.h.bytes);
    r.h.loop = loop_create();
    struct face_callbacks cb = {
        .message = relay_message, .created = h_created, .destroyed = h_destroyed, .arg = &r};
    r.h.ft = face_table_create(r.h.loop, &cfg, &cb);
    assert_non_null(r.h.ft);
    assert_int_equal(face_listen_unix(r.h.ft, sockpath, NULL), 0);
    int out = unix_client(sockpath);
    H_RUN_UNTIL(&r.h, r.h.ncreated >= 2, 1000);
    r.to = h_last_created(&r.h);
    int in = unix_client(sockpath);
    struct ccnx_buf all = CCNX_BUF_INIT;
    static uint8_t payload[40000];
    for (int i = 0; i < 120; i++) {
        size_t n = 1 + (size_t)rand() % sizeof(payload);
        for (size_t k = 0; k < n; k++) {
            payload[k] = (uint8_t)(i * 31 + k);
        }
        assert_int_equal(ccnx_ccnb_append_blob_element(&all, CCNX_DTAG_Content, payload, n), 0);
    }
    write_split(&r.h, in, all.data, all.len, 30000);
    H_RUN_UNTIL(&r.h, r.h.bytes.len >= all.len, 3000);
    assert_int_equal(r.h.bytes.len, all.len);
    struct face_info info;
    assert_int_equal(face_get_info(r.h.ft, r.to, &info), 0);
    assert_true(info.queued_bytes > 0); /* the receiver's socket filled up */
    struct ccnx_buf got = CCNX_BUF_INIT;
    uint8_t buf[65536];
    fcntl(out, F_SETFL, O_NONBLOCK);
    uint64_t end = loop_update_time(r.h.loop) + 3000000;
    while (got.len < all.len && loop_update_time(r.h.loop) < end) {
        loop_run_once(r.h.loop, 1);
        ssize_t n = read(out, buf, sizeof(buf));
        if (n > 0) {
            ccnx_buf_append(&got, buf, (size_t)n);
        }
    }
    assert_int_equal(got.len, all.len);
    assert_memory_equal(got.data, all.data, all.len);
    close(in);
    close(out);
    ccnx_buf_free(&got);
    ccnx_buf_free(&all);
    h_free(&r.h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_unix_vectors, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_unix_stale_and_live, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_pdu_and_seq_on_stream, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_malformed_and_oversize, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_queue_bound_and_stall, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_faceid_reuse, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_forward_borrowed, setup_dir, teardown_dir),
        cmocka_unit_test(test_tcp4),
        cmocka_unit_test(test_tcp6),
        cmocka_unit_test(test_tcp_connect_refused),
        cmocka_unit_test(test_tcp_guard),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
