/* Several real ccnd processes on loopback, linked with ccndc: Interests and
 * content cross UDP and TCP links both ways, a triangle of forwarders
 * with looping routes does not loop, and with CCND_AUTOREG two forwarders
 * joined by a bare UDP face forward the prefix both ways with no
 * registration made by anyone. */
#include "ccndtest.h"
#include "testutil.h"

#include <ccnx/content.h>
#include <ccnx/interest.h>
#include <ccnx/key.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* consumer (on one ccnd) asks for uri; producer (on the other) must see the
 * Interest and its answer must come back to the consumer unchanged. */
static void exchange(int consumer, int producer, const char *uri)
{
    struct ccnx_buf msg = CCNX_BUF_INIT, got = CCNX_BUF_INIT, obj = CCNX_BUF_INIT;
    tu_interest(&msg, uri);
    tu_send_all(consumer, msg.data, msg.len);
    tu_read_element(producer, &got, "Interest at the producer");
    struct ccnx_interest_parsed pi;
    assert_int_equal(ccnx_interest_parse(got.data, got.len, &pi), 0);
    assert_true(pi.nonce.len > 0); /* added by the first forwarder */
    tu_content(&obj, uri, "across two forwarders", key);
    tu_send_all(producer, obj.data, obj.len);
    tu_read_element(consumer, &got, "ContentObject at the consumer");
    assert_int_equal(got.len, obj.len);
    assert_memory_equal(got.data, obj.data, obj.len);
    ccnx_buf_free(&msg);
    ccnx_buf_free(&got);
    ccnx_buf_free(&obj);
}

static void test_udp_and_tcp_both_ways(void **state)
{
    (void)state;
    struct tu_ccnd a, b;
    tu_ccnd_start(&a, 0);
    tu_ccnd_start(&b, 1);
    int prod_b = tu_ccnd_connect(&b), prod_a = tu_ccnd_connect(&a);
    tu_selfreg(prod_b, "ccnx:/two", key);
    tu_selfreg(prod_a, "ccnx:/back", key);
    char args[256];
    snprintf(args, sizeof args, "add ccnx:/two/udp udp 127.0.0.1 %s", b.port);
    assert_int_equal(tu_ccndc(&a, args), 0);
    snprintf(args, sizeof args, "add ccnx:/two/tcp tcp 127.0.0.1 %s", b.port);
    assert_int_equal(tu_ccndc(&a, args), 0);
    snprintf(args, sizeof args, "add ccnx:/back udp 127.0.0.1 %s", a.port);
    assert_int_equal(tu_ccndc(&b, args), 0);

    int cons_a = tu_ccnd_connect(&a), cons_b = tu_ccnd_connect(&b);
    exchange(cons_a, prod_b, "ccnx:/two/udp/item");
    exchange(cons_a, prod_b, "ccnx:/two/tcp/item");
    exchange(cons_b, prod_a, "ccnx:/back/item");
    /* A second consumer on A gets the UDP item from A's store: B stays quiet. */
    int again = tu_ccnd_connect(&a);
    struct ccnx_buf msg = CCNX_BUF_INIT, got = CCNX_BUF_INIT;
    tu_interest(&msg, "ccnx:/two/udp/item");
    tu_send_all(again, msg.data, msg.len);
    tu_read_element(again, &got, "cached ContentObject");
    assert_int_equal(tu_try_read_element(prod_b, &got, 300), 0);

    close(again);
    close(cons_a);
    close(cons_b);
    close(prod_a);
    close(prod_b);
    ccnx_buf_free(&msg);
    ccnx_buf_free(&got);
    tu_ccnd_stop(&a);
    tu_ccnd_stop(&b);
}

/* Reads ccnd's forwarder counters from its status page as JSON text. */
static long counter(const struct tu_ccnd *d, const char *field)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "CCN_LOCAL_PORT=%s %s/ccndstatus -j", d->port,
             getenv("CCNX_BIN") ? getenv("CCNX_BIN") : ".");
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    static char page[1 << 16];
    size_t n = fread(page, 1, sizeof page - 1, p);
    page[n] = '\0';
    pclose(p);
    char key_text[80];
    snprintf(key_text, sizeof key_text, "\"%s\":", field);
    const char *at = strstr(page, key_text);
    if (at == NULL) {
        fail_msg("no %s in the status page of ccnd on port %s", field, d->port);
    }
    return strtol(at + strlen(key_text), NULL, 10);
}

static void test_triangle_does_not_loop(void **state)
{
    (void)state;
    struct tu_ccnd t[3];
    for (unsigned i = 0; i < 3; i++) {
        tu_ccnd_start(&t[i], i);
    }
    char args[256];
    for (int i = 0; i < 3; i++) { /* A -> B -> C -> A */
        snprintf(args, sizeof args, "add ccnx:/loop udp 127.0.0.1 %s", t[(i + 1) % 3].port);
        assert_int_equal(tu_ccndc(&t[i], args), 0);
    }
    /* ccndc's own requests count as Interests too: measure from here on. */
    long before[3], mid[3];
    for (int i = 0; i < 3; i++) {
        before[i] = counter(&t[i], "interests_in");
    }
    int consumer = tu_ccnd_connect(&t[0]);
    struct ccnx_buf msg = CCNX_BUF_INIT;
    tu_interest(&msg, "ccnx:/loop/nobody/answers");
    tu_send_all(consumer, msg.data, msg.len);
    usleep(1500000);
    for (int i = 0; i < 3; i++) {
        mid[i] = counter(&t[i], "interests_in");
    }
    usleep(1000000);
    /* It went round once (A, B, C, back to A) and was dropped as a duplicate
     * where it started; nothing keeps circulating. */
    assert_true(counter(&t[0], "interests_duplicate") >= 1);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(counter(&t[i], "interests_in"), mid[i]);
        assert_true(mid[i] - before[i] >= 1);
        assert_true(mid[i] - before[i] <= 2);
    }
    close(consumer);
    ccnx_buf_free(&msg);
    for (int i = 0; i < 3; i++) {
        tu_ccnd_stop(&t[i]);
    }
}

/* B learns of A only from A's datagrams: its autoregistered route back to
 * A comes from the face those made. The unix faces of applications get no
 * autoregistration: a producer on A registered elsewhere never sees the
 * listed prefixes. */
static void test_autoreg_links_two_forwarders(void **state)
{
    (void)state;
    struct tu_ccnd a, b;
    setenv("CCND_AUTOREG", "ccnx:/auto, ccnx:/also", 1);
    tu_ccnd_start(&a, 0);
    tu_ccnd_start(&b, 1);
    unsetenv("CCND_AUTOREG");
    char args[256];
    snprintf(args, sizeof args, "create udp 127.0.0.1 %s", b.port);
    assert_int_equal(tu_ccndc(&a, args), 0); /* a face, no prefix */
    int prod_b = tu_ccnd_connect(&b), prod_a = tu_ccnd_connect(&a);
    tu_selfreg(prod_b, "ccnx:/auto/atb", key);
    tu_selfreg(prod_a, "ccnx:/also/ata", key);
    int cons_a = tu_ccnd_connect(&a), cons_b = tu_ccnd_connect(&b);
    exchange(cons_a, prod_b, "ccnx:/auto/atb/item");
    exchange(cons_b, prod_a, "ccnx:/also/ata/item");
    /* Outside the listed prefixes nothing is forwarded. */
    struct ccnx_buf msg = CCNX_BUF_INIT, got = CCNX_BUF_INIT;
    tu_interest(&msg, "ccnx:/elsewhere/item");
    tu_send_all(cons_a, msg.data, msg.len);
    assert_int_equal(tu_try_read_element(prod_b, &got, 300), 0);
    tu_interest(&msg, "ccnx:/auto/atb/other");
    tu_send_all(cons_a, msg.data, msg.len);
    tu_read_element(prod_b, &got, "a second Interest over the link");
    assert_int_equal(tu_try_read_element(prod_a, &got, 300), 0);
    close(cons_a);
    close(cons_b);
    close(prod_a);
    close(prod_b);
    ccnx_buf_free(&msg);
    ccnx_buf_free(&got);
    tu_ccnd_stop(&a);
    tu_ccnd_stop(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_udp_and_tcp_both_ways),
        cmocka_unit_test(test_triangle_does_not_loop),
        cmocka_unit_test(test_autoreg_links_two_forwarders),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
