/* Fuzz target for ContentObject parsing, the implicit digest and matching.
 *
 * Every object that parses is matched against Interests whose answer is
 * known whatever the object: the root name, the object's own name, its
 * name plus its digest (and plus a wrong digest), its name with an Exclude
 * that covers the digest, and suffix bounds around its length. Fixed
 * Interests with every kind of Exclude run too, where a computed digest
 * must agree with a supplied one. */
#include <ccnx/bloom.h>
#include <ccnx/ccnb.h>
#include <ccnx/content.h>
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

struct interest {
    struct ccnx_buf enc;
    struct ccnx_interest_parsed pi;
};

/* Builds and parses an Interest from p (with p->name set by the caller). */
static void make_interest(struct interest *q, const struct ccnx_interest_params *p)
{
    ccnx_buf_init(&q->enc);
    CHECK(ccnx_interest_build(&q->enc, p) == 0);
    CHECK(ccnx_interest_parse(q->enc.data, q->enc.len, &q->pi) == 0);
}

/* ---- Fixed Interests ---- */

#define NFIXED 6
static struct interest fixed[NFIXED];
static int fixed_ready;

static void build_fixed(void)
{
    static const uint8_t seed[4] = {1, 2, 3, 4};
    static struct ccnx_bloom bloom;
    CHECK(ccnx_bloom_init(&bloom, 3, seed) == 0);
    ccnx_bloom_insert(&bloom, "a", 1);
    ccnx_bloom_insert(&bloom, "hello", 5);
    static const uint8_t bad[9] = {3, 1, 'B', 0, 0, 0, 0, 0, 0};
    const struct ccnx_exclude_item ex[NFIXED][4] = {
        {{CCNX_EXCLUDE_ANY, NULL, 0}, {CCNX_EXCLUDE_COMPONENT, (const uint8_t *)"b", 1}},
        {{CCNX_EXCLUDE_COMPONENT, (const uint8_t *)"a", 1}, {CCNX_EXCLUDE_ANY, NULL, 0}},
        {{CCNX_EXCLUDE_BLOOM, bloom.wire, bloom.wire_len},
         {CCNX_EXCLUDE_COMPONENT, (const uint8_t *)"vec", 3},
         {CCNX_EXCLUDE_BLOOM, bloom.wire, bloom.wire_len}},
        {{CCNX_EXCLUDE_COMPONENT, (const uint8_t *)"c", 1}, {CCNX_EXCLUDE_BLOOM, bad, sizeof bad}},
        {{CCNX_EXCLUDE_ANY, NULL, 0}},
        {{CCNX_EXCLUDE_COMPONENT, (const uint8_t *)"d", 1}},
    };
    static const size_t nex[NFIXED] = {2, 2, 3, 2, 1, 1};
    static const char *const uris[NFIXED] = {
        "ccnx:/example/vec/sel", "ccnx:/example/vec/data",       "ccnx:/example",
        "ccnx:/example/vec/sel", "ccnx:/example/vec/data/hello", "ccnx:/"};
    for (size_t i = 0; i < NFIXED; i++) {
        struct ccnx_name n;
        struct ccnx_interest_params p;
        CHECK(ccnx_name_init(&n) == 0);
        CHECK(ccnx_uri_parse_str(&n, uris[i]) == 0);
        ccnx_interest_params_init(&p);
        p.name = n.enc.data;
        p.name_len = n.enc.len;
        p.exclude = ex[i];
        p.exclude_count = nex[i];
        p.child_selector = (int)(i & 1);
        make_interest(&fixed[i], &p);
        ccnx_name_free(&n);
    }
    fixed_ready = 1;
}

/* ---- Interests derived from the object ---- */

static int match_with(const uint8_t *data, size_t size, const struct ccnx_content_parsed *pc,
                      const uint8_t digest[32], const struct ccnx_interest_params *p)
{
    struct interest q;
    make_interest(&q, p);
    int given = ccnx_match(q.enc.data, &q.pi, data, size, pc, digest);
    int lazy = ccnx_match(q.enc.data, &q.pi, data, size, pc, NULL);
    CHECK(given == lazy);
    ccnx_buf_free(&q.enc);
    return given;
}

static void check_own_name(const uint8_t *data, size_t size, const struct ccnx_content_parsed *pc,
                           const uint8_t digest[32])
{
    struct ccnx_interest_params p;
    struct ccnx_name name, full, wrong;
    CHECK(ccnx_name_init(&name) == 0 && ccnx_name_init(&full) == 0 && ccnx_name_init(&wrong) == 0);
    if (ccnx_name_set_ccnb(&name, data + pc->name.off, pc->name.len) != 0) {
        ccnx_name_free(&name);
        ccnx_name_free(&full);
        ccnx_name_free(&wrong);
        return; /* more components than an owned name holds */
    }
    ccnx_interest_params_init(&p);
    p.name = name.enc.data;
    p.name_len = name.enc.len;
    CHECK(match_with(data, size, pc, digest, &p) == 1);
    p.min_suffix = 1;
    p.max_suffix = 1;
    CHECK(match_with(data, size, pc, digest, &p) == 1);
    p.max_suffix = 0;
    p.min_suffix = 0;
    CHECK(match_with(data, size, pc, digest, &p) == 0);
    p.max_suffix = -1;
    p.min_suffix = 2;
    CHECK(match_with(data, size, pc, digest, &p) == 0);
    p.min_suffix = -1;

    /* The digest is the next component: Exclude [Any] hides the object. */
    const struct ccnx_exclude_item any = {CCNX_EXCLUDE_ANY, NULL, 0};
    const struct ccnx_exclude_item dig = {CCNX_EXCLUDE_COMPONENT, digest, 32};
    p.exclude = &any;
    p.exclude_count = 1;
    CHECK(match_with(data, size, pc, digest, &p) == 0);
    p.exclude = &dig;
    CHECK(match_with(data, size, pc, digest, &p) == 0);
    p.exclude = NULL;
    p.exclude_count = 0;

    /* Named with its digest, and with a digest one bit off. */
    uint8_t other[32];
    memcpy(other, digest, 32);
    other[data[0] % 32] ^= 0x10;
    if (ccnx_name_copy(&full, &name) == 0 && ccnx_name_append(&full, digest, 32) == 0 &&
        ccnx_name_copy(&wrong, &name) == 0 && ccnx_name_append(&wrong, other, 32) == 0) {
        p.name = full.enc.data;
        p.name_len = full.enc.len;
        CHECK(match_with(data, size, pc, digest, &p) == 1);
        p.name = wrong.enc.data;
        p.name_len = wrong.enc.len;
        CHECK(match_with(data, size, pc, digest, &p) == 0);
    }
    ccnx_name_free(&name);
    ccnx_name_free(&full);
    ccnx_name_free(&wrong);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ccnx_content_parsed pc;
    uint8_t digest[32];
    if (ccnx_content_parse(data, size, &pc) != 0) {
        return 0;
    }
    CHECK(ccnx_content_digest(data + pc.object.off, pc.object.len, digest) == 0);
    if (!fixed_ready) {
        build_fixed();
    }
    for (size_t i = 0; i < NFIXED; i++) {
        int given = ccnx_match(fixed[i].enc.data, &fixed[i].pi, data, size, &pc, digest);
        int lazy = ccnx_match(fixed[i].enc.data, &fixed[i].pi, data, size, &pc, NULL);
        CHECK((given == 0 || given == 1) && given == lazy);
    }
    /* The root name without selectors matches every object. */
    struct ccnx_interest_params p;
    static const uint8_t root[2] = {0xf2, 0x00};
    ccnx_interest_params_init(&p);
    p.name = root;
    p.name_len = sizeof root;
    CHECK(match_with(data, size, &pc, digest, &p) == 1);
    check_own_name(data, size, &pc, digest);

    const uint8_t *name = data + pc.name.off;
    CHECK(ccnx_match_full_name_compare(name, pc.name.len, digest, name, pc.name.len, digest) == 0);
    CHECK(ccnx_match_full_name_compare(name, pc.name.len, NULL, name, pc.name.len, digest) < 0);
    /* A store of one object answers the root Interest with it. */
    struct interest rq;
    make_interest(&rq, &p);
    struct ccnx_match_candidate c = {data, size, &pc, digest, 0};
    CHECK(ccnx_match_pick(&c, 1, rq.enc.data, &rq.pi) == 0);
    c.stale = 1;
    CHECK(ccnx_match_pick(&c, 1, rq.enc.data, &rq.pi) == -1);
    ccnx_buf_free(&rq.enc);
    return 0;
}
