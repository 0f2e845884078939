/* The Interest pipeline (see fw.h for the order of the steps). */
#include <stdlib.h>
#include <string.h>

#include <ccnx/buf.h>
#include <ccnx/ccnb.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/name.h>

#include "fw/fw_internal.h"
#include "table/cs.h"
#include "table/fib.h"
#include "table/nonce.h"
#include "table/pit.h"

/* One Interest on its way through the pipeline. */
struct fw_arrival {
    unsigned faceid;
    int local;
    const uint8_t *msg; /* as received, or fw->scratch with our nonce */
    size_t len;
    struct ccnx_interest_parsed pi;
    uint64_t lifetime_us;
    struct fib_result fr;
    struct fw_pub *pub; /* the publisher prefix it counts for, or NULL */
    int host_only;      /* under %C1.M.S.localhost: 1, 0, or -1 not looked at yet */
};

/* Where a Nonce element goes: before FaceID, or before the closer (the
 * schema's order puts Nonce after every other field). */
static int nonce_position(const uint8_t *msg, const struct ccnx_interest_parsed *pi, size_t *pos)
{
    const struct ccnx_span *in = &pi->interest;
    if (pi->face_id < 0) {
        *pos = in->off + in->len - 1; /* parsed, so it ends with its closer */
        return 0;
    }
    struct ccnx_ccnb_reader r;
    ccnx_ccnb_reader_init(&r, msg, in->off + in->len, in->off);
    if (ccnx_ccnb_enter(&r, CCNX_DTAG_Interest) != 0)
        return CCNX_E_STRUCTURE;
    while (!ccnx_ccnb_at_closer(&r) && r.err == 0) {
        if (ccnx_ccnb_peek_dtag(&r) == CCNX_DTAG_FaceID)
            break;
        ccnx_ccnb_skip_element(&r);
    }
    if (r.err != 0)
        return r.err;
    *pos = r.pos;
    return 0;
}

static void shift_span(struct ccnx_span *s, size_t pos, size_t delta)
{
    if (s->len > 0 && s->off >= pos)
        s->off += delta;
}

/* The reference gives every Interest it forwards a nonce, so that loops
 * are caught downstream of the first forwarder as well. The element is
 * spliced in and the parse moved along with the bytes after it, rather
 * than parsing the new message again. */
static int add_nonce(struct fw *fw, struct fw_arrival *a)
{
    uint8_t nonce[NONCE_MAX_LEN];
    size_t pos = 0;
    if (a->pi.nonce.off != 0)
        return CCNX_E_STRUCTURE; /* an empty Nonce element: a second would not parse */
    for (size_t i = 0; i < fw->cfg.nonce_len; i++)
        nonce[i] = (uint8_t)fw_random(fw);
    int res = nonce_position(a->msg, &a->pi, &pos);
    if (res < 0)
        return res;
    struct ccnx_buf *b = &fw->scratch;
    ccnx_buf_reset(b);
    ccnx_buf_append(b, a->msg, pos);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_Nonce, nonce, fw->cfg.nonce_len);
    size_t delta = b->len - pos;
    ccnx_buf_append(b, a->msg + pos, a->len - pos);
    if (ccnx_buf_status(b) < 0)
        return CCNX_E_NOMEM;
    struct ccnx_interest_parsed *pi = &a->pi;
    shift_span(&pi->name, pos, delta);
    shift_span(&pi->publisher, pos, delta);
    shift_span(&pi->exclude, pos, delta);
    shift_span(&pi->lifetime_value, pos, delta);
    pi->interest.len += delta;
    /* the value sits just before the element's closer */
    pi->nonce = (struct ccnx_span){pos + delta - 1 - fw->cfg.nonce_len, fw->cfg.nonce_len};
    a->msg = b->data;
    a->len = b->len;
    return 0;
}

/* 1 when the name starts with %C1.M.S.localhost: this host's own
 * namespace (ccnd's key, local services), never answered to a neighbour. */
static int under_localhost(const uint8_t *name, size_t len)
{
    static const char local[] = "\xC1.M.S.localhost";
    struct ccnx_name_iter it;
    struct ccnx_comp c;
    return ccnx_name_iter_init(&it, name, len) == 0 && ccnx_name_iter_next(&it, &c) == 1 &&
           c.n == sizeof local - 1 && memcmp(c.p, local, c.n) == 0;
}

/* Looked at only when it matters (an Interest from another host, or a
 * route to one): most Interests never pay for it. */
static int host_only(struct fw_arrival *a)
{
    if (a->host_only < 0) {
        a->host_only = under_localhost(a->msg + a->pi.name.off, a->pi.name.len);
    }
    return a->host_only;
}

/* Scope and namespace checks against the arrival face, before the content
 * store is asked; 0 to go on. */
static int check_arrival(struct fw *fw, struct fw_arrival *a, uint64_t now)
{
    const struct ccnx_interest_parsed *pi = &a->pi;
    if ((pi->scope == 0 || pi->scope == 1) && !a->local) {
        fw->stats.interests_out_of_scope++;
        return -1;
    }
    if (fib_lookup(fw->fib, a->msg + pi->name.off, pi->name.len, now, &a->fr) < 0) {
        fw->stats.interests_malformed++;
        return -1;
    }
    if (!a->local && ((a->fr.namespace_flags & FIB_LOCAL) != 0 || host_only(a))) {
        fw->stats.interests_nonlocal++;
        return -1;
    }
    return 0;
}

/* Duplicate detection across entries and after they are gone. A nonce
 * seen again from the face that first brought it is a refresh, not a loop
 * (the reference's rule). */
static int check_nonce(struct fw *fw, struct fw_arrival *a, uint64_t now)
{
    if (a->pi.nonce.len == 0) {
        if (add_nonce(fw, a) < 0) {
            fw->stats.interests_malformed++;
            return -1;
        }
        fw->stats.interests_nonce_added++;
    }
    unsigned first = a->faceid;
    int res = nonce_check(fw->nonces, a->msg + a->pi.nonce.off, a->pi.nonce.len, a->faceid, now,
                          now + a->lifetime_us, &first);
    if (res == NONCE_DUP && first != a->faceid) {
        fw->stats.interests_duplicate++;
        return -1;
    }
    return 0;
}

static int answer_from_cs(struct fw *fw, struct fw_arrival *a, uint64_t now)
{
    if ((ccnx_interest_aok(&a->pi) & CCNX_AOK_CS) == 0)
        return 0;
    const struct cs_entry *e = cs_lookup(fw->cs, a->msg, &a->pi, now);
    if (e == NULL)
        return 0;
    size_t olen;
    const uint8_t *obj = cs_entry_object(e, &olen);
    fw->stats.interests_cs_answered++;
    if (fw_send_to(fw, a->faceid, obj, olen) == 0)
        fw->stats.content_out++;
    return 1;
}

static int is_downstream(const struct pit_entry *e, unsigned faceid)
{
    size_t n;
    const struct pit_downstream *d = pit_entry_downstreams(e, &n);
    for (size_t i = 0; i < n; i++)
        if (d[i].faceid == faceid)
            return 1;
    return 0;
}

/* The upstreams the Interest may go to: the FIB's faces (or the FaceID a
 * local application asked for), minus the entry's downstreams and the
 * faces its scope or namespace rules out. Returns how many went to out. */
static size_t candidate_faces(struct fw *fw, struct fw_arrival *a, const struct pit_entry *e,
                              unsigned *out)
{
    const struct ccnx_interest_parsed *pi = &a->pi;
    if (pi->scope == 0)
        return 0;
    unsigned forced;
    const unsigned *list = a->fr.faces;
    size_t nlist = a->fr.nfaces;
    if (pi->face_id >= 0 && a->local) {
        forced = (unsigned)pi->face_id;
        list = &forced;
        nlist = 1;
    }
    /* Scope 2 may cross one link: from a neighbour it goes only to local
     * applications. This host's own namespace never leaves it, whatever
     * routes say. */
    int want_local =
        (a->fr.namespace_flags & FIB_LOCAL) != 0 || pi->scope == 1 || (pi->scope == 2 && !a->local);
    int kept = 0;
    size_t n = 0;
    for (size_t i = 0; i < nlist && n < FIB_MAX_FACES; i++) {
        unsigned f = list[i];
        struct fw_face_props p = {0};
        if (f == a->faceid || is_downstream(e, f))
            continue;
        if (f == FW_INTERNAL_FACE) {
            if (fw->internal == NULL)
                continue;
            p.local = 1;
        } else if (fw->ops->face_props == NULL || fw->ops->face_props(fw->arg, f, &p) < 0) {
            continue;
        }
        if (!p.local && (want_local || host_only(a))) {
            kept |= !want_local;
            continue;
        }
        out[n++] = f;
    }
    fw->stats.interests_kept_local += (uint64_t)kept;
    return n;
}

/* Brings the record up to date with this arrival: the message to forward
 * and the candidate faces (scheduled sends to faces no longer allowed
 * are dropped). The three live in one allocation. 0 or CCNX_E_NOMEM. */
static int rec_update(struct fw *fw, struct fw_rec *r, struct fw_arrival *a)
{
    unsigned faces[FIB_MAX_FACES];
    size_t n = candidate_faces(fw, a, r->entry, faces);
    struct fw_sched *s = malloc(n * sizeof(*s) + n * sizeof(*faces) + a->len + 1);
    if (s == NULL)
        return CCNX_E_NOMEM;
    unsigned *f = (unsigned *)(s + n);
    uint8_t *m = (uint8_t *)(f + n);
    memcpy(m, a->msg, a->len);
    memcpy(f, faces, n * sizeof(*f));
    size_t ns = 0;
    for (size_t i = 0; i < r->nsched; i++)
        for (size_t k = 0; k < n; k++)
            if (faces[k] == r->sched[i].faceid)
                s[ns++] = r->sched[i];
    free(r->sched);
    r->msg = m;
    r->len = a->len;
    r->faces = f;
    r->nfaces = n;
    r->sched = s;
    r->nsched = ns;
    return 0;
}

static int internal_wants(struct fw *fw, const struct fw_arrival *a)
{
    if (fw->internal == NULL || a->faceid == FW_INTERNAL_FACE)
        return 0;
    const uint8_t *name = a->msg + a->pi.name.off;
    for (size_t i = 0; i < fw->niprefix; i++)
        if (ccnx_name_is_prefix_ccnb(fw->iprefix[i], fw->iprefix_len[i], name, a->pi.name.len) == 1)
            return 1;
    return 0;
}

static int is_scheduled(const struct fw_rec *r, unsigned faceid)
{
    for (size_t i = 0; i < r->nsched; i++)
        if (r->sched[i].faceid == faceid)
            return 1;
    return 0;
}

/* A downstream's retransmission (a new nonce) goes to the upstreams the
 * entry has not tried and has not scheduled: typically a producer that
 * registered after the first Interest. The reference does the same (new
 * upstreams are due at once); without it the retransmissions of a consumer
 * that started first would be absorbed until the entry expires. */
static void send_to_untried(struct fw *fw, struct fw_rec *r, uint64_t now)
{
    struct strategy_ctx ctx = {fw, r, now};
    for (size_t i = 0; i < r->nfaces; i++)
        if (!strategy_was_sent(&ctx, r->faces[i]) && !is_scheduled(r, r->faces[i]))
            fw_rec_send(fw, r, r->faces[i], now);
}

/* An Interest with a new nonce for an entry still pending is aggregated
 * while the answer may be on its way, and sent again to the upstreams
 * tried once it is overdue: when the last send is older than the entry's
 * gap. The first gap is the prefix's usual response time (srtt + 4 rttvar,
 * at least 10 ms), each resend doubles it up to 250 ms (NFD's exponential
 * retransmission suppression). So consumers that time out together, or
 * join a young entry, cost no upstream send, and neither a consumer's
 * retransmission nor one that joins an entry whose Interest was lost
 * upstream waits for the entry to expire. */
#define RETX_GAP_FIRST 10000
#define RETX_GAP_MAX   250000

static uint32_t first_gap(const struct fw_rec *r)
{
    if (r->ps == NULL || r->ps->srtt == 0)
        return RETX_GAP_FIRST;
    uint64_t g = (uint64_t)r->ps->srtt + 4 * (uint64_t)r->ps->rttvar;
    return g < RETX_GAP_FIRST ? RETX_GAP_FIRST : g > RETX_GAP_MAX ? RETX_GAP_MAX : (uint32_t)g;
}

static void retransmit(struct fw *fw, struct fw_rec *r, uint64_t now)
{
    size_t n;
    const struct pit_upstream *up = pit_entry_upstreams(r->entry, &n);
    unsigned faces[FIB_MAX_FACES];
    size_t nf = 0;
    uint64_t last = 0;
    for (size_t i = 0; i < n; i++) {
        if (up[i].attempts == 0)
            continue;
        last = up[i].sent > last ? up[i].sent : last;
        for (size_t k = 0; k < r->nfaces && nf < FIB_MAX_FACES; k++)
            if (r->faces[k] == up[i].faceid)
                faces[nf++] = up[i].faceid;
    }
    if (nf == 0)
        return; /* nothing sent yet: the strategy's schedule stands */
    uint32_t gap = r->retx_gap ? r->retx_gap : first_gap(r);
    if (now < last + gap) {
        fw->stats.interests_suppressed++;
        return;
    }
    r->retx_gap = gap >= RETX_GAP_MAX / 2 ? RETX_GAP_MAX : 2 * gap;
    fw->stats.interests_retransmitted++;
    for (size_t i = 0; i < nf; i++)
        fw_rec_send(fw, r, faces[i], now);
}

static void run_strategy(struct fw *fw, struct fw_rec *r, const struct fw_arrival *a, int is_new,
                         uint64_t now)
{
    const struct strategy *s = NULL;
    if (a->fr.strategy != NULL)
        s = strategy_find(a->fr.strategy);
    if (s == NULL)
        s = &strategy_default;
    struct fw_pstate *ps = fw_pstate_get(fw, a->fr.state, s);
    if (ps == NULL)
        return;
    r->strategy = s;
    if (r->ps != ps) {
        fw_pstate_drop(r->ps);
        fw_pstate_hold(ps);
        r->ps = ps;
    }
    /* TAP faces see every Interest at once, whatever the strategy does */
    for (size_t i = 0; i < a->fr.ntap; i++)
        if (!strategy_was_sent(&(struct strategy_ctx){fw, r, now}, a->fr.tap[i]))
            fw_rec_send(fw, r, a->fr.tap[i], now);
    struct strategy_ctx ctx = {fw, r, now};
    if (s->on_interest != NULL)
        s->on_interest(&ctx, r->faces, r->nfaces, is_new);
    if (!is_new && s != &strategy_null) {
        retransmit(fw, r, now);
        send_to_untried(fw, r, now);
    }
}

/* PIT insert or aggregation, then the internal client or the strategy. */
static void pend(struct fw *fw, struct fw_arrival *a, uint64_t now)
{
    struct pit_key key;
    if (pit_key_init(&key, a->msg, a->len, &a->pi) < 0) {
        fw->stats.interests_malformed++;
        return;
    }
    struct pit_entry *e = pit_find_key(fw->pit, &key);
    /* the same downstream repeating its nonce is only a refresh */
    int unique = e == NULL || !pit_entry_has_nonce(e, a->msg + a->pi.nonce.off, a->pi.nonce.len);
    int res = pit_insert_key(fw->pit, &key, a->msg, &a->pi, a->faceid, now, &e);
    if (res == CCNX_E_TOOBIG) {
        fw->stats.interests_pit_full++;
        return;
    }
    if (res < 0) {
        fw->stats.interests_malformed++;
        return;
    }
    int is_new = res == PIT_NEW;
    if (!is_new)
        fw->stats.interests_aggregated++;
    struct fw_rec *r = fw_rec_find(fw, e);
    if (r == NULL)
        r = fw_rec_add(fw, e);
    if (r == NULL)
        return; /* out of memory: the entry waits for content or expiry */
    if (a->pub != NULL)
        r->pub = a->pub;
    if (!unique && !is_new)
        return;
    if (rec_update(fw, r, a) < 0)
        return;
    if (is_new && internal_wants(fw, a) &&
        fw->internal(fw->internal_arg, a->faceid, a->msg, a->len) > 0) {
        fw->stats.interests_internal++;
        return;
    }
    run_strategy(fw, r, a, is_new, now);
}

void fw_interest(struct fw *fw, unsigned faceid, const uint8_t *msg, size_t len, uint64_t now)
{
    struct fw_arrival a;
    memset(&a, 0, sizeof(a));
    a.faceid = faceid;
    a.msg = msg;
    a.len = len;
    a.host_only = -1;
    fw->stats.interests_in++;
    if (ccnx_interest_parse(msg, len, &a.pi) < 0) {
        fw->stats.interests_malformed++;
        return;
    }
    a.local = fw_face_is_local(fw, faceid);
    a.lifetime_us = (uint64_t)((a.pi.lifetime * 1000000.0) / 4096.0);
    if (check_arrival(fw, &a, now) != 0 || check_nonce(fw, &a, now) != 0)
        return;
    if (fw->npubs > 0 && a.fr.prefix_comps != (uint32_t)-1)
        a.pub = fw_pub_match(fw, a.msg + a.pi.name.off, a.pi.name.len, a.fr.prefix_comps);
    if (a.pub != NULL)
        a.pub->seen++;
    if (answer_from_cs(fw, &a, now)) {
        if (a.pub != NULL)
            a.pub->from_store++;
        return;
    }
    pend(fw, &a, now);
}
