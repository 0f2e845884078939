/* ccncat and ccngetfile against a private ccnd and a producer thread: the
 * bytes, the file written only when complete, the final line, and each
 * failure's message and exit status (nothing found, rejected, no ccnd,
 * usage). */
#include "test_fetch_producer.h"

#include <sys/stat.h>

static struct tu_ccnd ccnd;
static struct ccnx_key *key;
static struct tf_producer producer;
static uint8_t *good;
enum { GOOD_LEN = 100 * 1000 + 3 };

static int setup(void **state)
{
    (void)state;
    tf_ccnd_start(&ccnd, 1);
    tf_use_ccnd(&ccnd);
    if (ccnx_key_generate(1024, &key) != 0) {
        return -1;
    }
    good = malloc(GOOD_LEN);
    tf_random(good, GOOD_LEN, 23);
    struct ccnx_buf objs = CCNX_BUF_INIT;
    struct tf_stream s = {.uri = "ccnx:/fetchtools/good",
                          .data = good,
                          .len = GOOD_LEN,
                          .seg_size = 4096,
                          .batch = 8,
                          .key = key};
    tf_make_stream(&s, &objs);
    /* a second stream with one content byte flipped after signing */
    s.uri = "ccnx:/fetchtools/bad";
    size_t at = objs.len;
    tf_make_stream(&s, &objs);
    struct ccnx_content_parsed pc;
    size_t end;
    assert_int_equal(ccnx_ccnb_element_end(objs.data, objs.len, at, &end), 0);
    assert_int_equal(ccnx_content_parse(objs.data + at, end - at, &pc), 0);
    objs.data[at + pc.content_value.off] ^= 0x40;
    tf_add(&producer, objs.data, objs.len);
    ccnx_buf_free(&objs);
    tf_producer_start(&producer, "ccnx:/fetchtools");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tf_producer_free(&producer);
    ccnx_key_destroy(key);
    free(good);
    tf_ccnd_stop(&ccnd, 0);
    return 0;
}

/* Runs "$CCNX_BIN/<cmd>" with stdout to out and stderr to err (paths in
 * ccnd's folder); returns the exit status. */
static int tool(const char *cmd, const char *out, const char *err)
{
    char line[2048];
    const char *bin = getenv("CCNX_BIN");
    snprintf(line, sizeof line, "cd %s && %s/%s >%s 2>%s", ccnd.dir, bin ? bin : ".", cmd, out,
             err);
    int status = system(line);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void read_file(const char *name, struct ccnx_buf *b)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", ccnd.dir, name);
    ccnx_buf_reset(b);
    assert_int_equal(ccnx_buf_read_file(b, path), 0);
    ccnx_buf_cstr(b);
}

static int exists(const char *name)
{
    char path[256];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", ccnd.dir, name);
    return stat(path, &st) == 0;
}

/* No ".<name>.bin.XXXXXX" temporary left in the folder. */
static int temporaries_left(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "ls -A %s | grep -q '^\\..*\\.bin\\.'", ccnd.dir);
    return system(cmd) == 0;
}

static void expect_text(const char *file, const char *want)
{
    struct ccnx_buf b = CCNX_BUF_INIT;
    read_file(file, &b);
    if (strstr((const char *)b.data, want) == NULL) {
        fail_msg("expected '%s' in %s: %s", want, file, (const char *)b.data);
    }
    ccnx_buf_free(&b);
}

static void test_ccncat_writes_content(void **state)
{
    (void)state;
    assert_int_equal(tool("ccncat ccnx:/fetchtools/good", "cat.out", "cat.err"), 0);
    struct ccnx_buf b = CCNX_BUF_INIT;
    read_file("cat.out", &b);
    assert_int_equal(b.len, GOOD_LEN);
    assert_memory_equal(b.data, good, GOOD_LEN);
    /* -v: statistics on stderr, data unchanged */
    assert_int_equal(tool("ccncat -v -p 8 ccnx:/fetchtools/good", "cat.out", "cat.err"), 0);
    read_file("cat.out", &b);
    assert_int_equal(b.len, GOOD_LEN);
    expect_text("cat.err", "25 segments");
    ccnx_buf_free(&b);
}

static void test_ccngetfile_writes_file(void **state)
{
    (void)state;
    assert_int_equal(tool("ccngetfile ccnx:/fetchtools/good got.bin", "gf.out", "gf.err"), 0);
    struct ccnx_buf b = CCNX_BUF_INIT;
    read_file("got.bin", &b);
    assert_int_equal(b.len, GOOD_LEN);
    assert_memory_equal(b.data, good, GOOD_LEN);
    expect_text("gf.err", "100003 bytes in");
    expect_text("gf.err", "MB/s");
    assert_false(temporaries_left());
    /* -q: silent */
    assert_int_equal(tool("ccngetfile -q -unversioned "
                          "ccnx:/fetchtools/good/%FD%05%00%00%00%00%01 got2.bin",
                          "gf.out", "gf.err"),
                     0);
    read_file("got2.bin", &b);
    assert_int_equal(b.len, GOOD_LEN);
    read_file("gf.err", &b);
    assert_int_equal(b.len, 0);
    ccnx_buf_free(&b);
}

static void test_nothing_found(void **state)
{
    (void)state;
    assert_int_equal(tool("ccngetfile -t 400 ccnx:/fetchtools/none none.bin", "n.out", "n.err"), 1);
    expect_text("n.err", "no content found under ccnx:/fetchtools/none");
    assert_false(exists("none.bin"));
    assert_false(temporaries_left());
    assert_int_equal(tool("ccncat -t 400 ccnx:/fetchtools/none", "n.out", "n.err"), 1);
    expect_text("n.err", "no content found");
}

static void test_rejected_and_verification_options(void **state)
{
    (void)state;
    assert_int_equal(tool("ccngetfile ccnx:/fetchtools/bad bad.bin", "r.out", "r.err"), 1);
    expect_text("r.err", "rejected: signature of ccnx:/fetchtools/bad/");
    assert_false(exists("bad.bin"));
    assert_false(temporaries_left());
    assert_int_equal(tool("ccncat ccnx:/fetchtools/bad", "r.out", "r.err"), 1);
    expect_text("r.err", "does not verify with key");
    /* -V: taken as it is */
    assert_int_equal(tool("ccncat -V ccnx:/fetchtools/bad", "r.out", "r.err"), 0);
    /* -P: someone else's digest is refused, the publisher's accepted */
    char cmd[512], hex[65];
    for (int i = 0; i < 32; i++) {
        snprintf(hex + 2 * i, 3, "%02x", ccnx_key_digest(key)[i]);
    }
    assert_int_equal(tool("ccncat -P "
                          "0000000000000000000000000000000000000000000000000000000000000000"
                          " ccnx:/fetchtools/good",
                          "r.out", "r.err"),
                     1);
    expect_text("r.err", "rejected: publisher ");
    snprintf(cmd, sizeof cmd, "ccncat -P %s ccnx:/fetchtools/good", hex);
    assert_int_equal(tool(cmd, "r.out", "r.err"), 0);
}

static void test_no_ccnd_and_usage(void **state)
{
    (void)state;
    setenv("CCN_LOCAL_SOCKNAME", "/tmp/fetch-test-nothing-here", 1);
    assert_int_equal(tool("ccngetfile ccnx:/fetchtools/good x.bin", "u.out", "u.err"), 1);
    expect_text("u.err", "no ccnd at /tmp/fetch-test-nothing-here");
    assert_int_equal(tool("ccncat ccnx:/fetchtools/good", "u.out", "u.err"), 1);
    expect_text("u.err", "ccndstart");
    tf_use_ccnd(&ccnd);
    assert_int_equal(tool("ccncat", "u.out", "u.err"), 2);
    expect_text("u.err", "expected at least one URI");
    assert_int_equal(tool("ccngetfile ccnx:/a", "u.out", "u.err"), 2);
    assert_int_equal(tool("ccngetfile -p x ccnx:/a f", "u.out", "u.err"), 2);
    expect_text("u.err", "-p must be a number");
    assert_int_equal(tool("ccncat -P 12 ccnx:/a", "u.out", "u.err"), 2);
    assert_int_equal(tool("ccncat --help", "u.out", "u.err"), 0);
    expect_text("u.out", "Usage: ccncat");
    assert_int_equal(tool("ccngetfile -h", "u.out", "u.err"), 0);
    expect_text("u.out", "never");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ccncat_writes_content),
        cmocka_unit_test(test_ccngetfile_writes_file),
        cmocka_unit_test(test_nothing_found),
        cmocka_unit_test(test_rejected_and_verification_options),
        cmocka_unit_test(test_no_ccnd_and_usage),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
