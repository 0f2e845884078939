/* Interest / ContentObject matching, selector by selector, and the
 * content-store choice (checked against a plain scan on random stores). */
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

static const uint8_t key_a[32] = {0xaa, 1, 2, 3};
static const uint8_t key_b[32] = {0xbb, 1, 2, 3};

/* ---- Objects ---- */

struct obj {
    struct ccnx_buf enc;
    struct ccnx_content_parsed pc;
    uint8_t digest[32];
};

/* Encodes a ContentObject by hand. Matching never verifies signatures, so
 * the SignatureBits are arbitrary bytes. */
static void encode_object(struct ccnx_buf *b, const uint8_t *name, size_t name_len,
                          const uint8_t *pub, const char *body)
{
    static const uint8_t sig[16] = {0x5a};
    static const uint8_t stamp[6] = {0x05, 0x00, 0x12, 0x34, 0x56, 0x78};
    ccnx_ccnb_open(b, CCNX_DTAG_ContentObject);
    ccnx_ccnb_open(b, CCNX_DTAG_Signature);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_SignatureBits, sig, sizeof sig);
    ccnx_ccnb_append_closer(b);
    ccnx_buf_append(b, name, name_len);
    ccnx_ccnb_open(b, CCNX_DTAG_SignedInfo);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_PublisherPublicKeyDigest, pub, 32);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_Timestamp, stamp, sizeof stamp);
    ccnx_ccnb_append_closer(b);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_Content, body, strlen(body));
    ccnx_ccnb_append_closer(b);
    assert_int_equal(ccnx_buf_status(b), 0);
}

static void obj_make(struct obj *o, const char *uri, const uint8_t *pub)
{
    struct ccnx_name n;
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
    ccnx_buf_init(&o->enc);
    encode_object(&o->enc, n.enc.data, n.enc.len, pub, uri);
    assert_int_equal(ccnx_content_parse(o->enc.data, o->enc.len, &o->pc), 0);
    assert_int_equal(ccnx_content_digest(o->enc.data, o->enc.len, o->digest), 0);
    ccnx_name_free(&n);
}

static void obj_free(struct obj *o)
{
    ccnx_buf_free(&o->enc);
}

/* ---- Interests ---- */

struct intr {
    struct ccnx_buf enc;
    struct ccnx_interest_parsed pi;
    struct ccnx_name name;
    struct ccnx_interest_params p;
};

static void intr_init(struct intr *q, const char *uri)
{
    ccnx_buf_init(&q->enc);
    assert_int_equal(ccnx_name_init(&q->name), 0);
    assert_int_equal(ccnx_uri_parse_str(&q->name, uri), 0);
    ccnx_interest_params_init(&q->p);
}

/* Appends the object's digest as the Interest's last name component. */
static void intr_add_digest(struct intr *q, const uint8_t digest[32])
{
    assert_int_equal(ccnx_name_append(&q->name, digest, 32), 0);
}

static void intr_build(struct intr *q)
{
    q->p.name = q->name.enc.data;
    q->p.name_len = q->name.enc.len;
    ccnx_buf_reset(&q->enc);
    assert_int_equal(ccnx_interest_build(&q->enc, &q->p), 0);
    assert_int_equal(ccnx_interest_parse(q->enc.data, q->enc.len, &q->pi), 0);
}

static void intr_free(struct intr *q)
{
    ccnx_buf_free(&q->enc);
    ccnx_name_free(&q->name);
}

/* Matches with the digest given and computed; both must agree. */
static int matches(const struct intr *q, const struct obj *o)
{
    int given = ccnx_match(q->enc.data, &q->pi, o->enc.data, o->enc.len, &o->pc, o->digest);
    int lazy = ccnx_match(q->enc.data, &q->pi, o->enc.data, o->enc.len, &o->pc, NULL);
    assert_int_equal(given, lazy);
    return given;
}

static int match_uri(const char *iuri, int min, int max, const char *ouri)
{
    struct intr q;
    struct obj o;
    intr_init(&q, iuri);
    q.p.min_suffix = min;
    q.p.max_suffix = max;
    intr_build(&q);
    obj_make(&o, ouri, key_a);
    int r = matches(&q, &o);
    obj_free(&o);
    intr_free(&q);
    return r;
}

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

#define COMP(s)                                                                                    \
    {                                                                                              \
        CCNX_EXCLUDE_COMPONENT, (const uint8_t *)(s), sizeof(s) - 1                                \
    }
#define ANY                                                                                        \
    {                                                                                              \
        CCNX_EXCLUDE_ANY, NULL, 0                                                                  \
    }

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

/* ---- Canonical order of full names ---- */

struct store {
    struct obj objs[64];
    struct ccnx_match_candidate c[64];
    size_t n;
};

static size_t store_add(struct store *s, const char *uri, const uint8_t *pub)
{
    assert_true(s->n < 64);
    obj_make(&s->objs[s->n], uri, pub);
    return s->n++;
}

static void store_sort(struct store *s)
{
    for (size_t i = 0; i < s->n; i++) {
        s->c[i] = (struct ccnx_match_candidate){s->objs[i].enc.data, s->objs[i].enc.len,
                                                &s->objs[i].pc, s->objs[i].digest, 0};
    }
    qsort(s->c, s->n, sizeof s->c[0], ccnx_match_candidate_compare);
}

static void store_free(struct store *s)
{
    for (size_t i = 0; i < s->n; i++) {
        obj_free(&s->objs[i]);
    }
    s->n = 0;
}

/* The URI of the candidate's name ("NONE" for -1). */
static const char *cand_uri(const struct store *s, ssize_t i, struct ccnx_buf *b)
{
    ccnx_buf_reset(b);
    if (i < 0) {
        return "NONE";
    }
    const struct ccnx_match_candidate *c = &s->c[i];
    assert_int_equal(ccnx_uri_append(b, c->buf + c->pc->name.off, c->pc->name.len), 0);
    return ccnx_buf_cstr(b);
}

static void test_full_name_order(void **state)
{
    (void)state;
    static struct store s;
    const char *uris[] = {"ccnx:/p/aa", "ccnx:/p", "ccnx:/p/b",   "ccnx:/p/b/1",
                          "ccnx:/p/c",  "ccnx:/o", "ccnx:/p/...", "ccnx:/q"};
    const char *sorted[] = {"ccnx:/o",   "ccnx:/p/...", "ccnx:/p/b/1", "ccnx:/p/b",
                            "ccnx:/p/c", "ccnx:/p/aa",  "ccnx:/p",     "ccnx:/q"};
    for (size_t i = 0; i < 8; i++) {
        store_add(&s, uris[i], key_a);
    }
    store_sort(&s);
    struct ccnx_buf b = CCNX_BUF_INIT;
    for (size_t i = 0; i < 8; i++) {
        assert_string_equal(cand_uri(&s, (ssize_t)i, &b), sorted[i]);
    }
    /* Same name: the digests decide; equal objects compare equal. */
    struct obj x, y;
    obj_make(&x, "ccnx:/p/b", key_a);
    obj_make(&y, "ccnx:/p/b", key_b);
    const uint8_t *xn = x.enc.data + x.pc.name.off, *yn = y.enc.data + y.pc.name.off;
    int c = ccnx_match_full_name_compare(xn, x.pc.name.len, x.digest, yn, y.pc.name.len, y.digest);
    assert_int_equal(c < 0, memcmp(x.digest, y.digest, 32) < 0);
    assert_int_equal(
        ccnx_match_full_name_compare(xn, x.pc.name.len, x.digest, xn, x.pc.name.len, x.digest), 0);
    assert_true(ccnx_match_full_name_compare(xn, x.pc.name.len, NULL, xn, x.pc.name.len, x.digest) <
                0);
    ccnx_buf_free(&b);
    obj_free(&x);
    obj_free(&y);
    store_free(&s);
}

/* ---- The content-store pick ---- */

static const char *pick_uri(struct store *s, struct intr *q, struct ccnx_buf *b)
{
    intr_build(q);
    return cand_uri(s, ccnx_match_pick(s->c, s->n, q->enc.data, &q->pi), b);
}

static void test_pick_selectors(void **state)
{
    (void)state;
    static struct store s;
    const char *uris[] = {"ccnx:/o/z",   "ccnx:/p/a", "ccnx:/p/b",    "ccnx:/p/b/1",
                          "ccnx:/p/b/2", "ccnx:/p/c", "ccnx:/p/aa/x", "ccnx:/q/a"};
    for (size_t i = 0; i < 8; i++) {
        store_add(&s, uris[i], key_a);
    }
    store_sort(&s);
    struct ccnx_buf b = CCNX_BUF_INIT;
    struct intr q;

    intr_init(&q, "ccnx:/p");
    assert_string_equal(pick_uri(&s, &q, &b), "ccnx:/p/a");
    q.p.child_selector = 1; /* greatest child is aa (length first) */
    assert_string_equal(pick_uri(&s, &q, &b), "ccnx:/p/aa/x");
    const struct ccnx_exclude_item upto_b[] = {COMP("c"), ANY};
    q.p.exclude = upto_b;
    q.p.exclude_count = 2;
    /* Rightmost child b, and inside it the first object: b/1 before b itself. */
    assert_string_equal(pick_uri(&s, &q, &b), "ccnx:/p/b/1");
    q.p.max_suffix = 2; /* only ccnx:/p/<x> objects: b itself */
    assert_string_equal(pick_uri(&s, &q, &b), "ccnx:/p/b");
    q.p.child_selector = 0;
    assert_string_equal(pick_uri(&s, &q, &b), "ccnx:/p/a");
    q.p.min_suffix = 3;
    q.p.max_suffix = -1;
    q.p.exclude = NULL;
    q.p.exclude_count = 0;
    assert_string_equal(pick_uri(&s, &q, &b), "ccnx:/p/b/1");
    q.p.child_selector = 1;
    assert_string_equal(pick_uri(&s, &q, &b), "ccnx:/p/aa/x");
    q.p.min_suffix = 4;
    assert_string_equal(pick_uri(&s, &q, &b), "NONE");
    intr_free(&q);

    /* Publisher mismatch and AnswerOriginKind without the content-store bit. */
    intr_init(&q, "ccnx:/p");
    q.p.publisher = key_b;
    q.p.publisher_len = 32;
    assert_string_equal(pick_uri(&s, &q, &b), "NONE");
    q.p.publisher = key_a;
    assert_string_equal(pick_uri(&s, &q, &b), "ccnx:/p/a");
    q.p.answer_origin_kind = CCNX_AOK_NEW;
    assert_string_equal(pick_uri(&s, &q, &b), "NONE");
    q.p.answer_origin_kind = 0;
    assert_string_equal(pick_uri(&s, &q, &b), "NONE");
    q.p.answer_origin_kind = CCNX_AOK_CS;
    assert_string_equal(pick_uri(&s, &q, &b), "ccnx:/p/a");
    intr_free(&q);

    /* Nothing under the prefix; prefix between stored names. */
    intr_init(&q, "ccnx:/pp");
    assert_string_equal(pick_uri(&s, &q, &b), "NONE");
    intr_free(&q);
    intr_init(&q, "ccnx:/");
    assert_string_equal(pick_uri(&s, &q, &b), "ccnx:/o/z");
    q.p.child_selector = 1;
    assert_string_equal(pick_uri(&s, &q, &b), "ccnx:/q/a");
    intr_free(&q);
    ccnx_buf_free(&b);
    store_free(&s);
}

static void test_pick_stale(void **state)
{
    (void)state;
    static struct store s;
    store_add(&s, "ccnx:/p/a", key_a);
    store_add(&s, "ccnx:/p/b", key_a);
    store_add(&s, "ccnx:/p/c", key_a);
    store_sort(&s);
    s.c[0].stale = 1; /* p/a */
    s.c[2].stale = 1; /* p/c */
    struct ccnx_buf b = CCNX_BUF_INIT;
    struct intr q;
    intr_init(&q, "ccnx:/p");
    assert_string_equal(pick_uri(&s, &q, &b), "ccnx:/p/b");
    q.p.child_selector = 1;
    assert_string_equal(pick_uri(&s, &q, &b), "ccnx:/p/b");
    q.p.answer_origin_kind = CCNX_AOK_CS | CCNX_AOK_STALE;
    assert_string_equal(pick_uri(&s, &q, &b), "ccnx:/p/c");
    q.p.child_selector = 0;
    assert_string_equal(pick_uri(&s, &q, &b), "ccnx:/p/a");
    q.p.answer_origin_kind = CCNX_AOK_STALE; /* stale bit alone: no content store */
    assert_string_equal(pick_uri(&s, &q, &b), "NONE");
    intr_free(&q);
    ccnx_buf_free(&b);
    store_free(&s);
}

static void test_pick_by_digest(void **state)
{
    (void)state;
    static struct store s;
    size_t pb = store_add(&s, "ccnx:/p/b", key_a);
    store_add(&s, "ccnx:/p/b", key_b);
    store_add(&s, "ccnx:/p/b/c", key_a);
    store_add(&s, "ccnx:/p/a", key_a);
    store_sort(&s);
    struct ccnx_buf b = CCNX_BUF_INIT;
    struct intr q;
    intr_init(&q, "ccnx:/p/b");
    intr_add_digest(&q, s.objs[pb].digest);
    intr_build(&q);
    ssize_t got = ccnx_match_pick(s.c, s.n, q.enc.data, &q.pi);
    assert_true(got >= 0);
    assert_memory_equal(s.c[got].digest, s.objs[pb].digest, 32);
    /* An Exclude starting with Any does not hide an object named by digest. */
    const struct ccnx_exclude_item ex[] = {ANY, COMP("zz")};
    q.p.exclude = ex;
    q.p.exclude_count = 2;
    intr_build(&q);
    got = ccnx_match_pick(s.c, s.n, q.enc.data, &q.pi);
    assert_true(got >= 0);
    assert_memory_equal(s.c[got].digest, s.objs[pb].digest, 32);
    intr_free(&q);
    ccnx_buf_free(&b);
    store_free(&s);
}

static void test_pick_rightmost_stops_at_prefix_object(void **state)
{
    (void)state;
    /* The reference walk ends at a match whose next component is its own
     * digest, even though a 33-byte child sorts after any digest. */
    static struct store s;
    store_add(&s, "ccnx:/p", key_a);
    store_add(&s, "ccnx:/p/a", key_a);
    store_add(&s, "ccnx:/p/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", key_a); /* 33 bytes */
    store_sort(&s);
    struct ccnx_buf b = CCNX_BUF_INIT;
    struct intr q;
    intr_init(&q, "ccnx:/p");
    q.p.child_selector = 1;
    assert_string_equal(pick_uri(&s, &q, &b), "ccnx:/p");
    q.p.min_suffix = 2; /* the prefix object no longer matches */
    assert_string_equal(pick_uri(&s, &q, &b), "ccnx:/p/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    intr_free(&q);
    ccnx_buf_free(&b);
    store_free(&s);
}

static void test_pick_probe_budget(void **state)
{
    (void)state;
    static struct store s;
    store_add(&s, "ccnx:/p/a/1", key_a);
    store_add(&s, "ccnx:/p/a/2", key_a);
    store_add(&s, "ccnx:/p/b", key_a);
    store_add(&s, "ccnx:/p/c", key_a);
    store_sort(&s);
    struct intr q;
    intr_init(&q, "ccnx:/p");
    q.p.max_suffix = 2; /* p/a/1 and p/a/2 do not match */
    intr_build(&q);
    assert_int_equal(ccnx_match_pick_limited(s.c, s.n, q.enc.data, &q.pi, 2), -1);
    assert_int_equal(ccnx_match_pick_limited(s.c, s.n, q.enc.data, &q.pi, 3), 2);
    q.p.child_selector = 1;
    intr_build(&q);
    /* Out of budget: the best answer so far. */
    assert_int_equal(ccnx_match_pick_limited(s.c, s.n, q.enc.data, &q.pi, 3), 2);
    assert_int_equal(ccnx_match_pick_limited(s.c, s.n, q.enc.data, &q.pi, 4), 3);
    assert_int_equal(ccnx_match_pick(s.c, s.n, q.enc.data, &q.pi), 3);
    intr_free(&q);
    store_free(&s);
}

/* ---- Random stores against a plain scan ---- */

static uint32_t rng_state = 12345;
static uint32_t rnd(uint32_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state % n;
}

/* Components in canonical order: URI spelling and raw bytes (for %00 the
 * byte is the literal's terminating NUL). */
static const struct {
    const char *uri;
    const char *raw;
    size_t n;
} pieces[] = {{"...", "", 0},  {"%00", "", 1},     {"a", "a", 1},   {"b", "b", 1},
              {"c", "c", 1},   {"%FF", "\xff", 1}, {"aa", "aa", 2}, {"ab", "ab", 2},
              {"zz", "zz", 2}, {"abc", "abc", 3}};
#define NPIECES (sizeof pieces / sizeof pieces[0])

/* The answer by brute force: every object in canonical order, plain
 * ccnx_match, and the rightmost rule spelled out (group by the component
 * after the prefix; the digest is the component for an object named by
 * the prefix itself, and the walk ends at such an object when it matches). */
static ssize_t scan_pick(const struct store *s, const struct intr *q)
{
    int aok = ccnx_interest_aok(&q->pi);
    if ((aok & CCNX_AOK_CS) == 0) {
        return -1;
    }
    int rightmost = q->pi.child_selector > 0 && (q->pi.child_selector & 1);
    ssize_t best = -1;
    const uint8_t *best_child = NULL;
    size_t best_child_n = 0;
    for (size_t i = 0; i < s->n; i++) {
        const struct ccnx_match_candidate *c = &s->c[i];
        if (c->stale && (aok & CCNX_AOK_STALE) == 0) {
            continue;
        }
        if (!ccnx_match(q->enc.data, &q->pi, c->buf, c->len, c->pc, c->digest)) {
            continue;
        }
        if (!rightmost) {
            return (ssize_t)i;
        }
        if (c->pc->name_count < q->pi.name_count) {
            return (ssize_t)i; /* named by digest: the only object under the prefix */
        }
        struct ccnx_name_iter it;
        struct ccnx_comp comp = {c->digest, 32};
        assert_int_equal(ccnx_name_iter_init(&it, c->buf + c->pc->name.off, c->pc->name.len), 0);
        for (uint32_t k = 0; k <= q->pi.name_count && k < c->pc->name_count; k++) {
            assert_int_equal(ccnx_name_iter_next(&it, &comp), 1);
        }
        if (c->pc->name_count == q->pi.name_count) {
            comp = (struct ccnx_comp){c->digest, 32};
        }
        if (best < 0 || ccnx_comp_compare(comp.p, comp.n, best_child, best_child_n) != 0) {
            best = (ssize_t)i;
            best_child = comp.p;
            best_child_n = comp.n;
        }
        if (c->pc->name_count == q->pi.name_count) {
            break;
        }
    }
    return best;
}

/* A random Exclude: some pieces in order, with Any or Bloom between. */
static size_t random_exclude(struct ccnx_exclude_item *items, struct ccnx_bloom *blooms)
{
    size_t k = 0, nb = 0;
    for (size_t i = 0; i < NPIECES; i++) {
        if ((k == 0 || items[k - 1].kind == CCNX_EXCLUDE_COMPONENT) && rnd(4) == 0) {
            if (rnd(2) == 0) {
                items[k++] = (struct ccnx_exclude_item){CCNX_EXCLUDE_ANY, NULL, 0};
                continue;
            }
            const uint8_t seed[4] = {(uint8_t)rnd(256), 0, 0, 0};
            size_t m = rnd(NPIECES);
            assert_int_equal(ccnx_bloom_init(&blooms[nb], 2, seed), 0);
            assert_true(ccnx_bloom_insert(&blooms[nb], pieces[m].raw, pieces[m].n) >= 0);
            items[k++] = (struct ccnx_exclude_item){CCNX_EXCLUDE_BLOOM, blooms[nb].wire,
                                                    blooms[nb].wire_len};
            nb++;
            continue;
        }
        if (rnd(3) == 0) {
            items[k++] = (struct ccnx_exclude_item){CCNX_EXCLUDE_COMPONENT,
                                                    (const uint8_t *)pieces[i].raw, pieces[i].n};
        }
    }
    return k;
}

static void test_pick_agrees_with_scan(void **state)
{
    (void)state;
    static struct store s;
    struct ccnx_buf b1 = CCNX_BUF_INIT, b2 = CCNX_BUF_INIT;
    size_t answered = 0, rounds = 0;
    for (int round = 0; round < 60; round++) {
        store_free(&s);
        size_t count = 5 + rnd(50);
        for (size_t i = 0; i < count; i++) {
            char uri[64];
            int depth = (int)rnd(4);
            snprintf(uri, sizeof uri, "ccnx:/%s", rnd(5) ? "r" : (rnd(2) ? "q" : "s"));
            for (int d = 0; d < depth; d++) {
                strcat(uri, "/");
                strcat(uri, pieces[rnd(NPIECES)].uri);
            }
            store_add(&s, uri, rnd(6) ? key_a : key_b);
        }
        store_sort(&s);
        for (size_t i = 0; i < s.n; i++) {
            s.c[i].stale = rnd(8) == 0;
        }
        for (int t = 0; t < 40; t++) {
            struct intr q;
            struct ccnx_exclude_item items[2 * NPIECES];
            struct ccnx_bloom blooms[NPIECES];
            char uri[64] = "ccnx:/r";
            if (rnd(3) == 0) {
                strcat(uri, "/");
                strcat(uri, pieces[rnd(NPIECES)].uri);
            }
            intr_init(&q, uri);
            if (rnd(6) == 0) {
                intr_add_digest(&q, s.objs[rnd((uint32_t)s.n)].digest);
            }
            q.p.min_suffix = rnd(3) ? -1 : (int)rnd(4);
            q.p.max_suffix = rnd(3) ? -1 : (int)rnd(4);
            q.p.child_selector = (int)rnd(3) - 1;
            static const int aoks[] = {-1, -1, 1, 3, 5, 7, 2};
            q.p.answer_origin_kind = aoks[rnd(7)];
            if (rnd(5) == 0) {
                q.p.publisher = rnd(2) ? key_a : key_b;
                q.p.publisher_len = 32;
            }
            if (rnd(2)) {
                q.p.exclude = items;
                q.p.exclude_count = random_exclude(items, blooms);
            }
            intr_build(&q);
            ssize_t want = scan_pick(&s, &q);
            ssize_t got = ccnx_match_pick(s.c, s.n, q.enc.data, &q.pi);
            if (got != want) {
                fail_msg("round %d/%d: pick %s, scan %s", round, t, cand_uri(&s, got, &b1),
                         cand_uri(&s, want, &b2));
            }
            answered += want >= 0;
            rounds++;
            intr_free(&q);
        }
    }
    /* The random cases must exercise both outcomes. */
    assert_true(answered > rounds / 5);
    assert_true(answered < rounds);
    ccnx_buf_free(&b1);
    ccnx_buf_free(&b2);
    store_free(&s);
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
        cmocka_unit_test(test_full_name_order),
        cmocka_unit_test(test_pick_selectors),
        cmocka_unit_test(test_pick_stale),
        cmocka_unit_test(test_pick_by_digest),
        cmocka_unit_test(test_pick_rightmost_stops_at_prefix_object),
        cmocka_unit_test(test_pick_probe_budget),
        cmocka_unit_test(test_pick_agrees_with_scan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
