/* The repository store: agreement with the array pick and a model of
 * children() on random stores, persistence, batches, capacity, refusals,
 * open errors, a killed writer, and the reference's objects. */
#include "testutil.h"

#include "store.h"

#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/match.h>
#include <ccnx/name.h>
#include <ccnx/uri.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define TEST_MAP ((uint64_t)64 << 20)

/* ---- Helpers ---- */

static char *make_dir(void)
{
    char tmpl[] = "/tmp/st-store-XXXXXX";
    assert_non_null(mkdtemp(tmpl));
    char *d = strdup(tmpl);
    assert_non_null(d);
    return d;
}

static void remove_dir(char *dir)
{
    static const char *const files[] = {"store/data.mdb", "store/lock.mdb", "store"};
    assert_int_equal(tu_remove_files(dir, files, 3), 0);
    free(dir);
}

static struct ccnr_store *open_ok(const char *dir, uint64_t max_bytes)
{
    char err[512];
    struct ccnr_store *s = ccnr_store_open(dir, max_bytes, err, sizeof err);
    if (s == NULL) {
        fail_msg("%s", err);
    }
    return s;
}

/* Appends a DATA ContentObject named `name` to b. */
static void build_object(struct ccnx_buf *b, const struct ccnx_name *name, const uint8_t pub[32],
                         const void *content, size_t clen)
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
    ccnx_ccnb_append_closer(b);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_Content, content, clen);
    ccnx_ccnb_append_closer(b);
    assert_int_equal(ccnx_buf_status(b), 0);
}

static void object_uri(struct ccnx_buf *b, const char *uri, const char *content)
{
    uint8_t pub[32] = {7};
    struct ccnx_name n;
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
    ccnx_buf_init(b);
    build_object(b, &n, pub, content, strlen(content));
    ccnx_name_free(&n);
}

/* Looks the object up by an Interest naming it with its digest: 1 when the
 * store answers with exactly its bytes, 0 when it answers nothing. */
static int find_exact(struct ccnr_store *s, const uint8_t *obj, size_t len)
{
    struct ccnx_content_parsed pc;
    uint8_t digest[32];
    struct ccnx_name n;
    struct ccnx_interest_params p;
    struct ccnx_interest_parsed pi;
    struct ccnx_buf ib = CCNX_BUF_INIT, out = CCNX_BUF_INIT;
    assert_int_equal(ccnx_content_parse(obj, len, &pc), 0);
    assert_int_equal(ccnx_content_digest(obj, len, digest), 0);
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_name_set_ccnb(&n, obj + pc.name.off, pc.name.len), 0);
    assert_int_equal(ccnx_name_append(&n, digest, 32), 0);
    ccnx_interest_params_init(&p);
    p.name = n.enc.data;
    p.name_len = n.enc.len;
    assert_int_equal(ccnx_interest_build(&ib, &p), 0);
    assert_int_equal(ccnx_interest_parse(ib.data, ib.len, &pi), 0);
    int r = ccnr_store_lookup(s, ib.data, &pi, &out);
    assert_true(r == 0 || r == 1);
    if (r == 1) {
        assert_int_equal(out.len, len);
        assert_memory_equal(out.data, obj, len);
    }
    assert_int_equal(ccnr_store_has(s, obj + pc.name.off, pc.name.len, digest), r);
    ccnx_buf_free(&ib);
    ccnx_buf_free(&out);
    ccnx_name_free(&n);
    return r;
}

/* ---- Random stores against the array pick ---- */

static uint64_t rng_state = 12345;
static size_t answered; /* random lookups that found an object: the test must not be vacuous */
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33) % n;
}

/* In canonical order, so Exclude lists built from it are ordered; the
 * 32-byte components sit where digests do. */
static const char *const alphabet[] = {"",
                                       "a",
                                       "b",
                                       "z",
                                       "\xff",
                                       "aa",
                                       "ab",
                                       "ba",
                                       "zz",
                                       "\xff\xff",
                                       "0123456789abcdef0123456789abcdef",
                                       "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"};
#define NALPHA 12

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

static void random_exclude(struct ccnx_interest_params *p, struct ccnx_exclude_item *items,
                           const struct ccnx_match_candidate *cand, size_t n)
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
    if (n > 0 && rnd(3) == 0) { /* and one stored digest, in its place */
        const uint8_t *d = cand[rnd((uint32_t)n)].digest;
        size_t at = 0;
        while (at < k && (items[at].kind == CCNX_EXCLUDE_ANY ||
                          ccnx_comp_compare(items[at].p, items[at].n, d, 32) < 0)) {
            at++;
        }
        memmove(&items[at + 1], &items[at], (k - at) * sizeof items[0]);
        items[at] = (struct ccnx_exclude_item){CCNX_EXCLUDE_COMPONENT, d, 32};
        k++;
    }
    p->exclude = items;
    p->exclude_count = k;
}

/* One random Interest: the store answers as the array pick does with the
 * content-store bit set, whatever AnswerOriginKind says. */
static void compare_one(struct ccnr_store *s, const struct ccnx_match_candidate *cand, size_t n,
                        const uint8_t pubs[2][32])
{
    static const int aoks[] = {-1, CCNX_AOK_CS, CCNX_AOK_CS | CCNX_AOK_STALE, CCNX_AOK_NEW, 0};
    struct ccnx_name name;
    struct ccnx_interest_params p;
    struct ccnx_exclude_item items[8];
    struct ccnx_buf ib = CCNX_BUF_INIT, out = CCNX_BUF_INIT;
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
    p.answer_origin_kind = aoks[rnd(5)];
    if (rnd(4) == 0) {
        p.publisher = pubs[rnd(2)];
        p.publisher_len = 32;
    }
    if (rnd(2) == 0) {
        random_exclude(&p, items, cand, n);
    }
    assert_int_equal(ccnx_interest_build(&ib, &p), 0);
    assert_int_equal(ccnx_interest_parse(ib.data, ib.len, &pi), 0);
    struct ccnx_interest_parsed from_cs = pi;
    from_cs.answer_origin_kind = CCNX_AOK_CS;
    ssize_t want = ccnx_match_pick(cand, n, ib.data, &from_cs);
    int r = ccnr_store_lookup(s, ib.data, &pi, &out);
    assert_int_equal(r, want >= 0);
    if (want >= 0) {
        answered++;
        assert_int_equal(out.len, cand[want].len);
        assert_memory_equal(out.data, cand[want].buf, out.len);
    }
    ccnx_buf_free(&ib);
    ccnx_buf_free(&out);
    ccnx_name_free(&name);
}

struct comps {
    struct ccnx_buf seen; /* each component: a length byte, then its bytes */
    size_t count, stop_after;
};

static int collect(void *arg, const uint8_t *comp, size_t n)
{
    struct comps *c = arg;
    assert_true(n < 256);
    ccnx_buf_append_byte(&c->seen, (uint8_t)n);
    ccnx_buf_append(&c->seen, comp, n);
    c->count++;
    return c->stop_after != 0 && c->count >= c->stop_after;
}

/* children() of a random prefix against the sorted array: the component
 * after the prefix of each object under it, consecutive repeats dropped. */
static void compare_children(struct ccnr_store *s, const struct ccnx_match_candidate *cand,
                             size_t n)
{
    struct ccnx_name prefix;
    struct comps got = {CCNX_BUF_INIT, 0, 0}, want = {CCNX_BUF_INIT, 0, 0};
    random_name(&prefix, 2);
    uint32_t depth = (uint32_t)ccnx_name_count_ccnb(prefix.enc.data, prefix.enc.len);
    const uint8_t *last = NULL;
    size_t last_n = 0;
    for (size_t i = 0; i < n; i++) {
        const struct ccnx_match_candidate *c = &cand[i];
        struct ccnx_name on;
        struct ccnx_comp comp = {c->digest, 32};
        const uint8_t *name = c->buf + c->pc->name.off;
        if (!ccnx_name_is_prefix_ccnb(prefix.enc.data, prefix.enc.len, name, c->pc->name.len)) {
            continue;
        }
        assert_int_equal(ccnx_name_init(&on), 0);
        assert_int_equal(ccnx_name_set_ccnb(&on, name, c->pc->name.len), 0);
        if (c->pc->name_count > depth) {
            assert_int_equal(ccnx_name_comp(&on, depth, &comp), 0);
        }
        if (last == NULL || ccnx_comp_compare(last, last_n, comp.p, comp.n) != 0) {
            collect(&want, comp.p, comp.n);
            last = c->digest == comp.p ? c->digest : name + (comp.p - on.enc.data);
            last_n = comp.n;
        }
        ccnx_name_free(&on);
    }
    assert_int_equal(ccnr_store_children(s, prefix.enc.data, prefix.enc.len, collect, &got), 0);
    assert_int_equal(got.count, want.count);
    assert_int_equal(got.seen.len, want.seen.len);
    if (got.seen.len > 0) {
        assert_memory_equal(got.seen.data, want.seen.data, got.seen.len);
    }
    ccnx_buf_free(&got.seen);
    ccnx_buf_free(&want.seen);
    ccnx_name_free(&prefix);
}

/* Adds n random objects in one batch; the kept ones become candidates. */
static size_t fill_random(struct ccnr_store *s, struct arr_obj *objs, size_t n,
                          struct ccnx_match_candidate *cand, const uint8_t pubs[2][32])
{
    size_t kept = 0;
    assert_int_equal(ccnr_store_begin(s), 0);
    for (size_t i = 0; i < n; i++) {
        struct ccnx_name name;
        char content[16];
        struct arr_obj *o = &objs[i];
        random_name(&name, 4);
        snprintf(content, sizeof content, "%u", rnd(4));
        ccnx_buf_init(&o->b);
        build_object(&o->b, &name, pubs[rnd(2)], content, strlen(content));
        ccnx_name_free(&name);
        assert_int_equal(ccnx_content_parse(o->b.data, o->b.len, &o->pc), 0);
        assert_int_equal(ccnx_content_digest(o->b.data, o->b.len, o->digest), 0);
        int r = ccnr_store_add(s, o->b.data, o->b.len);
        assert_true(r == CCNR_STORE_ADDED || r == CCNR_STORE_DUPLICATE);
        if (r == CCNR_STORE_ADDED) {
            cand[kept++] = (struct ccnx_match_candidate){o->b.data, o->b.len, &o->pc, o->digest, 0};
        }
    }
    assert_int_equal(ccnr_store_commit(s), 0);
    qsort(cand, kept, sizeof *cand, ccnx_match_candidate_compare);
    return kept;
}

static void test_random_against_array(void **state)
{
    (void)state;
    const uint8_t pubs[2][32] = {{1}, {2}};
    for (int round = 0; round < 40; round++) {
        size_t n = 1 + rnd(150);
        struct arr_obj *objs = calloc(n + 1, sizeof *objs);
        struct ccnx_match_candidate *cand = calloc(n, sizeof *cand);
        char *dir = make_dir();
        struct ccnr_store *s = open_ok(dir, TEST_MAP);
        size_t kept = fill_random(s, objs, n, cand, pubs);
        struct ccnr_store_stats st;
        ccnr_store_get_stats(s, &st);
        assert_int_equal(st.objects, kept);
        assert_int_equal(st.added + st.duplicates, n);
        /* An open batch is invisible to lookups, which run beside it. */
        assert_int_equal(ccnr_store_begin(s), 0);
        object_uri(&objs[n].b, "/a/b", "uncommitted");
        assert_int_equal(ccnr_store_add(s, objs[n].b.data, objs[n].b.len), CCNR_STORE_ADDED);
        for (int q = 0; q < 250; q++) {
            compare_one(s, cand, kept, pubs);
        }
        for (int q = 0; q < 30; q++) {
            compare_children(s, cand, kept);
        }
        assert_int_equal(find_exact(s, objs[n].b.data, objs[n].b.len), 0);
        ccnr_store_abort(s);
        for (size_t i = 0; i < kept; i++) {
            assert_int_equal(find_exact(s, cand[i].buf, cand[i].len), 1);
        }
        ccnr_store_close(s);
        remove_dir(dir);
        for (size_t i = 0; i <= n; i++) {
            ccnx_buf_free(&objs[i].b);
        }
        free(objs);
        free(cand);
    }
    assert_true(answered > 2000);
}

/* ---- Behaviours ---- */

static void test_persistence(void **state)
{
    (void)state;
    char *dir = make_dir();
    struct ccnx_buf objs[20];
    uint64_t bytes = 0;
    struct ccnr_store *s = open_ok(dir, TEST_MAP);
    assert_int_equal(ccnr_store_begin(s), 0);
    for (int i = 0; i < 20; i++) {
        char uri[32];
        snprintf(uri, sizeof uri, "/p/%d", i);
        object_uri(&objs[i], uri, i < 10 ? "kept" : "aborted");
        if (i < 10) {
            assert_int_equal(ccnr_store_add(s, objs[i].data, objs[i].len), CCNR_STORE_ADDED);
            bytes += objs[i].len;
        }
    }
    assert_int_equal(ccnr_store_commit(s), 0);
    assert_int_equal(ccnr_store_begin(s), 0);
    for (int i = 10; i < 15; i++) {
        assert_int_equal(ccnr_store_add(s, objs[i].data, objs[i].len), CCNR_STORE_ADDED);
    }
    ccnr_store_abort(s);
    assert_int_equal(ccnr_store_begin(s), 0);
    for (int i = 15; i < 20; i++) { /* a batch still open at close is lost too */
        assert_int_equal(ccnr_store_add(s, objs[i].data, objs[i].len), CCNR_STORE_ADDED);
    }
    ccnr_store_close(s);

    s = open_ok(dir, TEST_MAP);
    struct ccnr_store_stats st;
    ccnr_store_get_stats(s, &st);
    assert_int_equal(st.objects, 10);
    assert_int_equal(st.bytes, bytes);
    assert_int_equal(st.map_bytes, TEST_MAP);
    assert_true(st.used_bytes > 0 && st.used_bytes <= st.map_bytes);
    for (int i = 0; i < 20; i++) {
        assert_int_equal(find_exact(s, objs[i].data, objs[i].len), i < 10);
    }
    ccnr_store_get_stats(s, &st);
    assert_int_equal(st.lookups, 20);
    assert_int_equal(st.hits, 10);
    /* Counts stay right across another commit and reopen. */
    assert_int_equal(ccnr_store_begin(s), 0);
    assert_int_equal(ccnr_store_add(s, objs[12].data, objs[12].len), CCNR_STORE_ADDED);
    assert_int_equal(ccnr_store_add(s, objs[0].data, objs[0].len), CCNR_STORE_DUPLICATE);
    assert_int_equal(ccnr_store_commit(s), 0);
    ccnr_store_close(s);
    s = open_ok(dir, TEST_MAP);
    ccnr_store_get_stats(s, &st);
    assert_int_equal(st.objects, 11);
    assert_int_equal(st.bytes, bytes + objs[12].len);
    assert_int_equal(st.added, 0);
    ccnr_store_close(s);
    for (int i = 0; i < 20; i++) {
        ccnx_buf_free(&objs[i]);
    }
    remove_dir(dir);
}

static void test_capacity(void **state)
{
    (void)state;
    const uint64_t map = (uint64_t)1 << 20;
    char *dir = make_dir();
    struct ccnr_store *s = open_ok(dir, map);
    static char payload[3000];
    memset(payload, 'x', sizeof payload - 1);
    struct ccnx_buf objs[2000];
    size_t made = 0, committed = 0;
    int r = 0;
    while (r != CCNR_STORE_E_FULL) {
        assert_true(made + 10 <= 2000);
        assert_int_equal(ccnr_store_begin(s), 0);
        for (int i = 0; i < 10 && r != CCNR_STORE_E_FULL; i++, made++) {
            char uri[32];
            snprintf(uri, sizeof uri, "/cap/%zu", made);
            object_uri(&objs[made], uri, payload);
            r = ccnr_store_add(s, objs[made].data, objs[made].len);
            assert_true(r == CCNR_STORE_ADDED || r == CCNR_STORE_E_FULL);
        }
        if (r == CCNR_STORE_E_FULL) {
            /* A spoilt batch refuses more and cannot commit. */
            assert_int_equal(ccnr_store_add(s, objs[0].data, objs[0].len), CCNR_STORE_E_FULL);
            ccnr_store_abort(s);
        } else if ((r = ccnr_store_commit(s)) == 0) {
            committed = made;
        } else {
            assert_int_equal(r, CCNR_STORE_E_FULL);
        }
    }
    assert_true(committed >= 100); /* most of a megabyte holds data */
    struct ccnr_store_stats st;
    ccnr_store_get_stats(s, &st);
    assert_int_equal(st.objects, committed);
    assert_int_equal(st.map_bytes, map);
    assert_true(st.refused >= 1);
    for (size_t i = 0; i < made; i++) {
        assert_int_equal(find_exact(s, objs[i].data, objs[i].len), i < committed);
    }
    ccnr_store_close(s);
    s = open_ok(dir, map);
    ccnr_store_get_stats(s, &st);
    assert_int_equal(st.objects, committed);
    assert_int_equal(find_exact(s, objs[0].data, objs[0].len), 1);
    ccnr_store_close(s);
    for (size_t i = 0; i < made; i++) {
        ccnx_buf_free(&objs[i]);
    }
    remove_dir(dir);
}

static void test_refusals(void **state)
{
    (void)state;
    char *dir = make_dir();
    struct ccnr_store *s = open_ok(dir, TEST_MAP);
    struct ccnx_buf a, big;
    object_uri(&a, "/r/a", "x");
    assert_int_equal(ccnr_store_add(s, a.data, a.len), CCNX_E_INVAL); /* no batch */
    assert_int_equal(ccnr_store_commit(s), CCNX_E_INVAL);
    assert_int_equal(ccnr_store_begin(s), 0);
    assert_int_equal(ccnr_store_begin(s), CCNX_E_INVAL);
    assert_int_equal(ccnr_store_add(s, a.data, a.len), CCNR_STORE_ADDED);
    assert_int_equal(ccnr_store_add(s, a.data, a.len), CCNR_STORE_DUPLICATE);
    assert_int_equal(ccnr_store_add(s, a.data, a.len - 1), CCNX_E_INVAL);
    assert_int_equal(ccnr_store_add(s, (const uint8_t *)"garbage", 7), CCNX_E_INVAL);
    /* Two 250-byte components and the digest make a 539-byte key. */
    struct ccnx_name n;
    char comp[250];
    memset(comp, 'c', sizeof comp);
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_name_append(&n, comp, sizeof comp), 0);
    assert_int_equal(ccnx_name_append(&n, comp, sizeof comp), 0);
    uint8_t pub[32] = {3};
    ccnx_buf_init(&big);
    build_object(&big, &n, pub, "y", 1);
    assert_int_equal(ccnr_store_add(s, big.data, big.len), CCNR_STORE_E_NAME);
    /* Refusals leave the batch usable. */
    assert_int_equal(ccnr_store_commit(s), 0);
    assert_int_equal(find_exact(s, a.data, a.len), 1);
    assert_int_equal(find_exact(s, big.data, big.len), 0);
    assert_int_equal(ccnr_store_begin(s), 0);
    assert_int_equal(ccnr_store_add(s, a.data, a.len), CCNR_STORE_DUPLICATE);
    ccnr_store_abort(s);
    struct ccnr_store_stats st;
    ccnr_store_get_stats(s, &st);
    assert_int_equal(st.objects, 1);
    assert_int_equal(st.added, 1);
    assert_int_equal(st.duplicates, 2);
    assert_int_equal(st.refused, 3);
    /* An Interest whose name is too long for any key finds nothing, and
     * children() of such a prefix has none. */
    struct ccnx_interest_params p;
    struct ccnx_interest_parsed pi;
    struct ccnx_buf ib = CCNX_BUF_INIT, out = CCNX_BUF_INIT;
    struct comps got = {CCNX_BUF_INIT, 0, 0};
    ccnx_interest_params_init(&p);
    p.name = n.enc.data;
    p.name_len = n.enc.len;
    assert_int_equal(ccnx_interest_build(&ib, &p), 0);
    assert_int_equal(ccnx_interest_parse(ib.data, ib.len, &pi), 0);
    assert_int_equal(ccnr_store_lookup(s, ib.data, &pi, &out), 0);
    assert_int_equal(ccnr_store_children(s, n.enc.data, n.enc.len, collect, &got), 0);
    assert_int_equal(got.count, 0);
    assert_int_equal(ccnr_store_children(s, (const uint8_t *)"\x01", 1, collect, &got),
                     CCNX_E_INVAL);
    ccnr_store_close(s);
    ccnx_buf_free(&a);
    ccnx_buf_free(&big);
    ccnx_buf_free(&ib);
    ccnx_buf_free(&out);
    ccnx_name_free(&n);
    remove_dir(dir);
}

static void test_children(void **state)
{
    (void)state;
    static const char *const uris[] = {"/a/x", "/a/y/1", "/a/y/2",   "/a",        "/a/b/c",  "/b",
                                       "/aa",  "/a/%FF", "/a/%FF/q", "/a/%FF%FF", "/a/x/%00"};
    char *dir = make_dir();
    struct ccnr_store *s = open_ok(dir, TEST_MAP);
    struct ccnx_buf objs[11];
    uint8_t digest_a[32];
    assert_int_equal(ccnr_store_begin(s), 0);
    for (size_t i = 0; i < 11; i++) {
        object_uri(&objs[i], uris[i], "c");
        assert_int_equal(ccnr_store_add(s, objs[i].data, objs[i].len), CCNR_STORE_ADDED);
    }
    assert_int_equal(ccnx_content_digest(objs[3].data, objs[3].len, digest_a), 0);
    assert_int_equal(ccnr_store_commit(s), 0);

    struct ccnx_name n;
    struct comps got = {CCNX_BUF_INIT, 0, 0};
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_uri_parse_str(&n, "/a"), 0);
    assert_int_equal(ccnr_store_children(s, n.enc.data, n.enc.len, collect, &got), 0);
    /* Shorter components first: b, x, y, %FF; then %FF%FF; then the digest
     * of the object named /a. */
    struct ccnx_buf want = CCNX_BUF_INIT;
    ccnx_buf_append(&want,
                    "\x01"
                    "b\x01x\x01y\x01\xff\x02\xff\xff\x20",
                    12);
    ccnx_buf_append(&want, digest_a, 32);
    assert_int_equal(got.count, 6);
    assert_int_equal(got.seen.len, want.len);
    assert_memory_equal(got.seen.data, want.data, want.len);

    /* fn's nonzero answer stops the walk. */
    ccnx_buf_reset(&got.seen);
    got.count = 0;
    got.stop_after = 2;
    assert_int_equal(ccnr_store_children(s, n.enc.data, n.enc.len, collect, &got), 0);
    assert_int_equal(got.count, 2);
    assert_memory_equal(got.seen.data,
                        "\x01"
                        "b\x01x",
                        4);

    /* The root's children: a, b, aa. */
    ccnx_buf_reset(&got.seen);
    got.count = got.stop_after = 0;
    assert_int_equal(ccnx_uri_parse_str(&n, "/"), 0);
    assert_int_equal(ccnr_store_children(s, n.enc.data, n.enc.len, collect, &got), 0);
    assert_int_equal(got.count, 3);
    assert_memory_equal(got.seen.data,
                        "\x01"
                        "a\x01"
                        "b\x02"
                        "aa",
                        7);

    /* A prefix nothing lies under. */
    ccnx_buf_reset(&got.seen);
    got.count = 0;
    assert_int_equal(ccnx_uri_parse_str(&n, "/a/z"), 0);
    assert_int_equal(ccnr_store_children(s, n.enc.data, n.enc.len, collect, &got), 0);
    assert_int_equal(got.count, 0);
    ccnr_store_close(s);
    for (size_t i = 0; i < 11; i++) {
        ccnx_buf_free(&objs[i]);
    }
    ccnx_buf_free(&got.seen);
    ccnx_buf_free(&want);
    ccnx_name_free(&n);
    remove_dir(dir);
}

static void expect_open_error(const char *dir, const char *dir_in_text, const char *cause)
{
    char err[512] = "";
    struct ccnr_store *s = ccnr_store_open(dir, TEST_MAP, err, sizeof err);
    assert_null(s);
    if (strstr(err, dir_in_text) == NULL || strstr(err, cause) == NULL) {
        fail_msg("unexpected error text: %s", err);
    }
}

static void test_open_errors(void **state)
{
    (void)state;
    char *dir = make_dir();
    char path[512];
    snprintf(path, sizeof path, "%s/missing", dir);
    expect_open_error(path, path, "No such file or directory");

    /* A data file that is not an LMDB environment. */
    snprintf(path, sizeof path, "%s/store", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/store/data.mdb", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; i < 4096; i++) {
        fputs("not a store ", f);
    }
    fclose(f);
    expect_open_error(dir, dir, "different format");
    remove_dir(dir);

    if (geteuid() != 0) { /* root writes anywhere */
        dir = make_dir();
        assert_int_equal(chmod(dir, 0500), 0);
        expect_open_error(dir, dir, "Permission denied");
        assert_int_equal(chmod(dir, 0700), 0);
        remove_dir(dir);
    }
}

/* A writer killed in the middle of a batch, with a read in progress: the
 * next open recovers the lock table and serves the last commit. */
static void test_killed_writer(void **state)
{
    (void)state;
    char *dir = make_dir();
    struct ccnx_buf a, b;
    object_uri(&a, "/k/a", "committed");
    object_uri(&b, "/k/b", "in flight");
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct ccnr_store *s = ccnr_store_open(dir, TEST_MAP, NULL, 0);
        if (s == NULL || ccnr_store_begin(s) != 0 || ccnr_store_add(s, a.data, a.len) != 0 ||
            ccnr_store_commit(s) != 0 || ccnr_store_begin(s) != 0 ||
            ccnr_store_add(s, b.data, b.len) != 0) {
            _exit(1);
        }
        raise(SIGKILL);
        _exit(2);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    struct ccnr_store *s = open_ok(dir, TEST_MAP);
    assert_int_equal(find_exact(s, a.data, a.len), 1);
    assert_int_equal(find_exact(s, b.data, b.len), 0);
    assert_int_equal(ccnr_store_begin(s), 0);
    assert_int_equal(ccnr_store_add(s, b.data, b.len), CCNR_STORE_ADDED);
    assert_int_equal(ccnr_store_commit(s), 0);
    assert_int_equal(find_exact(s, b.data, b.len), 1);
    ccnr_store_close(s);
    ccnx_buf_free(&a);
    ccnx_buf_free(&b);
    remove_dir(dir);
}

/* Every ContentObject the reference made goes in and is found by name and
 * digest. */
static void test_reference_objects(void **state)
{
    (void)state;
    size_t count;
    char **files = tu_list_vectors(".ccnb", &count);
    struct ccnx_buf *objs = calloc(count, sizeof *objs);
    size_t n = 0;
    char *dir = make_dir();
    struct ccnr_store *s = open_ok(dir, TEST_MAP);
    assert_int_equal(ccnr_store_begin(s), 0);
    for (size_t i = 0; i < count; i++) {
        if (strncmp(files[i], "co_", 3) != 0) {
            continue;
        }
        ccnx_buf_init(&objs[n]);
        tu_read_vector(files[i], &objs[n]);
        int r = ccnr_store_add(s, objs[n].data, objs[n].len);
        if (r != CCNR_STORE_ADDED) {
            fail_msg("%s: %d", files[i], r);
        }
        n++;
    }
    assert_int_equal(ccnr_store_commit(s), 0);
    assert_true(n >= 10);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(find_exact(s, objs[i].data, objs[i].len), 1);
    }
    ccnr_store_close(s);
    for (size_t i = 0; i < n; i++) {
        ccnx_buf_free(&objs[i]);
    }
    free(objs);
    tu_free_list(files, count);
    remove_dir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_against_array),
        cmocka_unit_test(test_persistence),
        cmocka_unit_test(test_capacity),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_children),
        cmocka_unit_test(test_open_errors),
        cmocka_unit_test(test_killed_writer),
        cmocka_unit_test(test_reference_objects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
