/* The client library against a real ccnd: connecting (and the message when
 * nothing runs), registering, expressing and answering, selectors and the
 * implicit digest, timeouts, retries and cancel, timers, a foreign poll
 * loop, and surviving a ccnd restart. */
#include "ccndtest.h"
#include "testutil.h"

#include <ccnx/client.h>
#include <ccnx/content.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/match.h>
#include <ccnx/name.h>
#include <ccnx/content_sign.h>
#include <ccnx/key.h>
#include <ccnx/uri.h>

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct tu_ccnd ccnd;

static void use_ccnd(const struct tu_ccnd *d)
{
    char user[96];
    snprintf(user, sizeof user, "%s/user", d->dir);
    setenv("CCN_LOCAL_PORT", d->port, 1);
    setenv("CCN_LOCAL_SOCKNAME", d->stem, 1);
    setenv("CCNX_DIR", user, 1);
    unsetenv("CCN_LOCAL_TRANSPORT");
}

static int setup(void **state)
{
    (void)state;
    tu_ccnd_start(&ccnd, 0);
    use_ccnd(&ccnd);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tu_ccnd_stop(&ccnd);
    return 0;
}

static struct ccnx_client *open_client(void)
{
    struct ccnx_client *c = NULL;
    int res = ccnx_client_open(&c);
    if (res != 0) {
        fail_msg("client: %s", c ? ccnx_client_error(c) : "no memory");
    }
    return c;
}

static void interest_for(struct ccnx_buf *out, const char *uri, int child, int max_suffix)
{
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = n.enc.data;
    ip.name_len = n.enc.len;
    ip.child_selector = child;
    ip.max_suffix = max_suffix;
    ccnx_buf_reset(out);
    assert_int_equal(ccnx_interest_build(out, &ip), 0);
    ccnx_name_free(&n);
}

/* ---- A producer answering from a small set of signed objects ---- */

struct producer {
    struct ccnx_client *c;
    struct ccnx_buf objs[4];
    size_t n;
    int seen;
    int answer; /* 0: stay silent (to test timeouts and fallthrough) */
};

static int producer_interest(void *arg, const uint8_t *msg, size_t len,
                             const struct ccnx_interest_parsed *pi)
{
    (void)len;
    struct producer *p = arg;
    p->seen++;
    for (size_t i = 0; p->answer && i < p->n; i++) {
        struct ccnx_content_parsed pc;
        assert_int_equal(ccnx_content_parse(p->objs[i].data, p->objs[i].len, &pc), 0);
        if (ccnx_match(msg, pi, p->objs[i].data, p->objs[i].len, &pc, NULL)) {
            assert_int_equal(ccnx_client_put(p->c, p->objs[i].data, p->objs[i].len), 0);
            return 1;
        }
    }
    return 0;
}

static void producer_add(struct producer *p, const char *uri, const char *text)
{
    ccnx_buf_init(&p->objs[p->n]);
    tu_content(&p->objs[p->n++], uri, text, ccnx_client_key(p->c));
}

static uint64_t producer_start(struct producer *p, const char *prefix)
{
    memset(p, 0, sizeof *p);
    p->c = open_client();
    p->answer = 1;
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, prefix), 0);
    uint64_t id = 0;
    assert_int_equal(
        ccnx_client_set_filter(p->c, &n, CCNX_FILTER_REGISTER, 0, producer_interest, p, &id), 0);
    ccnx_name_free(&n);
    if (ccnx_client_wait_registered(p->c, id, 5000) != 0) {
        fail_msg("registration: %s", ccnx_client_error(p->c));
    }
    return id;
}

static void producer_free(struct producer *p)
{
    for (size_t i = 0; i < p->n; i++) {
        ccnx_buf_free(&p->objs[i]);
    }
    ccnx_client_destroy(p->c);
}

/* ---- Consumer side ---- */

struct answer {
    int contents;
    int timeouts;
    struct ccnx_buf text;
};

static void got_content(void *arg, const uint8_t *obj, size_t len,
                        const struct ccnx_content_parsed *pc)
{
    (void)len;
    struct answer *a = arg;
    a->contents++;
    ccnx_buf_reset(&a->text);
    ccnx_buf_append(&a->text, obj + pc->content_value.off, pc->content_value.len);
}

static void got_timeout(void *arg)
{
    ((struct answer *)arg)->timeouts++;
}

/* Runs both clients (the producer in the same thread) until *flag reaches
 * `until` or ms pass. */
static void run_until(struct ccnx_client *a, struct ccnx_client *b, int ms, const int *flag,
                      int until)
{
    int64_t end = ccnx_client_now_ms() + ms;
    while ((flag == NULL || *flag < until) && ccnx_client_now_ms() < end) {
        ccnx_client_run(a, 5);
        if (b != NULL) {
            ccnx_client_run(b, 5);
        }
    }
}

static void test_no_ccnd_message(void **state)
{
    (void)state;
    setenv("CCN_LOCAL_SOCKNAME", "/tmp/ccnx-client-test-nothing-here", 1);
    struct ccnx_client *c = NULL;
    assert_int_equal(ccnx_client_open(&c), CCNX_E_IO);
    assert_non_null(c);
    assert_non_null(strstr(ccnx_client_error(c), "no ccnd at /tmp/ccnx-client-test-nothing-here"));
    assert_non_null(strstr(ccnx_client_error(c), "start it with ccndstart"));
    assert_false(ccnx_client_connected(c));
    ccnx_client_destroy(c);
    use_ccnd(&ccnd);
}

static void test_express_and_answer(void **state)
{
    (void)state;
    struct producer p;
    producer_start(&p, "ccnx:/client/test/a");
    producer_add(&p, "ccnx:/client/test/a/one", "first");
    producer_add(&p, "ccnx:/client/test/a/two", "second");
    struct ccnx_client *c = open_client();
    struct answer ans = {0};
    struct ccnx_buf msg = CCNX_BUF_INIT;
    interest_for(&msg, "ccnx:/client/test/a/two", -1, -1);
    struct ccnx_express_opts o = {got_content, got_timeout, &ans, 3000, 0, 0};
    assert_int_equal(ccnx_client_express(c, msg.data, msg.len, &o, NULL), 0);
    assert_int_equal(ccnx_client_pending_count(c), 1);
    run_until(c, p.c, 3000, &ans.contents, 1);
    assert_int_equal(ans.contents, 1);
    assert_int_equal(ans.timeouts, 0);
    assert_memory_equal(ans.text.data, "second", 6);
    assert_int_equal(ccnx_client_pending_count(c), 0);

    /* Rightmost child under the prefix: "one" and "two" have the same
     * length, so they sort bytewise and "two" is the rightmost. */
    interest_for(&msg, "ccnx:/client/test/a", 1, -1);
    assert_int_equal(ccnx_client_express(c, msg.data, msg.len, &o, NULL), 0);
    run_until(c, p.c, 3000, &ans.contents, 2);
    assert_int_equal(ans.contents, 2);
    assert_memory_equal(ans.text.data, "second", 6);
    ccnx_buf_free(&msg);
    ccnx_buf_free(&ans.text);
    ccnx_client_destroy(c);
    producer_free(&p);
}

/* One object answers several pending Interests at once: its exact name, a
 * prefix of it, and its name plus its implicit digest. */
static void test_one_object_many_interests(void **state)
{
    (void)state;
    struct producer p;
    producer_start(&p, "ccnx:/client/test/b");
    struct ccnx_client *c = open_client();
    struct ccnx_buf obj = CCNX_BUF_INIT, msg = CCNX_BUF_INIT;
    tu_content(&obj, "ccnx:/client/test/b/x/y", "payload", ccnx_client_key(c));
    uint8_t digest[32];
    assert_int_equal(ccnx_content_digest(obj.data, obj.len, digest), 0);
    struct ccnx_name full;
    ccnx_name_init(&full);
    ccnx_uri_parse_str(&full, "ccnx:/client/test/b/x/y");
    ccnx_name_append(&full, digest, sizeof digest);

    struct answer a1 = {0}, a2 = {0}, a3 = {0}, other = {0};
    struct ccnx_express_opts o1 = {got_content, got_timeout, &a1, 2000, 0, 0};
    struct ccnx_express_opts o2 = {got_content, got_timeout, &a2, 2000, 0, 0};
    struct ccnx_express_opts o3 = {got_content, got_timeout, &a3, 2000, 0, 0};
    struct ccnx_express_opts o4 = {got_content, got_timeout, &other, 300, 0, 0};
    interest_for(&msg, "ccnx:/client/test/b/x/y", -1, -1);
    assert_int_equal(ccnx_client_express(c, msg.data, msg.len, &o1, NULL), 0);
    interest_for(&msg, "ccnx:/client/test/b/x", -1, -1);
    assert_int_equal(ccnx_client_express(c, msg.data, msg.len, &o2, NULL), 0);
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = full.enc.data;
    ip.name_len = full.enc.len;
    ccnx_buf_reset(&msg);
    assert_int_equal(ccnx_interest_build(&msg, &ip), 0);
    assert_int_equal(ccnx_client_express(c, msg.data, msg.len, &o3, NULL), 0);
    /* Same prefix, but MaxSuffixComponents 1 excludes the two-deeper object. */
    interest_for(&msg, "ccnx:/client/test/b", -1, 1);
    assert_int_equal(ccnx_client_express(c, msg.data, msg.len, &o4, NULL), 0);
    /* Producer stays silent; content goes out unsolicited through ccnd only
     * if ccnd has the Interests pending, which it has. */
    p.answer = 0;
    run_until(c, p.c, 300, NULL, 0);
    assert_int_equal(ccnx_client_put(p.c, obj.data, obj.len), 0);
    run_until(c, p.c, 2000, &a3.contents, 1);
    run_until(c, p.c, 500, NULL, 0);
    assert_int_equal(a1.contents, 1);
    assert_int_equal(a2.contents, 1);
    assert_int_equal(a3.contents, 1);
    assert_int_equal(other.contents, 0);
    assert_int_equal(other.timeouts, 1);
    ccnx_name_free(&full);
    ccnx_buf_free(&obj);
    ccnx_buf_free(&msg);
    ccnx_buf_free(&a1.text);
    ccnx_buf_free(&a2.text);
    ccnx_buf_free(&a3.text);
    ccnx_client_destroy(c);
    producer_free(&p);
}

static void test_timeout_retries_cancel(void **state)
{
    (void)state;
    struct producer p;
    producer_start(&p, "ccnx:/client/test/c");
    p.answer = 0;
    struct ccnx_client *c = open_client();
    struct answer a = {0}, cancelled = {0};
    struct ccnx_buf msg = CCNX_BUF_INIT;
    interest_for(&msg, "ccnx:/client/test/c/nothing", -1, -1);
    struct ccnx_express_opts o = {got_content, got_timeout, &a, 200, 2, 0};
    int64_t t0 = ccnx_client_now_ms();
    assert_int_equal(ccnx_client_express(c, msg.data, msg.len, &o, NULL), 0);
    struct ccnx_express_opts oc = {got_content, got_timeout, &cancelled, 100, 0, 0};
    uint64_t id;
    assert_int_equal(ccnx_client_express(c, msg.data, msg.len, &oc, &id), 0);
    assert_int_equal(ccnx_client_cancel(c, id), 0);
    assert_int_equal(ccnx_client_cancel(c, id), CCNX_E_NOTFOUND);
    run_until(c, p.c, 3000, &a.timeouts, 1);
    int64_t took = ccnx_client_now_ms() - t0;
    assert_int_equal(a.timeouts, 1);
    assert_int_equal(a.contents, 0);
    assert_true(took >= 600 && took < 2000);
    assert_true(p.seen >= 1);
    run_until(c, p.c, 200, NULL, 0);
    assert_int_equal(cancelled.timeouts + cancelled.contents, 0);
    /* The synchronous form says what happened. */
    assert_int_equal(ccnx_client_get(c, msg.data, msg.len, 150, &a.text), CCNX_E_NOTFOUND);
    assert_non_null(strstr(ccnx_client_error(c), "in time"));
    ccnx_buf_free(&msg);
    ccnx_buf_free(&a.text);
    ccnx_client_destroy(c);
    producer_free(&p);
}

/* An Interest whose first copy found a silent producer is answered only by
 * a re-expression: sent after 100 ms, then after doubling waits, well
 * before the Interest's 4 s lifetime; without reexpress_ms it times out. */
static void test_reexpression_schedule(void **state)
{
    (void)state;
    struct producer p;
    producer_start(&p, "ccnx:/client/test/again");
    producer_add(&p, "ccnx:/client/test/again/x", "second time lucky");
    producer_add(&p, "ccnx:/client/test/again/z", "never asked again");
    p.answer = 0;
    struct ccnx_client *c = open_client();
    struct ccnx_buf msg = CCNX_BUF_INIT;
    interest_for(&msg, "ccnx:/client/test/again/x", -1, -1);
    struct answer a = {0};
    struct ccnx_express_opts o = {got_content, got_timeout, &a, 3500, 0, CCNX_REEXPRESS_MS};
    int64_t t0 = ccnx_client_now_ms();
    assert_int_equal(ccnx_client_express(c, msg.data, msg.len, &o, NULL), 0);
    run_until(c, p.c, 3000, &p.seen, 1);
    assert_int_equal(p.seen, 1); /* the first copy, left unanswered */
    p.answer = 1;
    run_until(c, p.c, 5000, &a.contents, 1);
    assert_int_equal(a.contents, 1);
    assert_int_equal(a.timeouts, 0);
    assert_true(ccnx_client_now_ms() - t0 < 3500);
    assert_string_equal(ccnx_buf_cstr(&a.text), "second time lucky");

    /* Without reexpress_ms the first copy is the only one: the timeout. */
    p.answer = 0;
    p.seen = 0;
    interest_for(&msg, "ccnx:/client/test/again/z", -1, -1);
    struct answer b = {0};
    struct ccnx_express_opts ob = {got_content, got_timeout, &b, 600, 0, 0};
    assert_int_equal(ccnx_client_express(c, msg.data, msg.len, &ob, NULL), 0);
    run_until(c, p.c, 3000, &p.seen, 1);
    assert_int_equal(p.seen, 1);
    p.answer = 1;
    run_until(c, p.c, 5000, &b.timeouts, 1);
    assert_int_equal(b.timeouts, 1);
    assert_int_equal(b.contents, 0);
    ccnx_buf_free(&msg);
    ccnx_buf_free(&a.text);
    ccnx_client_destroy(c);
    producer_free(&p);
}

/* A filter on a longer prefix that declines lets the shorter one answer;
 * a local-only filter sees what ccnd sends for the registered one. */
static void test_filter_order_and_clear(void **state)
{
    (void)state;
    struct producer p;
    uint64_t reg = producer_start(&p, "ccnx:/client/test/d");
    producer_add(&p, "ccnx:/client/test/d/deep/x", "from the short filter");
    struct producer silent = {.c = p.c, .answer = 0};
    struct ccnx_name n;
    ccnx_name_init(&n);
    ccnx_uri_parse_str(&n, "ccnx:/client/test/d/deep");
    uint64_t local;
    assert_int_equal(
        ccnx_client_set_filter(p.c, &n, CCNX_FILTER_LOCAL, 0, producer_interest, &silent, &local),
        0);
    assert_int_equal(ccnx_client_filter_state(p.c, local), 1);
    struct ccnx_client *c = open_client();
    struct ccnx_buf out = CCNX_BUF_INIT, msg = CCNX_BUF_INIT;
    interest_for(&msg, "ccnx:/client/test/d/deep/x", -1, -1);
    /* ccnx_client_get runs only c; the producer must run too, so express. */
    struct answer a = {0};
    struct ccnx_express_opts o = {got_content, got_timeout, &a, 2000, 0, 0};
    assert_int_equal(ccnx_client_express(c, msg.data, msg.len, &o, NULL), 0);
    run_until(c, p.c, 2000, &a.contents, 1);
    assert_int_equal(a.contents, 1);
    assert_int_equal(silent.seen, 1);
    assert_int_equal(p.seen, 1);
    assert_int_equal(ccnx_client_clear_filter(p.c, local), 0);
    assert_int_equal(ccnx_client_clear_filter(p.c, local), CCNX_E_NOTFOUND);
    assert_int_equal(ccnx_client_clear_filter(p.c, reg), 0);
    ccnx_name_free(&n);
    ccnx_buf_free(&out);
    ccnx_buf_free(&msg);
    ccnx_buf_free(&a.text);
    ccnx_client_destroy(c);
    producer_free(&p);
}

static void count_tick(void *arg)
{
    (*(int *)arg)++;
}

static void test_timers(void **state)
{
    (void)state;
    struct ccnx_client *c = open_client();
    int fired = 0, never = 0;
    uint64_t id;
    assert_int_equal(ccnx_client_schedule(c, 30, count_tick, &fired, NULL), 0);
    assert_int_equal(ccnx_client_schedule(c, 10, count_tick, &never, &id), 0);
    assert_int_equal(ccnx_client_unschedule(c, id), 0);
    assert_int_equal(ccnx_client_unschedule(c, id), CCNX_E_NOTFOUND);
    int t = ccnx_client_timeout_ms(c);
    assert_true(t >= 0 && t <= 30);
    ccnx_client_run(c, 100);
    assert_int_equal(fired, 1);
    assert_int_equal(never, 0);
    assert_int_equal(ccnx_client_timeout_ms(c), -1);
    ccnx_client_destroy(c);
}

/* The application's own poll loop drives both clients. */
static void test_foreign_loop(void **state)
{
    (void)state;
    struct producer p;
    producer_start(&p, "ccnx:/client/test/e");
    producer_add(&p, "ccnx:/client/test/e/1", "polled");
    struct ccnx_client *c = open_client();
    struct answer a = {0};
    struct ccnx_buf msg = CCNX_BUF_INIT;
    interest_for(&msg, "ccnx:/client/test/e/1", -1, -1);
    struct ccnx_express_opts o = {got_content, got_timeout, &a, 2000, 0, 0};
    assert_int_equal(ccnx_client_express(c, msg.data, msg.len, &o, NULL), 0);
    int64_t end = ccnx_client_now_ms() + 3000;
    while (a.contents + a.timeouts == 0 && ccnx_client_now_ms() < end) {
        struct ccnx_client *cl[2] = {c, p.c};
        struct pollfd fds[2];
        int wait = 100;
        for (int i = 0; i < 2; i++) {
            fds[i] = (struct pollfd){ccnx_client_fd(cl[i]), ccnx_client_poll_events(cl[i]), 0};
            int t = ccnx_client_timeout_ms(cl[i]);
            if (t >= 0 && t < wait) {
                wait = t;
            }
        }
        assert_true(poll(fds, 2, wait) >= 0);
        for (int i = 0; i < 2; i++) {
            assert_int_equal(ccnx_client_process(cl[i]), 0);
        }
    }
    assert_int_equal(a.contents, 1);
    assert_memory_equal(a.text.data, "polled", 6);
    ccnx_buf_free(&msg);
    ccnx_buf_free(&a.text);
    ccnx_client_destroy(c);
    producer_free(&p);
}

/* ccnd goes away and comes back on the same port: both clients reconnect,
 * the producer registers again, and a new Interest is answered. TCP is used
 * because a restarted ccnd gets a new socket folder. */
static void test_survives_ccnd_restart(void **state)
{
    (void)state;
    setenv("CCN_LOCAL_TRANSPORT", "tcp", 1);
    struct producer p;
    producer_start(&p, "ccnx:/client/test/f");
    producer_add(&p, "ccnx:/client/test/f/after", "again");
    struct ccnx_client *c = open_client();
    struct ccnx_client *lost = open_client();
    ccnx_client_set_reconnect(lost, 0);

    tu_ccnd_stop(&ccnd);
    tu_ccnd_start(&ccnd, 0);
    char user[96];
    snprintf(user, sizeof user, "%s/user", ccnd.dir);
    setenv("CCNX_DIR", user, 1);

    /* Without reconnection a lost connection is final and says so. */
    struct answer gone = {0};
    struct ccnx_buf msg = CCNX_BUF_INIT;
    interest_for(&msg, "ccnx:/client/test/f/after", -1, -1);
    struct ccnx_express_opts og = {got_content, got_timeout, &gone, 5000, 0, 0};
    ccnx_client_express(lost, msg.data, msg.len, &og, NULL);
    assert_int_equal(ccnx_client_run(lost, 1000), CCNX_E_IO);
    assert_int_equal(gone.timeouts, 1);
    assert_non_null(strstr(ccnx_client_error(lost), "lost the connection"));
    ccnx_client_destroy(lost);

    /* A lifetime as short as the retry period: an attempt made before the
     * producer registered again does not hold later ones back in ccnd. */
    struct ccnx_name n;
    ccnx_name_init(&n);
    ccnx_uri_parse_str(&n, "ccnx:/client/test/f/after");
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = n.enc.data;
    ip.name_len = n.enc.len;
    ip.lifetime_units = 4096 / 2;
    ccnx_buf_reset(&msg);
    assert_int_equal(ccnx_interest_build(&msg, &ip), 0);
    ccnx_name_free(&n);
    struct answer a = {0};
    struct ccnx_express_opts o = {got_content, got_timeout, &a, 0, 10, 0};
    assert_int_equal(ccnx_client_express(c, msg.data, msg.len, &o, NULL), 0);
    run_until(c, p.c, 8000, &a.contents, 1);
    assert_int_equal(a.contents, 1);
    assert_true(ccnx_client_connected(c));
    assert_memory_equal(a.text.data, "again", 5);
    ccnx_buf_free(&msg);
    ccnx_buf_free(&a.text);
    ccnx_client_destroy(c);
    producer_free(&p);
    unsetenv("CCN_LOCAL_TRANSPORT");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_ccnd_message),
        cmocka_unit_test(test_express_and_answer),
        cmocka_unit_test(test_one_object_many_interests),
        cmocka_unit_test(test_timeout_retries_cancel),
        cmocka_unit_test(test_reexpression_schedule),
        cmocka_unit_test(test_filter_order_and_clear),
        cmocka_unit_test(test_timers),
        cmocka_unit_test(test_foreign_loop),
        cmocka_unit_test(test_survives_ccnd_restart),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
