/* Interest / ContentObject matching, selector by selector (the
 * content-store choice is in test_match_pick.c). */
#include "matchutil.h"
#include "testutil.h"

#include <ccnx/bloom.h>
#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/match.h>
#include <ccnx/name.h>
#include <ccnx/uri.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Name prefix ---- */

static void test_prefix(void **state)
{
    (void)state;
    assert_int_equal(match_uri("ccnx:/a/b/c", -1, -1, "ccnx:/a/b/c"), 1);
    assert_int_equal(match_uri("ccnx:/a/b", -1, -1, "ccnx:/a/b/c"), 1);
    assert_int_equal(match_uri("ccnx:/", -1, -1, "ccnx:/a/b/c"), 1);
    assert_int_equal(match_uri("ccnx:/", -1, -1, "ccnx:/"), 1);
    assert_int_equal(match_uri("ccnx:/a/b/c/d", -1, -1, "ccnx:/a/b/c"), 0);
    assert_int_equal(match_uri("ccnx:/a/b", -1, -1, "ccnx:/a/bc"), 0); /* whole components */
    assert_int_equal(match_uri("ccnx:/a/bc", -1, -1, "ccnx:/a/b/c"), 0);
    assert_int_equal(match_uri("ccnx:/a/x", -1, -1, "ccnx:/a/b/c"), 0);
    assert_int_equal(match_uri("ccnx:/b", -1, -1, "ccnx:/a"), 0);
    assert_int_equal(match_uri("ccnx:/a/.../b", -1, -1, "ccnx:/a/.../b/c"), 1); /* empty comp */
    assert_int_equal(match_uri("ccnx:/a/.../b", -1, -1, "ccnx:/a/b/c"), 0);
    assert_int_equal(match_uri("ccnx:/%00%FF", -1, -1, "ccnx:/%00%FF/x"), 1);
    assert_int_equal(match_uri("ccnx:/%00%FE", -1, -1, "ccnx:/%00%FF/x"), 0);
}

/* ---- The digest as last Interest component ---- */

static void test_digest_last_component(void **state)
{
    (void)state;
    struct obj o, other;
    struct intr q;
    obj_make(&o, "ccnx:/a/b", key_a);
    obj_make(&other, "ccnx:/a/b", key_b); /* same name, different object */
    assert_memory_not_equal(o.digest, other.digest, 32);

    intr_init(&q, "ccnx:/a/b");
    intr_add_digest(&q, o.digest);
    intr_build(&q);
    assert_int_equal(q.pi.name_count, 3);
    assert_int_equal(matches(&q, &o), 1);
    assert_int_equal(matches(&q, &other), 0);
    /* The supplied digest is trusted, not recomputed. */
    assert_int_equal(ccnx_match(q.enc.data, &q.pi, o.enc.data, o.enc.len, &o.pc, other.digest), 0);
    assert_int_equal(
        ccnx_match(q.enc.data, &q.pi, other.enc.data, other.enc.len, &other.pc, o.digest), 1);

    /* The digest is the only suffix: MinSuffixComponents must be 0. */
    q.p.max_suffix = 0;
    intr_build(&q);
    assert_int_equal(matches(&q, &o), 1);
    q.p.max_suffix = -1;
    q.p.min_suffix = 1;
    intr_build(&q);
    assert_int_equal(matches(&q, &o), 0);
    q.p.min_suffix = -1;

    /* Exclude has no next component to judge when the object is named outright. */
    struct ccnx_exclude_item any = {CCNX_EXCLUDE_ANY, NULL, 0};
    q.p.exclude = &any;
    q.p.exclude_count = 1;
    intr_build(&q);
    assert_int_equal(matches(&q, &o), 1);
    q.p.exclude = NULL;
    q.p.exclude_count = 0;

    /* Publisher still applies. */
    q.p.publisher = key_b;
    q.p.publisher_len = 32;
    intr_build(&q);
    assert_int_equal(matches(&q, &o), 0);
    assert_int_equal(matches(&q, &other), 0); /* right key, wrong digest */
    intr_free(&q);

    /* A 32-byte component that is not the digest, and one byte off. */
    uint8_t wrong[32];
    memcpy(wrong, o.digest, 32);
    wrong[31] ^= 1;
    intr_init(&q, "ccnx:/a/b");
    intr_add_digest(&q, wrong);
    intr_build(&q);
    assert_int_equal(matches(&q, &o), 0);
    intr_free(&q);

    /* The digest only stands for the component right after the name. */
    intr_init(&q, "ccnx:/a");
    intr_add_digest(&q, o.digest);
    intr_build(&q);
    assert_int_equal(matches(&q, &o), 0);
    intr_free(&q);
    intr_init(&q, "ccnx:/a/b");
    intr_add_digest(&q, o.digest);
    assert_int_equal(ccnx_name_append(&q.name, "x", 1), 0);
    intr_build(&q);
    assert_int_equal(matches(&q, &o), 0);
    intr_free(&q);

    obj_free(&o);
    obj_free(&other);
}

/* ---- Min/MaxSuffixComponents ---- */

static void test_suffix_counts(void **state)
{
    (void)state;
    /* ccnx:/a/b/c under ccnx:/a: b, c and the digest make 3 suffix components. */
    assert_int_equal(match_uri("ccnx:/a", 3, -1, "ccnx:/a/b/c"), 1);
    assert_int_equal(match_uri("ccnx:/a", 4, -1, "ccnx:/a/b/c"), 0);
    assert_int_equal(match_uri("ccnx:/a", -1, 3, "ccnx:/a/b/c"), 1);
    assert_int_equal(match_uri("ccnx:/a", -1, 2, "ccnx:/a/b/c"), 0);
    assert_int_equal(match_uri("ccnx:/a", 3, 3, "ccnx:/a/b/c"), 1);
    assert_int_equal(match_uri("ccnx:/a", 0, 0, "ccnx:/a/b/c"), 0);
    /* The exact name: only the digest follows. */
    assert_int_equal(match_uri("ccnx:/a/b/c", 1, 1, "ccnx:/a/b/c"), 1);
    assert_int_equal(match_uri("ccnx:/a/b/c", -1, 0, "ccnx:/a/b/c"), 0);
    assert_int_equal(match_uri("ccnx:/a/b/c", 2, -1, "ccnx:/a/b/c"), 0);
    assert_int_equal(match_uri("ccnx:/", 1, 1, "ccnx:/"), 1);
    assert_int_equal(match_uri("ccnx:/", 2, -1, "ccnx:/"), 0);
    /* Large values do not wrap around. */
    assert_int_equal(match_uri("ccnx:/a", 0, 2147483647, "ccnx:/a/b/c"), 1);
    assert_int_equal(match_uri("ccnx:/a", 2147483647, -1, "ccnx:/a/b/c"), 0);
}

/* ---- PublisherPublicKeyDigest ---- */

static void test_publisher(void **state)
{
    (void)state;
    struct obj o;
    struct intr q;
    obj_make(&o, "ccnx:/a/b", key_a);
    intr_init(&q, "ccnx:/a");
    q.p.publisher = key_a;
    q.p.publisher_len = 32;
    intr_build(&q);
    assert_int_equal(matches(&q, &o), 1);
    q.p.publisher = key_b;
    intr_build(&q);
    assert_int_equal(matches(&q, &o), 0);
    q.p.publisher = key_a;
    q.p.publisher_len = 31; /* a prefix of the right digest is not the digest */
    intr_build(&q);
    assert_int_equal(matches(&q, &o), 0);
    intr_free(&q);
    obj_free(&o);
}

/* ---- Exclude ---- */

/* Builds an Interest for ccnx:/p with the given Exclude. */
static void exclude_interest(struct intr *q, const struct ccnx_exclude_item *items, size_t n)
{
    intr_init(q, "ccnx:/p");
    q->p.exclude = items;
    q->p.exclude_count = n;
    intr_build(q);
}

/* Checks, for each "comp=0|1" in `expect`, ccnx_match_excluded and the
 * match of ccnx:/p/<comp>/tail. */
static void expect_excluded(const struct ccnx_exclude_item *items, size_t n,
                            const char *const *comps, const int *want, size_t count)
{
    struct intr q;
    exclude_interest(&q, items, n);
    for (size_t i = 0; i < count; i++) {
        const char *c = comps[i];
        int got = ccnx_match_excluded(q.enc.data, q.pi.exclude, (const uint8_t *)c, strlen(c));
        if (got != want[i]) {
            fail_msg("component '%s': excluded=%d, expected %d", c, got, want[i]);
        }
        char uri[64];
        snprintf(uri, sizeof uri, "ccnx:/p/%s/tail", c);
        struct obj o;
        obj_make(&o, uri, key_a);
        assert_int_equal(matches(&q, &o), !want[i]);
        obj_free(&o);
    }
    intr_free(&q);
}

static const char *const letters[] = {"a", "b", "c", "d", "e", "aa", "zz", "aaa"};
#define NLET (sizeof letters / sizeof letters[0])

static void test_exclude_components_and_any(void **state)
{
    (void)state;
    /* Components only; Any leading, trailing, in the middle, alone. */
    const struct ccnx_exclude_item only[] = {COMP("b"), COMP("d"), COMP("zz")};
    const int want_only[NLET] = {0, 1, 0, 1, 0, 0, 1, 0};
    expect_excluded(only, 3, letters, want_only, NLET);
    const struct ccnx_exclude_item lead[] = {ANY, COMP("c")};
    const int want_lead[NLET] = {1, 1, 1, 0, 0, 0, 0, 0};
    expect_excluded(lead, 2, letters, want_lead, NLET);
    const struct ccnx_exclude_item trail[] = {COMP("c"), ANY};
    const int want_trail[NLET] = {0, 0, 1, 1, 1, 1, 1, 1};
    expect_excluded(trail, 2, letters, want_trail, NLET);
    const struct ccnx_exclude_item mid[] = {COMP("a"), COMP("c"), ANY, COMP("aa"), COMP("zz")};
    const int want_mid[NLET] = {1, 0, 1, 1, 1, 1, 1, 0};
    expect_excluded(mid, 5, letters, want_mid, NLET);
    const struct ccnx_exclude_item alone[] = {ANY};
    const int want_alone[NLET] = {1, 1, 1, 1, 1, 1, 1, 1};
    expect_excluded(alone, 1, letters, want_alone, NLET);
}

/* A Bloom filter holding `members`, with a seed chosen so that none of
 * `outsiders` is a false positive (the tests need clear-cut answers). */
static void make_bloom(struct ccnx_bloom *b, const char *const *members, size_t nm,
                       const char *const *outsiders, size_t no)
{
    for (uint8_t s = 0; s < 255; s++) {
        const uint8_t seed[4] = {s, 1, 2, 3};
        assert_int_equal(ccnx_bloom_init(b, 8, seed), 0);
        for (size_t i = 0; i < nm; i++) {
            assert_true(ccnx_bloom_insert(b, members[i], strlen(members[i])) >= 0);
        }
        size_t fp = 0;
        for (size_t i = 0; i < no; i++) {
            fp += (size_t)ccnx_bloom_test(b, outsiders[i], strlen(outsiders[i]));
        }
        if (fp == 0) {
            return;
        }
    }
    fail_msg("no seed without false positives");
}

static void test_exclude_bloom_ranges(void **state)
{
    (void)state;
    static const char *const in[] = {"a", "c", "e", "zz"};
    static const char *const out[] = {"b", "d", "aa", "aaa"};
    struct ccnx_bloom bl;
    make_bloom(&bl, in, 4, out, 4);
    const struct ccnx_exclude_item bloom = {CCNX_EXCLUDE_BLOOM, bl.wire, bl.wire_len};

    /* Leading Bloom: applies below the first component only. */
    const struct ccnx_exclude_item lead[] = {bloom, COMP("d")};
    const int want_lead[NLET] = {1, 0, 1, 1, 0, 0, 0, 0};
    expect_excluded(lead, 2, letters, want_lead, NLET);

    /* Between two components: only strictly inside the range. */
    const struct ccnx_exclude_item mid[] = {COMP("a"), bloom, COMP("e")};
    const int want_mid[NLET] = {1, 0, 1, 0, 1, 0, 0, 0};
    expect_excluded(mid, 3, letters, want_mid, NLET);

    /* Trailing Bloom: above the last component. */
    const struct ccnx_exclude_item tail[] = {COMP("c"), bloom};
    const int want_tail[NLET] = {0, 0, 1, 0, 1, 0, 1, 0};
    expect_excluded(tail, 2, letters, want_tail, NLET);

    /* Blooms and Anys in different ranges. */
    const struct ccnx_exclude_item mixed[] = {ANY, COMP("b"), bloom, COMP("aa"), ANY, COMP("zz")};
    const int want_mixed[NLET] = {1, 1, 1, 0, 1, 1, 1, 0};
    expect_excluded(mixed, 6, letters, want_mixed, NLET);
}

static void test_exclude_bloom_edge_cases(void **state)
{
    (void)state;
    /* An empty Bloom element describes the empty set. */
    const struct ccnx_exclude_item empty[] = {COMP("a"), {CCNX_EXCLUDE_BLOOM, NULL, 0}};
    const int want_empty[NLET] = {1, 0, 0, 0, 0, 0, 0, 0};
    expect_excluded(empty, 2, letters, want_empty, NLET);

    /* An invalid filter (unknown method) excludes its whole range. */
    static const uint8_t bad[9] = {3, 1, 'B', 0, 0, 0, 0, 0, 0};
    const struct ccnx_exclude_item invalid[] = {COMP("b"), {CCNX_EXCLUDE_BLOOM, bad, 9}, COMP("e")};
    const int want_invalid[NLET] = {0, 1, 1, 1, 1, 0, 0, 0};
    expect_excluded(invalid, 3, letters, want_invalid, NLET);

    /* A filter with every bit set behaves like Any in its range. */
    uint8_t full[8 + 1];
    const uint8_t hdr[8] = {3, 4, 'A', 0, 1, 2, 3, 4};
    memcpy(full, hdr, 8);
    full[8] = 0xff;
    const struct ccnx_exclude_item sat[] = {COMP("c"), {CCNX_EXCLUDE_BLOOM, full, 9}};
    const int want_sat[NLET] = {0, 0, 1, 1, 1, 1, 1, 1};
    expect_excluded(sat, 2, letters, want_sat, NLET);

    /* No Exclude at all. */
    struct ccnx_span none = {0, 0};
    assert_int_equal(ccnx_match_excluded((const uint8_t *)"", none, (const uint8_t *)"a", 1), 0);
}

static void test_exclude_judges_next_component_only(void **state)
{
    (void)state;
    const struct ccnx_exclude_item ex[] = {COMP("tail")};
    struct intr q;
    struct obj o;
    exclude_interest(&q, ex, 1);
    obj_make(&o, "ccnx:/p/b/tail", key_a);
    assert_int_equal(matches(&q, &o), 1);
    obj_free(&o);
    obj_make(&o, "ccnx:/p/tail/b", key_a);
    assert_int_equal(matches(&q, &o), 0);
    obj_free(&o);
    intr_free(&q);
}

static void test_exclude_applies_to_digest(void **state)
{
    (void)state;
    struct obj o;
    struct intr q;
    obj_make(&o, "ccnx:/p", key_a);
    struct ccnx_exclude_item dig = {CCNX_EXCLUDE_COMPONENT, o.digest, 32};
    uint8_t lower[32]; /* the digest minus one, as a big-endian number */
    memcpy(lower, o.digest, 32);
    for (int i = 31; i >= 0 && lower[i]-- == 0; i--) {
    }
    struct ccnx_exclude_item below = {CCNX_EXCLUDE_COMPONENT, lower, 32};

    const struct ccnx_exclude_item exact[] = {dig};
    exclude_interest(&q, exact, 1);
    assert_int_equal(matches(&q, &o), 0);
    intr_free(&q);

    const struct ccnx_exclude_item upto[] = {ANY, dig};
    exclude_interest(&q, upto, 2);
    assert_int_equal(matches(&q, &o), 0);
    intr_free(&q);

    const struct ccnx_exclude_item after[] = {dig, ANY};
    exclude_interest(&q, after, 2);
    assert_int_equal(matches(&q, &o), 0);
    intr_free(&q);

    const struct ccnx_exclude_item before[] = {ANY, below};
    exclude_interest(&q, before, 2);
    assert_int_equal(matches(&q, &o), 1);
    intr_free(&q);

    /* Short components sort before any digest. */
    const struct ccnx_exclude_item shorter[] = {ANY, COMP("zzzzzzzzzz")};
    exclude_interest(&q, shorter, 2);
    assert_int_equal(matches(&q, &o), 1);
    intr_free(&q);
    obj_free(&o);
}

/* ---- AnswerOriginKind and staleness ---- */

static void test_cs_allowed(void **state)
{
    (void)state;
    static const struct {
        int aok, fresh, stale;
    } cases[] = {{-1, 1, 0}, {0, 0, 0}, {1, 1, 0}, {2, 0, 0}, {3, 1, 0},
                 {4, 0, 0},  {5, 1, 1}, {7, 1, 1}, {6, 0, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct intr q;
        intr_init(&q, "ccnx:/a");
        q.p.answer_origin_kind = cases[i].aok;
        intr_build(&q);
        assert_int_equal(ccnx_match_cs_allowed(&q.pi, 0), cases[i].fresh);
        assert_int_equal(ccnx_match_cs_allowed(&q.pi, 1), cases[i].stale);
        intr_free(&q);
    }
    assert_int_equal(ccnx_match_cs_allowed(NULL, 0), 0);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    struct obj o;
    struct intr q;
    obj_make(&o, "ccnx:/a/b", key_a);
    intr_init(&q, "ccnx:/a");
    intr_build(&q);
    assert_int_equal(matches(&q, &o), 1);
    assert_int_equal(ccnx_match(NULL, &q.pi, o.enc.data, o.enc.len, &o.pc, NULL), 0);
    assert_int_equal(ccnx_match(q.enc.data, NULL, o.enc.data, o.enc.len, &o.pc, NULL), 0);
    assert_int_equal(ccnx_match(q.enc.data, &q.pi, NULL, o.enc.len, &o.pc, NULL), 0);
    assert_int_equal(ccnx_match(q.enc.data, &q.pi, o.enc.data, o.enc.len, NULL, NULL), 0);
    /* A parse that does not fit the buffer it is said to describe. */
    assert_int_equal(ccnx_match(q.enc.data, &q.pi, o.enc.data, o.enc.len - 1, &o.pc, NULL), 0);
    assert_int_equal(ccnx_match_pick(NULL, 0, q.enc.data, &q.pi), -1);
    assert_int_equal(ccnx_match_pick(NULL, 3, q.enc.data, &q.pi), -1);
    intr_free(&q);
    obj_free(&o);
}

/* Components written as UDATA instead of BLOB mean the same bytes. */
static void test_other_spellings(void **state)
{
    (void)state;
    struct ccnx_buf iname = CCNX_BUF_INIT, ibuf = CCNX_BUF_INIT, oname = CCNX_BUF_INIT;
    struct ccnx_interest_parsed pi;
    struct obj o, u;
    ccnx_ccnb_open(&iname, CCNX_DTAG_Name);
    ccnx_ccnb_append_udata_element(&iname, CCNX_DTAG_Component, "a", 1);
    ccnx_ccnb_append_closer(&iname);
    ccnx_ccnb_open(&ibuf, CCNX_DTAG_Interest);
    ccnx_buf_append(&ibuf, iname.data, iname.len);
    ccnx_ccnb_open(&ibuf, CCNX_DTAG_Exclude);
    ccnx_ccnb_append_udata_element(&ibuf, CCNX_DTAG_Component, "c", 1);
    ccnx_ccnb_append_closer(&ibuf);
    ccnx_ccnb_append_closer(&ibuf);
    assert_int_equal(ccnx_interest_parse(ibuf.data, ibuf.len, &pi), 0);

    obj_make(&o, "ccnx:/a/b", key_a);
    assert_int_equal(ccnx_match(ibuf.data, &pi, o.enc.data, o.enc.len, &o.pc, NULL), 1);
    obj_free(&o);
    obj_make(&o, "ccnx:/a/c", key_a);
    assert_int_equal(ccnx_match(ibuf.data, &pi, o.enc.data, o.enc.len, &o.pc, NULL), 0);
    obj_free(&o);

    /* And the other way round: the object's name in UDATA. */
    ccnx_ccnb_open(&oname, CCNX_DTAG_Name);
    ccnx_ccnb_append_udata_element(&oname, CCNX_DTAG_Component, "a", 1);
    ccnx_ccnb_append_udata_element(&oname, CCNX_DTAG_Component, "b", 1);
    ccnx_ccnb_append_closer(&oname);
    ccnx_buf_init(&u.enc);
    encode_object(&u.enc, oname.data, oname.len, key_a, "x");
    assert_int_equal(ccnx_content_parse(u.enc.data, u.enc.len, &u.pc), 0);
    assert_int_equal(ccnx_content_digest(u.enc.data, u.enc.len, u.digest), 0);
    struct intr q;
    intr_init(&q, "ccnx:/a/b");
    intr_build(&q);
    assert_int_equal(matches(&q, &u), 1);
    intr_free(&q);
    intr_init(&q, "ccnx:/a/c");
    intr_build(&q);
    assert_int_equal(matches(&q, &u), 0);
    intr_free(&q);
    obj_free(&u);
    ccnx_buf_free(&iname);
    ccnx_buf_free(&ibuf);
    ccnx_buf_free(&oname);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prefix),
        cmocka_unit_test(test_digest_last_component),
        cmocka_unit_test(test_suffix_counts),
        cmocka_unit_test(test_publisher),
        cmocka_unit_test(test_exclude_components_and_any),
        cmocka_unit_test(test_exclude_bloom_ranges),
        cmocka_unit_test(test_exclude_bloom_edge_cases),
        cmocka_unit_test(test_exclude_judges_next_component_only),
        cmocka_unit_test(test_exclude_applies_to_digest),
        cmocka_unit_test(test_cs_allowed),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_other_spellings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
