/* End to end through a real ccnd process: a producer and a consumer speak
 * exactly the messages the reference's ccnpoke and ccnpeek sent in the
 * vectors (stream_unix_*), over ccnd's unix socket, and get the answers the
 * reference forwarder gave, in structure and bytes where they are
 * deterministic. */
#include "testutil.h"

#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/interest.h>
#include <ccnx/mgmt.h>
#include <ccnx/name.h>

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

static char workdir[64], sockpath[100]; /* fits a sockaddr_un */
static pid_t ccnd_pid;

static int connect_ccnd(void)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", sockpath);
    for (int tries = 0; tries < 200; tries++) {
        int fd = socket(AF_UNIX, SOCK_STREAM, 0);
        assert_true(fd >= 0);
        if (connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0) {
            return fd;
        }
        close(fd);
        usleep(25000);
    }
    fail_msg("ccnd did not come up on %s", sockpath);
    return -1;
}

static int start_ccnd(void **state)
{
    (void)state;
    snprintf(workdir, sizeof workdir, "/tmp/ccnd-replay-XXXXXX");
    assert_non_null(mkdtemp(workdir));
    /* A port of our own, so the test never meets a ccnd the user runs; ccnd
     * then listens on <sockname>.<port>, as the reference does. */
    char port[16], stem[80];
    snprintf(port, sizeof port, "%d", 20000 + (int)(getpid() % 20000));
    snprintf(stem, sizeof stem, "%s/sock", workdir);
    snprintf(sockpath, sizeof sockpath, "%s.%s", stem, port);
    const char *bin = getenv("CCNX_BIN");
    char exe[512];
    snprintf(exe, sizeof exe, "%s/ccnd", bin != NULL ? bin : ".");
    ccnd_pid = fork();
    assert_true(ccnd_pid >= 0);
    if (ccnd_pid == 0) {
        setenv("CCN_LOCAL_PORT", port, 1);
        setenv("CCN_LOCAL_SOCKNAME", stem, 1);
        setenv("CCND_KEYSTORE_DIRECTORY", workdir, 1);
        setenv("CCND_DEBUG", "0", 1);
        execl(exe, "ccnd", (char *)NULL);
        _exit(127);
    }
    return 0;
}

static int stop_ccnd(void **state)
{
    (void)state;
    int status = 0;
    kill(ccnd_pid, SIGTERM);
    waitpid(ccnd_pid, &status, 0);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", workdir);
    if (system(cmd) != 0) {
        return -1;
    }
    /* A clean SIGTERM shutdown exits 0 and removes the socket. */
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return 0;
}

static void send_all(int fd, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        assert_true(w > 0);
        p += w;
        n -= (size_t)w;
    }
}

/* Reads one whole ccnb element from fd (5 s budget) into out. */
static void read_element(int fd, struct ccnx_buf *out, const char *what)
{
    struct ccnx_skel s;
    ccnx_skel_init(&s);
    ccnx_buf_reset(out);
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 5000) != 1) {
            fail_msg("no %s from ccnd within 5 s", what);
        }
        uint8_t c;
        assert_int_equal(read(fd, &c, 1), 1); /* byte at a time: never read past the element */
        ccnx_buf_append_byte(out, c);
        size_t used;
        int res = ccnx_skel_feed(&s, &c, 1, &used);
        assert_true(res >= 0);
        if (res == 1) {
            return;
        }
    }
}

/* The i-th element of a vector stream file. */
static void vector_element(const char *file, int index, struct ccnx_buf *out)
{
    struct ccnx_buf all = CCNX_BUF_INIT;
    tu_read_vector(file, &all);
    size_t pos = 0, end = 0;
    for (int i = 0; i <= index; i++) {
        assert_int_equal(ccnx_ccnb_element_end(all.data, all.len, pos, &end), 0);
        if (i < index) {
            pos = end;
        }
    }
    ccnx_buf_reset(out);
    ccnx_buf_append(out, all.data + pos, end - pos);
    ccnx_buf_free(&all);
}

static void test_producer_consumer(void **state)
{
    (void)state;
    struct ccnx_buf msg = CCNX_BUF_INIT, got = CCNX_BUF_INIT, want = CCNX_BUF_INIT;
    int producer = connect_ccnd();

    /* 1. The KEY Interest gets ccnd's KEY object; its digest is the ccndid. */
    vector_element("stream_unix_producer_to_ccnd.ccnb", 0, &msg);
    send_all(producer, msg.data, msg.len);
    read_element(producer, &got, "KEY object");
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(got.data, got.len, &pc), 0);
    assert_true(pc.type == CCNX_TYPE_KEY);
    uint8_t ccndid[32];
    assert_int_equal(pc.publisher.len, 32);
    memcpy(ccndid, got.data + pc.publisher.off, 32);

    /* 2. The producer's selfreg: the reference client's own signed request,
     * taken from its Interest and addressed to this ccnd's id. */
    vector_element("stream_unix_producer_to_ccnd.ccnb", 1, &want);
    struct ccnx_interest_parsed spi;
    struct ccnx_mgmt_request req;
    assert_int_equal(ccnx_interest_parse(want.data, want.len, &spi), 0);
    assert_int_equal(ccnx_mgmt_request_parse(want.data + spi.name.off, spi.name.len, &req), 0);
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_mgmt_request_name(&n, ccndid, "selfreg", req.request.p, req.request.n),
                     0);
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = n.enc.data;
    ip.name_len = n.enc.len;
    ccnx_buf_reset(&msg);
    assert_int_equal(ccnx_interest_build(&msg, &ip), 0);
    send_all(producer, msg.data, msg.len);
    read_element(producer, &got, "selfreg reply");
    assert_int_equal(ccnx_content_parse(got.data, got.len, &pc), 0);
    assert_true(pc.type == CCNX_TYPE_DATA);
    struct ccnx_forwarding_entry fe;
    assert_int_equal(
        ccnx_forwarding_entry_parse(got.data + pc.content_value.off, pc.content_value.len, &fe), 0);
    assert_int_equal(fe.flags, CCNX_FORW_DEFAULT);

    /* 3. The consumer's Interest reaches the producer with a Nonce added. */
    int consumer = connect_ccnd();
    vector_element("stream_unix_consumer_to_ccnd.ccnb", 0, &msg);
    send_all(consumer, msg.data, msg.len);
    read_element(producer, &got, "forwarded Interest");
    struct ccnx_interest_parsed pi;
    assert_int_equal(ccnx_interest_parse(got.data, got.len, &pi), 0);
    assert_true(pi.nonce.len > 0);
    vector_element("stream_unix_ccnd_to_producer.ccnb", 2, &want);
    struct ccnx_interest_parsed wpi;
    assert_int_equal(ccnx_interest_parse(want.data, want.len, &wpi), 0);
    assert_int_equal(pi.name.len, wpi.name.len);
    assert_memory_equal(got.data + pi.name.off, want.data + wpi.name.off, pi.name.len);

    /* 4. The producer's ContentObject reaches the consumer byte for byte. */
    vector_element("stream_unix_producer_to_ccnd.ccnb", 2, &msg);
    send_all(producer, msg.data, msg.len);
    read_element(consumer, &got, "ContentObject for the consumer");
    vector_element("stream_unix_ccnd_to_consumer.ccnb", 0, &want);
    assert_int_equal(got.len, want.len);
    assert_memory_equal(got.data, want.data, want.len);

    /* 5. A second consumer now gets it from ccnd's content store. */
    int again = connect_ccnd();
    vector_element("stream_unix_consumer_to_ccnd.ccnb", 0, &msg);
    send_all(again, msg.data, msg.len);
    read_element(again, &got, "ContentObject from the store");
    assert_int_equal(got.len, want.len);
    assert_memory_equal(got.data, want.data, want.len);

    close(again);
    close(consumer);
    close(producer);
    ccnx_name_free(&n);
    ccnx_buf_free(&msg);
    ccnx_buf_free(&got);
    ccnx_buf_free(&want);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_producer_consumer),
    };
    return cmocka_run_group_tests(tests, start_ccnd, stop_ccnd);
}
