/* ccnpeek, ccnls, ccnslurp and ccnrm end to end: a real ccnd, a producer
 * process serving objects of its own and of the reference vectors (a name
 * enumeration reply, a stream segment), and the tools run as a user would. */
#include "ccndtest.h"
#include "testutil.h"

#include <ccnx/client.h>
#include <ccnx/content.h>
#include <ccnx/match.h>
#include <ccnx/key.h>
#include <ccnx/uri.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_OBJECTS 16

static struct tu_ccnd ccnd;
static pid_t producer = -1;
static char dir[128];
static struct ccnx_buf objects[MAX_OBJECTS];
static size_t nobjects;

static void add_object(struct ccnx_buf *b)
{
    assert_true(nobjects < MAX_OBJECTS);
    objects[nobjects++] = *b;
}

static void add_signed(const char *uri, const char *text, const struct ccnx_key *key, int tamper)
{
    struct ccnx_buf b = CCNX_BUF_INIT;
    tu_content(&b, uri, text, key);
    if (tamper) {
        struct ccnx_content_parsed pc;
        assert_int_equal(ccnx_content_parse(b.data, b.len, &pc), 0);
        b.data[pc.content_value.off] ^= 0x20; /* after signing: must not verify */
    }
    add_object(&b);
}

static void add_vector(const char *file)
{
    struct ccnx_buf b = CCNX_BUF_INIT;
    tu_read_vector(file, &b);
    add_object(&b);
}

static int answer(void *arg, const uint8_t *msg, size_t len, const struct ccnx_interest_parsed *pi)
{
    (void)len;
    struct ccnx_client *c = arg;
    for (size_t i = 0; i < nobjects; i++) {
        struct ccnx_content_parsed pc;
        if (ccnx_content_parse(objects[i].data, objects[i].len, &pc) == 0 &&
            ccnx_match(msg, pi, objects[i].data, objects[i].len, &pc, NULL)) {
            ccnx_client_put(c, objects[i].data, objects[i].len);
            return 1;
        }
    }
    return 0;
}

static void serve(const char *const *prefixes, size_t n)
{
    struct ccnx_client *c = NULL;
    if (ccnx_client_open(&c) != 0) {
        _exit(3);
    }
    for (size_t i = 0; i < n; i++) {
        struct ccnx_name name;
        ccnx_name_init(&name);
        uint64_t id;
        if (ccnx_uri_parse_str(&name, prefixes[i]) != 0 ||
            ccnx_client_set_filter(c, &name, CCNX_FILTER_REGISTER, 0, answer, c, &id) != 0 ||
            ccnx_client_wait_registered(c, id, 5000) != 0) {
            _exit(4);
        }
        ccnx_name_free(&name);
    }
    printf("ready\n");
    fflush(stdout);
    ccnx_client_run(c, 60000);
    _exit(0);
}

static void start_producer(void)
{
    static const char *const prefixes[] = {"ccnx:/t", "ccnx:/example/vec"};
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    producer = fork();
    assert_true(producer >= 0);
    if (producer == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        serve(prefixes, 2);
    }
    close(fds[1]);
    char line[16] = "";
    assert_true(read(fds[0], line, sizeof line) > 0);
    assert_memory_equal(line, "ready", 5);
    close(fds[0]);
}

static void stop_producer(void)
{
    if (producer > 0) {
        kill(producer, SIGTERM);
        waitpid(producer, NULL, 0);
        producer = -1;
    }
}

static int setup(void **state)
{
    (void)state;
    tu_ccnd_start(&ccnd, 0);
    snprintf(dir, sizeof dir, "%s/user", ccnd.dir);
    setenv("CCN_LOCAL_PORT", ccnd.port, 1);
    setenv("CCN_LOCAL_SOCKNAME", ccnd.stem, 1);
    setenv("CCNX_DIR", dir, 1);
    unsetenv("CCN_LOCAL_TRANSPORT");
    struct ccnx_key *key;
    assert_int_equal(ccnx_key_generate(1024, &key), 0);
    add_signed("ccnx:/t/a/one", "first object", key, 0);
    add_signed("ccnx:/t/a/two/x", "deeper", key, 0);
    add_signed("ccnx:/t/b", "bee", key, 0);
    add_signed("ccnx:/t/bad", "tampered", key, 1);
    ccnx_key_destroy(key);
    add_vector("co_name_enumeration_reply.ccnb");
    add_vector("co_stream_seg0.ccnb");
    start_producer();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    stop_producer();
    tu_ccnd_stop(&ccnd);
    for (size_t i = 0; i < nobjects; i++) {
        ccnx_buf_free(&objects[i]);
    }
    return 0;
}

/* Runs "$CCNX_BIN/<cmd>" with stdout and stderr kept: exit status. */
static int run(const char *cmd, struct ccnx_buf *out, struct ccnx_buf *err)
{
    char line[1024], o[256], e[256];
    snprintf(o, sizeof o, "%s/out", ccnd.dir);
    snprintf(e, sizeof e, "%s/err", ccnd.dir);
    snprintf(line, sizeof line, "%s/%s >%s 2>%s", getenv("CCNX_BIN"), cmd, o, e);
    int status = system(line);
    ccnx_buf_reset(out);
    ccnx_buf_reset(err);
    ccnx_buf_read_file(out, o);
    ccnx_buf_read_file(err, e);
    ccnx_buf_append_byte(out, 0);
    ccnx_buf_append_byte(err, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_ccnpeek(void **state)
{
    (void)state;
    struct ccnx_buf out = CCNX_BUF_INIT, err = CCNX_BUF_INIT;
    assert_int_equal(run("ccnpeek -c ccnx:/t/a/one", &out, &err), 0);
    assert_string_equal((char *)out.data, "first object");
    /* Without -c the whole object, which verifies. */
    assert_int_equal(run("ccnpeek ccnx:/t/a/one", &out, &err), 0);
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(out.data, out.len - 1, &pc), 0);
    /* The reference's stream segment verifies with the key it carries. */
    assert_int_equal(run("ccnpeek -c ccnx:/example/vec/stream", &out, &err), 0);
    assert_int_equal(out.len - 1, 1024);
    /* A tampered object is refused, with the reason and the way out. */
    assert_int_equal(run("ccnpeek -c ccnx:/t/bad", &out, &err), 1);
    assert_non_null(strstr((char *)err.data, "verif"));
    assert_non_null(strstr((char *)err.data, "-u"));
    assert_int_equal(run("ccnpeek -u -c ccnx:/t/bad", &out, &err), 0);
    assert_string_equal((char *)out.data, "Tampered");
    assert_int_equal(run("ccnpeek -w 0.3 ccnx:/t/none", &out, &err), 1);
    assert_non_null(strstr((char *)err.data, "nothing answered for ccnx:/t/none within 0.3 s"));
    assert_int_equal(run("ccnpeek -w 99 ccnx:/t", &out, &err), 2);
    assert_int_equal(run("ccnpeek --help", &out, &err), 0);
    assert_non_null(strstr((char *)out.data, "Usage: ccnpeek"));
    ccnx_buf_free(&out);
    ccnx_buf_free(&err);
}

static void test_ccnls(void **state)
{
    (void)state;
    struct ccnx_buf out = CCNX_BUF_INIT, err = CCNX_BUF_INIT;
    assert_int_equal(run("ccnls ccnx:/t", &out, &err), 0);
    /* Signatures are checked, as the reference's ccnls checks them; a
     * tampered object is listed unverified, with the reason. */
    assert_non_null(strstr((char *)out.data, "a [verified]\n"));
    assert_non_null(strstr((char *)out.data, "b [verified]\n"));
    assert_non_null(strstr((char *)out.data, "bad [unverified]\n"));
    assert_non_null(strstr((char *)err.data, "ccnx:/t/bad"));
    assert_non_null(strstr((char *)err.data, "verif"));
    /* CCN_VERIFY requires it: what does not verify is left out. */
    setenv("CCN_VERIFY", "1", 1);
    assert_int_equal(run("ccnls ccnx:/t", &out, &err), 0);
    unsetenv("CCN_VERIFY");
    assert_non_null(strstr((char *)out.data, "a [verified]\n"));
    assert_null(strstr((char *)out.data, "bad "));
    assert_non_null(strstr((char *)err.data, "(not listed)"));
    /* Name enumeration: the reference repository's reply lists doc1, doc2. */
    assert_int_equal(run("ccnls ccnx:/example/vec/repo", &out, &err), 0);
    assert_non_null(strstr((char *)out.data, "doc1 "));
    assert_non_null(strstr((char *)out.data, "doc2 "));
    assert_int_equal(run("ccnls", &out, &err), 2);
    ccnx_buf_free(&out);
    ccnx_buf_free(&err);
}

static void test_ccnslurp(void **state)
{
    (void)state;
    struct ccnx_buf out = CCNX_BUF_INIT, err = CCNX_BUF_INIT;
    assert_int_equal(run("ccnslurp ccnx:/t", &out, &err), 0);
    const char *names[] = {"ccnx:/t/a/one\n", "ccnx:/t/a/two/x\n", "ccnx:/t/b\n", "ccnx:/t/bad\n"};
    for (size_t i = 0; i < 4; i++) {
        assert_non_null(strstr((char *)out.data, names[i]));
    }
    int lines = 0;
    for (const char *p = (char *)out.data; *p; p++) {
        lines += *p == '\n';
    }
    assert_int_equal(lines, 4);
    ccnx_buf_free(&out);
    ccnx_buf_free(&err);
}

/* ccnrm acts on ccnd's cache only: Scope 0 Interests show the effect. */
static void test_ccnrm(void **state)
{
    (void)state;
    struct ccnx_buf out = CCNX_BUF_INIT, err = CCNX_BUF_INIT;
    assert_int_equal(run("ccnpeek -c ccnx:/t/b", &out, &err), 0);
    assert_int_equal(run("ccnpeek -s 0 -c ccnx:/t/b", &out, &err), 0);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "ccnrm -o %s/removed.ccnb ccnx:/t/b", ccnd.dir);
    assert_int_equal(run(cmd, &out, &err), 0);
    assert_non_null(strstr((char *)err.data, "1 object marked stale under ccnx:/t/b"));
    assert_int_equal(run("ccnpeek -s 0 -w 0.3 ccnx:/t/b", &out, &err), 1);
    /* Stale, not gone: an Interest that accepts stale content still gets it. */
    assert_int_equal(run("ccnpeek -a -s 0 -c ccnx:/t/b", &out, &err), 0);
    assert_string_equal((char *)out.data, "bee");
    snprintf(cmd, sizeof cmd, "%s/removed.ccnb", ccnd.dir);
    struct ccnx_buf removed = CCNX_BUF_INIT;
    assert_int_equal(ccnx_buf_read_file(&removed, cmd), 0);
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(removed.data, removed.len, &pc), 0);
    ccnx_buf_free(&removed);
    ccnx_buf_free(&out);
    ccnx_buf_free(&err);
}

static void test_no_ccnd(void **state)
{
    (void)state;
    struct ccnx_buf out = CCNX_BUF_INIT, err = CCNX_BUF_INIT;
    setenv("CCN_LOCAL_SOCKNAME", "/tmp/ccnx-tools-test-no-ccnd", 1);
    const char *tools[] = {"ccnpeek ccnx:/x", "ccnls ccnx:/x", "ccnslurp ccnx:/x", "ccnrm ccnx:/x"};
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(run(tools[i], &out, &err), 1);
        assert_non_null(strstr((char *)err.data, "no ccnd at /tmp/ccnx-tools-test-no-ccnd"));
        assert_non_null(strstr((char *)err.data, "start it with ccndstart"));
    }
    setenv("CCN_LOCAL_SOCKNAME", ccnd.stem, 1);
    ccnx_buf_free(&out);
    ccnx_buf_free(&err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ccnpeek),  cmocka_unit_test(test_ccnls),
        cmocka_unit_test(test_ccnslurp), cmocka_unit_test(test_ccnrm),
        cmocka_unit_test(test_no_ccnd),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
