/* The seqwriter on a real client and ccnd: its registered filter, the
 * flush timer that signs a paused stream, an Interest that reaches it
 * through ccnd before its segment exists and is answered once written,
 * a start-write that no repository answers, and a checked start-write
 * answered by a repository (another process) that already holds the data. */
#define _POSIX_C_SOURCE 200809L

#include "ccndtest.h"
#include "testutil.h"

#include <ccnx/client.h>
#include <ccnx/content.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/name.h>
#include <ccnx/naming.h>
#include <ccnx/seqwriter.h>
#include <ccnx/repo.h>
#include <ccnx/content_sign.h>
#include <ccnx/uri.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static struct tu_ccnd ccnd;

static int setup(void **state)
{
    (void)state;
    tu_ccnd_start(&ccnd, 0);
    char user[96];
    snprintf(user, sizeof user, "%s/user", ccnd.dir);
    setenv("CCN_LOCAL_PORT", ccnd.port, 1);
    setenv("CCN_LOCAL_SOCKNAME", ccnd.stem, 1);
    setenv("CCNX_DIR", user, 1);
    unsetenv("CCN_LOCAL_TRANSPORT");
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
    if (ccnx_client_open(&c) != 0) {
        fail_msg("client: %s", c != NULL ? ccnx_client_error(c) : "no memory");
    }
    return c;
}

static struct ccnx_seqwriter *open_writer(struct ccnx_client *c, const char *uri)
{
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
    struct ccnx_seqwriter_opts o;
    ccnx_seqwriter_opts_init(&o);
    o.block_size = 100;
    struct ccnx_seqwriter *w = NULL;
    assert_int_equal(ccnx_seqwriter_create(c, &n, &o, &w), 0);
    if (ccnx_client_wait_registered(c, ccnx_seqwriter_filter_id(w), 5000) != 0) {
        fail_msg("registration: %s", ccnx_client_error(c));
    }
    ccnx_name_free(&n);
    return w;
}

static uint64_t signed_segments(const struct ccnx_seqwriter *w)
{
    struct ccnx_seqwriter_stats st;
    ccnx_seqwriter_get_stats(w, &st);
    return st.segments;
}

static void test_flush_timer_signs_paused_stream(void **state)
{
    (void)state;
    struct ccnx_client *c = open_client();
    struct ccnx_seqwriter *w = open_writer(c, "ccnx:/pubc/timer");
    static uint8_t data[350];
    memset(data, 'a', sizeof data);
    assert_int_equal(ccnx_seqwriter_write(w, data, sizeof data), (long)sizeof data);
    assert_int_equal(signed_segments(w), 0); /* far from a full batch */
    int64_t end = ccnx_client_now_ms() + 2000;
    while (signed_segments(w) == 0 && ccnx_client_now_ms() < end) {
        ccnx_client_run(c, 10);
    }
    assert_int_equal(signed_segments(w), 3); /* the short fourth waits for more bytes */
    assert_int_equal(ccnx_seqwriter_flush(w), 0);
    assert_int_equal(signed_segments(w), 4);
    ccnx_seqwriter_destroy(w);
    ccnx_client_destroy(c);
}

struct consumer {
    int got;
    struct ccnx_buf obj;
};

static void on_content(void *arg, const uint8_t *obj, size_t len,
                       const struct ccnx_content_parsed *pc)
{
    (void)pc;
    struct consumer *k = arg;
    k->got++;
    ccnx_buf_append(&k->obj, obj, len);
}

static void run_both(struct ccnx_client *a, struct ccnx_client *b, int ms, const int *flag)
{
    int64_t end = ccnx_client_now_ms() + ms;
    while ((flag == NULL || *flag == 0) && ccnx_client_now_ms() < end) {
        ccnx_client_run(a, 5);
        ccnx_client_run(b, 5);
    }
}

static void test_interest_waits_for_segment(void **state)
{
    (void)state;
    struct ccnx_client *p = open_client();
    struct ccnx_client *c = open_client();
    struct ccnx_seqwriter *w = open_writer(p, "ccnx:/pubc/live");
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_name_copy(&n, ccnx_seqwriter_name(w)), 0);
    assert_int_equal(ccnx_naming_append_segment(&n, 5), 0);
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = n.enc.data;
    ip.name_len = n.enc.len;
    struct ccnx_buf interest = CCNX_BUF_INIT;
    assert_int_equal(ccnx_interest_build(&interest, &ip), 0);
    struct consumer k = {0, CCNX_BUF_INIT};
    struct ccnx_express_opts eo = {on_content, NULL, &k, 0, 0, 0};
    assert_int_equal(ccnx_client_express(c, interest.data, interest.len, &eo, NULL), 0);

    /* It reaches the writer and waits there. */
    struct ccnx_seqwriter_stats st = {0};
    int64_t end = ccnx_client_now_ms() + 3000;
    while (st.waiting == 0 && ccnx_client_now_ms() < end) {
        run_both(p, c, 20, NULL);
        ccnx_seqwriter_get_stats(w, &st);
    }
    assert_int_equal(st.waiting, 1);
    assert_int_equal(k.got, 0);

    /* Six full segments: the sixth is signed at once for the Interest. */
    static uint8_t data[600];
    memset(data, 'b', sizeof data);
    assert_int_equal(ccnx_seqwriter_write(w, data, sizeof data), (long)sizeof data);
    run_both(p, c, 3000, &k.got);
    assert_int_equal(k.got, 1);
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(k.obj.data, k.obj.len, &pc), 0);
    assert_int_equal(pc.name.len, n.enc.len);
    assert_memory_equal(k.obj.data + pc.name.off, n.enc.data, n.enc.len);
    assert_int_equal(ccnx_content_verify(k.obj.data, k.obj.len, &pc, ccnx_client_key(p)), 0);
    assert_false(pc.has_final_block_id);

    ccnx_buf_free(&k.obj);
    ccnx_buf_free(&interest);
    ccnx_name_free(&n);
    ccnx_seqwriter_destroy(w);
    ccnx_client_destroy(c);
    ccnx_client_destroy(p);
}

static void test_start_write_without_repository(void **state)
{
    (void)state;
    struct ccnx_client *c = open_client();
    struct ccnx_seqwriter *w = open_writer(c, "ccnx:/pubc/norepo");
    struct ccnx_repo_write_opts ro;
    ccnx_repo_write_opts_init(&ro);
    ro.timeout_ms = 800;
    int64_t t0 = ccnx_client_now_ms();
    assert_int_equal(ccnx_seqwriter_start_write(w, &ro, NULL, NULL), CCNX_E_NOTFOUND);
    int64_t took = ccnx_client_now_ms() - t0;
    assert_true(took >= 700 && took < 3000);
    /* A checked start-write needs segment 0 signed first. */
    ro.checked = 1;
    assert_int_equal(ccnx_seqwriter_start_write(w, &ro, NULL, NULL), CCNX_E_INVAL);
    ccnx_seqwriter_destroy(w);
    ccnx_client_destroy(c);
}

/* ---- A repository in a child process that holds everything already ---- */

struct holder {
    struct ccnx_client *c;
    int answered;
};

/* Answers <name>/%C1.R.sw-c/<nonce>/<segment>/<digest> with a DATA
 * RepositoryInfo naming <name>/<segment>/<digest>. */
static int holder_interest(void *arg, const uint8_t *interest, size_t len,
                           const struct ccnx_interest_parsed *pi)
{
    (void)len;
    struct holder *h = arg;
    struct ccnx_name n, target, gp;
    ccnx_name_init(&n);
    ccnx_name_init(&target);
    ccnx_name_init(&gp);
    struct ccnx_comp marker, seg, digest;
    int ok = ccnx_name_set_ccnb(&n, interest + pi->name.off, pi->name.len) == 0 && n.count >= 4 &&
             ccnx_name_comp(&n, n.count - 4, &marker) == 0 &&
             ccnx_naming_command_is(marker.p, marker.n, "R.sw-c") &&
             ccnx_name_comp(&n, n.count - 2, &seg) == 0 && ccnx_naming_is_segment(seg.p, seg.n) &&
             ccnx_name_comp(&n, n.count - 1, &digest) == 0 && digest.n == 32;
    if (ok) {
        ccnx_name_copy(&target, &n);
        ccnx_name_truncate(&target, n.count - 4);
        ccnx_name_append(&target, seg.p, seg.n);
        ccnx_name_append(&target, digest.p, digest.n);
        ccnx_uri_parse_str(&gp, "ccnx:/holder");
        struct ccnx_buf body = CCNX_BUF_INIT, obj = CCNX_BUF_INIT;
        ccnx_repo_info_build(&body, &gp, &target, 1, NULL);
        struct ccnx_content_params p;
        ccnx_content_params_init(&p);
        p.name = n.enc.data;
        p.name_len = n.enc.len;
        p.content = body.data;
        p.content_len = body.len;
        ok = ccnx_content_sign(&obj, &p, ccnx_client_key(h->c)) == 0 &&
             ccnx_client_put(h->c, obj.data, obj.len) == 0;
        h->answered = ok;
        ccnx_buf_free(&body);
        ccnx_buf_free(&obj);
    }
    ccnx_name_free(&n);
    ccnx_name_free(&target);
    ccnx_name_free(&gp);
    return ok;
}

/* The child: registers, tells the parent through `ready`, answers once. */
static void holder_main(int ready, const char *prefix)
{
    struct holder h = {NULL, 0};
    struct ccnx_name n;
    ccnx_name_init(&n);
    uint64_t id;
    if (ccnx_client_open(&h.c) != 0 || ccnx_uri_parse_str(&n, prefix) != 0 ||
        ccnx_client_set_filter(h.c, &n, CCNX_FILTER_REGISTER, 0, holder_interest, &h, &id) != 0 ||
        ccnx_client_wait_registered(h.c, id, 5000) != 0 || write(ready, "r", 1) != 1) {
        _exit(2);
    }
    int64_t end = ccnx_client_now_ms() + 10000;
    while (!h.answered && ccnx_client_now_ms() < end) {
        ccnx_client_run(h.c, 20);
    }
    ccnx_client_run(h.c, 200);
    _exit(h.answered ? 0 : 1);
}

static void test_checked_start_write_already_stored(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        holder_main(fds[1], "ccnx:/pubc/held");
    }
    close(fds[1]);
    char r;
    assert_int_equal(read(fds[0], &r, 1), 1);
    close(fds[0]);

    struct ccnx_client *c = open_client();
    struct ccnx_seqwriter *w = open_writer(c, "ccnx:/pubc/held/doc");
    static uint8_t data[250];
    memset(data, 'c', sizeof data);
    assert_int_equal(ccnx_seqwriter_write(w, data, sizeof data), (long)sizeof data);
    assert_int_equal(ccnx_seqwriter_close(w), 0);
    struct ccnx_repo_write_opts ro;
    ccnx_repo_write_opts_init(&ro);
    ro.checked = 1;
    ro.timeout_ms = 5000;
    struct ccnx_buf reply = CCNX_BUF_INIT;
    struct ccnx_repo_info ri;
    assert_int_equal(ccnx_seqwriter_start_write(w, &ro, &reply, &ri), 0);
    assert_int_equal(ri.type, CCNX_REPO_INFO_DATA);
    assert_int_equal(ri.name_count, 1);
    /* The name it holds is segment 0's full name: our object's digest. */
    size_t len;
    const uint8_t *obj = ccnx_seqwriter_segment(w, 0, &len);
    uint8_t digest[32];
    assert_int_equal(ccnx_content_digest(obj, len, digest), 0);
    struct ccnx_name held;
    ccnx_name_init(&held);
    assert_int_equal(ccnx_name_set_ccnb(&held, reply.data + ri.names[0].off, ri.names[0].len), 0);
    struct ccnx_comp last;
    assert_int_equal(ccnx_name_comp(&held, held.count - 1, &last), 0);
    assert_int_equal(last.n, 32);
    assert_memory_equal(last.p, digest, 32);
    assert_int_equal(held.count, ccnx_seqwriter_name(w)->count + 2);

    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ccnx_name_free(&held);
    ccnx_buf_free(&reply);
    ccnx_seqwriter_destroy(w);
    ccnx_client_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flush_timer_signs_paused_stream),
        cmocka_unit_test(test_interest_waits_for_segment),
        cmocka_unit_test(test_start_write_without_repository),
        cmocka_unit_test(test_checked_start_write_already_stored),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
