/* Interest building: every Interest the reference wrote (handwritten ones,
 * library and ccnd ones, control requests, the ones inside stream and
 * datagram captures) is parsed, turned back into build parameters and
 * rebuilt; the bytes must not change. Then each field and each rule on its
 * own. */
#include "testutil.h"

#include <ccnx/bloom.h>
#include <ccnx/ccnb.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/name.h>

#include <stdio.h>
#include <string.h>

#define MAX_ITEMS 64

/* Fills p from a parsed Interest; Exclude items go to items[]. */
static void params_from_parsed(const uint8_t *buf, const struct ccnx_interest_parsed *pi,
                               struct ccnx_interest_params *p, struct ccnx_exclude_item *items)
{
    ccnx_interest_params_init(p);
    p->name = buf + pi->name.off;
    p->name_len = pi->name.len;
    p->min_suffix = pi->has_min_suffix ? (int)pi->min_suffix : -1;
    p->max_suffix = pi->has_max_suffix ? (int)pi->max_suffix : -1;
    if (pi->publisher.len > 0) {
        p->publisher = buf + pi->publisher.off;
        p->publisher_len = pi->publisher.len;
    }
    if (pi->exclude.len > 0) {
        struct ccnx_exclude_iter it;
        size_t n = 0;
        int res = ccnx_exclude_iter_init(&it, buf, pi->exclude);
        assert_int_equal(res, 0);
        while ((res = ccnx_exclude_iter_next(&it, &items[n])) == 1) {
            assert_true(++n < MAX_ITEMS);
        }
        assert_int_equal(res, 0);
        p->exclude = items;
        p->exclude_count = n;
    }
    p->child_selector = pi->child_selector;
    p->answer_origin_kind = pi->answer_origin_kind;
    p->scope = pi->scope;
    if (pi->lifetime_value.len > 0) {
        p->lifetime = buf + pi->lifetime_value.off;
        p->lifetime_len = pi->lifetime_value.len;
    }
    if (pi->nonce.len > 0) {
        p->nonce = buf + pi->nonce.off;
        p->nonce_len = pi->nonce.len;
    }
    p->face_id = pi->face_id;
}

static void expect_rebuild_identical(const char *what, const uint8_t *buf, size_t len)
{
    struct ccnx_interest_parsed pi;
    struct ccnx_interest_params p;
    struct ccnx_exclude_item items[MAX_ITEMS];
    struct ccnx_buf out = CCNX_BUF_INIT;
    int res = ccnx_interest_parse(buf, len, &pi);
    if (res != 0) {
        fail_msg("%s: parse failed (%d)", what, res);
    }
    params_from_parsed(buf, &pi, &p, items);
    res = ccnx_interest_build(&out, &p);
    if (res != 0) {
        fail_msg("%s: build failed (%d)", what, res);
    }
    if (out.len != len || memcmp(out.data, buf, len) != 0) {
        fail_msg("%s: rebuilt %zu bytes differ from the %zu original bytes", what, out.len, len);
    }
    ccnx_buf_free(&out);
}

static int is_interest(const uint8_t *p, size_t n)
{
    struct ccnx_ccnb_header h;
    return ccnx_ccnb_header_decode(p, n, &h) == 0 && h.tt == CCNX_TT_DTAG &&
           h.numval == CCNX_DTAG_Interest;
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static void test_vectors_rebuild_identically(void **state)
{
    (void)state;
    size_t count, single = 0, ctl = 0, embedded = 0;
    char **names = tu_list_vectors(".ccnb", &count);
    struct ccnx_buf b = CCNX_BUF_INIT;
    for (size_t i = 0; i < count; i++) {
        const char *f = names[i];
        int whole =
            starts_with(f, "int_") || (starts_with(f, "ctl_") && ends_with(f, "_interest.ccnb"));
        int multi = starts_with(f, "stream_") || starts_with(f, "udp_dgram_");
        if (!whole && !multi) {
            continue;
        }
        tu_read_vector(f, &b);
        if (whole) {
            expect_rebuild_identical(f, b.data, b.len);
            if (starts_with(f, "int_"))
                single++;
            else
                ctl++;
            continue;
        }
        size_t pos = 0, end;
        while (pos < b.len) {
            assert_int_equal(ccnx_ccnb_element_end(b.data, b.len, pos, &end), 0);
            if (is_interest(b.data + pos, end - pos)) {
                char what[300];
                snprintf(what, sizeof what, "%s@%zu", f, pos);
                expect_rebuild_identical(what, b.data + pos, end - pos);
                embedded++;
            }
            pos = end;
        }
    }
    /* The README lists 32 int_* files, 5 control Interests and 9 Interests
     * inside stream and datagram files. */
    assert_int_equal(single, 32);
    assert_int_equal(ctl, 5);
    assert_int_equal(embedded, 9);
    ccnx_buf_free(&b);
    tu_free_list(names, count);
}

/* ---- Single fields ---- */

/* ccnx:/PARC/%00%01%02, the example of InterestMessage.txt. */
static const char parc_name_hex[] = "f2 faa550415243 00 fa9d000102 00 00";

struct fixture {
    struct ccnx_buf name;
    struct ccnx_buf out;
    struct ccnx_buf want;
    struct ccnx_interest_params p;
};

static int setup(void **state)
{
    static struct fixture fx;
    memset(&fx, 0, sizeof fx);
    tu_hex(parc_name_hex, &fx.name);
    ccnx_interest_params_init(&fx.p);
    fx.p.name = fx.name.data;
    fx.p.name_len = fx.name.len;
    *state = &fx;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *fx = *state;
    ccnx_buf_free(&fx->name);
    ccnx_buf_free(&fx->out);
    ccnx_buf_free(&fx->want);
    return 0;
}

/* Builds fx->p and compares with "01d2" + name + middle + "00". */
static void expect_build(struct fixture *fx, const char *middle_hex)
{
    char hex[2048];
    snprintf(hex, sizeof hex, "01d2 %s %s 00", parc_name_hex, middle_hex);
    ccnx_buf_reset(&fx->want);
    tu_hex(hex, &fx->want);
    ccnx_buf_reset(&fx->out);
    assert_int_equal(ccnx_interest_build(&fx->out, &fx->p), 0);
    assert_int_equal(fx->out.len, fx->want.len);
    assert_memory_equal(fx->out.data, fx->want.data, fx->want.len);
    struct ccnx_interest_parsed pi;
    assert_int_equal(ccnx_interest_parse(fx->out.data, fx->out.len, &pi), 0);
}

static void test_defaults_give_name_only(void **state)
{
    struct fixture *fx = *state;
    /* The spec's example bytes exactly. */
    expect_build(fx, "");
}

static void test_integers_are_decimal_udata(void **state)
{
    struct fixture *fx = *state;
    fx->p.min_suffix = 0;
    fx->p.max_suffix = 12;
    fx->p.child_selector = 1;
    fx->p.answer_origin_kind = 19;
    fx->p.scope = 2;
    fx->p.face_id = 1234;
    expect_build(fx, "059a8e3000 05a2963132 00 05aa8e3100 02fa963139 00 02d28e3200"
                     " 04d2a631323334 00");
}

static void test_blobs(void **state)
{
    struct fixture *fx = *state;
    static const uint8_t pub[32] = {0x5f, 0xaa, [31] = 0xfc};
    static const uint8_t nonce[4] = {1, 2, 3, 4};
    static const uint8_t life[3] = {0x00, 0x20, 0x00}; /* leading zeros are kept */
    fx->p.publisher = pub;
    fx->p.publisher_len = sizeof pub;
    fx->p.lifetime = life;
    fx->p.lifetime_len = sizeof life;
    fx->p.nonce = nonce;
    fx->p.nonce_len = sizeof nonce;
    expect_build(fx, "03e2 0285 5faa0000000000000000000000000000000000000000000000000000000000fc 00"
                     " 0382 9d 002000 00 02ca a5 01020304 00");
}

static void test_lifetime_units(void **state)
{
    struct fixture *fx = *state;
    fx->p.lifetime_units = CCNX_INTEREST_LIFETIME_DEFAULT;
    expect_build(fx, "0382 95 4000 00");
    fx->p.lifetime_units = 0;
    expect_build(fx, "0382 8d 00 00");
    fx->p.lifetime_units = 0x123456;
    expect_build(fx, "0382 9d 123456 00");
    /* Raw bytes win over units. */
    static const uint8_t raw[1] = {0x0e};
    fx->p.lifetime = raw;
    fx->p.lifetime_len = 1;
    expect_build(fx, "0382 8d 0e 00");
    struct ccnx_interest_parsed pi;
    assert_int_equal(ccnx_interest_parse(fx->out.data, fx->out.len, &pi), 0);
    assert_int_equal(pi.lifetime, 14);
}

static void test_exclude_items(void **state)
{
    struct fixture *fx = *state;
    const uint8_t seed[4] = {1, 2, 3, 4};
    struct ccnx_bloom bloom;
    assert_int_equal(ccnx_bloom_init_params(&bloom, 3, 2, seed), 0);
    assert_true(ccnx_bloom_insert(&bloom, "zz", 2) > 0);
    char bloom_hex[64];
    snprintf(bloom_hex, sizeof bloom_hex, "%02x", bloom.wire[8]);
    struct ccnx_exclude_item items[] = {
        {CCNX_EXCLUDE_BLOOM, bloom.wire, bloom.wire_len},
        {CCNX_EXCLUDE_COMPONENT, (const uint8_t *)"", 0},
        {CCNX_EXCLUDE_COMPONENT, (const uint8_t *)"b", 1},
        {CCNX_EXCLUDE_ANY, NULL, 0},
        {CCNX_EXCLUDE_COMPONENT, (const uint8_t *)"zz", 2},
        {CCNX_EXCLUDE_COMPONENT, (const uint8_t *)"aaa", 3},
        {CCNX_EXCLUDE_ANY, NULL, 0},
    };
    fx->p.exclude = items;
    fx->p.exclude_count = sizeof items / sizeof items[0];
    char middle[512];
    snprintf(middle, sizeof middle,
             "02da 02e2cd 0302410001020304%s 00 fa00 fa8d6200 ea00 fa957a7a00 fa9d61616100 ea00 00",
             bloom_hex);
    expect_build(fx, middle);

    struct ccnx_interest_parsed pi;
    struct ccnx_exclude_iter it;
    struct ccnx_exclude_item got;
    assert_int_equal(ccnx_interest_parse(fx->out.data, fx->out.len, &pi), 0);
    assert_int_equal(ccnx_exclude_iter_init(&it, fx->out.data, pi.exclude), 0);
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++) {
        assert_int_equal(ccnx_exclude_iter_next(&it, &got), 1);
        assert_int_equal(got.kind, items[i].kind);
        assert_int_equal(got.n, items[i].n);
        if (got.n)
            assert_memory_equal(got.p, items[i].p, got.n);
    }
    assert_int_equal(ccnx_exclude_iter_next(&it, &got), 0);

    /* An empty list means no Exclude element at all. */
    fx->p.exclude_count = 0;
    expect_build(fx, "");
}

static int build_exclude(struct fixture *fx, const struct ccnx_exclude_item *items, size_t n)
{
    fx->p.exclude = items;
    fx->p.exclude_count = n;
    ccnx_buf_reset(&fx->out);
    ccnx_buf_append(&fx->out, "keep", 4);
    int res = ccnx_interest_build(&fx->out, &fx->p);
    if (res != 0) {
        /* A refused Interest leaves the buffer as it was. */
        assert_int_equal(fx->out.len, 4);
        assert_memory_equal(fx->out.data, "keep", 4);
    }
    return res;
}

static void test_exclude_order_enforced(void **state)
{
    struct fixture *fx = *state;
    static const uint8_t bw[9] = {3, 1, 'A', 0, 0, 0, 0, 0, 0xff};
    const struct ccnx_exclude_item bloom = {CCNX_EXCLUDE_BLOOM, bw, sizeof bw};
    const struct ccnx_exclude_item descending[] = {COMP("b"), COMP("a")};
    const struct ccnx_exclude_item repeated[] = {COMP("a"), ANY, COMP("a")};
    const struct ccnx_exclude_item longer_first[] = {COMP("aaa"), COMP("zz")};
    const struct ccnx_exclude_item shorter_first[] = {COMP("zz"), COMP("aaa")};
    const struct ccnx_exclude_item empty_twice[] = {COMP(""), COMP("")};
    const struct ccnx_exclude_item any_any[] = {ANY, ANY};
    const struct ccnx_exclude_item any_bloom[] = {COMP("a"), ANY, bloom};
    const struct ccnx_exclude_item bloom_any[] = {bloom, ANY, COMP("a")};
    const struct ccnx_exclude_item ranges[] = {bloom, COMP("a"), ANY, COMP("b"), bloom};
    const struct ccnx_exclude_item bad_kind[] = {{(enum ccnx_exclude_kind)7, NULL, 0}};
    const struct ccnx_exclude_item null_comp[] = {{CCNX_EXCLUDE_COMPONENT, NULL, 3}};

    assert_int_equal(build_exclude(fx, descending, 2), CCNX_E_VALUE);
    assert_int_equal(build_exclude(fx, repeated, 3), CCNX_E_VALUE);
    assert_int_equal(build_exclude(fx, longer_first, 2), CCNX_E_VALUE); /* length decides first */
    assert_int_equal(build_exclude(fx, shorter_first, 2), 0);
    assert_int_equal(build_exclude(fx, empty_twice, 2), CCNX_E_VALUE);
    assert_int_equal(build_exclude(fx, any_any, 2), CCNX_E_VALUE);
    assert_int_equal(build_exclude(fx, any_bloom, 3), CCNX_E_VALUE);
    assert_int_equal(build_exclude(fx, bloom_any, 3), CCNX_E_VALUE);
    assert_int_equal(build_exclude(fx, ranges, 5), 0);
    assert_int_equal(build_exclude(fx, bad_kind, 1), CCNX_E_INVAL);
    assert_int_equal(build_exclude(fx, null_comp, 1), CCNX_E_INVAL);
}

static void test_invalid_params(void **state)
{
    struct fixture *fx = *state;
    struct ccnx_interest_params good = fx->p;
    static const uint8_t nine[9] = {0};
    static const uint8_t not_a_name[] = {0xfa, 0x8d, 'a', 0x00}; /* a Component */
    static const uint8_t truncated[] = {0xf2, 0xfa, 0x8d, 'a'};

    assert_int_equal(ccnx_interest_build(NULL, &fx->p), CCNX_E_INVAL);
    assert_int_equal(ccnx_interest_build(&fx->out, NULL), CCNX_E_INVAL);
    fx->p.name = NULL;
    assert_int_equal(ccnx_interest_build(&fx->out, &fx->p), CCNX_E_INVAL);
    fx->p.name = not_a_name;
    fx->p.name_len = sizeof not_a_name;
    assert_true(ccnx_interest_build(&fx->out, &fx->p) < 0);
    fx->p.name = truncated;
    fx->p.name_len = sizeof truncated;
    assert_true(ccnx_interest_build(&fx->out, &fx->p) < 0);
    fx->p = good;
    fx->p.name_len = good.name_len - 1; /* cuts the closer */
    assert_true(ccnx_interest_build(&fx->out, &fx->p) < 0);
    struct ccnx_buf two = CCNX_BUF_INIT;
    ccnx_buf_append(&two, good.name, good.name_len);
    ccnx_buf_append(&two, good.name, good.name_len);
    fx->p.name = two.data;
    fx->p.name_len = two.len;
    assert_int_equal(ccnx_interest_build(&fx->out, &fx->p), CCNX_E_TRAILING);
    ccnx_buf_free(&two);

    fx->p = good;
    fx->p.scope = 3;
    assert_int_equal(ccnx_interest_build(&fx->out, &fx->p), CCNX_E_VALUE);
    fx->p = good;
    fx->p.min_suffix = -2;
    assert_int_equal(ccnx_interest_build(&fx->out, &fx->p), CCNX_E_INVAL);
    fx->p = good;
    fx->p.lifetime = nine;
    fx->p.lifetime_len = sizeof nine;
    assert_int_equal(ccnx_interest_build(&fx->out, &fx->p), CCNX_E_VALUE);
    fx->p = good;
    fx->p.publisher_len = 32; /* without a pointer */
    assert_int_equal(ccnx_interest_build(&fx->out, &fx->p), CCNX_E_INVAL);
    fx->p = good;
    fx->p.nonce_len = 4;
    assert_int_equal(ccnx_interest_build(&fx->out, &fx->p), CCNX_E_INVAL);
    fx->p = good;
    assert_int_equal(fx->out.len, 0); /* nothing was written by the refusals */
}

static void test_appends_after_existing_bytes(void **state)
{
    struct fixture *fx = *state;
    ccnx_buf_reset(&fx->out);
    ccnx_buf_append(&fx->out, "xy", 2);
    assert_int_equal(ccnx_interest_build(&fx->out, &fx->p), 0);
    assert_memory_equal(fx->out.data, "xy", 2);
    struct ccnx_interest_parsed pi;
    assert_int_equal(ccnx_interest_parse(fx->out.data + 2, fx->out.len - 2, &pi), 0);
    assert_int_equal(pi.name_count, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors_rebuild_identically),
        cmocka_unit_test_setup_teardown(test_defaults_give_name_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_integers_are_decimal_udata, setup, teardown),
        cmocka_unit_test_setup_teardown(test_blobs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lifetime_units, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exclude_items, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exclude_order_enforced, setup, teardown),
        cmocka_unit_test_setup_teardown(test_invalid_params, setup, teardown),
        cmocka_unit_test_setup_teardown(test_appends_after_existing_bytes, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
