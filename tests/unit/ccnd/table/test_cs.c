/* The content store: the reference's recorded answers, agreement with the
 * array pick on random stores and Interests, staleness, duplicates,
 * capacity and counters. */
#include "testutil.h"

#include "table/cs.h"

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

#define SEC 1000000ull

/* PublisherPublicKeyDigest of the vectors' user_pubkey.pem. */
static const char user_key_digest[] =
    "5faa76fdb1eed250dadad76193c57547c5a79152ed03b0a6c43ada91262b9bfc";

/* Appends a DATA ContentObject named `name` to b. freshness < 0 omits it. */
static void build_object(struct ccnx_buf *b, const struct ccnx_name *name, const uint8_t pub[32],
                         int64_t freshness, const void *content, size_t clen)
{
    static const uint8_t sig[16] = {0x01, 0x02, 0x03};
    static const uint8_t stamp[6] = {0x06, 0xb1, 0x12, 0x1d, 0x90, 0x00};
    ccnx_ccnb_open(b, CCNX_DTAG_ContentObject);
    ccnx_ccnb_open(b, CCNX_DTAG_Signature);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_SignatureBits, sig, sizeof sig);
    ccnx_ccnb_append_closer(b);
    ccnx_buf_append(b, name->enc.data, name->enc.len);
    ccnx_ccnb_open(b, CCNX_DTAG_SignedInfo);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_PublisherPublicKeyDigest, pub, 32);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_Timestamp, stamp, sizeof stamp);
    if (freshness >= 0) {
        ccnx_ccnb_append_uint_element(b, CCNX_DTAG_FreshnessSeconds, (uint64_t)freshness);
    }
    ccnx_ccnb_append_closer(b);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_Content, content, clen);
    ccnx_ccnb_append_closer(b);
    assert_int_equal(ccnx_buf_status(b), 0);
}

static int insert_uri(struct cs *cs, const char *uri, int64_t freshness, const char *content,
                      uint64_t now, const struct cs_entry **out)
{
    uint8_t pub[32] = {7};
    struct ccnx_name n;
    struct ccnx_buf b = CCNX_BUF_INIT;
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
    build_object(&b, &n, pub, freshness, content, strlen(content));
    int r = cs_insert(cs, b.data, b.len, NULL, NULL, now, out);
    ccnx_buf_free(&b);
    ccnx_name_free(&n);
    return r;
}

/* Builds an Interest for `uri` into b and parses it. */
static void make_interest(struct ccnx_buf *b, struct ccnx_interest_parsed *pi, const char *uri,
                          int child, int aok, int scope)
{
    struct ccnx_name n;
    struct ccnx_interest_params p;
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
    ccnx_interest_params_init(&p);
    p.name = n.enc.data;
    p.name_len = n.enc.len;
    p.child_selector = child;
    p.answer_origin_kind = aok;
    p.scope = scope;
    ccnx_buf_reset(b);
    assert_int_equal(ccnx_interest_build(b, &p), 0);
    assert_int_equal(ccnx_interest_parse(b->data, b->len, pi), 0);
    ccnx_name_free(&n);
}

/* The URI of what the store answers, or "NONE". */
static const char *lookup_uri(struct cs *cs, const uint8_t *ibuf,
                              const struct ccnx_interest_parsed *pi, uint64_t now,
                              struct ccnx_buf *out)
{
    const struct cs_entry *e = cs_lookup(cs, ibuf, pi, now);
    ccnx_buf_reset(out);
    if (e == NULL) {
        ccnx_buf_append_str(out, "NONE");
    } else {
        size_t nlen;
        const uint8_t *name = cs_entry_name(e, &nlen);
        assert_int_equal(ccnx_uri_append(out, name, nlen), 0);
    }
    return ccnx_buf_cstr(out);
}

static const char *simple_lookup(struct cs *cs, const char *uri, int child, int aok, int scope,
                                 uint64_t now, struct ccnx_buf *out)
{
    struct ccnx_buf ib = CCNX_BUF_INIT;
    struct ccnx_interest_parsed pi;
    make_interest(&ib, &pi, uri, child, aok, scope);
    lookup_uri(cs, ib.data, &pi, now, out);
    ccnx_buf_free(&ib);
    return (const char *)out->data;
}

/* ---- The reference's recorded answers ---- */

static struct cs *vector_store(void)
{
    size_t count;
    char **files = tu_list_vectors(".ccnb", &count);
    struct cs *cs = cs_create(CS_DEFAULT_CAPACITY);
    assert_non_null(cs);
    for (size_t i = 0; i < count; i++) {
        if (strncmp(files[i], "co_", 3) == 0) {
            struct ccnx_buf b = CCNX_BUF_INIT;
            tu_read_vector(files[i], &b);
            assert_int_equal(cs_insert(cs, b.data, b.len, NULL, NULL, 0, NULL), CS_INSERTED);
            ccnx_buf_free(&b);
        }
    }
    tu_free_list(files, count);
    assert_int_equal(cs_count(cs), 18);
    /* The sel objects are built exactly as test_vector_answers.c builds
     * them; the content is the last component. */
    static const char *const sel[][2] = {{"ccnx:/example/vec/sel/a", "a"},
                                         {"ccnx:/example/vec/sel/b", "b"},
                                         {"ccnx:/example/vec/sel/c", "c"},
                                         {"ccnx:/example/vec/sel/d", "d"},
                                         {"ccnx:/example/vec/sel/c/1", "1"}};
    for (size_t i = 0; i < 5; i++) {
        struct ccnx_name n;
        uint8_t pub[32];
        struct ccnx_buf hex = CCNX_BUF_INIT, b = CCNX_BUF_INIT;
        static const uint8_t sig[128] = {0x01, 0x02, 0x03};
        static const uint8_t stamp[6] = {0x06, 0xb1, 0x12, 0x1d, 0x90, 0x00};
        tu_hex(user_key_digest, &hex);
        memcpy(pub, hex.data, 32);
        assert_int_equal(ccnx_name_init(&n), 0);
        assert_int_equal(ccnx_uri_parse_str(&n, sel[i][0]), 0);
        ccnx_ccnb_open(&b, CCNX_DTAG_ContentObject);
        ccnx_ccnb_open(&b, CCNX_DTAG_Signature);
        ccnx_ccnb_append_blob_element(&b, CCNX_DTAG_SignatureBits, sig, sizeof sig);
        ccnx_ccnb_append_closer(&b);
        ccnx_buf_append(&b, n.enc.data, n.enc.len);
        ccnx_ccnb_open(&b, CCNX_DTAG_SignedInfo);
        ccnx_ccnb_append_blob_element(&b, CCNX_DTAG_PublisherPublicKeyDigest, pub, 32);
        ccnx_ccnb_append_blob_element(&b, CCNX_DTAG_Timestamp, stamp, sizeof stamp);
        ccnx_ccnb_append_closer(&b);
        ccnx_ccnb_append_blob_element(&b, CCNX_DTAG_Content, sel[i][1], 1);
        ccnx_ccnb_append_closer(&b);
        assert_int_equal(cs_insert(cs, b.data, b.len, NULL, NULL, 0, NULL), CS_INSERTED);
        ccnx_buf_free(&b);
        ccnx_buf_free(&hex);
        ccnx_name_free(&n);
    }
    return cs;
}

static void check_vector_interest(struct cs *cs, const char *file, const char *want)
{
    struct ccnx_buf msg = CCNX_BUF_INIT, got = CCNX_BUF_INIT;
    struct ccnx_interest_parsed pi;
    tu_read_vector(file, &msg);
    assert_int_equal(ccnx_interest_parse(msg.data, msg.len, &pi), 0);
    const char *g = lookup_uri(cs, msg.data, &pi, 1, &got);
    if (strcmp(g, want) != 0) {
        fail_msg("%s: store answered %s, the reference answered %s", file, g, want);
    }
    ccnx_buf_free(&got);
    ccnx_buf_free(&msg);
}

/* Reads the expected answers straight from the vectors' README, so this
 * test and test_vector_answers.c cannot drift apart. */
static void test_recorded_answers(void **state)
{
    (void)state;
    struct cs *cs = vector_store();
    struct ccnx_buf readme = CCNX_BUF_INIT;
    tu_read_vector("README.md", &readme);
    const char *line = ccnx_buf_cstr(&readme);
    size_t found = 0;
    while (line != NULL && *line != '\0') {
        const char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        char buf[1024], file[128], ans[512];
        if (len < sizeof buf) {
            memcpy(buf, line, len);
            buf[len] = '\0';
            const char *tag = strstr(buf, "ccnd answer: `");
            if (strncmp(buf, "* `", 3) == 0 && tag != NULL &&
                sscanf(buf + 3, "%127[^`]", file) == 1 && sscanf(tag + 14, "%511[^`]", ans) == 1) {
                check_vector_interest(cs, file, ans);
                found++;
            }
        }
        line = eol ? eol + 1 : NULL;
    }
    assert_int_equal(found, 16);
    /* The ccnls walk: each child in turn, then nothing. */
    check_vector_interest(cs, "int_lib_ccnls_0.ccnb", "ccnx:/example/vec/sel/a");
    check_vector_interest(cs, "int_lib_ccnls_1.ccnb", "ccnx:/example/vec/sel/b");
    check_vector_interest(cs, "int_lib_ccnls_2.ccnb", "ccnx:/example/vec/sel/c/1");
    check_vector_interest(cs, "int_lib_ccnls_last.ccnb", "NONE");
    ccnx_buf_free(&readme);
    cs_destroy(cs);
}

/* ---- Random stores against the array pick ---- */

static uint64_t rng_state = 12345;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33) % n;
}

/* In canonical order, so Exclude lists built from it are ordered. The
 * 32-byte components sit where digests do, which is what decides when the
 * store must compute a digest it left for later. */
static const char *const alphabet[] = {"",
                                       "a",
                                       "b",
                                       "z",
                                       "aa",
                                       "ab",
                                       "ba",
                                       "zz",
                                       "0123456789abcdef0123456789abcdef",
                                       "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"};
#define NALPHA 10

static void random_name(struct ccnx_name *n, uint32_t max_depth)
{
    uint32_t depth = rnd(max_depth + 1);
    assert_int_equal(ccnx_name_init(n), 0);
    for (uint32_t i = 0; i < depth; i++) {
        const char *c = alphabet[rnd(NALPHA)];
        assert_int_equal(ccnx_name_append(n, c, strlen(c)), 0);
    }
}

struct arr_obj {
    struct ccnx_buf b;
    struct ccnx_content_parsed pc;
    uint8_t digest[32];
};

static void random_exclude(struct ccnx_interest_params *p, struct ccnx_exclude_item *items)
{
    size_t k = 0;
    if (rnd(3) == 0) {
        items[k++] = (struct ccnx_exclude_item){CCNX_EXCLUDE_ANY, NULL, 0};
    }
    for (size_t i = 0; i < NALPHA && k < 6; i++) {
        if (rnd(4) == 0) {
            items[k++] = (struct ccnx_exclude_item){
                CCNX_EXCLUDE_COMPONENT, (const uint8_t *)alphabet[i], strlen(alphabet[i])};
            if (rnd(3) == 0 && k < 6) {
                items[k++] = (struct ccnx_exclude_item){CCNX_EXCLUDE_ANY, NULL, 0};
            }
        }
    }
    p->exclude = items;
    p->exclude_count = k;
}

/* One random Interest; the store and the array must agree. */
static void compare_one(struct cs *cs, struct arr_obj *objs, struct ccnx_match_candidate *cand,
                        size_t n, const uint8_t pubs[2][32], uint64_t now)
{
    struct ccnx_name name;
    struct ccnx_interest_params p;
    struct ccnx_exclude_item items[8];
    struct ccnx_buf ib = CCNX_BUF_INIT;
    struct ccnx_interest_parsed pi;
    random_name(&name, 3);
    if (n > 0 && rnd(5) == 0) { /* an Interest naming one object by its digest */
        const struct ccnx_match_candidate *c = &cand[rnd((uint32_t)n)];
        assert_int_equal(ccnx_name_set_ccnb(&name, c->buf + c->pc->name.off, c->pc->name.len), 0);
        assert_int_equal(ccnx_name_append(&name, c->digest, 32), 0);
    }
    ccnx_interest_params_init(&p);
    p.name = name.enc.data;
    p.name_len = name.enc.len;
    p.child_selector = (int)rnd(3) - 1;
    p.min_suffix = rnd(3) == 0 ? (int64_t)rnd(4) : -1;
    p.max_suffix = rnd(3) == 0 ? (int64_t)rnd(4) : -1;
    p.answer_origin_kind = rnd(2) ? -1 : (int)(CCNX_AOK_CS | (rnd(2) ? CCNX_AOK_STALE : 0));
    if (rnd(4) == 0) {
        p.publisher = pubs[rnd(2)];
        p.publisher_len = 32;
    }
    if (rnd(2) == 0) {
        random_exclude(&p, items);
        if (n > 0 && p.exclude_count < 7 && rnd(3) == 0) { /* and one stored digest */
            const uint8_t *d = cand[rnd((uint32_t)n)].digest;
            size_t at = 0;
            while (at < p.exclude_count &&
                   (items[at].kind == CCNX_EXCLUDE_ANY ||
                    ccnx_comp_compare(items[at].p, items[at].n, d, 32) < 0)) {
                at++;
            }
            memmove(&items[at + 1], &items[at], (p.exclude_count - at) * sizeof items[0]);
            items[at] = (struct ccnx_exclude_item){CCNX_EXCLUDE_COMPONENT, d, 32};
            p.exclude_count++;
        }
    }
    assert_int_equal(ccnx_interest_build(&ib, &p), 0);
    assert_int_equal(ccnx_interest_parse(ib.data, ib.len, &pi), 0);
    (void)objs;
    ssize_t want = ccnx_match_pick(cand, n, ib.data, &pi);
    const struct cs_entry *got = cs_lookup(cs, ib.data, &pi, now);
    if (want < 0) {
        assert_null(got);
    } else {
        assert_non_null(got);
        assert_memory_equal(cs_entry_digest(got), cand[want].digest, 32);
    }
    ccnx_buf_free(&ib);
    ccnx_name_free(&name);
}

static void test_random_against_array(void **state)
{
    (void)state;
    uint8_t pubs[2][32] = {{1}, {2}};
    for (int round = 0; round < 200; round++) {
        size_t n = 1 + rnd(120);
        struct arr_obj *objs = calloc(n, sizeof *objs);
        struct ccnx_match_candidate *cand = calloc(n, sizeof *cand);
        struct cs *cs = cs_create(CS_DEFAULT_CAPACITY);
        size_t kept = 0;
        for (size_t i = 0; i < n; i++) {
            struct ccnx_name name;
            char content[16];
            random_name(&name, 4);
            snprintf(content, sizeof content, "%u", rnd(4));
            ccnx_buf_init(&objs[i].b);
            build_object(&objs[i].b, &name, pubs[rnd(2)], rnd(2) ? 10 : -1, content,
                         strlen(content));
            ccnx_name_free(&name);
            struct arr_obj *o = &objs[i];
            assert_int_equal(ccnx_content_parse(o->b.data, o->b.len, &o->pc), 0);
            assert_int_equal(ccnx_content_digest(o->b.data, o->b.len, o->digest), 0);
            const struct cs_entry *e;
            /* Half without a digest: the store then computes it only when needed. */
            int r =
                cs_insert(cs, o->b.data, o->b.len, &o->pc, rnd(2) ? o->digest : NULL, i * SEC, &e);
            assert_true(r == CS_INSERTED || r == CS_DUPLICATE);
            if (r == CS_INSERTED) {
                cand[kept++] =
                    (struct ccnx_match_candidate){o->b.data, o->b.len, &o->pc, o->digest, 0};
            }
        }
        assert_int_equal(cs_count(cs), kept);
        qsort(cand, kept, sizeof *cand, ccnx_match_candidate_compare);
        /* Half the objects with freshness are stale at `now`. */
        uint64_t now = (uint64_t)(n / 2 + 10) * SEC;
        for (size_t i = 0; i < kept; i++) {
            const struct cs_entry *x = cs_find(cs, cand[i].buf + cand[i].pc->name.off,
                                               cand[i].pc->name.len, cand[i].digest);
            assert_non_null(x);
            cand[i].stale = cs_entry_is_stale(x, now);
        }
        for (int q = 0; q < 300; q++) {
            compare_one(cs, objs, cand, kept, (const uint8_t(*)[32])pubs, now);
        }
        /* The store's order is the array's order (digests computed late
         * included: reading them settles the rest). */
        const struct cs_entry *e = cs_first(cs);
        for (size_t i = 0; i < kept; i++, e = cs_next(e)) {
            assert_memory_equal(cs_entry_digest(e), cand[i].digest, 32);
        }
        assert_null(e);
        cs_destroy(cs);
        for (size_t i = 0; i < n; i++) {
            ccnx_buf_free(&objs[i].b);
        }
        free(objs);
        free(cand);
    }
}

/* ---- Behaviours ---- */

static void test_duplicates(void **state)
{
    (void)state;
    struct cs *cs = cs_create(10);
    const struct cs_entry *a, *b;
    struct cs_stats st;
    assert_int_equal(insert_uri(cs, "/x/y", -1, "hello", 0, &a), CS_INSERTED);
    assert_int_equal(insert_uri(cs, "/x/y", -1, "hello", 5, &b), CS_DUPLICATE);
    assert_ptr_equal(a, b);
    /* Same name, different bytes: a different object. */
    assert_int_equal(insert_uri(cs, "/x/y", -1, "other", 5, &b), CS_INSERTED);
    cs_get_stats(cs, &st);
    assert_int_equal(st.entries, 2);
    assert_int_equal(st.duplicates, 1);
    assert_int_equal(st.inserts, 2);
    size_t l1, l2;
    cs_entry_object(a, &l1);
    cs_entry_object(b, &l2);
    assert_int_equal(st.bytes, l1 + l2);
    /* Malformed objects are refused. */
    uint8_t junk[4] = {1, 2, 3, 4};
    assert_true(cs_insert(cs, junk, sizeof junk, NULL, NULL, 0, NULL) < 0);
    cs_destroy(cs);
}

/* The first components of the names held, in canonical order ("acd"). */
static const char *held(const struct cs *cs, char *out)
{
    size_t n = 0;
    for (const struct cs_entry *e = cs_first(cs); e != NULL; e = cs_next(e)) {
        size_t len;
        const uint8_t *name = cs_entry_name(e, &len);
        struct ccnx_name_iter it;
        struct ccnx_comp c;
        assert_int_equal(ccnx_name_iter_init(&it, name, len), 0);
        assert_int_equal(ccnx_name_iter_next(&it, &c), 1);
        out[n++] = (char)c.p[0];
    }
    out[n] = 0;
    return out;
}

static void test_capacity_second_chance(void **state)
{
    (void)state;
    struct cs *cs = cs_create(3);
    struct ccnx_buf out = CCNX_BUF_INIT;
    struct cs_stats st;
    char names[16];
    insert_uri(cs, "/a", -1, "1", 0, NULL);
    insert_uri(cs, "/b", -1, "1", 1, NULL);
    insert_uri(cs, "/c", -1, "1", 2, NULL);
    /* A hit gives /a a second chance: /b, never used, goes first. */
    assert_string_equal(simple_lookup(cs, "/a", -1, -1, -1, 3, &out), "ccnx:/a");
    insert_uri(cs, "/d", -1, "1", 4, NULL);
    assert_string_equal(held(cs, names), "acd");
    /* Then arrival order again; /a's chance was spent when it moved back. */
    insert_uri(cs, "/e", -1, "1", 5, NULL);
    assert_string_equal(held(cs, names), "ade");
    insert_uri(cs, "/f", -1, "1", 6, NULL);
    assert_string_equal(held(cs, names), "aef");
    insert_uri(cs, "/g", -1, "1", 7, NULL);
    assert_string_equal(held(cs, names), "efg");
    /* All used: each moves back once, then the front ones go. */
    assert_string_equal(simple_lookup(cs, "/e", -1, -1, -1, 8, &out), "ccnx:/e");
    assert_string_equal(simple_lookup(cs, "/f", -1, -1, -1, 8, &out), "ccnx:/f");
    assert_string_equal(simple_lookup(cs, "/g", -1, -1, -1, 8, &out), "ccnx:/g");
    cs_set_capacity(cs, 1);
    assert_string_equal(held(cs, names), "g");
    /* The object just stored is never the one evicted, even at capacity 1. */
    const struct cs_entry *h;
    assert_int_equal(insert_uri(cs, "/h", -1, "1", 9, &h), CS_INSERTED);
    assert_string_equal(held(cs, names), "h");
    assert_ptr_equal(cs_first(cs), h);
    assert_string_equal(simple_lookup(cs, "/b", -1, -1, -1, 9, &out), "NONE");
    cs_get_stats(cs, &st);
    assert_int_equal(st.evictions, 7);
    assert_int_equal(st.hits, 4);
    assert_int_equal(st.misses, 1);
    /* Capacity 0 keeps nothing. */
    cs_set_capacity(cs, 0);
    assert_int_equal(cs_count(cs), 0);
    assert_int_equal(insert_uri(cs, "/e", -1, "1", 10, NULL), CS_NOT_KEPT);
    assert_int_equal(cs_count(cs), 0);
    ccnx_buf_free(&out);
    cs_destroy(cs);
}

/* The byte bound evicts as the count does; an object alone over it stays
 * (the one just stored is never evicted) until the next insert. */
static void test_byte_bound(void **state)
{
    (void)state;
    struct cs *cs = cs_create(100);
    struct cs_stats st;
    char names[16];
    insert_uri(cs, "/a", -1, "1", 0, NULL);
    cs_get_stats(cs, &st);
    uint64_t one = st.charged;
    assert_true(one > st.bytes); /* the entry's node, key and index share */
    assert_int_equal(st.max_bytes, UINT64_MAX);
    cs_set_max_bytes(cs, 3 * one + one / 2);
    insert_uri(cs, "/b", -1, "1", 1, NULL);
    insert_uri(cs, "/c", -1, "1", 2, NULL);
    insert_uri(cs, "/d", -1, "1", 3, NULL);
    insert_uri(cs, "/e", -1, "1", 4, NULL);
    assert_string_equal(held(cs, names), "cde");
    cs_get_stats(cs, &st);
    assert_int_equal(st.evictions, 2);
    assert_true(st.charged <= st.max_bytes);
    assert_int_equal(st.capacity, 100);
    cs_set_max_bytes(cs, one / 2);
    assert_int_equal(cs_count(cs), 0);
    const struct cs_entry *f;
    assert_int_equal(insert_uri(cs, "/f", -1, "1", 5, &f), CS_INSERTED);
    assert_string_equal(held(cs, names), "f");
    assert_ptr_equal(cs_first(cs), f);
    insert_uri(cs, "/g", -1, "1", 6, NULL);
    assert_string_equal(held(cs, names), "g");
    cs_set_max_bytes(cs, 0); /* no bound */
    insert_uri(cs, "/h", -1, "1", 7, NULL);
    assert_string_equal(held(cs, names), "gh");
    cs_destroy(cs);
}

/* The byte bound holds what entries cost, not only their objects: with
 * 4 KB objects under long names the store's memory stays within 2% of
 * the bound (the object bytes alone left it about a tenth over). */
static void test_byte_bound_counts_entries(void **state)
{
    (void)state;
    const uint64_t bound = 2u << 20;
    struct cs *cs = cs_create(CS_DEFAULT_CAPACITY);
    cs_set_max_bytes(cs, bound);
    char *body = malloc(4097);
    assert_non_null(body);
    memset(body, 'z', 4096);
    body[4096] = '\0';
    char uri[160];
    for (int i = 0; i < 2000; i++) {
        snprintf(uri, sizeof uri, "/bound/a/rather/long/name/for/a/video/stream/segment/%%00%d", i);
        assert_int_equal(insert_uri(cs, uri, -1, body, (uint64_t)i, NULL), CS_INSERTED);
    }
    struct cs_stats st;
    cs_get_stats(cs, &st);
    assert_true(st.evictions > 0);
    /* Blocks freed by evictions wait on the arena's lists for an entry of
     * their size: a little over, at most a few entries' worth. */
    assert_true(st.charged <= bound);
    assert_true(st.memory <= bound + bound / 50);
    assert_true(st.memory > bound - bound / 10); /* and the bound is used */
    free(body);
    cs_destroy(cs);
}

/* Entry memory is counted, and an object too large for the arena is
 * stored, found and removed as well (it takes its own allocation). Reuse
 * of freed blocks is test_table_arena's. */
static void test_entry_memory(void **state)
{
    (void)state;
    struct cs *cs = cs_create(CS_DEFAULT_CAPACITY);
    const struct cs_entry *e;
    struct cs_stats st;
    char *body = malloc(90001);
    assert_non_null(body);
    memset(body, 'x', 4096);
    body[4096] = '\0';
    assert_int_equal(insert_uri(cs, "/mem/a", -1, body, 0, &e), CS_INSERTED);
    cs_get_stats(cs, &st);
    uint64_t one = st.memory;
    assert_true(one >= st.bytes && one < st.bytes + 1024);
    memset(body, 'y', 90000);
    body[90000] = '\0';
    assert_int_equal(insert_uri(cs, "/mem/big", -1, body, 2, &e), CS_INSERTED);
    size_t len;
    assert_true(cs_entry_object(e, &len) != NULL && len > 90000);
    cs_get_stats(cs, &st);
    assert_true(st.memory >= one + 90000);
    assert_int_equal(cs_count(cs), 2);
    struct ccnx_buf out = CCNX_BUF_INIT;
    assert_string_equal(simple_lookup(cs, "/mem/big", -1, -1, -1, 3, &out), "ccnx:/mem/big");
    assert_int_equal(cs_remove(cs, e), 0);
    cs_get_stats(cs, &st);
    assert_true(st.memory < one + 90000);
    ccnx_buf_free(&out);
    free(body);
    cs_destroy(cs);
}

static void test_staleness(void **state)
{
    (void)state;
    struct cs *cs = cs_create(100);
    struct ccnx_buf out = CCNX_BUF_INIT;
    const struct cs_entry *e;
    uint64_t t0 = 1000 * SEC;
    insert_uri(cs, "/f", 2, "1", t0, &e);
    assert_int_equal(cs_entry_arrival(e), t0);
    assert_false(cs_entry_is_stale(e, t0 + SEC));
    assert_string_equal(simple_lookup(cs, "/f", -1, -1, -1, t0 + SEC, &out), "ccnx:/f");
    assert_true(cs_entry_is_stale(e, t0 + 2 * SEC));
    assert_string_equal(simple_lookup(cs, "/f", -1, -1, -1, t0 + 2 * SEC, &out), "NONE");
    assert_string_equal(
        simple_lookup(cs, "/f", -1, CCNX_AOK_CS | CCNX_AOK_STALE, -1, t0 + 2 * SEC, &out),
        "ccnx:/f");
    /* Arriving again makes it fresh. */
    assert_int_equal(insert_uri(cs, "/f", 2, "1", t0 + 3 * SEC, &e), CS_DUPLICATE);
    assert_string_equal(simple_lookup(cs, "/f", -1, -1, -1, t0 + 4 * SEC, &out), "ccnx:/f");
    /* No FreshnessSeconds: the limit (four years), or the configured default. */
    insert_uri(cs, "/g", -1, "1", t0, &e);
    assert_false(cs_entry_is_stale(e, t0 + (uint64_t)CS_MAX_TIME_TO_STALE * SEC - 1));
    assert_true(cs_entry_is_stale(e, t0 + (uint64_t)CS_MAX_TIME_TO_STALE * SEC));
    cs_set_staleness(cs, 5, 0);
    insert_uri(cs, "/h", -1, "1", t0, &e);
    assert_true(cs_entry_is_stale(e, t0 + 5 * SEC));
    cs_set_staleness(cs, -1, 3);
    insert_uri(cs, "/i", 100, "1", t0, &e);
    assert_true(cs_entry_is_stale(e, t0 + 3 * SEC));
    /* Without the content-store bit nothing answers. */
    assert_string_equal(simple_lookup(cs, "/g", -1, CCNX_AOK_NEW, -1, t0, &out), "NONE");
    /* Purging removes the stale ones only. */
    size_t before = cs_count(cs);
    assert_int_equal(cs_purge_stale(cs, t0 + 4 * SEC, 100), 1); /* /i */
    assert_int_equal(cs_count(cs), before - 1);
    ccnx_buf_free(&out);
    cs_destroy(cs);
}

static void test_mark_stale(void **state)
{
    (void)state;
    struct cs *cs = cs_create(100);
    struct ccnx_buf out = CCNX_BUF_INIT;
    int expire = CCNX_AOK_CS | CCNX_AOK_EXPIRE;
    insert_uri(cs, "/m", -1, "1", 0, NULL);
    /* Without Scope 0 the bit does nothing. */
    assert_string_equal(simple_lookup(cs, "/m", -1, expire, 2, 1, &out), "ccnx:/m");
    assert_string_equal(simple_lookup(cs, "/m", -1, -1, -1, 1, &out), "ccnx:/m");
    assert_string_equal(simple_lookup(cs, "/m", -1, expire, 0, 1, &out), "ccnx:/m");
    assert_string_equal(simple_lookup(cs, "/m", -1, -1, -1, 1, &out), "NONE");
    assert_string_equal(simple_lookup(cs, "/m", -1, CCNX_AOK_CS | CCNX_AOK_STALE, -1, 1, &out),
                        "ccnx:/m");
    ccnx_buf_free(&out);
    cs_destroy(cs);
}

static void test_order_remove_find(void **state)
{
    (void)state;
    struct cs *cs = cs_create(100);
    struct ccnx_buf out = CCNX_BUF_INIT;
    const struct cs_entry *e, *x1;
    insert_uri(cs, "/x", -1, "1", 0, NULL);
    insert_uri(cs, "/x/1", -1, "1", 0, &x1);
    insert_uri(cs, "/x/zz", -1, "1", 0, NULL);
    insert_uri(cs, "/x/aaa", -1, "1", 0, NULL);
    /* Canonical order: /x/1 sorts before /x itself (its digest is longer). */
    static const char *const order[] = {"ccnx:/x/1", "ccnx:/x/zz", "ccnx:/x/aaa", "ccnx:/x"};
    size_t i = 0;
    for (e = cs_first(cs); e != NULL; e = cs_next(e), i++) {
        size_t nlen;
        const uint8_t *nm = cs_entry_name(e, &nlen);
        ccnx_buf_reset(&out);
        ccnx_uri_append(&out, nm, nlen);
        assert_string_equal(ccnx_buf_cstr(&out), order[i]);
    }
    assert_int_equal(i, 4);
    /* Rightmost: the greatest next component is /x's own 32-byte digest. */
    assert_string_equal(simple_lookup(cs, "/x", 1, -1, -1, 0, &out), "ccnx:/x");
    assert_string_equal(simple_lookup(cs, "/x", 1, 3, -1, 0, &out), "ccnx:/x");
    assert_string_equal(simple_lookup(cs, "/x", 0, -1, -1, 0, &out), "ccnx:/x/1");
    size_t nlen;
    const uint8_t *nm = cs_entry_name(x1, &nlen);
    struct ccnx_buf keep = CCNX_BUF_INIT;
    ccnx_buf_append(&keep, nm, nlen);
    uint8_t dig[32];
    memcpy(dig, cs_entry_digest(x1), 32);
    assert_ptr_equal(cs_find(cs, keep.data, keep.len, dig), x1);
    assert_int_equal(cs_remove(cs, x1), 0);
    assert_null(cs_find(cs, keep.data, keep.len, dig));
    assert_string_equal(simple_lookup(cs, "/x", 0, -1, -1, 0, &out), "ccnx:/x/zz");
    struct cs_stats st;
    cs_get_stats(cs, &st);
    assert_int_equal(st.removals, 1);
    assert_int_equal(st.entries, 3);
    ccnx_buf_free(&keep);
    ccnx_buf_free(&out);
    cs_destroy(cs);
}

/* Enough objects that the skiplist uses several levels. */
static void test_many(void **state)
{
    (void)state;
    struct cs *cs = cs_create(CS_DEFAULT_CAPACITY);
    struct ccnx_buf out = CCNX_BUF_INIT;
    char uri[64];
    for (int i = 0; i < 5000; i++) {
        snprintf(uri, sizeof uri, "/many/%d/%d", (i * 7919) % 5000, i % 3);
        assert_int_equal(insert_uri(cs, uri, -1, "v", 0, NULL), CS_INSERTED);
    }
    for (int i = 0; i < 5000; i += 97) {
        char want[64];
        snprintf(uri, sizeof uri, "/many/%d", i);
        snprintf(want, sizeof want, "ccnx:/many/%d/0", i);
        simple_lookup(cs, uri, -1, -1, -1, 0, &out);
        assert_int_equal(strncmp((const char *)out.data, want, strlen(want) - 1), 0);
    }
    simple_lookup(cs, "/many", 1, -1, -1, 0, &out);
    assert_int_equal(strncmp((const char *)out.data, "ccnx:/many/4999/", 16), 0);
    ccnx_buf_free(&out);
    cs_destroy(cs);
}

/* The exact-name index starts a walk at the object named exactly by the
 * Interest only while nothing else under that name sorts before it: a child
 * component shorter than a digest does, a longer one does not. Neighbours
 * coming and going must keep that knowledge right. */
static void test_exact_index_neighbours(void **state)
{
    (void)state;
    struct cs *cs = cs_create(100);
    struct ccnx_buf out = CCNX_BUF_INIT;
    const struct cs_entry *x, *x1, *w;
    static const char long_child[] = "/x/%01%02%03%04%05%06%07%08%09%0A%0B%0C%0D%0E%0F%10%11%12"
                                     "%13%14%15%16%17%18%19%1A%1B%1C%1D%1E%1F%20%21%22%23%24";
    assert_int_equal(insert_uri(cs, "/x", -1, "x", 0, &x), CS_INSERTED);
    assert_int_equal(insert_uri(cs, long_child, -1, "long", 0, NULL), CS_INSERTED);
    assert_string_equal(simple_lookup(cs, "/x", -1, -1, -1, 0, &out), "ccnx:/x");
    assert_int_equal(insert_uri(cs, "/x/1", -1, "x1", 0, &x1), CS_INSERTED);
    assert_string_equal(simple_lookup(cs, "/x", -1, -1, -1, 0, &out), "ccnx:/x/1");
    assert_int_equal(insert_uri(cs, "/w", -1, "w", 0, &w), CS_INSERTED);
    assert_int_equal(cs_remove(cs, x1), 0);
    assert_string_equal(simple_lookup(cs, "/x", -1, -1, -1, 0, &out), "ccnx:/x");
    assert_int_equal(insert_uri(cs, "/x/1", -1, "x1", 0, &x1), CS_INSERTED);
    assert_int_equal(cs_remove(cs, x), 0);
    assert_string_equal(simple_lookup(cs, "/x", -1, -1, -1, 0, &out), "ccnx:/x/1");
    assert_int_equal(insert_uri(cs, "/x", -1, "x", 0, &x), CS_INSERTED);
    const struct cs_entry *x2;
    assert_int_equal(insert_uri(cs, "/x/2", -1, "x2", 0, &x2), CS_INSERTED);
    assert_int_equal(cs_remove(cs, x2), 0); /* /x/1 is now right before /x */
    assert_string_equal(simple_lookup(cs, "/x", -1, -1, -1, 0, &out), "ccnx:/x/1");
    assert_int_equal(cs_remove(cs, x1), 0);
    assert_int_equal(cs_remove(cs, w), 0);
    assert_string_equal(simple_lookup(cs, "/x", -1, -1, -1, 0, &out), "ccnx:/x");
    /* Two objects of one name: the smaller digest first, whichever came first. */
    const struct cs_entry *y1, *y2;
    assert_int_equal(insert_uri(cs, "/y", -1, "one", 0, &y1), CS_INSERTED);
    assert_int_equal(insert_uri(cs, "/y", -1, "two", 0, &y2), CS_INSERTED);
    struct ccnx_buf ib = CCNX_BUF_INIT;
    struct ccnx_interest_parsed pi;
    make_interest(&ib, &pi, "/y", -1, -1, -1);
    const struct cs_entry *first =
        memcmp(cs_entry_digest(y1), cs_entry_digest(y2), 32) < 0 ? y1 : y2;
    assert_ptr_equal(cs_lookup(cs, ib.data, &pi, 0), first);
    ccnx_buf_free(&ib);
    ccnx_buf_free(&out);
    cs_destroy(cs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_index_neighbours),
        cmocka_unit_test(test_recorded_answers),
        cmocka_unit_test(test_random_against_array),
        cmocka_unit_test(test_duplicates),
        cmocka_unit_test(test_capacity_second_chance),
        cmocka_unit_test(test_byte_bound),
        cmocka_unit_test(test_byte_bound_counts_entries),
        cmocka_unit_test(test_entry_memory),
        cmocka_unit_test(test_staleness),
        cmocka_unit_test(test_mark_stale),
        cmocka_unit_test(test_order_remove_find),
        cmocka_unit_test(test_many),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
