/* Fuzz target for Interest parsing, building and matching.
 *
 * Every Interest that parses is turned into build parameters and rebuilt.
 * The rebuilt bytes must equal the input whenever the input is written the
 * way the builder writes (as every reference-made Interest is). The parser
 * also accepts other spellings of the same values (UDATA where a BLOB is
 * usual, an explicit empty BLOB, leading zeros in a number); for those the
 * rebuild must parse to the same values and rebuild to itself. The parser
 * does not check Exclude order, the builder does: a refusal must be for
 * components really out of order.
 *
 * Each parsed Interest is also matched against a fixed store, where the
 * leftmost pick must be the first matching object and a computed digest
 * must agree with a supplied one. */
#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/match.h>
#include <ccnx/name.h>
#include <ccnx/uri.h>

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond))                                                                               \
            abort();                                                                               \
    } while (0)

/* ---- A fixed store ---- */

#define NSTORE 10

struct stored {
    struct ccnx_buf enc;
    struct ccnx_content_parsed pc;
    uint8_t digest[32];
};

static struct stored store[NSTORE];
static struct ccnx_match_candidate sorted[NSTORE];
static int store_ready;

static void add_object(struct stored *o, const char *uri)
{
    static const uint8_t pub[32] = {0x5f, 0xaa, 0x76, 0xfd};
    static const uint8_t stamp[6] = {1, 2, 3, 4, 5, 6};
    struct ccnx_name name;
    CHECK(ccnx_name_init(&name) == 0);
    CHECK(ccnx_uri_parse_str(&name, uri) == 0);
    struct ccnx_buf *b = &o->enc;
    ccnx_buf_init(b);
    ccnx_ccnb_open(b, CCNX_DTAG_ContentObject);
    ccnx_ccnb_open(b, CCNX_DTAG_Signature);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_SignatureBits, "sig", 3);
    ccnx_ccnb_append_closer(b);
    ccnx_buf_append(b, name.enc.data, name.enc.len);
    ccnx_ccnb_open(b, CCNX_DTAG_SignedInfo);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_PublisherPublicKeyDigest, pub, sizeof pub);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_Timestamp, stamp, sizeof stamp);
    ccnx_ccnb_append_closer(b);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_Content, "x", 1);
    ccnx_ccnb_append_closer(b);
    CHECK(ccnx_buf_status(b) == 0);
    CHECK(ccnx_content_parse(b->data, b->len, &o->pc) == 0);
    CHECK(ccnx_content_digest(b->data, b->len, o->digest) == 0);
    ccnx_name_free(&name);
}

/* Names close to the vectors' Interests, so that seeds from there match. */
static void build_store(void)
{
    static const char *const uris[NSTORE] = {
        "ccnx:/example/vec/sel/a",
        "ccnx:/example/vec/sel/c/1",
        "ccnx:/example/vec/sel/d",
        "ccnx:/example/vec/data/hello",
        "ccnx:/example/vec/file/%FD%06%B1%12%1D%91%DE/%00",
        "ccnx:/example/vec/sel",
        "ccnx:/a",
        "ccnx:/a/b",
        "ccnx:/a/.../bb",
        "ccnx:/PARC/%00%01%02",
    };
    for (size_t i = 0; i < NSTORE; i++) {
        add_object(&store[i], uris[i]);
        sorted[i] = (struct ccnx_match_candidate){store[i].enc.data, store[i].enc.len, &store[i].pc,
                                                  store[i].digest, 0};
    }
    qsort(sorted, NSTORE, sizeof sorted[0], ccnx_match_candidate_compare);
    store_ready = 1;
}

static void check_match(const uint8_t *buf, const struct ccnx_interest_parsed *pi)
{
    if (!store_ready) {
        build_store();
    }
    int first = -1;
    for (size_t i = 0; i < NSTORE; i++) {
        const struct ccnx_match_candidate *c = &sorted[i];
        int given = ccnx_match(buf, pi, c->buf, c->len, c->pc, c->digest);
        int lazy = ccnx_match(buf, pi, c->buf, c->len, c->pc, NULL);
        CHECK((given == 0 || given == 1) && given == lazy);
        if (given && first < 0) {
            first = (int)i;
        }
    }
    ssize_t pick = ccnx_match_pick(sorted, NSTORE, buf, pi);
    CHECK(pick >= -1 && pick < NSTORE);
    if (!ccnx_match_cs_allowed(pi, 0)) {
        CHECK(pick == -1);
        return;
    }
    if (pi->child_selector <= 0 || (pi->child_selector & 1) == 0) {
        CHECK(pick == first);
    } else {
        CHECK((pick < 0) == (first < 0));
        CHECK(pick < 0 || ccnx_match(buf, pi, sorted[pick].buf, sorted[pick].len, sorted[pick].pc,
                                     sorted[pick].digest) == 1);
    }
}

/* ---- Rebuild ---- */

struct items {
    struct ccnx_exclude_item *v;
    size_t n;
};

static int collect_exclude(const uint8_t *buf, struct ccnx_span ex, struct items *out)
{
    struct ccnx_exclude_iter it;
    struct ccnx_exclude_item item;
    size_t cap = 0;
    int res;
    out->v = NULL;
    out->n = 0;
    if (ex.len == 0) {
        return 0;
    }
    CHECK(ccnx_exclude_iter_init(&it, buf, ex) == 0);
    while ((res = ccnx_exclude_iter_next(&it, &item)) == 1) {
        if (out->n == cap) {
            cap = cap ? 2 * cap : 8;
            out->v = realloc(out->v, cap * sizeof *out->v);
            CHECK(out->v != NULL);
        }
        out->v[out->n++] = item;
    }
    CHECK(res == 0); /* the parser walked the same items */
    return 0;
}

static int out_of_order(const struct items *it)
{
    const struct ccnx_exclude_item *prev = NULL;
    for (size_t i = 0; i < it->n; i++) {
        if (it->v[i].kind != CCNX_EXCLUDE_COMPONENT) {
            continue;
        }
        if (prev && ccnx_comp_compare(prev->p, prev->n, it->v[i].p, it->v[i].n) >= 0) {
            return 1;
        }
        prev = &it->v[i];
    }
    return 0;
}

static void to_params(const uint8_t *buf, const struct ccnx_interest_parsed *pi,
                      const struct items *ex, struct ccnx_interest_params *p)
{
    ccnx_interest_params_init(p);
    p->name = buf + pi->name.off;
    p->name_len = pi->name.len;
    p->min_suffix = pi->has_min_suffix ? (int64_t)pi->min_suffix : -1;
    p->max_suffix = pi->has_max_suffix ? (int64_t)pi->max_suffix : -1;
    p->publisher = pi->publisher.len ? buf + pi->publisher.off : NULL;
    p->publisher_len = pi->publisher.len;
    p->exclude = ex->v;
    p->exclude_count = ex->n;
    p->child_selector = pi->child_selector;
    p->answer_origin_kind = pi->answer_origin_kind;
    p->scope = pi->scope;
    p->lifetime = pi->lifetime_value.len ? buf + pi->lifetime_value.off : NULL;
    p->lifetime_len = pi->lifetime_value.len;
    p->nonce = pi->nonce.len ? buf + pi->nonce.off : NULL;
    p->nonce_len = pi->nonce.len;
    p->face_id = pi->face_id;
}

static int same_span(const uint8_t *a, struct ccnx_span sa, const uint8_t *b, struct ccnx_span sb)
{
    return sa.len == sb.len && (sa.len == 0 || memcmp(a + sa.off, b + sb.off, sa.len) == 0);
}

static int same_values(const uint8_t *a, const struct ccnx_interest_parsed *pa, const uint8_t *b,
                       const struct ccnx_interest_parsed *pb)
{
    struct items ia, ib;
    collect_exclude(a, pa->exclude, &ia);
    collect_exclude(b, pb->exclude, &ib);
    int same = ia.n == ib.n;
    for (size_t i = 0; same && i < ia.n; i++) {
        same = ia.v[i].kind == ib.v[i].kind && ia.v[i].n == ib.v[i].n &&
               (ia.v[i].n == 0 || memcmp(ia.v[i].p, ib.v[i].p, ia.v[i].n) == 0);
    }
    free(ia.v);
    free(ib.v);
    return same && same_span(a, pa->name, b, pb->name) && pa->name_count == pb->name_count &&
           pa->has_min_suffix == pb->has_min_suffix && pa->min_suffix == pb->min_suffix &&
           pa->has_max_suffix == pb->has_max_suffix && pa->max_suffix == pb->max_suffix &&
           same_span(a, pa->publisher, b, pb->publisher) &&
           pa->child_selector == pb->child_selector &&
           pa->answer_origin_kind == pb->answer_origin_kind && pa->scope == pb->scope &&
           pa->lifetime == pb->lifetime &&
           same_span(a, pa->lifetime_value, b, pb->lifetime_value) &&
           same_span(a, pa->nonce, b, pb->nonce) && pa->face_id == pb->face_id;
}

static void check_rebuild(const uint8_t *data, size_t size, const struct ccnx_interest_parsed *pi)
{
    struct items ex;
    struct ccnx_interest_params p;
    struct ccnx_buf out = CCNX_BUF_INIT, again = CCNX_BUF_INIT;
    collect_exclude(data, pi->exclude, &ex);
    to_params(data, pi, &ex, &p);
    int res = ccnx_interest_build(&out, &p);
    if (res == CCNX_E_VALUE) {
        CHECK(out_of_order(&ex));
    } else {
        CHECK(res == 0 && !out_of_order(&ex));
        if (out.len != size || memcmp(out.data, data, size) != 0) {
            /* Another spelling of the same values: same meaning, and the
             * rebuild is a fixed point. */
            struct ccnx_interest_parsed p2;
            struct items ex2;
            struct ccnx_interest_params q;
            CHECK(ccnx_interest_parse(out.data, out.len, &p2) == 0);
            CHECK(same_values(data, pi, out.data, &p2));
            collect_exclude(out.data, p2.exclude, &ex2);
            to_params(out.data, &p2, &ex2, &q);
            CHECK(ccnx_interest_build(&again, &q) == 0);
            CHECK(again.len == out.len && memcmp(again.data, out.data, out.len) == 0);
            free(ex2.v);
        }
    }
    free(ex.v);
    ccnx_buf_free(&out);
    ccnx_buf_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ccnx_interest_parsed pi;
    if (ccnx_interest_parse(data, size, &pi) != 0) {
        return 0;
    }
    check_rebuild(data, size, &pi);
    check_match(data, &pi);
    return 0;
}
