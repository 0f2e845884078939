/* Name enumeration replies, kept in the store (see enumerate.h). */
#include "enumerate.h"

#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/link.h>
#include <ccnx/match.h>
#include <ccnx/naming.h>
#include <ccnx/content_sign.h>
#include <ccnx/key.h>

#include <stdlib.h>
#include <string.h>

int ccnr_enum_request(const uint8_t *name, size_t len, struct ccnx_name *prefix)
{
    struct ccnx_name_iter it;
    struct ccnx_comp c;
    if (ccnx_name_iter_init(&it, name, len) < 0) {
        return CCNX_E_INVAL;
    }
    size_t k = 0;
    int r;
    while ((r = ccnx_name_iter_next(&it, &c)) == 1) {
        if (ccnx_naming_command_is(c.p, c.n, "E.be")) {
            r = ccnx_name_set_ccnb(prefix, name, len);
            r = r == 0 ? ccnx_name_truncate(prefix, k) : r;
            return r == 0 ? 1 : r;
        }
        k++;
    }
    return r < 0 ? CCNX_E_INVAL : 0;
}

/* ---- The set of children ---- */

struct children {
    struct ccnr_store *s;
    const struct ccnx_name *prefix;
    struct ccnx_buf body; /* the Collection being built */
    struct ccnx_name one; /* scratch: a one-component name */
    size_t seen;          /* components below the prefix, before filtering */
    int err;
};

static int add_child(void *arg, const uint8_t *comp, size_t n)
{
    struct children *k = arg;
    k->seen++;
    /* Not listed: our own replies, and the digest of an object named
     * exactly by the prefix (a full name's last component, not a name's). */
    if (ccnx_naming_command_is(comp, n, "E.be") ||
        (n == 32 && ccnr_store_has(k->s, k->prefix->enc.data, k->prefix->enc.len, comp) == 1)) {
        return 0;
    }
    struct ccnx_link l;
    ccnx_link_init(&l);
    int r = ccnx_name_truncate(&k->one, 0);
    r = r == 0 ? ccnx_name_append(&k->one, comp, n) : r;
    l.name = k->one.enc.data;
    l.name_len = k->one.enc.len;
    r = r == 0 ? ccnx_link_build(&k->body, &l) : r;
    k->err = r;
    return r != 0;
}

/* Builds the Collection for `prefix` in k->body; 0, or negative. */
static int collect(struct children *k)
{
    int r = ccnx_name_init(&k->one);
    r = r == 0 ? ccnx_ccnb_open(&k->body, CCNX_DTAG_Collection) : r;
    r = r == 0 ? ccnr_store_children(k->s, k->prefix->enc.data, k->prefix->enc.len, add_child, k)
               : r;
    r = r == 0 ? k->err : r;
    r = r == 0 ? ccnx_ccnb_append_closer(&k->body) : r;
    ccnx_name_free(&k->one);
    return r == 0 ? ccnx_buf_status(&k->body) : r;
}

/* <prefix>/%C1.E.be/<key id>: where the versions of the replies lie. */
static int reply_base(struct ccnx_name *base, const struct ccnx_name *prefix,
                      const struct ccnx_key *key)
{
    int r = ccnx_name_copy(base, prefix);
    r = r == 0 ? ccnx_naming_append_command(base, "E.be", NULL, 0) : r;
    return r == 0 ? ccnx_naming_append_keyid(base, ccnx_key_digest(key)) : r;
}

/* ---- The reply held now ---- */

/* The object the store answers `name` with (ChildSelector `child`), into
 * out: 1, 0 for none, or negative. */
static int lookup_name(struct ccnr_store *s, const struct ccnx_name *name, int child,
                       struct ccnx_buf *out)
{
    struct ccnx_interest_params p;
    struct ccnx_interest_parsed pi;
    struct ccnx_buf ib = CCNX_BUF_INIT;
    ccnx_interest_params_init(&p);
    p.name = name->enc.data;
    p.name_len = name->enc.len;
    p.child_selector = child;
    int r = ccnx_interest_build(&ib, &p);
    r = r == 0 ? ccnx_interest_parse(ib.data, ib.len, &pi) : r;
    r = r == 0 ? ccnr_store_lookup(s, ib.data, &pi, out) : r;
    ccnx_buf_free(&ib);
    return r;
}

/* Appends the Content of the object obj[0..len) to out; 0 or negative. */
static int append_content(struct ccnx_buf *out, const uint8_t *obj, size_t len)
{
    struct ccnx_content_parsed pc;
    int r = ccnx_content_parse(obj, len, &pc);
    return r == 0 ? ccnx_buf_append(out, obj + pc.content_value.off, pc.content_value.len) : r;
}

/* 1 when the newest stored reply under `base` (<prefix>/%C1.E.be/<key id>)
 * carries exactly `body` in its segments, 0 when not (or none), negative on
 * a store error. *newest gets its version (0 when none). */
static int newest_matches(struct ccnr_store *s, const struct ccnx_name *base,
                          const struct ccnx_buf *body, uint64_t *newest)
{
    *newest = 0;
    struct ccnx_buf obj = CCNX_BUF_INIT, held = CCNX_BUF_INIT;
    struct ccnx_name seg;
    int r = lookup_name(s, base, 1, &obj);
    if (r != 1) {
        ccnx_buf_free(&obj);
        return r;
    }
    /* The newest version's name: the found object's, less its segment. */
    struct ccnx_content_parsed pc;
    r = ccnx_name_init(&seg);
    r = r == 0 ? ccnx_content_parse(obj.data, obj.len, &pc) : r;
    r = r == 0 ? ccnx_name_set_ccnb(&seg, obj.data + pc.name.off, pc.name.len) : r;
    r = r == 0 ? ccnx_name_truncate(&seg, base->count + 1) : r;
    size_t version_count = base->count + 1;
    struct ccnx_comp v;
    if (r == 0 && ccnx_name_comp(&seg, base->count, &v) == 0) {
        ccnx_naming_version_decode(v.p, v.n, newest);
    }
    for (uint64_t i = 0; r == 0 && held.len < body->len + 1; i++) {
        r = ccnx_name_truncate(&seg, version_count);
        r = r == 0 ? ccnx_naming_append_segment(&seg, i) : r;
        int found = r == 0 ? lookup_name(s, &seg, -1, &obj) : r;
        if (found != 1) {
            r = found < 0 ? found : 0;
            break;
        }
        r = append_content(&held, obj.data, obj.len);
    }
    int same = r == 0 && held.len == body->len && memcmp(held.data, body->data, body->len) == 0;
    ccnx_name_free(&seg);
    ccnx_buf_free(&obj);
    ccnx_buf_free(&held);
    return r < 0 ? r : same;
}

/* ---- A new version ---- */

/* Signs `body` as segments of version `version` (a timestamp in 1/4096 s)
 * under `base` into out, with offsets[0..n] (allocated) where each object
 * starts; *n gets the count. */
static int sign_version(const struct ccnx_buf *body, const struct ccnx_name *base,
                        const struct ccnx_key *key, uint64_t version, struct ccnx_buf *out,
                        size_t **offsets, size_t *n)
{
    uint8_t vcomp[CCNX_VERSION_MAX_LEN];
    int vlen = ccnx_naming_version_build(version, vcomp);
    size_t segs =
        body->len == 0 ? 1 : (body->len + CCNR_ENUM_SEGMENT_BYTES - 1) / CCNR_ENUM_SEGMENT_BYTES;
    struct ccnx_content_params *p = calloc(segs, sizeof *p);
    struct ccnx_name *names = calloc(segs, sizeof *names);
    *offsets = calloc(segs + 1, sizeof **offsets);
    uint8_t final[CCNX_NUMERIC_MAX_LEN];
    int flen = ccnx_naming_segment_build(segs - 1, final);
    int r =
        p != NULL && names != NULL && *offsets != NULL && flen > 0 && vlen > 0 ? 0 : CCNX_E_NOMEM;
    for (size_t i = 0; r == 0 && i < segs; i++) {
        r = ccnx_name_init(&names[i]);
        r = r == 0 ? ccnx_name_copy(&names[i], base) : r;
        r = r == 0 ? ccnx_name_append(&names[i], vcomp, (size_t)vlen) : r;
        r = r == 0 ? ccnx_naming_append_segment(&names[i], i) : r;
        ccnx_content_params_init(&p[i]);
        p[i].name = names[i].enc.data;
        p[i].name_len = names[i].enc.len;
        p[i].freshness = CCNR_ENUM_FRESHNESS;
        p[i].final_block_id = final;
        p[i].final_block_id_len = (size_t)flen;
        size_t off = i * CCNR_ENUM_SEGMENT_BYTES;
        p[i].content = body->data + off;
        p[i].content_len =
            body->len - off < CCNR_ENUM_SEGMENT_BYTES ? body->len - off : CCNR_ENUM_SEGMENT_BYTES;
    }
    r = r == 0 ? ccnx_content_sign_batch(out, p, segs, key, *offsets) : r;
    for (size_t i = 0; names != NULL && i < segs; i++) {
        ccnx_name_free(&names[i]);
    }
    free(names);
    free(p);
    *n = segs;
    return r;
}

static int store_version(struct ccnr_store *s, const struct ccnx_buf *objs, const size_t *offsets,
                         size_t n)
{
    int r = ccnr_store_begin(s);
    for (size_t i = 0; r == 0 && i < n; i++) {
        int a = ccnr_store_add(s, objs->data + offsets[i], offsets[i + 1] - offsets[i]);
        r = a < 0 ? a : 0;
    }
    if (r != 0) {
        ccnr_store_abort(s);
        return r;
    }
    return ccnr_store_commit(s);
}

int ccnr_enum_update(struct ccnr_store *s, const struct ccnx_key *key,
                     const struct ccnx_name *prefix, const struct timespec *now)
{
    struct children k;
    memset(&k, 0, sizeof k);
    k.s = s;
    k.prefix = prefix;
    ccnx_buf_init(&k.body);
    struct ccnx_name base;
    struct ccnx_buf objs = CCNX_BUF_INIT;
    size_t *offsets = NULL, n = 0;
    int r = collect(&k);
    if (r != 0 || k.seen == 0) {
        ccnx_buf_free(&k.body);
        return r; /* nothing under the prefix: no reply at all */
    }
    r = ccnx_name_init(&base);
    r = r == 0 ? reply_base(&base, prefix, key) : r;
    uint64_t newest = 0;
    int same = r == 0 ? newest_matches(s, &base, &k.body, &newest) : r;
    if (same == 0) {
        /* Versions only grow, even when the clock does not move between
         * two changes. */
        uint64_t ticks = (uint64_t)now->tv_sec * 4096 + (uint64_t)now->tv_nsec * 4096 / 1000000000;
        r = sign_version(&k.body, &base, key, ticks > newest ? ticks : newest + 1, &objs, &offsets,
                         &n);
        r = r == 0 ? store_version(s, &objs, offsets, n) : r;
    }
    free(offsets);
    ccnx_buf_free(&objs);
    ccnx_name_free(&base);
    ccnx_buf_free(&k.body);
    return same < 0 ? same : (r < 0 ? r : same == 0);
}

int ccnr_enum_answer(struct ccnr_store *s, const struct ccnx_key *key, const uint8_t *ibuf,
                     const struct ccnx_interest_parsed *pi, const struct ccnx_name *prefix,
                     struct ccnx_buf *out)
{
    if (pi->name_count > prefix->count + 2) {
        return ccnr_store_lookup(s, ibuf, pi, out); /* a given version or segment */
    }
    /* The Interest's own pick would be the oldest version kept: readers
     * that name none want the current list. */
    struct ccnx_name base;
    int r = ccnx_name_init(&base);
    r = r == 0 ? reply_base(&base, prefix, key) : r;
    r = r == 0 ? lookup_name(s, &base, 1, out) : r;
    ccnx_name_free(&base);
    if (r != 1) {
        return r;
    }
    struct ccnx_content_parsed pc;
    if (ccnx_content_parse(out->data, out->len, &pc) != 0) {
        return CCNX_E_IO;
    }
    return ccnx_match(ibuf, pi, out->data, out->len, &pc, NULL);
}
