/* Two ccnd in two network namespaces joined by a veth pair talk over a UDP
 * multicast face on 224.0.23.170:59695, set up with ccndc as a user would.
 * Needs root (ip netns); skipped otherwise. With CCNX_MCAST_PCAP set, the
 * traffic on the link is also captured there (for the dissector's tests). */
#include "ccndtest.h"
#include "testutil.h"

#include <ccnx/content.h>
#include <ccnx/interest.h>
#include <ccnx/key.h>

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char ns_a[32], ns_b[32];

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int status = system(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int make_link(void **state)
{
    (void)state;
    if (geteuid() != 0) {
        return 0; /* the test skips itself */
    }
    snprintf(ns_a, sizeof ns_a, "ccnxa%d", (int)getpid());
    snprintf(ns_b, sizeof ns_b, "ccnxb%d", (int)getpid());
    int res = sh("ip netns add %s && ip netns add %s", ns_a, ns_b);
    res |= sh("ip link add va%d netns %s type veth peer name vb%d netns %s", (int)getpid() % 10000,
              ns_a, (int)getpid() % 10000, ns_b);
    res |= sh("ip -n %s addr add 10.77.0.1/24 dev va%d && ip -n %s link set va%d up && "
              "ip -n %s link set lo up",
              ns_a, (int)getpid() % 10000, ns_a, (int)getpid() % 10000, ns_a);
    res |= sh("ip -n %s addr add 10.77.0.2/24 dev vb%d && ip -n %s link set vb%d up && "
              "ip -n %s link set lo up",
              ns_b, (int)getpid() % 10000, ns_b, (int)getpid() % 10000, ns_b);
    return res == 0 ? 0 : -1;
}

static int remove_link(void **state)
{
    (void)state;
    if (ns_a[0] != '\0') {
        sh("ip netns del %s 2>/dev/null; ip netns del %s 2>/dev/null", ns_a, ns_b);
    }
    return 0;
}

static void test_multicast_between_namespaces(void **state)
{
    (void)state;
    if (geteuid() != 0) {
        skip();
    }
    struct ccnx_key *key;
    assert_int_equal(ccnx_key_generate(1024, &key), 0);
    struct tu_ccnd a, b;
    tu_ccnd_start_in(&a, 0, ns_a);
    tu_ccnd_start_in(&b, 1, ns_b);
    pid_t cap = -1;
    const char *pcap = getenv("CCNX_MCAST_PCAP");
    if (pcap != NULL && pcap[0] != '\0') {
        cap = fork();
        if (cap == 0) {
            char dev[16];
            snprintf(dev, sizeof dev, "va%d", (int)getppid() % 10000);
            execlp("ip", "ip", "netns", "exec", ns_a, "dumpcap", "-q", "-i", dev, "-w", pcap,
                   (char *)NULL);
            _exit(127);
        }
        usleep(700000);
    }
    /* Both join the group on their side of the link, as ccndc users do. */
    assert_int_equal(tu_ccndc(&a, "add ccnx:/mc udp 224.0.23.170 59695 3 1 10.77.0.1"), 0);
    assert_int_equal(tu_ccndc(&b, "add ccnx:/mcback udp 224.0.23.170 59695 3 1 10.77.0.2"), 0);

    int producer = tu_ccnd_connect(&b), consumer = tu_ccnd_connect(&a);
    tu_selfreg(producer, "ccnx:/mc", key);
    struct ccnx_buf msg = CCNX_BUF_INIT, got = CCNX_BUF_INIT, obj = CCNX_BUF_INIT;
    tu_interest(&msg, "ccnx:/mc/party/line");
    tu_send_all(consumer, msg.data, msg.len);
    tu_read_element(producer, &got, "Interest across the multicast link");
    struct ccnx_interest_parsed pi;
    assert_int_equal(ccnx_interest_parse(got.data, got.len, &pi), 0);
    tu_content(&obj, "ccnx:/mc/party/line", "over multicast", key);
    tu_send_all(producer, obj.data, obj.len);
    tu_read_element(consumer, &got, "ContentObject back across the multicast link");
    assert_int_equal(got.len, obj.len);
    assert_memory_equal(got.data, obj.data, obj.len);

    if (cap > 0) {
        usleep(300000);
        kill(cap, SIGINT);
        waitpid(cap, NULL, 0);
    }
    close(producer);
    close(consumer);
    ccnx_buf_free(&msg);
    ccnx_buf_free(&got);
    ccnx_buf_free(&obj);
    tu_ccnd_stop(&a);
    tu_ccnd_stop(&b);
    ccnx_key_destroy(key);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_multicast_between_namespaces),
    };
    return cmocka_run_group_tests(tests, make_link, remove_link);
}
