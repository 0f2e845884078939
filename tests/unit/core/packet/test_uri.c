/* ccnx: URIs: escaping, the parsing rules of the reference library, round
 * trips, and the names of every reference vector. */
#include "testutil.h"

#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/name.h>
#include <ccnx/uri.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ---- */

struct bytes {
    const char *p;
    size_t n;
};
#define B(s)                                                                                       \
    {                                                                                              \
        s, sizeof(s) - 1                                                                           \
    }

static void build(struct ccnx_name *n, const struct bytes *comps, size_t count)
{
    assert_int_equal(ccnx_name_init(n), 0);
    for (size_t i = 0; i < count; i++) {
        assert_int_equal(ccnx_name_append(n, comps[i].p, comps[i].n), 0);
    }
}

/* Parses uri (all of it, or up to a NUL) and checks the resulting name. */
static void expect_parse_len(const char *uri, size_t len, const struct bytes *comps, size_t count)
{
    struct ccnx_name got, want;
    build(&want, comps, count);
    assert_int_equal(ccnx_name_init(&got), 0);
    int res = ccnx_uri_parse(&got, uri, len, NULL);
    if (res != 0) {
        fail_msg("parse of \"%s\" failed: %d", uri, res);
    }
    assert_int_equal(got.count, count);
    assert_int_equal(got.enc.len, want.enc.len);
    assert_memory_equal(got.enc.data, want.enc.data, want.enc.len);
    ccnx_name_free(&got);
    ccnx_name_free(&want);
}

static void expect_parse(const char *uri, const struct bytes *comps, size_t count)
{
    expect_parse_len(uri, strlen(uri), comps, count);
}

#define EXPECT(uri, ...)                                                                           \
    do {                                                                                           \
        const struct bytes c_[] = {__VA_ARGS__};                                                   \
        expect_parse(uri, c_, sizeof c_ / sizeof c_[0]);                                           \
    } while (0)
#define EXPECT_ROOT(uri) expect_parse(uri, NULL, 0)

static void expect_error(const char *uri, int code)
{
    struct ccnx_name n;
    assert_int_equal(ccnx_name_init(&n), 0);
    /* Start from a non-empty name: a failed parse must leave the empty name. */
    assert_int_equal(ccnx_name_append_str(&n, "old"), 0);
    size_t consumed = 12345;
    int res = ccnx_uri_parse(&n, uri, strlen(uri), &consumed);
    if (res != code) {
        fail_msg("parse of \"%s\" gave %d, expected %d", uri, res, code);
    }
    assert_int_equal(n.count, 0);
    assert_int_equal(ccnx_name_count_ccnb(n.enc.data, n.enc.len), 0);
    assert_true(consumed <= strlen(uri));
    ccnx_name_free(&n);
}

static void expect_print(const struct bytes *comps, size_t count, const char *want)
{
    struct ccnx_name n;
    struct ccnx_buf out = CCNX_BUF_INIT;
    build(&n, comps, count);
    assert_int_equal(ccnx_uri_append_name(&out, &n), 0);
    assert_string_equal(ccnx_buf_cstr(&out), want);
    ccnx_buf_free(&out);
    ccnx_name_free(&n);
}

/* ---- printing ---- */

static void test_print_escapes_every_byte(void **state)
{
    (void)state;
    static const char keep[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
    struct ccnx_buf out = CCNX_BUF_INIT;
    for (int c = 0; c < 256; c++) {
        /* A trailing 'x' keeps "." from being an all-dots component. */
        uint8_t comp[2] = {(uint8_t)c, 'x'};
        char want[8];
        if (c != 0 && strchr(keep, c) != NULL) {
            snprintf(want, sizeof want, "%cx", c);
        } else {
            snprintf(want, sizeof want, "%%%02Xx", (unsigned)c);
        }
        ccnx_buf_reset(&out);
        assert_int_equal(ccnx_uri_append_comp(&out, comp, 2), 0);
        assert_string_equal(ccnx_buf_cstr(&out), want);
    }
    ccnx_buf_free(&out);
}

static void test_print_dots_and_empty(void **state)
{
    (void)state;
    struct {
        const char *comp;
        const char *want;
    } cases[] = {
        {"", "..."},  {".", "...."}, {"..", "....."},  {"...", "......"},
        {".a", ".a"}, {"a.", "a."},  {"a..b", "a..b"},
    };
    struct ccnx_buf out = CCNX_BUF_INIT;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ccnx_buf_reset(&out);
        assert_int_equal(
            ccnx_uri_append_comp(&out, (const uint8_t *)cases[i].comp, strlen(cases[i].comp)), 0);
        assert_string_equal(ccnx_buf_cstr(&out), cases[i].want);
    }
    ccnx_buf_free(&out);
}

static void test_print_names(void **state)
{
    (void)state;
    expect_print(NULL, 0, "ccnx:/");
    const struct bytes a[] = {B("example"), B("vec")};
    expect_print(a, 2, "ccnx:/example/vec");
    const struct bytes b[] = {B(""), B("a b/c"), B("%=?#")};
    expect_print(b, 3, "ccnx:/.../a%20b%2Fc/%25%3D%3F%23");
    const struct bytes c[] = {B("\x00\x01"), B("\xff\xfe\x00"), B("\xc1.M.meta")};
    expect_print(c, 3, "ccnx:/%00%01/%FF%FE%00/%C1.M.meta");
}

static void test_print_appends_and_rolls_back(void **state)
{
    (void)state;
    struct ccnx_buf out = CCNX_BUF_INIT;
    struct ccnx_name n;
    const struct bytes a[] = {B("x")};
    build(&n, a, 1);
    ccnx_buf_append_str(&out, "name=");
    assert_int_equal(ccnx_uri_append_name(&out, &n), 0);
    assert_string_equal(ccnx_buf_cstr(&out), "name=ccnx:/x");

    /* A Name whose second component is cut short: nothing may be left behind. */
    size_t before = out.len;
    uint8_t bad[64];
    memcpy(bad, n.enc.data, n.enc.len - 1);
    size_t blen = n.enc.len - 1;
    bad[blen++] = (uint8_t)(0x80 | (CCNX_DTAG_Component << 3) | CCNX_TT_DTAG);
    int res = ccnx_uri_append(&out, bad, blen);
    assert_true(res < 0);
    assert_int_equal(out.len, before);
    assert_string_equal(ccnx_buf_cstr(&out), "name=ccnx:/x");

    /* Not a Name at all. */
    const uint8_t junk[] = {0x01, 0x02, 0x03};
    assert_true(ccnx_uri_append(&out, junk, sizeof junk) < 0);
    assert_true(ccnx_uri_append(&out, NULL, 0) < 0);
    assert_int_equal(out.len, before);
    assert_int_equal(ccnx_uri_append(NULL, n.enc.data, n.enc.len), CCNX_E_INVAL);
    assert_int_equal(ccnx_uri_append_name(&out, NULL), CCNX_E_INVAL);
    assert_int_equal(ccnx_uri_append_comp(&out, NULL, 1), CCNX_E_INVAL);
    ccnx_buf_free(&out);
    ccnx_name_free(&n);
}

/* ---- parsing ---- */

static void test_parse_schemes(void **state)
{
    (void)state;
    EXPECT("ccnx:/a/b", B("a"), B("b"));
    EXPECT("/a/b", B("a"), B("b"));
    EXPECT("CCNX:/a", B("a"));
    EXPECT("CcNx:/a", B("a"));
    EXPECT("ccn:/a", B("a"));
    EXPECT("CCN:/a", B("a"));
    /* The reference compares the unescaped scheme text. */
    EXPECT("%63cnx:/a", B("a"));
    EXPECT_ROOT("ccnx:/");
    EXPECT_ROOT("/");
    expect_error("", CCNX_E_URI);
    expect_error("ccnx", CCNX_E_URI);
    expect_error("ccnx:", CCNX_E_URI);
    expect_error("ccnx:a/b", CCNX_E_URI); /* relative: no base name */
    expect_error("a/b", CCNX_E_URI);
    expect_error("a", CCNX_E_URI);
    expect_error("http:/a", CCNX_E_URI);
    expect_error("ccnxx:/a", CCNX_E_URI);
    expect_error("ccnx:ccnx:/a", CCNX_E_URI);
    expect_error("x:y:/a", CCNX_E_URI);
    expect_error("ccnx%3A/a", CCNX_E_URI); /* the ':' itself must be literal */
    expect_error("?x", CCNX_E_URI);
    expect_error("#x", CCNX_E_URI);
    expect_error("ccnx:?x", CCNX_E_URI);
    expect_error(".", CCNX_E_URI);
}

static void test_parse_authority(void **state)
{
    (void)state;
    EXPECT("ccnx://host/a", B("a"));
    EXPECT("//host/a/b", B("a"), B("b"));
    EXPECT("ccnx://user@example.com:9695/a", B("a"));
    EXPECT("ccnx:///a", B("a"));
    EXPECT("ccnx://.../a", B("a"));
    EXPECT("ccnx://%41/a", B("a"));
    EXPECT_ROOT("ccnx://host");
    EXPECT_ROOT("ccnx://host?q");
    EXPECT_ROOT("ccnx:///");
    EXPECT_ROOT("ccnx://./");
    expect_error("ccnx://", CCNX_E_URI);
    expect_error("//", CCNX_E_URI);
    expect_error("ccnx://.", CCNX_E_URI);
    expect_error("ccnx://?q", CCNX_E_URI);
    expect_error("ccnx://#f", CCNX_E_URI);
    expect_error("ccnx://../a", CCNX_E_URI);
    expect_error("ccnx://%2E%2E/a", CCNX_E_URI);
    expect_error("ccnx://%zz/a", CCNX_E_URI);
}

static void test_parse_percent_escapes(void **state)
{
    (void)state;
    EXPECT("/%41%62c", B("Abc"));
    EXPECT("/%2f%2F", B("//"));
    EXPECT("/%c1.M.S.localhost", B("\xc1.M.S.localhost"));
    EXPECT("/%00/%00%01/%FF%FE%00", B("\x00"), B("\x00\x01"), B("\xff\xfe\x00"));
    EXPECT("/%3F%23/b", B("?#"), B("b"));
    EXPECT("/%25", B("%"));
    expect_error("/%", CCNX_E_URI);
    expect_error("/%4", CCNX_E_URI);
    expect_error("/%4/", CCNX_E_URI);
    expect_error("/%4g", CCNX_E_URI);
    expect_error("/%g4", CCNX_E_URI);
    expect_error("/a%/b", CCNX_E_URI);
    expect_error("/a/b%", CCNX_E_URI);
    expect_error("/ok/%%41", CCNX_E_URI);
}

static void test_parse_hex_escapes(void **state)
{
    (void)state;
    EXPECT("/=4142", B("AB"));
    EXPECT("/a=4142", B("aAB"));
    EXPECT("/=c12e4d/b", B("\xc1.M"), B("b"));
    EXPECT("/=41/b", B("A"), B("b"));
    /* As in the reference, '=' needs two more bytes of text, not of the
     * component: an empty hex run before a '/' is then allowed. */
    EXPECT("/a=/bc", B("a"), B("bc"));
    EXPECT("/x/=/bc", B("x"), B("bc"));
    expect_error("/=", CCNX_E_URI);
    expect_error("/a=", CCNX_E_URI);
    expect_error("/a=/", CCNX_E_URI);
    expect_error("/=4", CCNX_E_URI);
    expect_error("/=414", CCNX_E_URI);
    expect_error("/=414/b", CCNX_E_URI);
    expect_error("/=zz", CCNX_E_URI);
    expect_error("/=41%42", CCNX_E_URI);
    expect_error("/=41=42", CCNX_E_URI);
    expect_error("/==41", CCNX_E_URI);
}

static void test_parse_dots(void **state)
{
    (void)state;
    EXPECT("/a/./b", B("a"), B("b"));
    EXPECT("/a/../b", B("b"));
    EXPECT("/a/b/..", B("a"));
    EXPECT_ROOT("/a/b/../..");
    EXPECT_ROOT("/..");
    EXPECT_ROOT("/../..");
    EXPECT("/../a", B("a"));
    EXPECT("/...", B(""));
    EXPECT("/..../a", B("."), B("a"));
    EXPECT("/.....", B(".."));
    EXPECT("/......", B("..."));
    EXPECT("/a/%2E%2E/b", B("b"));
    EXPECT("/a/%2E/b", B("a"), B("b"));
    EXPECT("/=2E2E2E", B(""));
    EXPECT("/a//b", B("a"), B("b"));
    EXPECT("/a/", B("a"));
    EXPECT("//h//a", B("a"));
    EXPECT("/.a/a./..b", B(".a"), B("a."), B("..b"));
    EXPECT("/.../.../...", B(""), B(""), B(""));
    EXPECT_ROOT("/.../..");
}

static void test_parse_terminators(void **state)
{
    (void)state;
    struct ccnx_name n;
    size_t consumed = 0;
    assert_int_equal(ccnx_name_init(&n), 0);
    const char *u = "ccnx:/a/b?x=1/y#f";
    assert_int_equal(ccnx_uri_parse(&n, u, strlen(u), &consumed), 0);
    assert_int_equal(consumed, 9);
    assert_int_equal(n.count, 2);
    u = "/a#frag/b";
    assert_int_equal(ccnx_uri_parse(&n, u, strlen(u), &consumed), 0);
    assert_int_equal(consumed, 2);
    assert_int_equal(n.count, 1);
    /* A NUL byte ends the text, as it does for the reference's C strings. */
    assert_int_equal(ccnx_uri_parse(&n, "/a\0/b", 5, &consumed), 0);
    assert_int_equal(consumed, 2);
    assert_int_equal(n.count, 1);
    /* Only len bytes are read. */
    assert_int_equal(ccnx_uri_parse(&n, "/abc/def", 6, &consumed), 0);
    assert_int_equal(consumed, 6);
    assert_int_equal(n.count, 2);
    assert_int_equal(ccnx_uri_parse(&n, "/a%41", 4, &consumed), CCNX_E_URI);
    assert_int_equal(ccnx_uri_parse(&n, "/a=41", 3, &consumed), CCNX_E_URI);
    assert_int_equal(ccnx_uri_parse(&n, "/a/b", 0, &consumed), CCNX_E_URI);
    assert_int_equal(consumed, 0);
    ccnx_name_free(&n);
    EXPECT("/a?b/c", B("a"));
    EXPECT_ROOT("/?a");
    EXPECT_ROOT("ccnx:/#a");
    expect_parse_len("/x\0/y", 5, (const struct bytes[]){B("x")}, 1);
}

static void test_parse_raw_bytes_and_replace(void **state)
{
    (void)state;
    /* Unescaped reserved and non-ASCII bytes are taken as they are. */
    EXPECT("/a b/\xff\x01/[x]:@!$&'()*+,;", B("a b"), B("\xff\x01"), B("[x]:@!$&'()*+,;"));
    struct ccnx_name n;
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_uri_parse_str(&n, "/one/two/three"), 0);
    assert_int_equal(ccnx_uri_parse_str(&n, "/four"), 0);
    assert_int_equal(n.count, 1);
    struct ccnx_comp c;
    assert_int_equal(ccnx_name_comp(&n, 0, &c), 0);
    assert_int_equal(c.n, 4);
    assert_memory_equal(c.p, "four", 4);
    assert_int_equal(ccnx_uri_parse_str(&n, NULL), CCNX_E_INVAL);
    assert_int_equal(ccnx_uri_parse(NULL, "/a", 2, NULL), CCNX_E_INVAL);
    assert_int_equal(ccnx_uri_parse(&n, NULL, 2, NULL), CCNX_E_INVAL);
    ccnx_name_free(&n);
}

static void test_parse_error_position(void **state)
{
    (void)state;
    struct ccnx_name n;
    size_t consumed = 0;
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_uri_parse(&n, "/good/b%zad/c", 13, &consumed), CCNX_E_URI);
    assert_int_equal(consumed, 6); /* the start of the bad component */
    assert_int_equal(n.count, 0);
    ccnx_name_free(&n);
}

static void test_parse_long_components(void **state)
{
    (void)state;
    /* Escaped components longer than the parser's stack space. */
    size_t k = 2000;
    struct ccnx_buf uri = CCNX_BUF_INIT;
    struct ccnx_buf want = CCNX_BUF_INIT;
    ccnx_buf_append_str(&uri, "/pre/");
    for (size_t i = 0; i < k; i++) {
        ccnx_buf_printf(&uri, "%%%02X", (unsigned)(i & 0xff));
        ccnx_buf_append_byte(&want, (uint8_t)i);
    }
    ccnx_buf_append_str(&uri, "/=");
    for (size_t i = 0; i < k; i++) {
        ccnx_buf_printf(&uri, "%02x", (unsigned)(i * 7 & 0xff));
    }
    ccnx_buf_append_str(&uri, "/");
    for (size_t i = 0; i < k; i++) {
        ccnx_buf_append_byte(&uri, 'z');
    }
    struct ccnx_name n;
    struct ccnx_comp c;
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_uri_parse(&n, (const char *)uri.data, uri.len, NULL), 0);
    assert_int_equal(n.count, 4);
    assert_int_equal(ccnx_name_comp(&n, 1, &c), 0);
    assert_int_equal(c.n, k);
    assert_memory_equal(c.p, want.data, k);
    assert_int_equal(ccnx_name_comp(&n, 2, &c), 0);
    assert_int_equal(c.n, k);
    for (size_t i = 0; i < k; i++) {
        assert_int_equal(c.p[i], (uint8_t)(i * 7 & 0xff));
    }
    assert_int_equal(ccnx_name_comp(&n, 3, &c), 0);
    assert_int_equal(c.n, k);
    ccnx_name_free(&n);
    ccnx_buf_free(&uri);
    ccnx_buf_free(&want);
}

static void test_parse_component_limit(void **state)
{
    (void)state;
    struct ccnx_buf uri = CCNX_BUF_INIT;
    for (int i = 0; i < CCNX_NAME_MAX_COMPONENTS; i++) {
        ccnx_buf_append_str(&uri, "/a");
    }
    struct ccnx_name n;
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_uri_parse(&n, (const char *)uri.data, uri.len, NULL), 0);
    assert_int_equal(n.count, CCNX_NAME_MAX_COMPONENTS);
    /* ".." frees a slot before the limit is reached. */
    ccnx_buf_append_str(&uri, "/../b");
    assert_int_equal(ccnx_uri_parse(&n, (const char *)uri.data, uri.len, NULL), 0);
    assert_int_equal(n.count, CCNX_NAME_MAX_COMPONENTS);
    ccnx_buf_append_str(&uri, "/c");
    assert_int_equal(ccnx_uri_parse(&n, (const char *)uri.data, uri.len, NULL), CCNX_E_TOOBIG);
    assert_int_equal(n.count, 0);
    ccnx_name_free(&n);
    ccnx_buf_free(&uri);
}

/* ---- round trips ---- */

static uint32_t rng_state = 12345;
static uint32_t rnd(void)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return rng_state >> 8;
}

static void check_round_trip(const struct ccnx_name *n)
{
    struct ccnx_buf uri = CCNX_BUF_INIT, again = CCNX_BUF_INIT;
    struct ccnx_name back;
    assert_int_equal(ccnx_uri_append_name(&uri, n), 0);
    assert_int_equal(ccnx_name_init(&back), 0);
    size_t consumed = 0;
    assert_int_equal(ccnx_uri_parse(&back, (const char *)uri.data, uri.len, &consumed), 0);
    assert_int_equal(consumed, uri.len);
    assert_int_equal(back.count, n->count);
    assert_int_equal(back.enc.len, n->enc.len);
    assert_memory_equal(back.enc.data, n->enc.data, n->enc.len);
    assert_int_equal(ccnx_uri_append_name(&again, &back), 0);
    assert_int_equal(again.len, uri.len);
    assert_memory_equal(again.data, uri.data, uri.len);
    ccnx_name_free(&back);
    ccnx_buf_free(&uri);
    ccnx_buf_free(&again);
}

static void test_round_trip_random_names(void **state)
{
    (void)state;
    static const uint8_t alphabet[] = {'.', '.', '.', '/', '%', '=', '?', '#', 'a', 'Z', '~', 0};
    for (int iter = 0; iter < 3000; iter++) {
        struct ccnx_name n;
        assert_int_equal(ccnx_name_init(&n), 0);
        size_t count = rnd() % 8;
        for (size_t i = 0; i < count; i++) {
            uint8_t comp[64];
            size_t len = rnd() % 6 == 0 ? 0 : rnd() % sizeof comp;
            int mode = (int)(rnd() % 3);
            for (size_t j = 0; j < len; j++) {
                comp[j] = mode == 0   ? '.'
                          : mode == 1 ? alphabet[rnd() % sizeof alphabet]
                                      : (uint8_t)rnd();
            }
            assert_int_equal(ccnx_name_append(&n, comp, len), 0);
        }
        check_round_trip(&n);
        ccnx_name_free(&n);
    }
}

static void test_parse_print_stable(void **state)
{
    (void)state;
    static const char *const uris[] = {
        "ccnx:/",          "/a/b/c",     "ccnx://h/%41=42/...", "/./../x/..../y",
        "/%00%FF/=00ff",   "/a b/~_-.",  "CCN:/%7e%7E/%2e",     "/a/b/../c?d#e",
        "/...a/a.../.%2E", "/=2e2e2e2e", "/%C1.M.K%00abc",
    };
    for (size_t i = 0; i < sizeof uris / sizeof uris[0]; i++) {
        struct ccnx_name n;
        struct ccnx_buf out = CCNX_BUF_INIT;
        assert_int_equal(ccnx_name_init(&n), 0);
        if (ccnx_uri_parse_str(&n, uris[i]) != 0) {
            fail_msg("cannot parse %s", uris[i]);
        }
        assert_int_equal(ccnx_uri_append_name(&out, &n), 0);
        check_round_trip(&n);
        ccnx_buf_free(&out);
        ccnx_name_free(&n);
    }
}

/* ---- the reference vectors ---- */

/* Finds the first Name child of the element at buf[start..end). */
static int find_name(const uint8_t *buf, size_t end, size_t start, size_t *off, size_t *len)
{
    struct ccnx_ccnb_reader r;
    ccnx_ccnb_reader_init(&r, buf, end, start);
    int64_t top = ccnx_ccnb_peek_dtag(&r);
    if (top < 0 || ccnx_ccnb_enter(&r, (uint64_t)top) != 0) {
        return 0;
    }
    while (r.err == 0 && !ccnx_ccnb_at_closer(&r)) {
        if (ccnx_ccnb_peek_dtag(&r) == CCNX_DTAG_Name) {
            size_t name_end;
            assert_int_equal(ccnx_ccnb_element_end(buf, end, r.pos, &name_end), 0);
            *off = r.pos;
            *len = name_end - r.pos;
            return 1;
        }
        if (ccnx_ccnb_skip_element(&r) != 0) {
            return 0;
        }
    }
    return 0;
}

/* The start of element number `index` in a file of back-to-back elements. */
static size_t element_start(const struct ccnx_buf *b, int index)
{
    size_t pos = 0;
    for (int i = 0; i < index; i++) {
        size_t end;
        assert_int_equal(ccnx_ccnb_element_end(b->data, b->len, pos, &end), 0);
        pos = end;
    }
    return pos;
}

struct summary {
    char file[128];
    int index;
    const char *uri;
    size_t uri_len;
    int truncated;
};

/* Checks one README summary against the vector file it describes. */
static void check_summary(const struct summary *s, int *exact)
{
    struct ccnx_buf file = CCNX_BUF_INIT, out = CCNX_BUF_INIT;
    tu_read_vector(s->file, &file);
    size_t start = element_start(&file, s->index);
    size_t end, off = 0, len = 0;
    assert_int_equal(ccnx_ccnb_element_end(file.data, file.len, start, &end), 0);
    if (!find_name(file.data, end, start, &off, &len)) {
        fail_msg("%s element %d has no Name", s->file, s->index);
    }
    assert_int_equal(ccnx_uri_append(&out, file.data + off, len), 0);
    int same = s->truncated ? out.len >= s->uri_len && memcmp(out.data, s->uri, s->uri_len) == 0
                            : out.len == s->uri_len && memcmp(out.data, s->uri, s->uri_len) == 0;
    if (!same) {
        fail_msg("%s[%d]: printed %s, README says %.*s", s->file, s->index, ccnx_buf_cstr(&out),
                 (int)s->uri_len, s->uri);
    }
    if (!s->truncated) {
        /* And back: the README's URI parses to the very bytes on the wire. */
        struct ccnx_name n;
        assert_int_equal(ccnx_name_init(&n), 0);
        assert_int_equal(ccnx_uri_parse(&n, s->uri, s->uri_len, NULL), 0);
        assert_int_equal(n.enc.len, len);
        assert_memory_equal(n.enc.data, file.data + off, len);
        ccnx_name_free(&n);
        (*exact)++;
    }
    ccnx_buf_free(&file);
    ccnx_buf_free(&out);
}

/* Reads a "`Kind ccnx:/...  more`" summary starting at the backtick. */
static int read_summary(const char *tick, struct summary *s)
{
    const char *sp = strchr(tick, ' ');
    if (sp == NULL || strncmp(sp + 1, "ccnx:", 5) != 0) {
        return 0;
    }
    s->uri = sp + 1;
    s->uri_len = strcspn(s->uri, " `\n");
    s->truncated = strncmp(s->uri + s->uri_len, " ...`", 5) == 0;
    return 1;
}

static void test_vector_names_match_readme(void **state)
{
    (void)state;
    struct ccnx_buf readme = CCNX_BUF_INIT;
    tu_read_vector("README.md", &readme);
    /* Lines become separate strings so that searches stay within one. */
    char *text = (char *)readme.data;
    assert_non_null(ccnx_buf_cstr(&readme));
    struct summary s;
    memset(&s, 0, sizeof s);
    int checked = 0, exact = 0, next_index = 0;
    for (char *line = text; line != NULL && *line != '\0';) {
        char *nl = strchr(line, '\n');
        const char *tick;
        if (nl != NULL) {
            *nl = '\0';
        }
        if (strncmp(line, "* `", 3) == 0 && (tick = strstr(line, ".ccnb`")) != NULL) {
            size_t n = (size_t)(tick + 5 - (line + 3));
            assert_true(n < sizeof s.file);
            memcpy(s.file, line + 3, n);
            s.file[n] = '\0';
            next_index = 0;
        } else if ((tick = strstr(line, "Summary: `")) != NULL) {
            s.index = 0;
            if (read_summary(tick + 9, &s)) {
                check_summary(&s, &exact);
                checked++;
            }
        } else if ((tick = strstr(line, "* element: `")) != NULL) {
            s.index = next_index++;
            if (read_summary(tick + 11, &s)) {
                check_summary(&s, &exact);
                checked++;
            }
        }
        line = nl != NULL ? nl + 1 : NULL;
    }
    /* The README names 88 elements, most of them in full; make sure the walk
     * really saw them. */
    if (checked < 85 || exact < 60) {
        fail_msg("only %d summaries checked (%d in full)", checked, exact);
    }
    ccnx_buf_free(&readme);
}

static void test_vector_key_name_locator(void **state)
{
    (void)state;
    struct ccnx_buf file = CCNX_BUF_INIT, out = CCNX_BUF_INIT;
    tu_read_vector("co_keyname_locator.ccnb", &file);
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(file.data, file.len, &pc), 0);
    assert_true(pc.key_name.len > 0);
    assert_int_equal(ccnx_uri_append(&out, file.data + pc.key_name.off, pc.key_name.len), 0);
    assert_string_equal(ccnx_buf_cstr(&out),
                        "ccnx:/example/vec/keys/user/"
                        "%C1.M.K%00_%AAv%FD%B1%EE%D2P%DA%DA%D7a%93%C5uG%C5%A7%91R%ED%03%B0%A6%"
                        "C4%3A%DA%91%26%2B%9B%FC");
    ccnx_buf_free(&file);
    ccnx_buf_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_print_escapes_every_byte),
        cmocka_unit_test(test_print_dots_and_empty),
        cmocka_unit_test(test_print_names),
        cmocka_unit_test(test_print_appends_and_rolls_back),
        cmocka_unit_test(test_parse_schemes),
        cmocka_unit_test(test_parse_authority),
        cmocka_unit_test(test_parse_percent_escapes),
        cmocka_unit_test(test_parse_hex_escapes),
        cmocka_unit_test(test_parse_dots),
        cmocka_unit_test(test_parse_terminators),
        cmocka_unit_test(test_parse_raw_bytes_and_replace),
        cmocka_unit_test(test_parse_error_position),
        cmocka_unit_test(test_parse_long_components),
        cmocka_unit_test(test_parse_component_limit),
        cmocka_unit_test(test_round_trip_random_names),
        cmocka_unit_test(test_parse_print_stable),
        cmocka_unit_test(test_vector_names_match_readme),
        cmocka_unit_test(test_vector_key_name_locator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
