/* The seqwriter: segmenting, batch signing and the store of signed
 * segments. Answering Interests is in seqwriter_answer.c, the repository
 * protocol in repo.c. */
#include "seqwriter_internal.h"

#include <ccnx/client.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/naming.h>
#include <ccnx/content_sign.h>
#include <ccnx/key.h>
#include <ccnx/merkle.h>
#include <ccnx/seqwriter.h>

#include <limits.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int64_t sw_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void ccnx_seqwriter_opts_init(struct ccnx_seqwriter_opts *o)
{
    memset(o, 0, sizeof *o);
    o->block_size = CCNX_SEQWRITER_BLOCK_DEFAULT;
    o->freshness = -1;
    o->batch_max = CCNX_SEQWRITER_BATCH_DEFAULT;
    o->buffer_limit = CCNX_SEQWRITER_BUFFER_DEFAULT;
    o->flush_ms = CCNX_SEQWRITER_FLUSH_MS;
    o->resend_ms = 0;
    o->filter_mode = CCNX_FILTER_REGISTER;
}

/* ---- The store of signed batches ---- */

static size_t sw_pending_len(const struct ccnx_seqwriter *w)
{
    return w->pending.len - w->pending_head;
}

/* ---- Cutting the pending bytes into segments ----
 *
 * A segment is a block, or less where a cut (end_segment, flush) ends it
 * first. A cutter walks the pending bytes segment by segment. */
struct sw_cutter {
    const struct ccnx_seqwriter *w;
    uint64_t base; /* stream offset of the first pending byte */
    size_t pos;    /* into the pending bytes */
    size_t cut;    /* next cut to consider */
};

static void sw_cutter_init(struct sw_cutter *k, const struct ccnx_seqwriter *w)
{
    k->w = w;
    k->base = w->stats.bytes - sw_pending_len(w);
    k->pos = 0;
    k->cut = w->cut_head;
}

/* The next segment's length, 0 at the end; *complete when its end is
 * known (a full block, or a cut), else it is the partial tail. */
static size_t sw_cutter_next(struct sw_cutter *k, int *complete)
{
    const struct ccnx_seqwriter *w = k->w;
    size_t plen = sw_pending_len(w), end = k->pos + w->o.block_size;
    *complete = end <= plen;
    while (k->cut < w->cut_count && w->cuts[k->cut] - k->base <= k->pos) {
        k->cut++;
    }
    if (k->cut < w->cut_count && w->cuts[k->cut] - k->base <= end) {
        end = (size_t)(w->cuts[k->cut] - k->base);
        *complete = 1;
    }
    if (!*complete) {
        end = plen;
    }
    size_t n = end - k->pos;
    k->pos = end;
    return n;
}

size_t sw_complete_segments(const struct ccnx_seqwriter *w, size_t *end)
{
    size_t plen = sw_pending_len(w), bs = w->o.block_size;
    if (w->cut_head == w->cut_count) {
        *end = plen / bs * bs;
        return plen / bs;
    }
    struct sw_cutter k;
    sw_cutter_init(&k, w);
    size_t n = 0;
    int complete;
    while (sw_cutter_next(&k, &complete) > 0 && complete) {
        n++;
        *end = k.pos;
    }
    if (n == 0) {
        *end = 0;
    }
    return n;
}

/* Forgets the cuts that signing has passed. */
static void sw_drop_cuts(struct ccnx_seqwriter *w)
{
    uint64_t base = w->stats.bytes - sw_pending_len(w);
    while (w->cut_head < w->cut_count && w->cuts[w->cut_head] <= base) {
        w->cut_head++;
    }
    if (w->cut_head == w->cut_count) {
        w->cut_head = w->cut_count = 0;
    }
}

static void sw_arm_timer(struct ccnx_seqwriter *w);

int ccnx_seqwriter_end_segment(struct ccnx_seqwriter *w)
{
    if (w->closed) {
        return CCNX_E_INVAL;
    }
    uint64_t at = w->stats.bytes;
    if (sw_pending_len(w) == 0 || w->ended) {
        w->ended = 1;
        return 0;
    }
    if (w->cut_count == w->cut_cap) {
        if (w->cut_head > 0) {
            memmove(w->cuts, w->cuts + w->cut_head, (w->cut_count - w->cut_head) * sizeof *w->cuts);
            w->cut_count -= w->cut_head;
            w->cut_head = 0;
        } else {
            size_t cap = w->cut_cap ? w->cut_cap * 2 : 16;
            uint64_t *nc = realloc(w->cuts, cap * sizeof *nc);
            if (nc == NULL) {
                return CCNX_E_NOMEM;
            }
            w->cuts = nc;
            w->cut_cap = cap;
        }
    }
    w->cuts[w->cut_count++] = at;
    w->ended = 1;
    if (sw_waiting_wants_pending(w)) {
        return sw_sign_complete(w, 1, 1);
    }
    sw_arm_timer(w);
    return 0;
}

const struct sw_batch *sw_find_batch(const struct ccnx_seqwriter *w, uint64_t seg)
{
    size_t lo = w->batch_head, hi = w->batch_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct sw_batch *b = &w->batches[mid];
        if (seg < b->first) {
            hi = mid;
        } else if (seg >= b->first + b->n) {
            lo = mid + 1;
        } else {
            return b;
        }
    }
    return NULL;
}

const uint8_t *ccnx_seqwriter_segment(const struct ccnx_seqwriter *w, uint64_t segment, size_t *len)
{
    const struct sw_batch *b = sw_find_batch(w, segment);
    if (b == NULL) {
        return NULL;
    }
    size_t i = (size_t)(segment - b->first);
    *len = b->off[i + 1] - b->off[i];
    return b->objs.data + b->off[i];
}

uint64_t sw_first_held(const struct ccnx_seqwriter *w)
{
    return w->batch_head < w->batch_count ? w->batches[w->batch_head].first : w->next_seg;
}

static void sw_batch_free(struct sw_batch *b)
{
    ccnx_buf_free(&b->objs);
    free(b->off);
    free(b->sent_ms);
}

/* Drops the oldest batches whose objects have all been sent while the
 * store is over its limit (stream mode only). The newest batch stays: it
 * holds the final segment once the stream is closed, which a writer asks
 * its repository for (ccnx_seqwriter_confirm_stored). */
static size_t sw_held_segments(const struct ccnx_seqwriter *w)
{
    return w->batch_count > w->batch_head ? (size_t)(w->next_seg - sw_first_held(w)) : 0;
}

/* Live mode: the oldest batches go while the others still hold a window. */
static void sw_evict_live(struct ccnx_seqwriter *w)
{
    while (w->batch_head + 1 < w->batch_count &&
           sw_held_segments(w) - w->batches[w->batch_head].n >= w->o.live_window) {
        struct sw_batch *b = &w->batches[w->batch_head++];
        w->retained -= b->objs.len;
        for (size_t i = 0; i < b->n; i++) {
            if (b->sent_ms[i] == 0) {
                w->retained_unsent -= b->off[i + 1] - b->off[i];
            }
        }
        sw_batch_free(b);
    }
}

static void sw_evict(struct ccnx_seqwriter *w)
{
    if (w->o.live_window > 0) {
        sw_evict_live(w);
    }
    while (!w->o.keep_all && w->o.live_window == 0 && w->retained > w->o.buffer_limit &&
           w->batch_head + 1 < w->batch_count && w->batches[w->batch_head].unsent == 0) {
        struct sw_batch *b = &w->batches[w->batch_head++];
        w->retained -= b->objs.len;
        sw_batch_free(b);
    }
    if (w->batch_head > 0 && w->batch_head * 2 >= w->batch_count) {
        memmove(w->batches, w->batches + w->batch_head,
                (w->batch_count - w->batch_head) * sizeof *w->batches);
        w->batch_count -= w->batch_head;
        w->batch_head = 0;
    }
}

int sw_send(struct ccnx_seqwriter *w, const struct sw_batch *cb, size_t i)
{
    struct sw_batch *b = (struct sw_batch *)cb;
    const uint8_t *obj = b->objs.data + b->off[i];
    size_t len = b->off[i + 1] - b->off[i];
    int rc =
        w->client != NULL ? ccnx_client_put(w->client, obj, len) : w->o.put(w->o.put_arg, obj, len);
    if (rc < 0) {
        return rc;
    }
    w->stats.objects_sent++;
    int64_t now = ccnx_client_now_ms();
    int first = b->sent_ms[i] == 0;
    b->sent_ms[i] = now > 0 ? now : 1;
    if (first) {
        b->unsent--;
        w->retained_unsent -= len;
        w->stats.segments_sent++;
    }
    sw_evict(w);
    return 0;
}

/* ---- Signing ---- */

static int sw_reserve_scratch(struct ccnx_seqwriter *w, size_t n)
{
    if (n <= w->params_cap) {
        return 0;
    }
    struct ccnx_content_params *p = realloc(w->params, n * sizeof *p);
    if (p == NULL) {
        return CCNX_E_NOMEM;
    }
    w->params = p;
    size_t *no = realloc(w->name_off, (n + 1) * sizeof *no);
    if (no == NULL) {
        return CCNX_E_NOMEM;
    }
    w->name_off = no;
    w->params_cap = n;
    return 0;
}

/* Room for a batch of n objects, asked for before the signer writes into
 * it. Large batches get transparent huge pages where the kernel offers
 * them: first-touch page faults, not hashing, were what bounded bulk
 * signing (measured: about 450 MB/s with 4 KiB pages, over 800 with huge
 * ones). */
static void sw_reserve_batch(struct ccnx_seqwriter *w, struct sw_batch *b, size_t n)
{
    size_t der_len = 0;
    ccnx_key_der(w->key, &der_len);
    size_t name_len = w->vname.enc.len + CCNX_NUMERIC_MAX_LEN + 4;
    size_t per = w->o.block_size + name_len + der_len + ccnx_key_signature_size(w->key) +
                 ccnx_merkle_witness_size(n, 0) + 256;
    uint8_t *p = ccnx_buf_reserve(&b->objs, n * per);
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1);
    uintptr_t hi = ((uintptr_t)b->objs.data + b->objs.cap) & ~(huge - 1);
    if (p != NULL && hi > lo) {
        madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
    }
#else
    (void)p;
#endif
}

static int sw_new_batch(struct ccnx_seqwriter *w, size_t n, struct sw_batch **out)
{
    if (w->batch_count == w->batch_cap) {
        size_t cap = w->batch_cap ? w->batch_cap * 2 : 16;
        struct sw_batch *nb = realloc(w->batches, cap * sizeof *nb);
        if (nb == NULL) {
            return CCNX_E_NOMEM;
        }
        w->batches = nb;
        w->batch_cap = cap;
    }
    struct sw_batch *b = &w->batches[w->batch_count];
    memset(b, 0, sizeof *b);
    b->off = malloc((n + 1) * sizeof *b->off);
    b->sent_ms = calloc(n, sizeof *b->sent_ms);
    if (b->off == NULL || b->sent_ms == NULL) {
        sw_batch_free(b);
        return CCNX_E_NOMEM;
    }
    b->first = w->next_seg;
    b->n = n;
    b->unsent = n;
    sw_reserve_batch(w, b, n);
    *out = b;
    return 0;
}

/* Encoded names <versioned name>/%00<seg> for n segments from next_seg. */
static int sw_build_names(struct ccnx_seqwriter *w, size_t n)
{
    const struct ccnx_buf *v = &w->vname.enc;
    ccnx_buf_reset(&w->names);
    for (size_t i = 0; i < n; i++) {
        uint8_t comp[CCNX_NUMERIC_MAX_LEN];
        int cl = ccnx_naming_segment_build(w->next_seg + i, comp);
        w->name_off[i] = w->names.len;
        ccnx_buf_append(&w->names, v->data, v->len - 1); /* without </Name> */
        ccnx_ccnb_append_blob_element(&w->names, CCNX_DTAG_Component, comp, (size_t)cl);
        ccnx_ccnb_append_closer(&w->names);
    }
    w->name_off[n] = w->names.len;
    return ccnx_buf_status(&w->names);
}

/* Signs n segments cut from the pending bytes (the last one short or empty
 * when fewer bytes remain); `final` puts FinalBlockID on the batch's last
 * segment only. The reference's consumers (ccn_fetch behind ccncat) take
 * the first FinalBlockID they see for the end and treat the segment before
 * it as the last one until the final segment itself has arrived: a
 * FinalBlockID on earlier segments made them drop the file's tail. */
static int sw_sign_from(struct ccnx_seqwriter *w, const uint8_t *data, size_t avail, size_t n,
                        int final, size_t *consumed)
{
    size_t bs = w->o.block_size;
    int rc = sw_reserve_scratch(w, n);
    if (rc == 0) {
        rc = sw_build_names(w, n);
    }
    if (rc != 0) {
        return rc;
    }
    size_t used = 0;
    uint8_t fb[CCNX_NUMERIC_MAX_LEN];
    struct sw_cutter k;
    sw_cutter_init(&k, w);
    for (size_t i = 0; i < n; i++) {
        struct ccnx_content_params *p = &w->params[i];
        ccnx_content_params_init(p);
        p->name = w->names.data + w->name_off[i];
        p->name_len = w->name_off[i + 1] - w->name_off[i];
        p->freshness = w->o.freshness;
        p->content = data + used;
        int complete;
        p->content_len = sw_cutter_next(&k, &complete);
        used += p->content_len;
    }
    (void)avail;
    (void)bs;
    if (final) {
        int fl = ccnx_naming_segment_build(w->next_seg + n - 1, fb);
        w->params[n - 1].final_block_id = fb;
        w->params[n - 1].final_block_id_len = (size_t)fl;
    }
    struct sw_batch *b;
    rc = sw_new_batch(w, n, &b);
    if (rc != 0) {
        return rc;
    }
    rc = ccnx_content_sign_batch(&b->objs, w->params, n, w->key, b->off);
    if (rc != 0) {
        sw_batch_free(b);
        return rc;
    }
    w->batch_count++;
    *consumed = used;
    w->next_seg += n;
    w->retained += b->objs.len;
    w->retained_unsent += b->objs.len;
    w->stats.segments += n;
    w->stats.batches++;
    if (final) {
        w->stats.final_segment = (int64_t)(w->next_seg - 1);
    }
    if (w->o.live_window > 0) {
        sw_evict(w);
    }
    return 0;
}

/* sw_sign_from on the pending bytes. What was signed leaves the buffer:
 * a short segment's bytes are usually left behind, and a buffer only
 * emptied when wholly signed would grow with the stream. */
static int sw_sign(struct ccnx_seqwriter *w, size_t n, int final)
{
    size_t used = 0;
    int rc = sw_sign_from(w, w->pending.data + w->pending_head, sw_pending_len(w), n, final, &used);
    if (rc == 0) {
        w->pending_head += used;
        sw_drop_cuts(w);
        if (w->pending_head == w->pending.len) {
            ccnx_buf_reset(&w->pending);
            w->pending_head = 0;
        } else if (w->pending_head >= w->pending.len / 2) {
            size_t rest = sw_pending_len(w);
            memmove(w->pending.data, w->pending.data + w->pending_head, rest);
            w->pending.len = rest;
            w->pending_head = 0;
        }
    }
    return rc;
}

/* Signs the complete segments waiting, in batches of at most batch_max,
 * keeping the last full one back unless `all` (or fewer than `min` are
 * ready). Then answers the Interests that waited for them. */
int sw_sign_complete(struct ccnx_seqwriter *w, int all, size_t min)
{
    size_t len = sw_pending_len(w), end = 0;
    size_t ready = sw_complete_segments(w, &end);
    /* A full block at the very end may turn out to be the final segment;
     * a segment ended on purpose never is (close adds an empty one). */
    if (!all && ready > 0 && end == len && !w->ended) {
        ready--;
    }
    int signed_any = 0;
    while (ready >= min && ready > 0) {
        size_t n = ready < w->o.batch_max ? ready : w->o.batch_max;
        int rc = sw_sign(w, n, 0);
        if (rc != 0) {
            return rc;
        }
        ready -= n;
        signed_any = 1;
    }
    return signed_any ? sw_answer_waiting(w) : 0;
}

/* ---- Life cycle ---- */

static void sw_flush_timer(void *arg);

static void sw_arm_timer(struct ccnx_seqwriter *w)
{
    if (w->client == NULL || w->timer_armed || w->o.flush_ms < 0 || w->closed) {
        return;
    }
    size_t end;
    if (sw_complete_segments(w, &end) == 0) {
        return;
    }
    if (ccnx_client_schedule(w->client, w->o.flush_ms, sw_flush_timer, w, &w->timer_id) == 0) {
        w->timer_armed = 1;
    }
}

static void sw_flush_timer(void *arg)
{
    struct ccnx_seqwriter *w = arg;
    w->timer_armed = 0;
    int rc = sw_sign_complete(w, 0, 1);
    if (rc != 0) {
        w->failed = rc;
    }
}

static int sw_filter_fn(void *arg, const uint8_t *interest, size_t len,
                        const struct ccnx_interest_parsed *pi)
{
    return ccnx_seqwriter_interest(arg, interest, len, pi);
}

static int sw_check_opts(const struct ccnx_client *c, const struct ccnx_seqwriter_opts *o)
{
    if (o->block_size == 0 || o->block_size > CCNX_SEQWRITER_BLOCK_MAX || o->batch_max == 0 ||
        o->freshness < -1 || (c == NULL && (o->put == NULL || o->key == NULL))) {
        return CCNX_E_INVAL;
    }
    if (!o->keep_all && o->buffer_limit < o->block_size) {
        return CCNX_E_INVAL;
    }
    return 0;
}

static int sw_names(struct ccnx_seqwriter *w, const struct ccnx_name *name)
{
    int rc = ccnx_name_init(&w->base);
    if (rc == 0) {
        rc = ccnx_name_init(&w->vname);
    }
    if (rc == 0) {
        rc = ccnx_name_copy(&w->base, name);
    }
    if (rc == 0) {
        rc = ccnx_name_copy(&w->vname, name);
    }
    struct ccnx_comp last;
    if (rc == 0 && (name->count == 0 || ccnx_name_comp(name, name->count - 1, &last) != 0 ||
                    !ccnx_naming_is_version(last.p, last.n))) {
        rc = ccnx_naming_append_version(&w->vname, NULL);
    }
    return rc;
}

int ccnx_seqwriter_create(struct ccnx_client *c, const struct ccnx_name *name,
                          const struct ccnx_seqwriter_opts *o, struct ccnx_seqwriter **out)
{
    *out = NULL;
    if (name == NULL || o == NULL || sw_check_opts(c, o) != 0) {
        return CCNX_E_INVAL;
    }
    struct ccnx_seqwriter *w = calloc(1, sizeof *w);
    if (w == NULL) {
        return CCNX_E_NOMEM;
    }
    w->client = c;
    w->o = *o;
    w->stats.final_segment = -1;
    w->key = o->key != NULL ? o->key : ccnx_client_key(c);
    int rc = sw_names(w, name);
    if (rc == 0 && (w->key == NULL || !ccnx_key_has_private(w->key))) {
        rc = CCNX_E_NOKEY;
    }
    if (rc == 0 && c != NULL) {
        rc = ccnx_client_set_filter(c, &w->base, o->filter_mode, 0, sw_filter_fn, w, &w->filter_id);
    }
    if (rc != 0) {
        w->filter_id = 0;
        ccnx_seqwriter_destroy(w);
        return rc;
    }
    *out = w;
    return 0;
}

void ccnx_seqwriter_destroy(struct ccnx_seqwriter *w)
{
    if (w == NULL) {
        return;
    }
    if (w->client != NULL) {
        sw_cancel_start_write(w);
        if (w->timer_armed) {
            ccnx_client_unschedule(w->client, w->timer_id);
        }
        if (w->filter_id != 0) {
            ccnx_client_clear_filter(w->client, w->filter_id);
        }
    }
    for (size_t i = w->batch_head; i < w->batch_count; i++) {
        sw_batch_free(&w->batches[i]);
    }
    free(w->batches);
    sw_forget_waiting(w);
    ccnx_buf_free(&w->pending);
    ccnx_buf_free(&w->names);
    free(w->params);
    free(w->name_off);
    free(w->cuts);
    ccnx_name_free(&w->base);
    ccnx_name_free(&w->vname);
    free(w);
}

const struct ccnx_name *ccnx_seqwriter_name(const struct ccnx_seqwriter *w)
{
    return &w->vname;
}

uint64_t ccnx_seqwriter_filter_id(const struct ccnx_seqwriter *w)
{
    return w->filter_id;
}

/* ---- Writing ---- */

size_t ccnx_seqwriter_writable(const struct ccnx_seqwriter *w)
{
    if (w->closed) {
        return 0;
    }
    if (w->o.keep_all || w->o.live_window > 0) {
        return SIZE_MAX;
    }
    size_t held = w->retained_unsent + sw_pending_len(w);
    return held >= w->o.buffer_limit ? 0 : w->o.buffer_limit - held;
}

int ccnx_seqwriter_set_stream(struct ccnx_seqwriter *w, size_t buffer_limit)
{
    if (buffer_limit < w->o.block_size) {
        return CCNX_E_INVAL;
    }
    w->o.keep_all = 0;
    w->o.buffer_limit = buffer_limit;
    sw_evict(w);
    return 0;
}

long ccnx_seqwriter_write(struct ccnx_seqwriter *w, const void *p, size_t n)
{
    if (w->closed || w->failed) {
        return w->closed ? CCNX_E_INVAL : w->failed;
    }
    size_t room = ccnx_seqwriter_writable(w);
    if (n > room) {
        n = room;
    }
    if (n > (size_t)LONG_MAX) {
        n = (size_t)LONG_MAX;
    }
    if (n > 0 && ccnx_buf_append(&w->pending, p, n) != 0) {
        return CCNX_E_NOMEM;
    }
    w->stats.bytes += n;
    w->ended = w->ended && n == 0;
    int rc = sw_sign_complete(w, 0, w->o.batch_max);
    if (rc == 0 && sw_waiting_wants_pending(w)) {
        rc = sw_sign_complete(w, 1, 1);
    }
    if (rc != 0) {
        return rc;
    }
    sw_arm_timer(w);
    return (long)n;
}

int ccnx_seqwriter_flush(struct ccnx_seqwriter *w)
{
    if (w->closed) {
        return 0;
    }
    int rc = sw_sign_complete(w, 1, 1);
    size_t rest = sw_pending_len(w);
    if (rc == 0 && rest > 0) {
        rc = sw_sign(w, 1, 0);
        if (rc == 0) {
            rc = sw_answer_waiting(w);
        }
    }
    w->ended = 1;
    return rc;
}

int ccnx_seqwriter_close(struct ccnx_seqwriter *w)
{
    if (w->closed) {
        return 0;
    }
    size_t len = sw_pending_len(w), n = 0;
    struct sw_cutter k;
    sw_cutter_init(&k, w);
    int complete;
    while (sw_cutter_next(&k, &complete) > 0) {
        n++;
    }
    /* After an explicit end, the final segment is an empty one of its own,
     * whether or not the ended segments were signed already. */
    n += w->ended && len > 0;
    int rc = 0;
    /* The final batch holds at most batch_max segments; earlier ones go first. */
    while (rc == 0 && n > w->o.batch_max) {
        rc = sw_sign(w, w->o.batch_max, 0);
        n -= w->o.batch_max;
    }
    if (rc == 0) {
        rc = sw_sign(w, n == 0 ? 1 : n, 1);
    }
    if (rc != 0) {
        return rc;
    }
    w->closed = 1;
    if (w->timer_armed) {
        ccnx_client_unschedule(w->client, w->timer_id);
        w->timer_armed = 0;
    }
    return sw_answer_waiting(w);
}

void ccnx_seqwriter_get_stats(const struct ccnx_seqwriter *w, struct ccnx_seqwriter_stats *s)
{
    *s = w->stats;
    s->buffered = w->retained;
    s->waiting = w->waiting_count;
}

int ccnx_seqwriter_all_sent(const struct ccnx_seqwriter *w)
{
    return w->closed && w->stats.segments_sent == w->next_seg;
}
