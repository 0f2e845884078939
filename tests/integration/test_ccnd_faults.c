/* A real ccnd under abuse stays responsive and correct: a flood of
 * distinct Interests is held to one face's share of the PIT limit
 * (CCND_PIT_LIMIT) while other faces are still served, a TCP peer
 * that never reads and a unix peer whose socket is full do not stall the
 * others, peers vanishing mid-message or while ccnd writes to them (SIGPIPE)
 * are survived, running out of file descriptors (EMFILE) sheds connections
 * instead of spinning, and SIGTERM still ends it cleanly. */
#include "ccndtest.h"
#include "testutil.h"

#include <ccnx/client.h>
#include <ccnx/content.h>
#include <ccnx/interest.h>
#include <ccnx/match.h>
#include <ccnx/name.h>
#include <ccnx/key.h>
#include <ccnx/uri.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define PIT_LIMIT 2000
#define BIG_SIZE  8000
/* How long a read waits before the test calls ccnd hung. Each wait ends at
 * the answer; a ccnd blocked on a stuck peer never answers, so a wide
 * bound loses nothing and holds in the sanitizer build on a busy machine. */
#define HANG_MS 30000

static struct tu_ccnd ccnd;
static pid_t producer = -1;

/* ---- A producer process: answers /faults/<anything> with BIG_SIZE bytes ---- */

static int big_answer(void *arg, const uint8_t *msg, size_t len,
                      const struct ccnx_interest_parsed *pi)
{
    (void)len;
    struct ccnx_client *c = arg;
    static char payload[BIG_SIZE];
    memset(payload, 'x', sizeof payload - 1);
    struct ccnx_buf obj = CCNX_BUF_INIT, uri = CCNX_BUF_INIT;
    ccnx_uri_append(&uri, msg + pi->name.off, pi->name.len);
    tu_content(&obj, ccnx_buf_cstr(&uri), payload, ccnx_client_key(c));
    ccnx_client_put(c, obj.data, obj.len);
    ccnx_buf_free(&obj);
    ccnx_buf_free(&uri);
    return 1;
}

static void start_producer(void)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    producer = fork();
    assert_true(producer >= 0);
    if (producer == 0) {
        close(fds[0]);
        struct ccnx_client *c = NULL;
        struct ccnx_name n;
        ccnx_name_init(&n);
        uint64_t id;
        if (ccnx_client_open(&c) != 0 || ccnx_uri_parse_str(&n, "ccnx:/faults") != 0 ||
            ccnx_client_set_filter(c, &n, CCNX_FILTER_REGISTER, 0, big_answer, c, &id) != 0 ||
            ccnx_client_wait_registered(c, id, 5000) != 0) {
            _exit(3);
        }
        assert_int_equal(write(fds[1], "r", 1), 1);
        ccnx_client_run(c, 120000);
        _exit(0);
    }
    close(fds[1]);
    char r;
    assert_int_equal(read(fds[0], &r, 1), 1);
    close(fds[0]);
}

static int setup(void **state)
{
    (void)state;
    char limit[32];
    snprintf(limit, sizeof limit, "%d", PIT_LIMIT);
    setenv("CCND_PIT_LIMIT", limit, 1); /* inherited by the ccnd the test starts */
    tu_ccnd_start(&ccnd, 0);
    char user[96];
    snprintf(user, sizeof user, "%s/user", ccnd.dir);
    setenv("CCN_LOCAL_PORT", ccnd.port, 1);
    setenv("CCN_LOCAL_SOCKNAME", ccnd.stem, 1);
    setenv("CCNX_DIR", user, 1);
    unsetenv("CCN_LOCAL_TRANSPORT");
    start_producer();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    kill(producer, SIGTERM);
    waitpid(producer, NULL, 0);
    tu_ccnd_stop(&ccnd); /* asserts the clean SIGTERM exit */
    return 0;
}

/* An exchange for uri through ccnd completes (within HANG_MS). */
static void assert_answered(const char *uri, const char *when)
{
    int fd = tu_ccnd_connect(&ccnd);
    struct ccnx_buf msg = CCNX_BUF_INIT;
    tu_interest(&msg, uri);
    tu_send_all(fd, msg.data, msg.len);
    if (!tu_try_read_element(fd, &msg, HANG_MS)) {
        ccnx_buf_free(&msg); /* fail_msg does not return */
        fail_msg("ccnd did not answer %s", when);
    }
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(msg.data, msg.len, &pc), 0);
    close(fd);
    ccnx_buf_free(&msg);
}

/* A fresh exchange (a name never asked before) completes. */
static void assert_responsive(const char *when)
{
    static unsigned serial;
    char uri[128];
    snprintf(uri, sizeof uri, "ccnx:/faults/probe/%u/%ld", serial++, (long)getpid());
    assert_answered(uri, when);
}

/* The JSON status page's value for "key" (first occurrence). */
static long status_number(const char *key)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s/ccndstatus -j", getenv("CCNX_BIN"));
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    static char page[1 << 16];
    size_t n = fread(page, 1, sizeof page - 1, f);
    page[n] = '\0';
    pclose(f);
    char pattern[80];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *at = strstr(page, pattern);
    if (at == NULL) {
        fail_msg("no %s in the status page", key);
    }
    return strtol(at + strlen(pattern), NULL, 10);
}

/* One face's flood of distinct names stops at its share of the PIT (half
 * of it while that face is alone), so during the flood a fresh exchange on
 * another face still gets an entry and is forwarded; ccnd keeps answering
 * from its content store and its status page, and the flood's entries go
 * when its face closes. */
static void test_flood_is_bounded(void **state)
{
    (void)state;
    assert_answered("ccnx:/faults/cached", "before the flood");
    int fd = tu_ccnd_connect(&ccnd);
    struct ccnx_buf batch = CCNX_BUF_INIT, msg = CCNX_BUF_INIT;
    for (int i = 0; i < 5 * PIT_LIMIT; i++) {
        char uri[96];
        snprintf(uri, sizeof uri, "ccnx:/nowhere/flood/%d", i);
        tu_interest(&msg, uri);
        ccnx_buf_append(&batch, msg.data, msg.len);
    }
    tu_send_all(fd, batch.data, batch.len);
    assert_answered("ccnx:/faults/cached", "from its cache during an Interest flood");
    /* The flood has been read whole once the status page shows every Interest. */
    long in = 0;
    for (int tries = 0; tries < 100 && in < 5 * PIT_LIMIT; tries++, usleep(20000)) {
        in = status_number("interests_in");
    }
    assert_true(in >= 5 * PIT_LIMIT);
    assert_true(status_number("pit_entries") >= PIT_LIMIT / 2);
    assert_responsive("on another face during an Interest flood");
    assert_responsive("again during the flood");
    assert_true(status_number("pit_entries") <= PIT_LIMIT);
    assert_true(status_number("interests_pit_full") >= 3 * PIT_LIMIT);
    close(fd);
    usleep(300000);
    assert_true(status_number("pit_entries") < PIT_LIMIT / 2);
    assert_responsive("once the flooding face closed");
    ccnx_buf_free(&batch);
    ccnx_buf_free(&msg);
}

/* Asks for many big objects on a connection and never reads the answers. */
static int stuck_peer(int fd)
{
    struct ccnx_buf batch = CCNX_BUF_INIT, msg = CCNX_BUF_INIT;
    for (int i = 0; i < 400; i++) { /* 400 x 8 KB: more than any socket buffer */
        char uri[96];
        snprintf(uri, sizeof uri, "ccnx:/faults/stuck/%d/%d", fd, i);
        tu_interest(&msg, uri);
        ccnx_buf_append(&batch, msg.data, msg.len);
    }
    tu_send_all(fd, batch.data, batch.len);
    ccnx_buf_free(&batch);
    ccnx_buf_free(&msg);
    return fd;
}

static int tcp_connect(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(ccnd.port))};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    int small = 4096;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    return fd;
}

static void test_peers_that_never_read(void **state)
{
    (void)state;
    int tcp = stuck_peer(tcp_connect());
    int unix_fd = stuck_peer(tu_ccnd_connect(&ccnd));
    usleep(300000);
    assert_responsive("while a TCP and a unix peer never read");
    assert_responsive("again");
    /* They leave without reading: ccnd's next writes meet a closed socket. */
    close(tcp);
    close(unix_fd);
    usleep(200000);
    assert_responsive("after the stuck peers left");
}

static void test_peer_leaves_mid_message(void **state)
{
    (void)state;
    struct ccnx_buf msg = CCNX_BUF_INIT;
    tu_interest(&msg, "ccnx:/faults/half/message");
    for (int i = 0; i < 20; i++) {
        int fd = i % 2 ? tcp_connect() : tu_ccnd_connect(&ccnd);
        tu_send_all(fd, msg.data, msg.len / 2);
        close(fd);
    }
    /* And garbage that is not ccnb at all. */
    int fd = tu_ccnd_connect(&ccnd);
    static const uint8_t junk[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x01};
    tu_send_all(fd, junk, sizeof junk);
    usleep(100000);
    close(fd);
    assert_responsive("after peers left mid-message");
    ccnx_buf_free(&msg);
}

/* A second ccnd limited to a few descriptors: connections beyond them are
 * shed, the forwarder keeps working, and accepts again once they close. */
static void test_out_of_descriptors(void **state)
{
    (void)state;
    struct rlimit old, low = {48, 48};
    assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
    low.rlim_max = old.rlim_max;
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
    struct tu_ccnd small;
    tu_ccnd_start(&small, 1); /* inherits the low limit */
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
    int fds[80];
    for (int i = 0; i < 80; i++) {
        fds[i] = tu_ccnd_connect(&small);
    }
    usleep(200000);
    for (int i = 0; i < 80; i++) {
        close(fds[i]);
    }
    usleep(200000);
    /* The KEY Interest is answered by ccnd itself: it still works. */
    int fd = tu_ccnd_connect(&small);
    struct ccnx_buf msg = CCNX_BUF_INIT;
    tu_interest(&msg, "ccnx:/%C1.M.S.localhost/%C1.M.SRV/ccnd/KEY");
    tu_send_all(fd, msg.data, msg.len);
    assert_true(tu_try_read_element(fd, &msg, HANG_MS));
    close(fd);
    ccnx_buf_free(&msg);
    tu_ccnd_stop(&small);
}

/* A producer that stops reading (it is about to exit) while ccnd still has
 * Interests for it: ccnd's writes fail (EPIPE), yet every object the
 * producer writes after that reaches the consumer, as with the reference. */
static void test_producer_stops_reading(void **state)
{
    (void)state;
    enum { N = 300 };
    struct ccnx_key *key;
    assert_int_equal(ccnx_key_generate(1024, &key), 0);
    int prod = tu_ccnd_connect(&ccnd);
    tu_selfreg(prod, "ccnx:/leaving", key);
    int cons = tu_ccnd_connect(&ccnd);
    struct ccnx_buf batch = CCNX_BUF_INIT, objs = CCNX_BUF_INIT, msg = CCNX_BUF_INIT;
    for (int i = 0; i < N; i++) {
        char uri[64];
        snprintf(uri, sizeof uri, "ccnx:/leaving/%d", i);
        tu_interest(&msg, uri);
        ccnx_buf_append(&batch, msg.data, msg.len);
        tu_content(&msg, uri, "last words", key);
        ccnx_buf_append(&objs, msg.data, msg.len);
    }
    tu_send_all(cons, batch.data, batch.len);
    int seen = 0;
    while (seen < N && tu_try_read_element(prod, &msg, HANG_MS)) {
        seen++;
    }
    assert_int_equal(seen, N);
    /* The producer stops reading; the next Interests ccnd sends it fail. */
    assert_int_equal(shutdown(prod, SHUT_RD), 0);
    tu_interest(&msg, "ccnx:/leaving/more");
    tu_send_all(cons, msg.data, msg.len);
    usleep(200000);
    tu_send_all(prod, objs.data, objs.len);
    int got = 0;
    while (got < N && tu_try_read_element(cons, &msg, HANG_MS)) {
        got++;
    }
    assert_int_equal(got, N);
    close(prod);
    close(cons);
    ccnx_key_destroy(key);
    ccnx_buf_free(&batch);
    ccnx_buf_free(&objs);
    ccnx_buf_free(&msg);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flood_is_bounded),
        cmocka_unit_test(test_peers_that_never_read),
        cmocka_unit_test(test_peer_leaves_mid_message),
        cmocka_unit_test(test_producer_stops_reading),
        cmocka_unit_test(test_out_of_descriptors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
