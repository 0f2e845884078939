/* The content store's choice among matching objects (ccnx_match_pick):
 * canonical order of full names, selectors, staleness, digests, the probe
 * budget, and random stores checked against a plain scan. */
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
