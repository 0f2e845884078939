/* Interest / ContentObject matching and the content-store choice. */
#include <ccnx/bloom.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/match.h>
#include <ccnx/name.h>

#include <string.h>

/* When a candidate fails, how far the store walk may jump: every object in
 * the skipped range is certain to fail the same way. */
enum skip_kind {
    SKIP_ONE,           /* only this object */
    SKIP_SUBTREE,       /* every object whose next component is `comp` */
    SKIP_THROUGH_BOUND, /* every next component up to and including `comp` */
    SKIP_REST,          /* every object left under the prefix */
};

struct skip {
    enum skip_kind kind;
    struct ccnx_comp comp;
};

/* ---- Reading names and Exclude in place ----
 *
 * Matching runs for every Interest against many objects, so it reads the
 * few element shapes it needs itself instead of going through the general
 * reader: a leaf element is a DTAG header, an optional BLOB or UDATA, and a
 * closer. Both spellings of a value compare equal, as in the parsers. */

static int read_header(const uint8_t *p, size_t end, size_t *pos, uint64_t *num, unsigned *tt)
{
    size_t i = *pos;
    uint64_t v = 0;
    if (i < end && p[i] == CCNX_CCNB_CLOSE) {
        return CCNX_E_BADTT;
    }
    for (; i < end; i++) {
        uint8_t c = p[i];
        if (c & 0x80) {
            *num = (v << 4) | ((c >> 3) & 0x0F);
            *tt = c & 0x07;
            *pos = i + 1;
            return 0;
        }
        if (v > (CCNX_CCNB_MAX_NUMVAL >> 11)) {
            return CCNX_E_NUMVAL;
        }
        v = (v << 7) | c;
    }
    return CCNX_E_TRUNCATED;
}

/* 1 with *dtag and *val set, 0 at a closer (left in place), negative when
 * what follows is not a leaf element. */
static int read_leaf(const uint8_t *p, size_t end, size_t *pos, uint64_t *dtag,
                     struct ccnx_comp *val)
{
    size_t i = *pos;
    uint64_t n;
    unsigned tt;
    if (i >= end) {
        return CCNX_E_TRUNCATED;
    }
    if (p[i] == CCNX_CCNB_CLOSE) {
        return 0;
    }
    if (read_header(p, end, &i, dtag, &tt) != 0 || tt != CCNX_TT_DTAG || i >= end) {
        return CCNX_E_STRUCTURE;
    }
    if (p[i] == CCNX_CCNB_CLOSE) {
        *val = (struct ccnx_comp){p + i, 0};
        *pos = i + 1;
        return 1;
    }
    if (read_header(p, end, &i, &n, &tt) != 0 || (tt != CCNX_TT_BLOB && tt != CCNX_TT_UDATA) ||
        n >= end - i || p[i + n] != CCNX_CCNB_CLOSE) {
        return CCNX_E_STRUCTURE;
    }
    *val = (struct ccnx_comp){p + i, (size_t)n};
    *pos = i + (size_t)n + 1;
    return 1;
}

/* The one-byte header of a Component element (DTAG 15). */
#define COMPONENT_BYTE ((uint8_t)(0x80 | (CCNX_DTAG_Component << 3) | CCNX_TT_DTAG))

#define NAME_BYTE ((uint8_t)(0x80 | (CCNX_DTAG_Name << 3) | CCNX_TT_DTAG))

/* Components of an encoded Name element. */
struct comps {
    const uint8_t *p;
    size_t pos, end;
};

static int comps_init(struct comps *c, const uint8_t *p, size_t len)
{
    uint64_t dtag;
    unsigned tt;
    c->p = p;
    c->pos = 0;
    c->end = len;
    if (p == NULL || read_header(p, len, &c->pos, &dtag, &tt) != 0 || tt != CCNX_TT_DTAG ||
        dtag != CCNX_DTAG_Name) {
        c->end = 0;
        return CCNX_E_STRUCTURE;
    }
    return 0;
}

/* 1 with *out set, 0 at the end of the Name, negative when malformed. */
static int comps_next(struct comps *c, struct ccnx_comp *out)
{
    /* Most components are short: a one-byte Component header, a one-byte
     * BLOB header and the closer. */
    const uint8_t *p = c->p;
    size_t pos = c->pos;
    if (pos + 2 < c->end && p[pos] == COMPONENT_BYTE) {
        uint8_t h = p[pos + 1];
        size_t n = (h >> 3) & 0x0F;
        if ((h & 0x87) == (0x80 | CCNX_TT_BLOB) && n < c->end - pos - 2 &&
            p[pos + 2 + n] == CCNX_CCNB_CLOSE) {
            *out = (struct ccnx_comp){p + pos + 2, n};
            c->pos = pos + 3 + n;
            return 1;
        }
    }
    uint64_t dtag;
    int r = read_leaf(c->p, c->end, &c->pos, &dtag, out);
    if (r == 1 && dtag != CCNX_DTAG_Component) {
        return CCNX_E_STRUCTURE;
    }
    return r;
}

static int same_comp(struct ccnx_comp a, struct ccnx_comp b)
{
    return a.n == b.n && memcmp(a.p, b.p, a.n) == 0;
}

/* ---- Exclude ---- */

/* The reference's reading of Exclude: scan the listed components in order,
 * remembering the Any/Bloom that follows each one, until a component above
 * `comp` appears; the remembered filter then decides. A malformed Exclude
 * excludes: it cannot say what was meant, and excluding never delivers
 * something unwanted. */
static int exclude_eval(const uint8_t *ibuf, struct ccnx_span ex, const uint8_t *comp, size_t n,
                        struct skip *sk)
{
    const uint8_t *p = ibuf + ex.off;
    size_t pos = 0, end = ex.len;
    uint64_t dtag;
    unsigned tt;
    struct ccnx_comp item, filter = {NULL, 0};
    int filter_kind = 0; /* 0 none, else the DTAG of the filter */
    int res;

    sk->kind = SKIP_SUBTREE;
    sk->comp = (struct ccnx_comp){comp, n};
    if (read_header(p, end, &pos, &dtag, &tt) != 0 || tt != CCNX_TT_DTAG ||
        dtag != CCNX_DTAG_Exclude) {
        return 1;
    }
    while ((res = read_leaf(p, end, &pos, &dtag, &item)) == 1) {
        if (dtag == CCNX_DTAG_Any || dtag == CCNX_DTAG_Bloom) {
            if (dtag == CCNX_DTAG_Any && item.n != 0) {
                return 1;
            }
            filter_kind = (int)dtag;
            filter = item;
            continue;
        }
        if (dtag != CCNX_DTAG_Component) {
            return 1;
        }
        int c = ccnx_comp_compare(item.p, item.n, comp, n);
        if (c == 0) {
            return 1;
        }
        if (c > 0) {
            /* Past `comp`: the filter before this component decides. */
            if (filter_kind == CCNX_DTAG_Any) {
                sk->kind = SKIP_THROUGH_BOUND;
                sk->comp = item;
                return 1;
            }
            break;
        }
        filter_kind = 0;
    }
    if (res < 0) {
        return 1;
    }
    if (filter_kind == CCNX_DTAG_Any) {
        sk->kind = SKIP_REST;
        return 1;
    }
    if (filter_kind == 0 || filter.n == 0) {
        return 0; /* no filter, or an empty Bloom element: the empty set */
    }
    /* Invalid filters (negative) exclude, like a false positive would. */
    return ccnx_bloom_wire_test(filter.p, filter.n, comp, n) != 0;
}

int ccnx_match_excluded(const uint8_t *ibuf, struct ccnx_span exclude, const uint8_t *comp,
                        size_t n)
{
    struct skip sk;
    if (exclude.len == 0) {
        return 0;
    }
    if (ibuf == NULL || (comp == NULL && n != 0)) {
        return 1;
    }
    return exclude_eval(ibuf, exclude, comp, n, &sk);
}

/* ---- One object against one Interest ---- */

enum prefix_result {
    PFX_MISMATCH,
    PFX_NEXT_COMP,   /* name extends the prefix; *next is the following component */
    PFX_NEXT_DIGEST, /* name equals the prefix; the digest follows */
    PFX_DIGEST_LAST, /* prefix = name + one 32-byte component; *next is it */
};

static enum prefix_result prefix_walk(const uint8_t *ibuf, const struct ccnx_interest_parsed *pi,
                                      const uint8_t *cbuf, const struct ccnx_content_parsed *pc,
                                      struct ccnx_comp *next)
{
    struct comps ii, ic;
    struct ccnx_comp a, b;
    const uint8_t *ip = ibuf + pi->name.off, *cp = cbuf + pc->name.off;
    size_t ilen = pi->name.len, clen = pc->name.len;
    /* Usual case: both names spelled the same way, so the Interest's
     * components are a byte prefix of the object's (encoded components
     * delimit themselves, so the prefix ends on a component boundary). */
    if (ilen >= 2 && clen >= ilen && ip[0] == NAME_BYTE && cp[0] == NAME_BYTE &&
        memcmp(ip + 1, cp + 1, ilen - 2) == 0) {
        if (clen == ilen) {
            return PFX_NEXT_DIGEST;
        }
        ic = (struct comps){cp, ilen - 1, clen};
        if (comps_next(&ic, next) == 1) {
            return PFX_NEXT_COMP;
        }
    }
    if (comps_init(&ii, ibuf + pi->name.off, pi->name.len) != 0 ||
        comps_init(&ic, cbuf + pc->name.off, pc->name.len) != 0) {
        return PFX_MISMATCH;
    }
    for (;;) {
        int ra = comps_next(&ii, &a);
        int rb = comps_next(&ic, &b);
        if (ra < 0 || rb < 0) {
            return PFX_MISMATCH;
        }
        if (ra == 0) {
            if (rb == 0) {
                return PFX_NEXT_DIGEST;
            }
            *next = b;
            return PFX_NEXT_COMP;
        }
        if (rb == 0) {
            /* Only the implicit digest can stand for one more component
             * (selectors_ok has ruled out an Interest longer than that). */
            if (a.n != CCNX_DIGEST_LEN) {
                return PFX_MISMATCH;
            }
            *next = a;
            return PFX_DIGEST_LAST;
        }
        if (!same_comp(a, b)) {
            return PFX_MISMATCH;
        }
    }
}

static int args_ok(const uint8_t *ibuf, const struct ccnx_interest_parsed *pi, const uint8_t *cbuf,
                   size_t clen, const struct ccnx_content_parsed *pc)
{
    return ibuf != NULL && pi != NULL && cbuf != NULL && pc != NULL && pc->object.off <= clen &&
           pc->object.len <= clen - pc->object.off && pc->name.off <= clen &&
           pc->name.len <= clen - pc->name.off && pc->publisher.off <= clen &&
           pc->publisher.len <= clen - pc->publisher.off;
}

static int selectors_ok(const uint8_t *ibuf, const struct ccnx_interest_parsed *pi,
                        const uint8_t *cbuf, const struct ccnx_content_parsed *pc)
{
    if (pi->publisher.len > 0 &&
        (pc->publisher.len != pi->publisher.len ||
         memcmp(ibuf + pi->publisher.off, cbuf + pc->publisher.off, pi->publisher.len) != 0)) {
        return 0;
    }
    uint64_t total = (uint64_t)pc->name_count + 1; /* the digest counts */
    uint64_t plen = pi->name_count;
    if (total < plen + pi->min_suffix) {
        return 0;
    }
    return pi->max_suffix == CCNX_SUFFIX_UNLIMITED || total <= plen + pi->max_suffix;
}

static int match_core(const uint8_t *ibuf, const struct ccnx_interest_parsed *pi,
                      const uint8_t *cbuf, size_t clen, const struct ccnx_content_parsed *pc,
                      const uint8_t *digest, struct skip *sk)
{
    uint8_t computed[CCNX_DIGEST_LEN];
    struct ccnx_comp next = {NULL, 0};

    sk->kind = SKIP_ONE;
    if (!args_ok(ibuf, pi, cbuf, clen, pc) || !selectors_ok(ibuf, pi, cbuf, pc)) {
        return 0;
    }
    enum prefix_result where = prefix_walk(ibuf, pi, cbuf, pc, &next);
    if (where == PFX_MISMATCH) {
        return 0;
    }
    int need_digest = where == PFX_DIGEST_LAST || (where == PFX_NEXT_DIGEST && pi->exclude.len);
    if (need_digest && digest == NULL) {
        if (ccnx_content_digest(cbuf + pc->object.off, pc->object.len, computed) != 0) {
            return 0;
        }
        digest = computed;
    }
    if (where == PFX_DIGEST_LAST) {
        /* The object is named outright: Exclude has no next component to judge. */
        return memcmp(next.p, digest, CCNX_DIGEST_LEN) == 0;
    }
    if (pi->exclude.len == 0) {
        return 1;
    }
    if (where == PFX_NEXT_DIGEST) {
        next = (struct ccnx_comp){digest, CCNX_DIGEST_LEN};
    }
    if (exclude_eval(ibuf, pi->exclude, next.p, next.n, sk)) {
        if (where == PFX_NEXT_DIGEST && sk->kind == SKIP_SUBTREE) {
            sk->kind = SKIP_ONE; /* a digest names one object; do not keep a pointer to it */
        }
        return 0;
    }
    sk->kind = SKIP_ONE;
    return 1;
}

int ccnx_match(const uint8_t *ibuf, const struct ccnx_interest_parsed *pi, const uint8_t *cbuf,
               size_t clen, const struct ccnx_content_parsed *pc, const uint8_t digest[32])
{
    struct skip sk;
    return match_core(ibuf, pi, cbuf, clen, pc, digest, &sk);
}

int ccnx_match_cs_allowed(const struct ccnx_interest_parsed *pi, int stale)
{
    if (pi == NULL) {
        return 0;
    }
    int aok = ccnx_interest_aok(pi);
    if ((aok & CCNX_AOK_CS) == 0) {
        return 0;
    }
    return !stale || (aok & CCNX_AOK_STALE) != 0;
}

/* ---- Full names and canonical order ---- */

/* Components of an encoded Name followed by an optional extra component
 * (the digest of a stored object, or a child of a search key). */
struct fn_iter {
    struct comps it;
    struct ccnx_comp tail;
    int has_tail;
    int stage; /* 0 name, 1 tail, 2 end, 3 malformed */
};

static void fn_init(struct fn_iter *f, const uint8_t *name, size_t len, const uint8_t *tail,
                    size_t tail_n, int has_tail)
{
    f->tail = (struct ccnx_comp){tail, tail_n};
    f->has_tail = has_tail;
    f->stage = comps_init(&f->it, name, len) == 0 ? 0 : 3;
}

/* 1 with *c set, 0 at the end, negative when the name is malformed. */
static int fn_next(struct fn_iter *f, struct ccnx_comp *c)
{
    if (f->stage == 0) {
        int r = comps_next(&f->it, c);
        if (r != 0) {
            f->stage = r < 0 ? 3 : 0;
            return r;
        }
        f->stage = 1;
    }
    if (f->stage == 1) {
        f->stage = 2;
        if (f->has_tail) {
            *c = f->tail;
            return 1;
        }
    }
    return f->stage == 3 ? CCNX_E_STRUCTURE : 0;
}

/* Canonical order of a and b; *b_is_prefix tells whether b is a prefix of
 * (or equal to) a. Malformed names sort last. */
static int fn_compare(struct fn_iter *a, struct fn_iter *b, int *b_is_prefix)
{
    struct ccnx_comp ca, cb;
    for (;;) {
        int ra = fn_next(a, &ca);
        int rb = fn_next(b, &cb);
        if (ra != 1 || rb != 1) {
            int ka = ra == 1 ? 1 : (ra == 0 ? 0 : 2);
            int kb = rb == 1 ? 1 : (rb == 0 ? 0 : 2);
            *b_is_prefix = rb == 0;
            return (ka > kb) - (ka < kb);
        }
        int c = ccnx_comp_compare(ca.p, ca.n, cb.p, cb.n);
        if (c != 0) {
            *b_is_prefix = 0;
            return c;
        }
    }
}

int ccnx_match_full_name_compare(const uint8_t *aname, size_t alen, const uint8_t adigest[32],
                                 const uint8_t *bname, size_t blen, const uint8_t bdigest[32])
{
    struct fn_iter a, b;
    int ignored;
    fn_init(&a, aname, alen, adigest, CCNX_DIGEST_LEN, adigest != NULL);
    fn_init(&b, bname, blen, bdigest, CCNX_DIGEST_LEN, bdigest != NULL);
    return fn_compare(&a, &b, &ignored);
}

static void cand_iter(struct fn_iter *f, const struct ccnx_match_candidate *c)
{
    if (c == NULL || c->buf == NULL || c->pc == NULL || c->pc->name.off > c->len ||
        c->pc->name.len > c->len - c->pc->name.off) {
        fn_init(f, NULL, 0, NULL, 0, 0);
        return;
    }
    fn_init(f, c->buf + c->pc->name.off, c->pc->name.len, c->digest, CCNX_DIGEST_LEN,
            c->digest != NULL);
}

int ccnx_match_candidate_compare(const void *a, const void *b)
{
    struct fn_iter fa, fb;
    int ignored;
    cand_iter(&fa, a);
    cand_iter(&fb, b);
    return fn_compare(&fa, &fb, &ignored);
}

/* ---- The content-store walk ---- */

int ccnx_match_key_compare(const struct ccnx_match_candidate *c, const struct ccnx_match_key *k)
{
    struct fn_iter fc, fk;
    int under;
    cand_iter(&fc, c);
    fn_init(&fk, k->name, k->len, k->child, k->child_n, k->has_child);
    int r = fn_compare(&fc, &fk, &under);
    return under ? 0 : r;
}

/* Component `index` of the candidate's Name. */
static int comp_at(const struct ccnx_match_candidate *c, size_t index, struct ccnx_comp *out)
{
    struct comps it;
    if (comps_init(&it, c->buf + c->pc->name.off, c->pc->name.len) != 0) {
        return CCNX_E_STRUCTURE;
    }
    for (size_t i = 0; i <= index; i++) {
        if (comps_next(&it, out) != 1) {
            return CCNX_E_NOTFOUND;
        }
    }
    return 0;
}

/* Jumps past every object whose next component (after the prefix) is `child`. */
static void seek_past_child(const struct ccnx_match_cursor_ops *ops, void *store,
                            const struct ccnx_match_key *prefix, struct ccnx_comp child)
{
    struct ccnx_match_key k = *prefix;
    k.child = child.p;
    k.child_n = child.n;
    k.has_child = 1;
    ops->seek(store, &k, 0);
}

/* Where the walk goes after a candidate that does not match; 0 when the
 * rest of the prefix can be skipped. */
static int skip_after_miss(const struct ccnx_match_cursor_ops *ops, void *store,
                           const struct ccnx_match_key *prefix, const struct skip *sk)
{
    switch (sk->kind) {
    case SKIP_SUBTREE:
    case SKIP_THROUGH_BOUND:
        seek_past_child(ops, store, prefix, sk->comp);
        return 1;
    case SKIP_REST:
        return 0;
    default:
        ops->next(store);
        return 1;
    }
}

const void *ccnx_match_pick_cursor(const struct ccnx_match_cursor_ops *ops, void *store,
                                   const uint8_t *ibuf, const struct ccnx_interest_parsed *pi,
                                   size_t max_probes)
{
    if (ops == NULL || ibuf == NULL || pi == NULL) {
        return NULL;
    }
    int aok = ccnx_interest_aok(pi);
    if ((aok & CCNX_AOK_CS) == 0) {
        return NULL;
    }
    int stale_ok = (aok & CCNX_AOK_STALE) != 0;
    int rightmost = pi->child_selector > 0 && (pi->child_selector & 1) != 0;
    struct ccnx_match_key prefix = {ibuf + pi->name.off, pi->name.len, NULL, 0, 0};
    struct ccnx_match_candidate c;
    const void *best = NULL, *e;
    size_t probes = 0;
    ops->seek(store, &prefix, -1);
    while (probes < max_probes && (e = ops->current(store, &c)) != NULL &&
           ccnx_match_key_compare(&c, &prefix) == 0) {
        struct skip sk;
        probes++;
        if (c.stale && !stale_ok) {
            ops->next(store);
            continue;
        }
        if (!match_core(ibuf, pi, c.buf, c.len, c.pc, c.digest, &sk)) {
            if (!skip_after_miss(ops, store, &prefix, &sk)) {
                break;
            }
            continue;
        }
        if (!rightmost) {
            return e;
        }
        best = e;
        /* Look for a match under a greater child. Like the reference, stop
         * when the match's next component is its own digest. */
        struct ccnx_comp child;
        if (c.pc->name_count <= pi->name_count || comp_at(&c, pi->name_count, &child) != 0) {
            break;
        }
        seek_past_child(ops, store, &prefix, child);
    }
    return best;
}

/* ---- The same walk over a sorted array ---- */

struct array_cursor {
    const struct ccnx_match_candidate *v;
    size_t n, i;
};

/* Binary search forward from the current position. */
static void array_seek(void *store, const struct ccnx_match_key *k, int floor)
{
    struct array_cursor *a = store;
    size_t lo = a->i, hi = a->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ccnx_match_key_compare(&a->v[mid], k) > floor) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    a->i = lo;
}

static void array_next(void *store)
{
    struct array_cursor *a = store;
    if (a->i < a->n) {
        a->i++;
    }
}

static const void *array_current(void *store, struct ccnx_match_candidate *out)
{
    struct array_cursor *a = store;
    if (a->i >= a->n) {
        return NULL;
    }
    *out = a->v[a->i];
    return &a->v[a->i];
}

static const struct ccnx_match_cursor_ops array_ops = {array_seek, array_next, array_current};

ssize_t ccnx_match_pick_limited(const struct ccnx_match_candidate *sorted, size_t n,
                                const uint8_t *ibuf, const struct ccnx_interest_parsed *pi,
                                size_t max_probes)
{
    if ((sorted == NULL && n != 0) || ibuf == NULL || pi == NULL) {
        return -1;
    }
    struct array_cursor a = {sorted, n, 0};
    const struct ccnx_match_candidate *e =
        ccnx_match_pick_cursor(&array_ops, &a, ibuf, pi, max_probes);
    return e == NULL ? -1 : (ssize_t)(e - sorted);
}

ssize_t ccnx_match_pick(const struct ccnx_match_candidate *sorted, size_t n, const uint8_t *ibuf,
                        const struct ccnx_interest_parsed *pi)
{
    return ccnx_match_pick_limited(sorted, n, ibuf, pi, CCNX_MATCH_MAX_PROBES);
}
