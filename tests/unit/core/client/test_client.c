/* The client against a stand-in for ccnd: a unix socket this test listens
 * on and answers by hand. An expressed Interest reaches it and the object
 * sent back reaches the callback; an unanswered Interest is sent again for
 * each retry, then times out once; a cancelled one gets no callback even
 * when its answer comes; content that matches nothing is dropped; a put
 * reaches ccnd byte for byte; a lost connection with reconnection off
 * fails what is pending at once. */
#include "testutil.h"

#include <ccnx/ccnb.h>
#include <ccnx/client.h>
#include <ccnx/content_sign.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/key.h>
#include <ccnx/name.h>
#include <ccnx/uri.h>

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define WAIT_MS 10000 /* a hang guard, never an expectation */

struct fake {
    char dir[64];
    char path[96];
    int listener, conn;
    struct ccnx_client *c;
    struct ccnx_buf pending; /* bytes read from the client, not yet a whole message */
};

struct result {
    int contents, timeouts;
    struct ccnx_buf name; /* of the object received */
};

static struct ccnx_key *key;

static int setup(void **state)
{
    (void)state;
    return ccnx_key_generate(0, &key) != 0;
}

static int teardown(void **state)
{
    (void)state;
    ccnx_key_destroy(key);
    return 0;
}

static void fake_start(struct fake *f)
{
    snprintf(f->dir, sizeof f->dir, "/tmp/client-unit-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->path, sizeof f->path, "%s/ccnd.sock", f->dir);
    f->listener = socket(AF_UNIX, SOCK_STREAM, 0);
    assert_true(f->listener >= 0);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", f->path);
    assert_int_equal(bind(f->listener, (struct sockaddr *)&sa, sizeof sa), 0);
    assert_int_equal(listen(f->listener, 4), 0);
    setenv("CCN_LOCAL_SOCKNAME", f->path, 1);
    unsetenv("CCN_LOCAL_PORT");
    unsetenv("CCN_LOCAL_TRANSPORT");
    assert_int_equal(ccnx_client_open(&f->c), 0);
    ccnx_client_set_reconnect(f->c, 0);
    f->conn = accept(f->listener, NULL, NULL);
    assert_true(f->conn >= 0);
    ccnx_buf_init(&f->pending);
}

static void fake_stop(struct fake *f)
{
    ccnx_client_destroy(f->c);
    if (f->conn >= 0) {
        close(f->conn);
    }
    close(f->listener);
    ccnx_buf_free(&f->pending);
    unlink(f->path);
    rmdir(f->dir);
}

/* The next whole message the client sent, into m (waits for it). */
static void fake_read(struct fake *f, struct ccnx_buf *m)
{
    struct ccnx_buf *pending = &f->pending;
    size_t end;
    int64_t until = ccnx_client_now_ms() + WAIT_MS;
    while (pending->len == 0 || ccnx_ccnb_element_end(pending->data, pending->len, 0, &end) != 0) {
        ccnx_client_run(f->c, 5); /* its output and its timers */
        struct pollfd p = {f->conn, POLLIN, 0};
        assert_true(ccnx_client_now_ms() < until);
        if (poll(&p, 1, 5) == 1) {
            uint8_t buf[4096];
            ssize_t n = read(f->conn, buf, sizeof buf);
            assert_true(n > 0);
            ccnx_buf_append(pending, buf, (size_t)n);
        }
    }
    ccnx_buf_reset(m);
    ccnx_buf_append(m, pending->data, end);
    memmove(pending->data, pending->data + end, pending->len - end);
    pending->len -= end;
}

/* 1 when the client sent nothing within ms. */
static int fake_quiet(struct fake *f, int ms)
{
    ccnx_client_run(f->c, 0);
    struct pollfd p = {f->conn, POLLIN, 0};
    return poll(&p, 1, ms) == 0;
}

static void fake_send_object(struct fake *f, const char *uri)
{
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
    struct ccnx_content_params p;
    ccnx_content_params_init(&p);
    p.name = n.enc.data;
    p.name_len = n.enc.len;
    struct ccnx_buf obj = CCNX_BUF_INIT;
    assert_int_equal(ccnx_content_sign(&obj, &p, key), 0);
    assert_int_equal(write(f->conn, obj.data, obj.len), (ssize_t)obj.len);
    ccnx_buf_free(&obj);
    ccnx_name_free(&n);
}

static void on_content(void *arg, const uint8_t *obj, size_t len,
                       const struct ccnx_content_parsed *pc)
{
    (void)len;
    struct result *r = arg;
    r->contents++;
    ccnx_buf_reset(&r->name);
    ccnx_buf_append(&r->name, obj + pc->name.off, pc->name.len);
}

static void on_timeout(void *arg)
{
    ((struct result *)arg)->timeouts++;
}

static uint64_t express(struct fake *f, const char *uri, struct result *r, int timeout_ms,
                        unsigned retries)
{
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = n.enc.data;
    ip.name_len = n.enc.len;
    struct ccnx_buf msg = CCNX_BUF_INIT;
    assert_int_equal(ccnx_interest_build(&msg, &ip), 0);
    struct ccnx_express_opts o = {on_content, on_timeout, r, timeout_ms, retries, 0};
    uint64_t id = 0;
    assert_int_equal(ccnx_client_express(f->c, msg.data, msg.len, &o, &id), 0);
    ccnx_buf_free(&msg);
    ccnx_name_free(&n);
    return id;
}

/* Runs the client until *count reaches want (or the hang guard fails). */
static void run_until(struct fake *f, const int *count, int want)
{
    int64_t until = ccnx_client_now_ms() + WAIT_MS;
    while (*count < want) {
        assert_true(ccnx_client_now_ms() < until);
        ccnx_client_run(f->c, 10);
    }
}

static void assert_interest_for(const struct ccnx_buf *m, const char *uri)
{
    struct ccnx_interest_parsed pi;
    assert_int_equal(ccnx_interest_parse(m->data, m->len, &pi), 0);
    struct ccnx_name want;
    ccnx_name_init(&want);
    assert_int_equal(ccnx_uri_parse_str(&want, uri), 0);
    assert_int_equal(pi.name.len, want.enc.len);
    assert_memory_equal(m->data + pi.name.off, want.enc.data, want.enc.len);
    ccnx_name_free(&want);
}

static void test_express_and_answer(void **state)
{
    (void)state;
    struct fake f;
    fake_start(&f);
    struct result r = {0, 0, CCNX_BUF_INIT};
    express(&f, "ccnx:/unit/a", &r, 5000, 0);
    struct ccnx_buf m = CCNX_BUF_INIT;
    fake_read(&f, &m);
    assert_interest_for(&m, "ccnx:/unit/a");
    fake_send_object(&f, "ccnx:/unit/other"); /* matches nothing: dropped */
    fake_send_object(&f, "ccnx:/unit/a/1");
    run_until(&f, &r.contents, 1);
    assert_int_equal(r.timeouts, 0);
    assert_int_equal(ccnx_client_pending_count(f.c), 0);
    struct ccnx_name want;
    ccnx_name_init(&want);
    assert_int_equal(ccnx_uri_parse_str(&want, "ccnx:/unit/a/1"), 0);
    assert_int_equal(r.name.len, want.enc.len);
    assert_memory_equal(r.name.data, want.enc.data, want.enc.len);
    ccnx_name_free(&want);
    ccnx_buf_free(&m);
    ccnx_buf_free(&r.name);
    fake_stop(&f);
}

static void test_retries_then_one_timeout(void **state)
{
    (void)state;
    struct fake f;
    fake_start(&f);
    struct result r = {0, 0, CCNX_BUF_INIT};
    express(&f, "ccnx:/unit/silent", &r, 50, 2);
    struct ccnx_buf m = CCNX_BUF_INIT;
    for (int i = 0; i < 3; i++) { /* the first send and two retries */
        fake_read(&f, &m);
        assert_interest_for(&m, "ccnx:/unit/silent");
    }
    run_until(&f, &r.timeouts, 1);
    assert_true(fake_quiet(&f, 100)); /* no fourth send */
    ccnx_client_run(f.c, 50);
    assert_int_equal(r.timeouts, 1);
    assert_int_equal(r.contents, 0);
    ccnx_buf_free(&m);
    fake_stop(&f);
}

static void test_cancelled_gets_nothing(void **state)
{
    (void)state;
    struct fake f;
    fake_start(&f);
    struct result r = {0, 0, CCNX_BUF_INIT}, other = {0, 0, CCNX_BUF_INIT};
    uint64_t id = express(&f, "ccnx:/unit/c", &r, 5000, 0);
    express(&f, "ccnx:/unit/d", &other, 5000, 0);
    assert_int_equal(ccnx_client_cancel(f.c, id), 0);
    assert_int_equal(ccnx_client_cancel(f.c, id), CCNX_E_NOTFOUND);
    fake_send_object(&f, "ccnx:/unit/c");
    fake_send_object(&f, "ccnx:/unit/d"); /* comes after: once it is in, so is /c */
    run_until(&f, &other.contents, 1);
    assert_int_equal(r.contents + r.timeouts, 0);
    ccnx_buf_free(&other.name);
    fake_stop(&f);
}

static void test_put_reaches_ccnd(void **state)
{
    (void)state;
    struct fake f;
    fake_start(&f);
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, "ccnx:/unit/put"), 0);
    struct ccnx_content_params p;
    ccnx_content_params_init(&p);
    p.name = n.enc.data;
    p.name_len = n.enc.len;
    struct ccnx_buf obj = CCNX_BUF_INIT, m = CCNX_BUF_INIT;
    assert_int_equal(ccnx_content_sign(&obj, &p, key), 0);
    assert_int_equal(ccnx_client_put(f.c, obj.data, obj.len), 0);
    fake_read(&f, &m);
    assert_int_equal(m.len, obj.len);
    assert_memory_equal(m.data, obj.data, obj.len);
    ccnx_buf_free(&obj);
    ccnx_buf_free(&m);
    ccnx_name_free(&n);
    fake_stop(&f);
}

static void test_lost_connection_fails_what_is_pending(void **state)
{
    (void)state;
    struct fake f;
    fake_start(&f);
    struct result r = {0, 0, CCNX_BUF_INIT};
    express(&f, "ccnx:/unit/lost", &r, 60000, 0);
    struct ccnx_buf m = CCNX_BUF_INIT;
    fake_read(&f, &m);
    close(f.conn);
    f.conn = -1;
    int64_t until = ccnx_client_now_ms() + WAIT_MS;
    int rc = 0;
    while (rc == 0) {
        assert_true(ccnx_client_now_ms() < until);
        rc = ccnx_client_run(f.c, 10);
    }
    assert_int_equal(rc, CCNX_E_IO);
    assert_int_equal(r.timeouts, 1); /* at once, not after its 60 s */
    assert_false(ccnx_client_connected(f.c));
    ccnx_buf_free(&m);
    fake_stop(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_express_and_answer),
        cmocka_unit_test(test_retries_then_one_timeout),
        cmocka_unit_test(test_cancelled_gets_nothing),
        cmocka_unit_test(test_put_reaches_ccnd),
        cmocka_unit_test(test_lost_connection_fails_what_is_pending),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
