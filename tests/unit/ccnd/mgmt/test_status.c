/* The status page builders, without sockets: the reference's XML element
 * names, JSON that parses, meters and rates, request parsing. */
#include "testutil.h"

#include <ctype.h>
#include <string.h>

#include "face/face.h"
#include "mgmt/status.h"
#include "table/fib.h"

/* A small JSON checker: 1 when s holds exactly one well-formed value. */
static const char *json_value(const char *p, int depth);

static const char *json_ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') {
        p++;
    }
    return p;
}

static const char *json_string(const char *p)
{
    if (*p++ != '"') {
        return NULL;
    }
    for (; *p != '"'; p++) {
        if (*p == '\0' || (unsigned char)*p < 0x20) {
            return NULL;
        }
        if (*p == '\\' && *++p == '\0') {
            return NULL;
        }
    }
    return p + 1;
}

static const char *json_list(const char *p, int depth, char close, int object)
{
    p = json_ws(p + 1);
    if (*p == close) {
        return p + 1;
    }
    for (;;) {
        if (object) {
            p = json_string(json_ws(p));
            if (p == NULL || *(p = json_ws(p)) != ':') {
                return NULL;
            }
            p++;
        }
        if ((p = json_value(p, depth + 1)) == NULL) {
            return NULL;
        }
        p = json_ws(p);
        if (*p == close) {
            return p + 1;
        }
        if (*p++ != ',') {
            return NULL;
        }
    }
}

static const char *json_value(const char *p, int depth)
{
    p = json_ws(p);
    if (depth > 32) {
        return NULL;
    }
    if (*p == '{') {
        return json_list(p, depth, '}', 1);
    }
    if (*p == '[') {
        return json_list(p, depth, ']', 0);
    }
    if (*p == '"') {
        return json_string(p);
    }
    for (const char *w = "true\0false\0null\0"; *w; w += strlen(w) + 1) {
        if (strncmp(p, w, strlen(w)) == 0) {
            return p + strlen(w);
        }
    }
    const char *q = p + (*p == '-');
    if (!isdigit((unsigned char)*q)) {
        return NULL;
    }
    while (isdigit((unsigned char)*q) || *q == '.' || *q == 'e' || *q == 'E' || *q == '+') {
        q++;
    }
    return q;
}

static int json_ok(const char *s)
{
    const char *end = json_value(s, 0);
    return end != NULL && *json_ws(end) == '\0';
}

static const uint8_t name_a[] = {0xF2, 0xFA, 0x8D, 'a', 0x00, 0x00}; /* ccnx:/a */
static const uint8_t interest[] = {0x01, 0xD2, 0xF2, 0xFA, 0x8D, 'a', 0x00, 0x00, 0x00};
static const uint8_t content_hdr[] = {0x04, 0x82, 0x00};

struct fixture {
    struct status *st;
    struct fib *fib;
    struct status_face rows[2];
    struct status_view v;
    uint8_t id[32];
};

static void setup_view(struct fixture *x)
{
    memset(x, 0, sizeof(*x));
    x->st = status_create();
    x->fib = fib_create();
    assert_non_null(x->st);
    assert_int_equal(fib_add(x->fib, name_a, sizeof name_a, 7, 3, FIB_NEVER, FIB_OWNER_NONE), 0);
    assert_int_equal(fib_set_strategy(x->fib, name_a, sizeof name_a, "default", "", FIB_OWNER_NONE),
                     0);
    x->rows[0] = (struct status_face){.faceid = 0, .flags = FACE_F_LOCAL, .kind = "internal"};
    x->rows[1] = (struct status_face){.faceid = 7,
                                      .flags = FACE_F_INET | FACE_F_STREAM,
                                      .kind = "tcp",
                                      .remote = "10.0.0.1:9695<&>",
                                      .bytes_in = 1000,
                                      .msgs_in = 2};
    memset(x->id, 0xAB, sizeof x->id);
    x->v.ccndid = x->id;
    x->v.host = "host\"1";
    x->v.port = 9695;
    x->v.fib = x->fib;
    x->v.faces = x->rows;
    x->v.nfaces = 2;
    x->v.fw.interests_in = 3;
    x->v.fw.interests_duplicate = 1;
}

static void teardown_view(struct fixture *x)
{
    status_destroy(x->st);
    fib_destroy(x->fib);
}

static void test_meters_and_rates(void **state)
{
    (void)state;
    struct fixture x;
    setup_view(&x);
    status_note(x.st, 7, 0, interest, sizeof interest);
    status_note(x.st, 7, 0, interest, sizeof interest);
    status_note(x.st, 7, 1, content_hdr, sizeof content_hdr);
    status_sample(x.st, x.rows, 2, 1000000);
    x.rows[1].bytes_in = 3000;
    status_note(x.st, 7, 0, interest, sizeof interest);
    status_sample(x.st, x.rows, 2, 2000000); /* one second later */
    uint64_t total, rate;
    status_meter(x.st, &x.rows[1], STATUS_INTRIN, &total, &rate);
    assert_int_equal(total, 3);
    assert_int_equal(rate, 1);
    status_meter(x.st, &x.rows[1], STATUS_BYTEIN, &total, &rate);
    assert_int_equal(total, 3000);
    assert_int_equal(rate, 2000);
    status_meter(x.st, &x.rows[1], STATUS_DATAOUT, &total, &rate);
    assert_int_equal(total, 1);
    /* A face no longer listed is forgotten. */
    status_sample(x.st, x.rows, 1, 3000000);
    status_meter(x.st, &x.rows[1], STATUS_INTRIN, &total, &rate);
    assert_int_equal(total, 0);
    teardown_view(&x);
}

static void test_xml_layout(void **state)
{
    (void)state;
    struct fixture x;
    setup_view(&x);
    status_note(x.st, 7, 0, interest, sizeof interest);
    struct ccnx_buf b = CCNX_BUF_INIT;
    assert_int_equal(status_render(x.st, &x.v, STATUS_XML, &b), 0);
    const char *s = ccnx_buf_cstr(&b);
    static const char *const want[] = {
        "<ccnd><identity><ccndid>ABABAB",
        "<apiversion>8002</apiversion>",
        "<starttime>",
        "<cobs><accessioned>",
        "<interests><names>1</names>",
        "<accepted>2</accepted>",
        "<dropped>1</dropped>",
        "<faces><face><faceid>0</faceid><faceflags>000c",
        "<ip>10.0.0.1:9695&lt;&amp;&gt;</ip>",
        "<intrin><total>1</total><persec>0</persec></intrin>",
        "<forwarding><fentry><prefix>ccnx:/a</prefix><dest><faceid>7</faceid><flags>3</flags>",
        "</forwarding></ccnd>"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        if (strstr(s, want[i]) == NULL) {
            fail_msg("missing %s in %s", want[i], s);
        }
    }
    ccnx_buf_free(&b);
    teardown_view(&x);
}

static void test_json_and_html(void **state)
{
    (void)state;
    struct fixture x;
    setup_view(&x);
    struct ccnx_buf b = CCNX_BUF_INIT;
    assert_int_equal(status_render(x.st, &x.v, STATUS_JSON, &b), 0);
    const char *s = ccnx_buf_cstr(&b);
    assert_true(json_ok(s));
    assert_non_null(strstr(s, "\"host\":\"host\\\"1\""));
    assert_non_null(strstr(s, "\"strategy\":\"default\""));
    assert_non_null(strstr(s, "\"interests_in\":3"));
    assert_false(json_ok("{\"a\":1,}"));
    ccnx_buf_reset(&b);
    x.v.refresh = 5;
    assert_int_equal(status_render(x.st, &x.v, STATUS_HTML, &b), 0);
    s = ccnx_buf_cstr(&b);
    assert_non_null(strstr(s, "content='5'"));
    assert_non_null(strstr(s, "<b>strategy:</b> default"));
    assert_non_null(strstr(s, "10.0.0.1:9695&lt;&amp;&gt;"));
    ccnx_buf_reset(&b);
    assert_int_equal(status_render_log(-1, &b), 0);
    assert_non_null(strstr(ccnx_buf_cstr(&b), "CCND_DEBUG=-1"));
    ccnx_buf_free(&b);
    teardown_view(&x);
}

static void test_parse_target(void **state)
{
    (void)state;
    struct status_request r;
    status_parse_target("/", &r);
    assert_int_equal(r.kind, STATUS_REQ_PAGE);
    assert_int_equal(r.fmt, STATUS_HTML);
    status_parse_target("/?", &r);
    assert_int_equal(r.kind, STATUS_REQ_PAGE);
    status_parse_target("/?f=xml", &r);
    assert_int_equal(r.fmt, STATUS_XML);
    status_parse_target("/?f=json&r=3", &r);
    assert_int_equal(r.fmt, STATUS_JSON);
    assert_int_equal(r.refresh, 3);
    static const struct {
        const char *t;
        int level;
    } levels[] = {{"/?l=none", 0}, {"/?l=low", 1},   {"/?l=co", 4},
                  {"/?l=med", 71}, {"/?l=high", -1}, {"/?l=6", 6}};
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        status_parse_target(levels[i].t, &r);
        assert_int_equal(r.kind, STATUS_REQ_LOG);
        assert_int_equal(r.level, levels[i].level);
    }
    static const char *const bad[] = {"/x", "/?f=pdf", "/?l=loud", "/?q", "/?l=", "x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        status_parse_target(bad[i], &r);
        assert_int_equal(r.kind, STATUS_REQ_UNKNOWN);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_meters_and_rates),
        cmocka_unit_test(test_xml_layout),
        cmocka_unit_test(test_json_and_html),
        cmocka_unit_test(test_parse_target),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
