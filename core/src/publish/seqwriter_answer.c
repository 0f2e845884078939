/* The seqwriter answering Interests: from the signed segments it holds,
 * signing on demand, or later for Interests that ask for segments not
 * written yet. */
#include "seqwriter_internal.h"

#include <ccnx/client.h>
#include <ccnx/content.h>
#include <ccnx/error.h>
#include <ccnx/match.h>
#include <ccnx/naming.h>

#include <stdlib.h>
#include <string.h>

/* Objects one Interest may examine: bounds the cost of a prefix Interest
 * with a long Exclude against a large file. */
#define SW_MAX_PROBES 4096
/* Longest an Interest is remembered (1/4096 s): an hour. */
#define SW_MAX_LIFETIME ((uint64_t)CCNX_TIMESTAMP_HZ * 3600)

enum sw_want_kind { WANT_NOTHING, WANT_SEGMENT, WANT_SCAN };

struct sw_want {
    enum sw_want_kind kind;
    uint64_t segment; /* WANT_SEGMENT */
    int down;         /* WANT_SCAN: highest segment first */
};

/* What the Interest could be answered with: one segment named in it, or
 * the first match among all segments (an Interest for the versioned name
 * or a prefix of it; only rightmost among the segments themselves scans
 * from the top, since above the version there is a single child). */
static struct sw_want sw_classify(const struct ccnx_seqwriter *w, const uint8_t *ibuf,
                                  const struct ccnx_interest_parsed *pi)
{
    struct sw_want want = {WANT_NOTHING, 0, 0};
    const uint8_t *iname = ibuf + pi->name.off;
    const struct ccnx_buf *v = &w->vname.enc;
    if (ccnx_name_is_prefix_ccnb(iname, pi->name.len, v->data, v->len)) {
        want.kind = WANT_SCAN;
        want.down = pi->name_count == w->vname.count && pi->child_selector == 1;
        return want;
    }
    if (!ccnx_name_is_prefix_ccnb(v->data, v->len, iname, pi->name.len)) {
        return want;
    }
    struct ccnx_name_iter it;
    struct ccnx_comp comp;
    if (ccnx_name_iter_init(&it, iname, pi->name.len) != 0) {
        return want;
    }
    for (size_t i = 0; i <= w->vname.count; i++) {
        if (ccnx_name_iter_next(&it, &comp) != 1) {
            return want;
        }
    }
    if (ccnx_naming_segment_decode(comp.p, comp.n, &want.segment) == 0) {
        want.kind = WANT_SEGMENT;
    }
    return want;
}

/* 1 when object i of batch b satisfies the Interest. */
static int sw_matches(const struct sw_batch *b, size_t i, const uint8_t *ibuf,
                      const struct ccnx_interest_parsed *pi)
{
    const uint8_t *obj = b->objs.data + b->off[i];
    size_t len = b->off[i + 1] - b->off[i];
    struct ccnx_content_parsed pc;
    return ccnx_content_parse(obj, len, &pc) == 0 && ccnx_match(ibuf, pi, obj, len, &pc, NULL);
}

/* Sends object i of batch b, unless the answering pass sent it already or
 * it was sent moments ago (resend_ms): such an Interest left ccnd before
 * our copy got there, so ccnd keeps it pending and the copy on its way
 * satisfies it (and every other pending Interest it matches); a second
 * copy would only be dropped there as a duplicate. Five viewers of a live
 * stream on a loaded machine made a third of the sends this way. */
static int sw_answer_with(struct ccnx_seqwriter *w, const struct sw_batch *b, size_t i)
{
    uint64_t seg = b->first + i;
    if (w->o.resend_ms > 0 && b->sent_ms[i] != 0 &&
        ccnx_client_now_ms() - b->sent_ms[i] < w->o.resend_ms) {
        w->stats.resends_avoided++;
        return 0;
    }
    for (size_t k = 0; w->in_pass && k < w->pass_count; k++) {
        if (w->pass_sent[k] == seg) {
            return 0;
        }
    }
    if (w->in_pass && w->pass_count < CCNX_SEQWRITER_MAX_WAITING) {
        w->pass_sent[w->pass_count++] = seg;
    }
    return sw_send(w, b, i);
}

/* Sends the first held segment that matches, scanning up or down. 1 when
 * sent, 0 when none matched, negative on a send error. */
static int sw_scan(struct ccnx_seqwriter *w, const uint8_t *ibuf,
                   const struct ccnx_interest_parsed *pi, int down)
{
    uint64_t lo = sw_first_held(w), hi = w->next_seg;
    for (uint64_t k = 0; k < hi - lo && k < SW_MAX_PROBES; k++) {
        uint64_t seg = down ? hi - 1 - k : lo + k;
        const struct sw_batch *b = sw_find_batch(w, seg);
        size_t i = b != NULL ? (size_t)(seg - b->first) : 0;
        if (b != NULL && sw_matches(b, i, ibuf, pi)) {
            int rc = sw_answer_with(w, b, i);
            return rc < 0 ? rc : 1;
        }
    }
    return 0;
}

/* 1 answered, 0 not yet (may match a segment still to come), -1 never
 * from here, or a negative CCNX_E* code (below -1) on a send error. */
static int sw_try_answer(struct ccnx_seqwriter *w, const uint8_t *ibuf,
                         const struct ccnx_interest_parsed *pi)
{
    struct sw_want want = sw_classify(w, ibuf, pi);
    if (want.kind == WANT_NOTHING) {
        return -1;
    }
    if (want.kind == WANT_SCAN) {
        int rc = sw_scan(w, ibuf, pi, want.down);
        return rc != 0 ? rc : (w->closed ? -1 : 0);
    }
    uint64_t s = want.segment;
    if ((w->closed && s > (uint64_t)w->stats.final_segment) || s < sw_first_held(w)) {
        return -1;
    }
    const struct sw_batch *b = sw_find_batch(w, s);
    if (b == NULL) {
        return 0;
    }
    size_t i = (size_t)(s - b->first);
    if (!sw_matches(b, i, ibuf, pi)) {
        return -1;
    }
    int rc = sw_answer_with(w, b, i);
    return rc < 0 ? rc : 1;
}

/* 1 when the Interest asks for bytes that are written but not signed. */
static int sw_wants_pending(const struct ccnx_seqwriter *w, const uint8_t *ibuf,
                            const struct ccnx_interest_parsed *pi)
{
    size_t end;
    size_t complete = sw_complete_segments(w, &end);
    if (complete == 0) {
        return 0;
    }
    struct sw_want want = sw_classify(w, ibuf, pi);
    if (want.kind == WANT_SEGMENT) {
        return want.segment >= w->next_seg && want.segment - w->next_seg < complete;
    }
    return want.kind == WANT_SCAN && w->batch_head == w->batch_count;
}

int sw_waiting_wants_pending(const struct ccnx_seqwriter *w)
{
    for (size_t i = 0; i < w->waiting_count; i++) {
        if (sw_wants_pending(w, w->waiting[i].interest, &w->waiting[i].pi)) {
            return 1;
        }
    }
    return 0;
}

static void sw_drop_waiting(struct ccnx_seqwriter *w, size_t i)
{
    free(w->waiting[i].interest);
    memmove(&w->waiting[i], &w->waiting[i + 1], (w->waiting_count - i - 1) * sizeof w->waiting[0]);
    w->waiting_count--;
}

void sw_forget_waiting(struct ccnx_seqwriter *w)
{
    while (w->waiting_count > 0) {
        sw_drop_waiting(w, w->waiting_count - 1);
    }
}

int sw_answer_waiting(struct ccnx_seqwriter *w)
{
    int64_t now = sw_now_ms();
    size_t i = 0;
    w->in_pass = 1;
    w->pass_count = 0;
    int res = 0;
    while (i < w->waiting_count) {
        struct sw_waiting *q = &w->waiting[i];
        int rc = q->expires_ms <= now ? -1 : sw_try_answer(w, q->interest, &q->pi);
        if (rc < -1) {
            res = rc;
            break;
        }
        if (rc != 0) {
            sw_drop_waiting(w, i);
        } else {
            i++;
        }
    }
    w->in_pass = 0;
    return res;
}

/* Keeps a copy of the Interest (the oldest is forgotten when full). */
static int sw_remember(struct ccnx_seqwriter *w, const uint8_t *ibuf, size_t len,
                       const struct ccnx_interest_parsed *pi)
{
    if (w->waiting_count == CCNX_SEQWRITER_MAX_WAITING) {
        sw_drop_waiting(w, 0);
    }
    const uint8_t *start = ibuf + pi->interest.off;
    size_t n = pi->interest.len != 0 ? pi->interest.len : len;
    struct sw_waiting *q = &w->waiting[w->waiting_count];
    q->interest = malloc(n);
    if (q->interest == NULL) {
        return CCNX_E_NOMEM;
    }
    memcpy(q->interest, start, n);
    q->len = n;
    if (ccnx_interest_parse(q->interest, n, &q->pi) != 0) {
        free(q->interest);
        return CCNX_E_VALUE;
    }
    uint64_t units = pi->lifetime < SW_MAX_LIFETIME ? pi->lifetime : SW_MAX_LIFETIME;
    q->expires_ms = sw_now_ms() + (int64_t)(units * 1000 / CCNX_TIMESTAMP_HZ);
    w->waiting_count++;
    return 0;
}

int ccnx_seqwriter_interest(struct ccnx_seqwriter *w, const uint8_t *interest, size_t len,
                            const struct ccnx_interest_parsed *pi)
{
    w->stats.interests++;
    if (sw_wants_pending(w, interest, pi) && sw_sign_complete(w, 1, 1) != 0) {
        return 0;
    }
    int rc = sw_try_answer(w, interest, pi);
    if (rc == 0) {
        return sw_remember(w, interest, len, pi) == 0;
    }
    return rc == 1;
}
