/* ccnd's tuning variables acted on by real forwarders: CCND_PREFIX hands
 * a UDP peer a guest prefix routed back to it, CCND_MTU packs what goes to
 * one UDP peer in a round into one datagram, CCND_MAX_RTE_MICROSEC sets how
 * long loadsharing waits on a silent face before trying the next, and a
 * malformed value stops ccnd with a message naming the variable. */
#include "ccndtest.h"
#include "testutil.h"

#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/interest.h>
#include <ccnx/key.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static struct ccnx_key *key;

static int setup(void **state)
{
    (void)state;
    assert_int_equal(ccnx_key_generate(1024, &key), 0);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    ccnx_key_destroy(key);
    return 0;
}

/* Starts a ccnd with one variable set for it alone. */
static void start_with(struct tu_ccnd *d, unsigned offset, const char *var, const char *value)
{
    if (var != NULL) {
        setenv(var, value, 1);
    }
    tu_ccnd_start(d, offset);
    if (var != NULL) {
        unsetenv(var);
    }
}

/* A UDP socket on loopback aimed at d's port: a peer of d. */
static int udp_peer(const struct tu_ccnd *d)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(d->port))};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    return fd;
}

/* One datagram within ms into out; 0 when none came. */
static int recv_dgram(int fd, struct ccnx_buf *out, int ms)
{
    struct pollfd p = {fd, POLLIN, 0};
    if (poll(&p, 1, ms) != 1) {
        return 0;
    }
    ccnx_buf_reset(out);
    ssize_t n = recv(fd, ccnx_buf_reserve(out, 65536), 65536, 0);
    assert_true(n > 0);
    out->len = (size_t)n;
    return 1;
}

/* Whole ccnb elements in buf[0..len). */
static int count_elements(const uint8_t *buf, size_t len)
{
    int n = 0;
    for (size_t pos = 0, end; pos < len; pos = end, n++) {
        assert_int_equal(ccnx_ccnb_element_end(buf, len, pos, &end), 0);
    }
    return n;
}

static void send_interest(int fd, const char *uri)
{
    struct ccnx_buf msg = CCNX_BUF_INIT;
    tu_interest(&msg, uri);
    tu_send_all(fd, msg.data, msg.len);
    ccnx_buf_free(&msg);
}

static void test_guest_prefix(void **state)
{
    (void)state;
    struct tu_ccnd d;
    start_with(&d, 0, "CCND_PREFIX", "ccnx:/guests");
    int peer = udp_peer(&d);
    send_interest(peer, "ccnx:/%C1.M.S.neighborhood/guest/peer1");
    struct ccnx_buf got = CCNX_BUF_INIT;
    assert_true(recv_dgram(peer, &got, 3000));
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(got.data, got.len, &pc), 0);
    assert_int_equal(pc.name_count, 5); /* the Interest's three, a version, segment 0 */
    static const char want[] = "ccnx:/guests/peer1";
    assert_int_equal(pc.content_value.len, sizeof want - 1);
    assert_memory_equal(got.data + pc.content_value.off, want, sizeof want - 1);
    /* The prefix now leads to the peer. */
    int app = tu_ccnd_connect(&d);
    send_interest(app, "ccnx:/guests/peer1/item");
    assert_true(recv_dgram(peer, &got, 3000));
    struct ccnx_interest_parsed pi;
    assert_int_equal(ccnx_interest_parse(got.data, got.len, &pi), 0);
    /* An application of the host is no guest: not answered. */
    send_interest(app, "ccnx:/%C1.M.S.neighborhood/guest/app");
    assert_int_equal(tu_try_read_element(app, &got, 300), 0);
    close(app);
    close(peer);
    ccnx_buf_free(&got);
    tu_ccnd_stop(&d);
}

/* A UDP peer asks for three small objects; the producer answers them in one
 * write. Returns how many arrive in the peer's first datagram. */
static int objects_in_first_datagram(const struct tu_ccnd *d)
{
    int prod = tu_ccnd_connect(d), peer = udp_peer(d);
    tu_selfreg(prod, "ccnx:/mtu", key);
    struct ccnx_buf got = CCNX_BUF_INIT, answers = CCNX_BUF_INIT, obj = CCNX_BUF_INIT;
    static const char *const names[] = {"ccnx:/mtu/1", "ccnx:/mtu/2", "ccnx:/mtu/3"};
    for (int i = 0; i < 3; i++) {
        send_interest(peer, names[i]);
        tu_read_element(prod, &got, "Interest at the producer");
        tu_content(&obj, names[i], "small", key);
        ccnx_buf_append(&answers, obj.data, obj.len);
    }
    tu_send_all(prod, answers.data, answers.len);
    assert_true(recv_dgram(peer, &got, 3000));
    int n = count_elements(got.data, got.len);
    close(peer);
    close(prod);
    ccnx_buf_free(&got);
    ccnx_buf_free(&answers);
    ccnx_buf_free(&obj);
    return n;
}

static void test_mtu_packs_datagrams(void **state)
{
    (void)state;
    struct tu_ccnd packed, plain;
    start_with(&packed, 0, "CCND_MTU", "1400");
    start_with(&plain, 1, NULL, NULL);
    assert_int_equal(objects_in_first_datagram(&packed), 3);
    assert_int_equal(objects_in_first_datagram(&plain), 1);
    tu_ccnd_stop(&packed);
    tu_ccnd_stop(&plain);
}

static long ms_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/* With loadsharing over two producers, the one that gets the Interest stays
 * silent: how long (ms) until the other one gets it, or -1 past 3 s. */
static long failover_ms(const struct tu_ccnd *d)
{
    int p1 = tu_ccnd_connect(d), p2 = tu_ccnd_connect(d), cons = tu_ccnd_connect(d);
    tu_selfreg(p1, "ccnx:/rte", key);
    tu_selfreg(p2, "ccnx:/rte", key);
    assert_int_equal(tu_ccndc(d, "setstrategy ccnx:/rte loadsharing"), 0);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    send_interest(cons, "ccnx:/rte/item");
    struct ccnx_buf got = CCNX_BUF_INIT;
    struct pollfd p[2] = {{p1, POLLIN, 0}, {p2, POLLIN, 0}};
    int ready = poll(p, 2, 3000);
    assert_true(ready >= 1);
    long ms;
    if (ready == 2) {
        /* both had it by the time this process ran again (a busy
         * machine): the second came no later than now */
        ms = ms_since(&t0);
    } else {
        int other = (p[0].revents & POLLIN) ? p2 : p1;
        ms = tu_try_read_element(other, &got, 3000) ? ms_since(&t0) : -1;
    }
    close(p1);
    close(p2);
    close(cons);
    ccnx_buf_free(&got);
    return ms;
}

static void test_rte_limit(void **state)
{
    (void)state;
    struct tu_ccnd slow, quick;
    start_with(&slow, 0, "CCND_MAX_RTE_MICROSEC", "1000000");
    start_with(&quick, 1, NULL, NULL); /* the default, 160 ms */
    long s = failover_ms(&slow), q = failover_ms(&quick);
    /* 1 s against the default 160 ms; the bounds leave room for a busy
     * machine, whose delays only lengthen what is measured */
    assert_true(s >= 900 && s < 2500);
    assert_true(q >= 0 && q < 900);
    tu_ccnd_stop(&slow);
    tu_ccnd_stop(&quick);
}

/* d's status page as JSON, asked on its unix socket. */
static void status_json(const struct tu_ccnd *d, struct ccnx_buf *out)
{
    int fd = tu_ccnd_connect(d);
    static const char req[] = "GET /?f=json ";
    tu_send_all(fd, (const uint8_t *)req, sizeof req - 1);
    ccnx_buf_reset(out);
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        assert_int_equal(poll(&p, 1, 5000), 1);
        ssize_t n = read(fd, ccnx_buf_reserve(out, 65536), 65536);
        assert_true(n >= 0);
        if (n == 0)
            break;
        out->len += (size_t)n;
    }
    close(fd);
    assert_non_null(ccnx_buf_cstr(out));
}

/* The content store's bounds: by default an eighth of the memory in bytes
 * (and that over 1024 in objects); CCND_CAP_BYTES sets the byte bound and,
 * unless CCND_CAP is set too, the count. Both are on the status page. */
static void test_cs_bounds(void **state)
{
    (void)state;
    struct tu_ccnd d;
    struct ccnx_buf page = CCNX_BUF_INIT;
    unsetenv("CCND_CAP");
    start_with(&d, 0, NULL, NULL);
    status_json(&d, &page);
    unsigned long long mem =
        (unsigned long long)sysconf(_SC_PHYS_PAGES) * (unsigned long long)sysconf(_SC_PAGESIZE);
    unsigned long long bytes = mem / 8 < (64ull << 20) ? 64ull << 20 : mem / 8;
    char want[128];
    snprintf(want, sizeof want, "\"cs_capacity\":%llu,\"cs_capacity_bytes\":%llu,", bytes / 1024,
             bytes);
    assert_non_null(strstr((const char *)page.data, want));
    tu_ccnd_stop(&d);
    start_with(&d, 0, "CCND_CAP_BYTES", "1000000");
    status_json(&d, &page);
    assert_non_null(
        strstr((const char *)page.data, "\"cs_capacity\":976,\"cs_capacity_bytes\":1000000,"));
    tu_ccnd_stop(&d);
    ccnx_buf_free(&page);
}

/* Runs ccnd with one bad variable; its exit status, its message in out. */
static int run_bad(const char *assignment, char *out, size_t n)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s CCN_LOCAL_PORT=%d timeout 10 %s/ccnd 2>&1", assignment,
             29000 + (int)(getpid() % 400), getenv("CCNX_BIN"));
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    size_t len = fread(out, 1, n - 1, f);
    out[len] = '\0';
    int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_bad_values(void **state)
{
    (void)state;
    char out[1024];
    assert_int_equal(run_bad("CCND_MTU=big", out, sizeof out), 1);
    assert_non_null(strstr(out, "CCND_MTU"));
    assert_int_equal(run_bad("CCND_AUTOREG='ccnx:/ok ccnx:/bad%zz'", out, sizeof out), 1);
    assert_non_null(strstr(out, "CCND_AUTOREG"));
    assert_int_equal(run_bad("CCND_MAX_RTE_MICROSEC=-5", out, sizeof out), 1);
    assert_non_null(strstr(out, "CCND_MAX_RTE_MICROSEC"));
    assert_int_equal(run_bad("CCND_CAP_BYTES=lots", out, sizeof out), 1);
    assert_non_null(strstr(out, "CCND_CAP_BYTES"));
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_guest_prefix), cmocka_unit_test(test_mtu_packs_datagrams),
        cmocka_unit_test(test_rte_limit),    cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_cs_bounds),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
