/* ccnpoke, ccnputfile and ccnseqwriter against a private ccnd: objects
 * fetched by a client and verified with the key they carry, a file served
 * and reassembled segment by segment, a repository start-write answered by
 * a fake repository in this test that then fetches every segment, and the
 * error messages. */
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
#include <ccnx/key.h>
#include <ccnx/uri.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static struct tu_ccnd ccnd;
static struct ccnx_client *g_client;

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
    if (ccnx_client_open(&g_client) != 0 || ccnx_client_key(g_client) == NULL) {
        fail_msg("client: %s", g_client ? ccnx_client_error(g_client) : "no memory");
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    ccnx_client_destroy(g_client);
    tu_ccnd_stop(&ccnd);
    return 0;
}

/* ---- Running the tools ---- */

static const char *bin(void)
{
    const char *b = getenv("CCNX_BIN");
    return b != NULL ? b : "bin";
}

static void path_in_dir(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", ccnd.dir, name);
}

/* Starts tool with argv (NULL-terminated), stdin from `in` (NULL:
 * /dev/null), stdout and stderr into <dir>/<tool>.out and .err. */
/* The last program spawned, named when it does not exit in time. */
static const char *g_last_tool = "";

static pid_t spawn(const char *tool, const char *const *args, const char *in)
{
    char exe[600], out[128], err[128];
    g_last_tool = tool;
    snprintf(exe, sizeof exe, "%s/%s", bin(), tool);
    snprintf(out, sizeof out, "%s/%s.out", ccnd.dir, tool);
    snprintf(err, sizeof err, "%s/%s.err", ccnd.dir, tool);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fi = open(in != NULL ? in : "/dev/null", O_RDONLY);
        int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fi < 0 || fo < 0 || fe < 0) {
            _exit(126);
        }
        dup2(fi, 0);
        dup2(fo, 1);
        dup2(fe, 2);
        char *argv[16];
        size_t n = 0;
        argv[n++] = (char *)tool;
        for (size_t i = 0; args[i] != NULL && n < 15; i++) {
            argv[n++] = (char *)args[i];
        }
        argv[n] = NULL;
        execv(exe, argv);
        _exit(127);
    }
    return pid;
}

/* How long a tool may take to exit before the test calls it hung: the
 * wait ends as soon as it exits, so this only bounds a hang, and is wide
 * enough for the sanitizer build on a loaded machine. */
#define EXIT_WAIT_MS 60000

/* Exit status of pid, waiting at most ms (then killed, failing the test). */
static int wait_exit(pid_t pid, int ms)
{
    int status = 0;
    for (int waited = 0; waited < ms; waited += 20) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) {
            assert_true(WIFEXITED(status));
            return WEXITSTATUS(status);
        }
        ccnx_client_run(g_client, 20);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    char path[160];
    struct ccnx_buf err = CCNX_BUF_INIT;
    snprintf(path, sizeof path, "%s/%s.err", ccnd.dir, g_last_tool);
    ccnx_buf_read_file(&err, path);
    char msg[512];
    snprintf(msg, sizeof msg, "%.*s", (int)err.len, err.data != NULL ? (const char *)err.data : "");
    ccnx_buf_free(&err); /* fail_msg does not return */
    fail_msg("%s (pid %d) did not exit within %d ms; its errors: %s", g_last_tool, (int)pid, ms,
             msg);
    return -1;
}

static void read_output(const char *tool, const char *ext, struct ccnx_buf *b)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s.%s", ccnd.dir, tool, ext);
    ccnx_buf_reset(b);
    assert_int_equal(ccnx_buf_read_file(b, path), 0);
    assert_non_null(ccnx_buf_cstr(b));
}

static void assert_output_has(const char *tool, const char *ext, const char *text)
{
    struct ccnx_buf b = CCNX_BUF_INIT;
    read_output(tool, ext, &b);
    if (strstr((const char *)b.data, text) == NULL) {
        fail_msg("%s.%s lacks '%s': %s", tool, ext, text, (const char *)b.data);
    }
    ccnx_buf_free(&b);
}

/* Runs client c until the tool's output has text (at most EXIT_WAIT_MS). */
static void wait_output_has(struct ccnx_client *c, const char *tool, const char *ext,
                            const char *text)
{
    struct ccnx_buf b = CCNX_BUF_INIT;
    int64_t end = ccnx_client_now_ms() + EXIT_WAIT_MS;
    do {
        ccnx_client_run(c, 20);
        read_output(tool, ext, &b);
    } while (strstr((const char *)b.data, text) == NULL && ccnx_client_now_ms() < end);
    ccnx_buf_free(&b);
    assert_output_has(tool, ext, text);
}

static void write_file(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static void fill(uint8_t *p, size_t n)
{
    uint32_t x = 2463534242u;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        p[i] = (uint8_t)x;
    }
}

/* ---- Fetching ---- */

/* Fetches the first object under name_enc (optionally plus a segment),
 * retrying while the producer starts; verifies it with the key it carries. */
static void fetch_verified(const uint8_t *name_enc, size_t name_len, int64_t segment,
                           struct ccnx_buf *obj, struct ccnx_content_parsed *pc)
{
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_name_set_ccnb(&n, name_enc, name_len), 0);
    if (segment >= 0) {
        assert_int_equal(ccnx_naming_append_segment(&n, (uint64_t)segment), 0);
    }
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = n.enc.data;
    ip.name_len = n.enc.len;
    /* Short-lived, and retried only after it expired, so an Interest sent
     * before the producer registered leaves ccnd's table before the next
     * try (a retry inside the lifetime is merged with the old entry). */
    ip.lifetime_units = CCNX_TIMESTAMP_HZ / 2;
    struct ccnx_buf interest = CCNX_BUF_INIT;
    assert_int_equal(ccnx_interest_build(&interest, &ip), 0);
    int rc = CCNX_E_NOTFOUND;
    for (int tries = 0; tries < 20 && rc == CCNX_E_NOTFOUND; tries++) {
        ccnx_buf_reset(obj);
        rc = ccnx_client_get(g_client, interest.data, interest.len, 700, obj);
    }
    if (rc != 0) {
        fail_msg("fetch: %s", ccnx_client_error(g_client));
    }
    assert_int_equal(ccnx_content_parse(obj->data, obj->len, pc), 0);
    struct ccnx_key *key = NULL;
    assert_int_equal(ccnx_content_locator_key(obj->data, pc, &key), 0);
    assert_int_equal(ccnx_content_verify(obj->data, obj->len, pc, key), 0);
    ccnx_key_destroy(key);
    ccnx_buf_free(&interest);
    ccnx_name_free(&n);
}

static void uri_name(const char *uri, struct ccnx_name *n)
{
    ccnx_name_init(n);
    assert_int_equal(ccnx_uri_parse_str(n, uri), 0);
}

/* ---- ccnpoke ---- */

static void test_ccnpoke_answers_one_interest(void **state)
{
    (void)state;
    char in[128];
    path_in_dir(in, sizeof in, "poke.txt");
    write_file(in, (const uint8_t *)"hello from ccnpoke\n", 19);
    const char *args[] = {"-v", "-x", "30", "ccnx:/pub/poke/hello", NULL};
    pid_t pid = spawn("ccnpoke", args, in);
    struct ccnx_name n;
    uri_name("ccnx:/pub/poke/hello", &n);
    struct ccnx_buf obj = CCNX_BUF_INIT;
    struct ccnx_content_parsed pc;
    fetch_verified(n.enc.data, n.enc.len, -1, &obj, &pc);
    assert_int_equal(pc.content_value.len, 19);
    assert_memory_equal(obj.data + pc.content_value.off, "hello from ccnpoke\n", 19);
    assert_int_equal(pc.freshness, 30);
    assert_int_equal(pc.name.len, n.enc.len);
    assert_memory_equal(obj.data + pc.name.off, n.enc.data, n.enc.len);
    assert_int_equal(wait_exit(pid, EXIT_WAIT_MS), 0);
    assert_output_has("ccnpoke", "out", "wrote ccnx:/pub/poke/hello");
    ccnx_buf_free(&obj);
    ccnx_name_free(&n);
}

static void test_ccnpoke_version_type_and_timeout(void **state)
{
    (void)state;
    char in[128];
    path_in_dir(in, sizeof in, "poke.txt");
    write_file(in, (const uint8_t *)"k", 1);
    const char *args[] = {"-t", "KEY", "-V", "%00", "ccnx:/pub/poke/typed", NULL};
    pid_t pid = spawn("ccnpoke", args, in);
    struct ccnx_name n;
    uri_name("ccnx:/pub/poke/typed", &n);
    struct ccnx_buf obj = CCNX_BUF_INIT;
    struct ccnx_content_parsed pc;
    fetch_verified(n.enc.data, n.enc.len, -1, &obj, &pc);
    assert_int_equal(pc.type, CCNX_TYPE_KEY);
    assert_int_equal(pc.name_count, 5);
    assert_true(pc.has_final_block_id);
    assert_int_equal(pc.final_block_id.len, 1);
    assert_int_equal(wait_exit(pid, EXIT_WAIT_MS), 0);

    /* Nobody asks: -w gives up with a message and status 1. */
    const char *quiet[] = {"-w", "1", "ccnx:/pub/poke/nobody", NULL};
    pid = spawn("ccnpoke", quiet, in);
    assert_int_equal(wait_exit(pid, EXIT_WAIT_MS), 1);
    assert_output_has("ccnpoke", "err", "no Interest for ccnx:/pub/poke/nobody arrived within 1 s");
    ccnx_buf_free(&obj);
    ccnx_name_free(&n);
}

/* ---- ccnputfile serving ---- */

/* Fetches every segment of the stream whose segment 0 is *first, appending
 * their contents to data, until the segment a FinalBlockID names (which
 * must never name one already passed); the final segment's object goes to
 * *last when last is not NULL. */
static void fetch_stream(struct ccnx_buf *first, struct ccnx_content_parsed *pc0,
                         struct ccnx_buf *data, uint64_t *segments, struct ccnx_buf *last)
{
    struct ccnx_name versioned;
    ccnx_name_init(&versioned);
    assert_int_equal(ccnx_name_set_ccnb(&versioned, first->data + pc0->name.off, pc0->name.len), 0);
    assert_int_equal(ccnx_name_truncate(&versioned, versioned.count - 1), 0);
    struct ccnx_comp v;
    assert_int_equal(ccnx_name_comp(&versioned, versioned.count - 1, &v), 0);
    assert_true(ccnx_naming_is_version(v.p, v.n));
    struct ccnx_buf obj = CCNX_BUF_INIT;
    struct ccnx_content_parsed pc = *pc0;
    ccnx_buf_append(&obj, first->data, first->len);
    uint64_t seg = 0;
    for (;;) {
        uint64_t got;
        assert_int_equal(
            ccnx_naming_last_is_segment_ccnb(obj.data + pc.name.off, pc.name.len, &got), 1);
        assert_int_equal(got, seg);
        ccnx_buf_append(data, obj.data + pc.content_value.off, pc.content_value.len);
        uint64_t fin;
        if (pc.has_final_block_id) {
            assert_int_equal(ccnx_naming_segment_decode(obj.data + pc.final_block_id.off,
                                                        pc.final_block_id.len, &fin),
                             0);
            assert_true(fin >= seg);
            if (fin == seg) {
                break;
            }
        }
        assert_true(seg < 100000);
        seg++;
        fetch_verified(versioned.enc.data, versioned.enc.len, (int64_t)seg, &obj, &pc);
    }
    *segments = seg + 1;
    if (last != NULL) {
        ccnx_buf_reset(last);
        ccnx_buf_append(last, obj.data, obj.len);
    }
    ccnx_buf_free(&obj);
    ccnx_name_free(&versioned);
}

static void test_ccnputfile_serves_file(void **state)
{
    (void)state;
    static uint8_t content[50000];
    fill(content, sizeof content);
    char file[128];
    path_in_dir(file, sizeof file, "put.bin");
    write_file(file, content, sizeof content);
    const char *args[] = {"-r", "-x", "30", "ccnx:/pub/file", file, NULL};
    pid_t pid = spawn("ccnputfile", args, NULL);

    struct ccnx_name n;
    uri_name("ccnx:/pub/file", &n);
    struct ccnx_buf obj = CCNX_BUF_INIT, data = CCNX_BUF_INIT;
    struct ccnx_content_parsed pc;
    fetch_verified(n.enc.data, n.enc.len, -1, &obj, &pc);
    assert_int_equal(pc.name_count, n.count + 2);
    assert_int_equal(pc.content_value.len, CCNX_SEQWRITER_BLOCK_DEFAULT);
    uint64_t segments = 0;
    fetch_stream(&obj, &pc, &data, &segments, NULL);
    assert_int_equal(segments, (sizeof content + 4095) / 4096);
    assert_int_equal(data.len, sizeof content);
    assert_memory_equal(data.data, content, sizeof content);

    kill(pid, SIGTERM);
    assert_int_equal(wait_exit(pid, EXIT_WAIT_MS), 0);
    assert_output_has("ccnputfile", "err", "served ccnx:/pub/file/%FD");
    assert_output_has("ccnputfile", "err", "50000 bytes in 13 segments");
    ccnx_buf_free(&obj);
    ccnx_buf_free(&data);
    ccnx_name_free(&n);
}

static void test_ccnputfile_errors(void **state)
{
    (void)state;
    const char *missing[] = {"-r", "ccnx:/pub/none", "/nonexistent/file", NULL};
    pid_t pid = spawn("ccnputfile", missing, NULL);
    assert_int_equal(wait_exit(pid, EXIT_WAIT_MS), 1);
    assert_output_has("ccnputfile", "err", "cannot read /nonexistent/file");

    const char *usage[] = {"ccnx:/pub/none", NULL};
    pid = spawn("ccnputfile", usage, NULL);
    assert_int_equal(wait_exit(pid, EXIT_WAIT_MS), 2);
    assert_output_has("ccnputfile", "err", "a URI and a FILE are needed");

    const char *help[] = {"--help", NULL};
    pid = spawn("ccnputfile", help, NULL);
    assert_int_equal(wait_exit(pid, EXIT_WAIT_MS), 0);
    assert_output_has("ccnputfile", "out", "Usage: ccnputfile");

    /* No ccnd: the message names the socket that was tried. */
    char file[128];
    path_in_dir(file, sizeof file, "put.bin");
    write_file(file, (const uint8_t *)"x", 1);
    setenv("CCN_LOCAL_SOCKNAME", "/tmp/pub-test-no-ccnd", 1);
    const char *args[] = {"-r", "ccnx:/pub/none", file, NULL};
    pid = spawn("ccnputfile", args, NULL);
    setenv("CCN_LOCAL_SOCKNAME", ccnd.stem, 1);
    assert_int_equal(wait_exit(pid, EXIT_WAIT_MS), 1);
    assert_output_has("ccnputfile", "err", "/tmp/pub-test-no-ccnd");
}

/* ---- A fake repository for start-write ---- */

struct fake_repo {
    struct ccnx_client *c;
    struct ccnx_name versioned; /* what the start-write asked to store */
    int asked;
    int holds;             /* answers for the final segment once fetched */
    struct ccnx_buf final; /* the final segment, when fetched */
    int confirm_asked;     /* Interests for it that no content store may answer */
};

/* The writer's check that the repository holds the stream: an Interest
 * for the final segment that only new content may answer. */
static int repo_confirm(struct fake_repo *r, const uint8_t *interest,
                        const struct ccnx_interest_parsed *pi)
{
    if (r->final.len == 0 || ccnx_interest_aok(pi) != CCNX_AOK_NEW) {
        return 0;
    }
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(r->final.data, r->final.len, &pc), 0);
    if (pi->name.len != pc.name.len ||
        memcmp(interest + pi->name.off, r->final.data + pc.name.off, pc.name.len) != 0) {
        return 0;
    }
    r->confirm_asked++;
    if (r->holds) {
        assert_int_equal(ccnx_client_put(r->c, r->final.data, r->final.len), 0);
    }
    return 1;
}

static int repo_interest(void *arg, const uint8_t *interest, size_t len,
                         const struct ccnx_interest_parsed *pi)
{
    (void)len;
    struct fake_repo *r = arg;
    if (repo_confirm(r, interest, pi)) {
        return 1;
    }
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_name_set_ccnb(&n, interest + pi->name.off, pi->name.len), 0);
    struct ccnx_comp marker;
    if (n.count < 3 || ccnx_name_comp(&n, n.count - 2, &marker) != 0 ||
        !ccnx_naming_command_is(marker.p, marker.n, "R.sw")) {
        ccnx_name_free(&n);
        return 0;
    }
    assert_int_equal(pi->scope, 1);
    struct ccnx_name gp;
    uri_name("ccnx:/fake/repo", &gp);
    struct ccnx_buf body = CCNX_BUF_INIT, obj = CCNX_BUF_INIT;
    assert_int_equal(ccnx_repo_info_build(&body, &gp, NULL, 0, NULL), 0);
    struct ccnx_content_params p;
    ccnx_content_params_init(&p);
    p.name = n.enc.data;
    p.name_len = n.enc.len;
    p.freshness = 12;
    p.content = body.data;
    p.content_len = body.len;
    assert_int_equal(ccnx_content_sign(&obj, &p, ccnx_client_key(r->c)), 0);
    assert_int_equal(ccnx_client_put(r->c, obj.data, obj.len), 0);
    assert_int_equal(ccnx_name_copy(&r->versioned, &n), 0);
    assert_int_equal(ccnx_name_truncate(&r->versioned, n.count - 2), 0);
    r->asked++;
    ccnx_buf_free(&body);
    ccnx_buf_free(&obj);
    ccnx_name_free(&gp);
    ccnx_name_free(&n);
    return 1;
}

static void fake_repo_start(struct fake_repo *r, const char *prefix)
{
    memset(r, 0, sizeof *r);
    assert_int_equal(ccnx_client_open(&r->c), 0);
    ccnx_name_init(&r->versioned);
    struct ccnx_name n;
    uri_name(prefix, &n);
    uint64_t id;
    assert_int_equal(
        ccnx_client_set_filter(r->c, &n, CCNX_FILTER_REGISTER, 0, repo_interest, r, &id), 0);
    assert_int_equal(ccnx_client_wait_registered(r->c, id, 5000), 0);
    ccnx_name_free(&n);
}

static void fake_repo_wait_asked(struct fake_repo *r)
{
    int64_t end = ccnx_client_now_ms() + 8000;
    while (!r->asked && ccnx_client_now_ms() < end) {
        ccnx_client_run(r->c, 20);
    }
    assert_int_equal(r->asked, 1);
}

/* Fetches the stream as the repository does, segment after segment. */
static void fake_repo_fetch(struct fake_repo *r, struct ccnx_buf *data, uint64_t *segments)
{
    struct ccnx_client *saved = g_client;
    g_client = r->c;
    struct ccnx_buf obj = CCNX_BUF_INIT;
    struct ccnx_content_parsed pc;
    fetch_verified(r->versioned.enc.data, r->versioned.enc.len, 0, &obj, &pc);
    fetch_stream(&obj, &pc, data, segments, &r->final);
    g_client = saved;
    ccnx_buf_free(&obj);
}

/* ccnputfile stores a 21-segment file into a fake repository, which
 * answers (holds) or ignores the final check; ccnputfile's exit status and
 * last line. */
static int put_into_fake_repo(int holds, const char *uri)
{
    static uint8_t content[20500];
    fill(content, sizeof content);
    char file[128];
    path_in_dir(file, sizeof file, "repo.bin");
    write_file(file, content, sizeof content);
    struct fake_repo r;
    fake_repo_start(&r, "ccnx:/pub/repo");
    r.holds = holds;
    const char *args[] = {"-v", "-b", "1000", uri, file, NULL};
    pid_t pid = spawn("ccnputfile", args, NULL);
    fake_repo_wait_asked(&r);
    struct ccnx_buf data = CCNX_BUF_INIT;
    uint64_t segments = 0;
    fake_repo_fetch(&r, &data, &segments);
    assert_int_equal(segments, 21);
    assert_int_equal(data.len, sizeof content);
    assert_memory_equal(data.data, content, sizeof content);
    /* Everything fetched: ccnputfile asks the repository itself for the
     * final segment, then ends by itself. */
    struct ccnx_client *saved = g_client;
    g_client = r.c;
    int status = wait_exit(pid, EXIT_WAIT_MS);
    g_client = saved;
    assert_true(r.confirm_asked >= 1);
    assert_output_has("ccnputfile", "err", "repository ccnx:/fake/repo accepted the start-write");
    ccnx_buf_free(&data);
    ccnx_buf_free(&r.final);
    ccnx_name_free(&r.versioned);
    ccnx_client_destroy(r.c);
    return status;
}

static void test_ccnputfile_into_repository(void **state)
{
    (void)state;
    assert_int_equal(put_into_fake_repo(1, "ccnx:/pub/repo/doc"), 0);
    assert_output_has("ccnputfile", "err", "stored ccnx:/pub/repo/doc/%FD");
}

/* A repository that fetched everything but does not answer for the final
 * segment (it lost the tail, or has not stored it): not "stored". */
static void test_ccnputfile_repository_unconfirmed(void **state)
{
    (void)state;
    assert_int_equal(put_into_fake_repo(0, "ccnx:/pub/repo/lost"), 1);
    assert_output_has("ccnputfile", "err", "cannot confirm storing ccnx:/pub/repo/lost/%FD");
    assert_output_has("ccnputfile", "err", "the repository fetched 21 of 21 segments");
}

/* Interrupted while the repository has fetched nothing yet: ccnputfile
 * says so and exits 1; it never says "stored". */
static void test_ccnputfile_repository_interrupted(void **state)
{
    (void)state;
    static uint8_t content[20500];
    fill(content, sizeof content);
    char file[128];
    path_in_dir(file, sizeof file, "intr.bin");
    write_file(file, content, sizeof content);
    struct fake_repo r;
    fake_repo_start(&r, "ccnx:/pub/repo");
    const char *args[] = {"-v", "-b", "1000", "ccnx:/pub/repo/intr", file, NULL};
    pid_t pid = spawn("ccnputfile", args, NULL);
    fake_repo_wait_asked(&r);
    /* until ccnputfile has the answer and waits for the fetch */
    wait_output_has(r.c, "ccnputfile", "err", "accepted the start-write");
    struct ccnx_buf err = CCNX_BUF_INIT;
    assert_int_equal(kill(pid, SIGINT), 0);
    assert_int_equal(wait_exit(pid, EXIT_WAIT_MS), 1);
    assert_output_has("ccnputfile", "err", "interrupted storing ccnx:/pub/repo/intr/%FD");
    read_output("ccnputfile", "err", &err);
    assert_null(strstr((const char *)err.data, "stored "));
    ccnx_buf_free(&err);
    ccnx_buf_free(&r.final);
    ccnx_name_free(&r.versioned);
    ccnx_client_destroy(r.c);
}

/* ---- ccnseqwriter ---- */

static void test_ccnseqwriter_stream(void **state)
{
    (void)state;
    static uint8_t content[10500];
    fill(content, sizeof content);
    char in[128];
    path_in_dir(in, sizeof in, "stream.bin");
    write_file(in, content, sizeof content);
    const char *args[] = {"-b", "1000", "-x", "20", "ccnx:/pub/stream", NULL};
    pid_t pid = spawn("ccnseqwriter", args, in);
    struct ccnx_name n;
    uri_name("ccnx:/pub/stream", &n);
    struct ccnx_buf obj = CCNX_BUF_INIT, data = CCNX_BUF_INIT;
    struct ccnx_content_parsed pc;
    fetch_verified(n.enc.data, n.enc.len, -1, &obj, &pc);
    assert_int_equal(pc.freshness, 20);
    uint64_t segments = 0;
    fetch_stream(&obj, &pc, &data, &segments, NULL);
    assert_int_equal(segments, 11);
    assert_memory_equal(data.data, content, sizeof content);
    /* Every segment fetched once: it exits by itself. */
    assert_int_equal(wait_exit(pid, EXIT_WAIT_MS), 0);

    /* -r with no repository: a clear failure (the wait is the reference's 60 s,
     * so the test interrupts it, once the signal is caught: -v says
     * "publishing" after that and before the wait). */
    const char *repo[] = {"-v", "-r", "ccnx:/pub/norepo", NULL};
    pid = spawn("ccnseqwriter", repo, in);
    wait_output_has(g_client, "ccnseqwriter", "err", "publishing ccnx:/pub/norepo");
    kill(pid, SIGINT);
    assert_int_equal(wait_exit(pid, EXIT_WAIT_MS), 1);
    assert_output_has("ccnseqwriter", "err", "interrupted while waiting for a repository");
    ccnx_buf_free(&obj);
    ccnx_buf_free(&data);
    ccnx_name_free(&n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ccnpoke_answers_one_interest),
        cmocka_unit_test(test_ccnpoke_version_type_and_timeout),
        cmocka_unit_test(test_ccnputfile_serves_file),
        cmocka_unit_test(test_ccnputfile_errors),
        cmocka_unit_test(test_ccnputfile_into_repository),
        cmocka_unit_test(test_ccnputfile_repository_unconfirmed),
        cmocka_unit_test(test_ccnputfile_repository_interrupted),
        cmocka_unit_test(test_ccnseqwriter_stream),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
