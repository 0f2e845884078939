/* The pipelined segmented fetch: Interests for <versioned name>/%00<seg>
 * kept in flight up to the congestion window, answers verified and handed
 * over in order, lost ones sent again after the retransmission timeout. */
#include <ccnx/error.h>
#include <ccnx/verifier.h>
#include <ccnx/resolve.h>
#include "fetch_cc.h"
#include <ccnx/interest.h>
#include <ccnx/link.h>
#include <ccnx/naming.h>
#include <ccnx/uri.h>
#include <ccnx/fetch.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_WINDOW  256
#define DEFAULT_INITIAL 4
#define DEFAULT_TIMEOUT 8000
/* Not lower: a producer that signs each segment as its Interest arrives
 * (the reference's ccnseqwriter) answers Interests far ahead in the window
 * tens of milliseconds late, and a 20 ms floor made a third of them time
 * out and be sent again; random loss is mostly recovered without the timer
 * (note_answered), so a higher floor costs little there. Not higher: a
 * 200 ms floor (Linux's TCP's) spared that producer some timeouts, but
 * cost the 64 MB refetch from ccnd's cache more than half its rate, the
 * answers ccnd's face queue drops then waiting twice as long. */
#define DEFAULT_MIN_RTO 100
#define MAX_RTO_MS      4000.0
/* No timer exceeds a fifth of timeout_ms, so a segment lost again and again
 * is asked for five times before the fetch gives up. With only the 4 s
 * ceiling a 10 s timeout left room for three tries, and a busy machine's
 * long round trips on a lossy link could end a healthy transfer that way. */
#define TRIES_PER_TIMEOUT 5
/* Before any answer, Interests are sent again after 100 ms, then after
 * waits that double with each timeout (200, 400 ... up to the ceiling): a
 * producer that starts a moment after its reader, or a first Interest
 * lost, costs little; a path slower than that settles after a few
 * timeouts (the first answer's round trip then counts from the first
 * send, an overestimate that clean samples soon correct). */
#define INITIAL_RTO_MS  ((double)CCNX_REEXPRESS_MS)
#define REORDER_PER_WIN 16 /* reordering room per window slot: covers a few RTOs of stall */
#define REORDER_MIN     1024
/* An Interest with at least this many later ones answered, outstanding for
 * a quarter round trip plus REORDER_US more than usual, is taken as lost
 * and sent again at once: waiting for its timer would hold a place in the
 * window for many round trips. The allowance covers forwarders that delay
 * some Interests on purpose (ccnd's default strategy staggers sends by up
 * to a few milliseconds). */
#define LOSS_REORDER 3
#define REORDER_US   3000

enum slot_state { SLOT_IDLE, SLOT_FLIGHT, SLOT_LOST, SLOT_CHECKING, SLOT_HAVE };

struct seg_slot {
    struct ccnx_fetch *f;
    uint64_t seg;
    uint64_t pending_id;
    uint64_t tx; /* transmission number of the last send */
    int64_t sent_us;
    int64_t first_us; /* the first send's time */
    double base_ms;   /* the timer it was sent with before any answer */
    unsigned sends;
    int counted; /* holds a place in the window */
    enum slot_state state;
};

struct sent_rec {
    uint64_t tx, seg;
};

struct ccnx_fetch {
    struct ccnx_client *c;
    struct ccnx_fetch_params p;
    struct ccnx_name name;    /* versioned */
    struct ccnx_name segname; /* scratch: name + one segment */
    struct ccnx_buf msg;      /* scratch: one Interest */
    struct ccnx_resolve *resolving;
    int64_t resolve_start_ms;
    struct ccnx_rtt rtt;
    struct ccnx_cwnd cw;
    struct ccnx_reorder ro;
    struct seg_slot *slots;
    uint64_t *retx; /* ring of segments to send again */
    size_t retx_head, retx_count;
    uint64_t next_seg, next_tx;
    struct sent_rec *sent; /* ring of sends in order, 2 * ro.cap */
    size_t sent_head, sent_count;
    uint64_t hi_answered_tx;
    uint64_t hi_answered_seg1; /* the highest segment answered, plus 1 */
    unsigned in_flight;
    int64_t final_seg;
    int started, paused, done, result;
    int64_t start_us, end_us, last_progress_us, last_cut_us;
    struct ccnx_buf err;
    struct ccnx_fetch_stats stats;
};

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void ccnx_fetch_params_init(struct ccnx_fetch_params *p)
{
    memset(p, 0, sizeof *p);
    p->resolve = 1;
    p->scope = -1;
}

int ccnx_fetch_segment_interest(struct ccnx_buf *out, const struct ccnx_name *versioned,
                                uint64_t segment, int allow_stale, int scope, uint64_t lifetime)
{
    struct ccnx_name n;
    int rc = ccnx_name_init(&n);
    rc = rc == 0 ? ccnx_name_copy(&n, versioned) : rc;
    rc = rc == 0 ? ccnx_naming_append_segment(&n, segment) : rc;
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = n.enc.data;
    ip.name_len = n.enc.len;
    ip.max_suffix = 1;
    ip.answer_origin_kind = allow_stale ? CCNX_AOK_DEFAULT | CCNX_AOK_STALE : -1;
    ip.scope = scope >= 0 && scope <= 2 ? scope : -1;
    ip.lifetime_units = lifetime > 0 ? (int64_t)lifetime : -1;
    rc = rc == 0 ? ccnx_interest_build(out, &ip) : rc;
    ccnx_name_free(&n);
    return rc;
}

static struct seg_slot *slot_of(struct ccnx_fetch *f, uint64_t seg)
{
    return &f->slots[seg & (f->ro.cap - 1)];
}

/* ---- The end ---- */

static void cancel_flight(struct ccnx_fetch *f, uint64_t from)
{
    for (uint64_t s = from < f->ro.base ? f->ro.base : from; s < f->next_seg; s++) {
        struct seg_slot *sl = slot_of(f, s);
        if (sl->seg != s) {
            continue;
        }
        if (sl->state == SLOT_FLIGHT && sl->pending_id != 0) {
            ccnx_client_cancel(f->c, sl->pending_id);
            sl->pending_id = 0;
            f->in_flight -= sl->counted;
            sl->counted = 0;
        }
        if (sl->state == SLOT_FLIGHT || sl->state == SLOT_LOST) {
            sl->state = SLOT_IDLE;
        }
    }
}

static void finish(struct ccnx_fetch *f, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void finish(struct ccnx_fetch *f, int rc, const char *fmt, ...)
{
    if (f->done) {
        return;
    }
    f->done = 1;
    f->result = rc;
    f->end_us = now_us();
    ccnx_buf_reset(&f->err);
    va_list ap;
    va_start(ap, fmt);
    ccnx_buf_vprintf(&f->err, fmt, ap);
    va_end(ap);
    if (f->slots != NULL) {
        cancel_flight(f, f->ro.base);
    }
    ccnx_verifier_cancel(f->p.verifier, f);
    const char *text = ccnx_buf_cstr(&f->err);
    if (f->p.on_done != NULL) {
        f->p.on_done(f->p.arg, rc, text != NULL ? text : "out of memory");
    }
}

static const char *uri_of(struct ccnx_buf *b, const uint8_t *name, size_t len)
{
    ccnx_buf_reset(b);
    ccnx_uri_append(b, name, len);
    const char *s = ccnx_buf_cstr(b);
    return s != NULL ? s : "?";
}

/* ---- Sending ---- */

static void seg_content(void *arg, const uint8_t *obj, size_t len,
                        const struct ccnx_content_parsed *pc);
static void seg_timeout(void *arg);

/* The fetch's naming of segments: markers (%00<n>), or decimal chunks. */
static int seg_decode(const struct ccnx_fetch *f, const uint8_t *p, size_t n, uint64_t *seg)
{
    return f->p.chunk_names ? ccnx_naming_chunk_decode(p, n, seg)
                            : ccnx_naming_segment_decode(p, n, seg);
}

/* 0 with the segment number that ends the encoded name, else -1. */
static int last_seg(const struct ccnx_fetch *f, const uint8_t *enc, size_t len, uint64_t *seg)
{
    int res = f->p.chunk_names ? ccnx_naming_last_is_chunk_ccnb(enc, len, seg)
                               : ccnx_naming_last_is_segment_ccnb(enc, len, seg);
    return res == 1 ? 0 : -1;
}

/* A retransmission is the same Interest with a new nonce: forwarders
 * aggregate it with the copies other consumers asked for, and one that
 * still holds the entry sends it upstream again (ccnd: once the answer is
 * overdue, however many downstreams time out together). Once answers
 * have come, the lifetime is the timer: a forwarder that holds a
 * re-expressed Interest until the first copy's lifetime runs out (the
 * reference's ccnd does, rounding it up to an eighth of a second) then
 * sends the retransmission upstream almost at once, instead of after
 * another timer's worth of waiting. */
static int build_interest(struct ccnx_fetch *f, uint64_t seg, uint64_t lifetime)
{
    ccnx_name_truncate(&f->segname, f->name.count);
    if (f->p.chunk_names) {
        ccnx_naming_append_chunk(&f->segname, seg);
    } else {
        ccnx_naming_append_segment(&f->segname, seg);
    }
    ccnx_buf_reset(&f->msg);
    int rc = ccnx_buf_status(&f->segname.enc);
    if (rc != 0) {
        return rc;
    }
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = f->segname.enc.data;
    ip.name_len = f->segname.enc.len;
    ip.max_suffix = 1;
    ip.answer_origin_kind = f->p.allow_stale ? CCNX_AOK_DEFAULT | CCNX_AOK_STALE : -1;
    ip.scope = f->p.scope >= 0 && f->p.scope <= 2 ? f->p.scope : -1;
    ip.lifetime_units = lifetime > 0 ? (int64_t)lifetime : 1;
    return ccnx_interest_build(&f->msg, &ip);
}

static int send_seg(struct ccnx_fetch *f, uint64_t seg)
{
    struct seg_slot *sl = slot_of(f, seg);
    if (sl->seg != seg || sl->state == SLOT_IDLE) {
        sl->sends = 0;
    }
    sl->f = f;
    sl->seg = seg;
    /* Each transmission of one segment waits twice as long (back-off);
     * before any answer the timer itself doubles with each timeout. */
    double wait = f->rtt.rto;
    for (unsigned i = 0; f->rtt.have_sample && i < sl->sends && wait < f->rtt.max_rto; i++) {
        wait *= 2;
    }
    wait = wait > f->rtt.max_rto ? f->rtt.max_rto : wait;
    /* Before any answer, twice the timer: the Interest then waits in the
     * forwarders for a publisher that is still starting. */
    double lifetime_ms = f->rtt.have_sample ? wait : 2 * wait;
    int rc = build_interest(f, seg, (uint64_t)(lifetime_ms * 4096 / 1000));
    struct ccnx_express_opts o = {seg_content, seg_timeout, sl, (int)(wait + 0.999), 0, 0};
    if (rc == 0) {
        rc = ccnx_client_express(f->c, f->msg.data, f->msg.len, &o, &sl->pending_id);
    }
    if (rc != 0) {
        return rc;
    }
    sl->tx = f->next_tx++;
    sl->sent_us = now_us();
    sl->first_us = sl->sends == 0 ? sl->sent_us : sl->first_us;
    sl->base_ms = f->rtt.rto;
    sl->state = SLOT_FLIGHT;
    sl->counted = 1;
    size_t ring = 2 * f->ro.cap;
    if (f->sent_count == ring) {
        f->sent_head = (f->sent_head + 1) % ring;
        f->sent_count--;
    }
    f->sent[(f->sent_head + f->sent_count) % ring] = (struct sent_rec){sl->tx, seg};
    f->sent_count++;
    f->stats.retransmissions += sl->sends > 0;
    sl->sends++;
    f->in_flight++;
    f->stats.interests++;
    return 0;
}

static int next_to_send(struct ccnx_fetch *f, uint64_t *seg)
{
    while (f->retx_count > 0) {
        uint64_t s = f->retx[f->retx_head];
        f->retx_head = (f->retx_head + 1) % (2 * f->ro.cap);
        f->retx_count--;
        if (slot_of(f, s)->state == SLOT_LOST && slot_of(f, s)->seg == s) {
            *seg = s;
            return 1;
        }
    }
    if (ccnx_reorder_fits(&f->ro, f->next_seg) &&
        (f->final_seg < 0 || f->next_seg <= (uint64_t)f->final_seg)) {
        *seg = f->next_seg++;
        return 1;
    }
    return 0;
}

static void fill(struct ccnx_fetch *f)
{
    uint64_t seg;
    while (!f->paused && !f->done && f->in_flight < ccnx_cwnd_allowed(&f->cw) &&
           next_to_send(f, &seg)) {
        int rc = send_seg(f, seg);
        if (rc != 0) {
            finish(f, rc, "cannot send the Interest for segment %llu: %s", (unsigned long long)seg,
                   ccnx_strerror(rc));
        }
    }
}

/* ---- Receiving ---- */

/* With on_object, p[0..n) is the whole object: its parse `pc` when the
 * caller has it (a segment delivered as it arrives), else (one that waited
 * in the reordering buffer, which holds whole objects then) found again by
 * parsing, which cannot fail for an object that parsed when it arrived. */
static void deliver(struct ccnx_fetch *f, uint64_t seg, const uint8_t *p, size_t n,
                    const struct ccnx_content_parsed *known)
{
    if (f->p.on_object != NULL) {
        struct ccnx_content_parsed own;
        const struct ccnx_content_parsed *pc = known != NULL ? known : &own;
        f->p.on_object(f->p.arg, seg, p, n);
        if (known == NULL && ccnx_content_parse(p, n, &own) != 0) {
            finish(f, CCNX_E_VALUE, "segment %llu no longer parses", (unsigned long long)seg);
            return;
        }
        p += pc->content_value.off;
        n = pc->content_value.len;
    }
    f->stats.bytes += n;
    f->stats.segments++;
    if (f->p.on_data != NULL) {
        f->p.on_data(f->p.arg, seg, p, n);
    }
}

static void accept_segment(struct ccnx_fetch *f, uint64_t seg, const uint8_t *obj, size_t len,
                           const struct ccnx_content_parsed *pc)
{
    const uint8_t *p = obj;
    size_t n = len;
    if (f->p.on_object == NULL) {
        p = obj + pc->content_value.off;
        n = pc->content_value.len;
    }
    struct seg_slot *sl = slot_of(f, seg);
    if (seg != f->ro.base) {
        sl->state = SLOT_HAVE;
        int rc = ccnx_reorder_put(&f->ro, seg, p, n);
        if (rc < 0) {
            finish(f, rc, "cannot keep segment %llu: %s", (unsigned long long)seg,
                   ccnx_strerror(rc));
        }
        return;
    }
    sl->state = SLOT_IDLE;
    ccnx_reorder_skip(&f->ro);
    deliver(f, seg, p, n, pc);
    while (!f->done && ccnx_reorder_pop(&f->ro, &p, &n)) {
        slot_of(f, f->ro.base - 1)->state = SLOT_IDLE;
        deliver(f, f->ro.base - 1, p, n, NULL);
    }
    if (!f->done && f->final_seg >= 0 && f->ro.base > (uint64_t)f->final_seg) {
        finish(f, 0, "%s", "");
    }
}

static void seg_checked(void *arg, int result, const char *error, const uint8_t *obj, size_t len,
                        const struct ccnx_content_parsed *pc)
{
    struct ccnx_fetch *f = arg;
    uint64_t seg = 0;
    if (f->done || pc == NULL || last_seg(f, obj + pc->name.off, pc->name.len, &seg) != 0 ||
        slot_of(f, seg)->state != SLOT_CHECKING || slot_of(f, seg)->seg != seg) {
        return;
    }
    if (result != 0) {
        finish(f, result, "rejected: %s", error);
        return;
    }
    accept_segment(f, seg, obj, len, pc);
    fill(f);
}

/* GONE, NACK, LINK and ENCR are answers, but not the content asked for. */
static int refuse_type(struct ccnx_fetch *f, const uint8_t *obj,
                       const struct ccnx_content_parsed *pc)
{
    if (pc->type == CCNX_TYPE_DATA || pc->type == CCNX_TYPE_KEY) {
        return 0;
    }
    struct ccnx_buf u = CCNX_BUF_INIT, t = CCNX_BUF_INIT;
    const char *name = uri_of(&u, obj + pc->name.off, pc->name.len);
    struct ccnx_link link;
    if (pc->type == CCNX_TYPE_GONE) {
        finish(f, CCNX_E_NOTFOUND, "%s is GONE: its publisher withdrew it", name);
    } else if (pc->type == CCNX_TYPE_NACK) {
        finish(f, CCNX_E_NOTFOUND, "%s: the publisher answered NACK (it has no such content)",
               name);
    } else if (pc->type == CCNX_TYPE_LINK &&
               ccnx_link_parse(obj + pc->content_value.off, pc->content_value.len, &link) == 0) {
        finish(f, CCNX_E_UNSUPPORTED, "%s is a LINK to %s: fetch that name instead", name,
               uri_of(&t, link.name, link.name_len));
    } else if (pc->type == CCNX_TYPE_ENCR) {
        finish(f, CCNX_E_UNSUPPORTED, "%s is encrypted (ENCR), which cannot be decrypted here",
               name);
    } else {
        const char *tn = ccnx_content_type_name(pc->type);
        finish(f, CCNX_E_UNSUPPORTED, "%s has content type %s, not data", name,
               tn != NULL ? tn : "unknown");
    }
    ccnx_buf_free(&u);
    ccnx_buf_free(&t);
    return 1;
}

/* The segment whose last component equals FinalBlockID is the last; a
 * FinalBlockID that names a later segment is taken as the end too. */
static void note_final(struct ccnx_fetch *f, uint64_t seg, const uint8_t *obj,
                       const struct ccnx_content_parsed *pc)
{
    if (!pc->has_final_block_id) {
        return;
    }
    uint64_t fin;
    struct ccnx_comp last = {NULL, 0};
    struct ccnx_name_iter it;
    if (ccnx_name_iter_init(&it, obj + pc->name.off, pc->name.len) == 0) {
        while (ccnx_name_iter_next(&it, &last) == 1) {
        }
    }
    const uint8_t *fb = obj + pc->final_block_id.off;
    if (last.n > 0 && last.n == pc->final_block_id.len && memcmp(last.p, fb, last.n) == 0) {
        fin = seg;
    } else if (seg_decode(f, fb, pc->final_block_id.len, &fin) != 0 || fin >= (uint64_t)INT64_MAX) {
        return;
    }
    if (f->final_seg >= 0 && (uint64_t)f->final_seg <= fin) {
        return;
    }
    f->final_seg = (int64_t)fin;
    f->stats.final_segment = f->final_seg;
    if (f->next_seg > fin + 1) {
        cancel_flight(f, fin + 1);
        f->next_seg = fin + 1;
    }
}

/* An Interest for a segment beyond every segment answered, timed out while
 * answers still came within the last WAITING_US: it waits at a producer
 * that makes its segments in order (a stream writer answers only Interests
 * it has seen, one turn of its loop at a time), not lost on the way. Cutting
 * the window for it would leave the producer without the Interests it
 * needs to go on; a real loss among such Interests still cuts once a later
 * segment is answered (note_answered), and a second of silence is taken as
 * loss again, with the timer backing off.
 *
 * A consumer that follows a live edge wants the opposite: there every
 * Interest beyond the newest segment waits for a segment not made yet, and
 * a window that never shrinks runs far ahead of the edge; those Interests
 * outlive their lifetime at the producer and a frame made meanwhile waits
 * for the next retransmission (the live latency's 90th percentile rose
 * from 35 to 104 ms, docs/benchmarks.md). Only the consumer knows which it
 * is, so it says so (follows_live_edge). */
#define WAITING_US 1000000

static int waits_at_producer(const struct ccnx_fetch *f, const struct seg_slot *sl, int64_t now)
{
    return !f->p.follows_live_edge && f->rtt.have_sample && sl->seg >= f->hi_answered_seg1 &&
           now - f->last_progress_us < WAITING_US;
}

/* A lost Interest: the window is cut at most once per loss episode, an
 * episode lasting at least one RTO (on a fast local path the round trip is
 * far shorter than the timers, and random losses would otherwise keep the
 * window at a few segments); then the segment is queued to be sent again. */
static void note_loss(struct ccnx_fetch *f, struct seg_slot *sl, int silent)
{
    int64_t now = now_us();
    /* Before any answer a timeout says nothing about congestion (the
     * publisher may still be starting or signing): it is only sent again,
     * and the timer doubles (once for the Interests sent together). */
    if (!f->rtt.have_sample && silent && sl->base_ms >= f->rtt.rto) {
        ccnx_rtt_backoff(&f->rtt);
    } else if (waits_at_producer(f, sl, now)) {
        /* sent again, with the window and the timer as they are */
    } else if (f->rtt.have_sample && now - f->last_cut_us >= (int64_t)(f->rtt.rto * 1000) &&
               ccnx_cwnd_on_loss(&f->cw, sl->tx, f->next_tx)) {
        f->last_cut_us = now;
        f->stats.window_cuts++;
        if (silent) {
            ccnx_rtt_backoff(&f->rtt); /* nothing came back at all: back off */
        }
    }
    sl->state = SLOT_LOST;
    /* each segment is queued at most once while lost, and stale entries
     * (segments given up at the end) are few: twice the ring is room enough */
    if (f->retx_count < 2 * f->ro.cap) {
        f->retx[(f->retx_head + f->retx_count) % (2 * f->ro.cap)] = sl->seg;
        f->retx_count++;
    }
}

/* Interests sent well before the latest one answered are taken as lost,
 * once they are also older than the reordering allowance; but not an
 * Interest for a later segment than any answered yet. A producer that
 * makes its segments in order (a stream writer) answers a retransmission
 * for an earlier segment before Interests for later ones sent before it:
 * those are not lost, only not made yet, and sending them again while the
 * forwarders still hold the first copies goes nowhere. */
static void note_answered(struct ccnx_fetch *f, uint64_t tx, uint64_t seg)
{
    if (tx > f->hi_answered_tx) {
        f->hi_answered_tx = tx;
    }
    if (seg + 1 > f->hi_answered_seg1) {
        f->hi_answered_seg1 = seg + 1;
    }
    size_t ring = 2 * f->ro.cap;
    int64_t now = now_us();
    int64_t allowance = (int64_t)(f->rtt.srtt * 250) + REORDER_US;
    while (f->sent_count > 0 && f->sent[f->sent_head].tx + LOSS_REORDER < f->hi_answered_tx) {
        struct sent_rec r = f->sent[f->sent_head];
        struct seg_slot *sl = slot_of(f, r.seg);
        int live = sl->seg == r.seg && sl->tx == r.tx && sl->state == SLOT_FLIGHT && sl->counted;
        if (live && (now - sl->sent_us < allowance || r.seg >= f->hi_answered_seg1)) {
            break;
        }
        f->sent_head = (f->sent_head + 1) % ring;
        f->sent_count--;
        if (live) {
            ccnx_client_cancel(f->c, sl->pending_id);
            sl->pending_id = 0;
            sl->counted = 0;
            f->in_flight--;
            note_loss(f, sl, 0);
        }
    }
}

static void seg_content(void *arg, const uint8_t *obj, size_t len,
                        const struct ccnx_content_parsed *pc)
{
    struct seg_slot *sl = arg;
    struct ccnx_fetch *f = sl->f;
    int64_t now = now_us();
    sl->pending_id = 0;
    f->in_flight -= sl->counted;
    sl->counted = 0;
    note_answered(f, sl->tx, sl->seg);
    if (sl->sends == 1) {
        double ms = (double)(now - sl->sent_us) / 1000.0;
        ccnx_rtt_sample(&f->rtt, ms);
        ccnx_cwnd_on_rtt(&f->cw, sl->tx, f->next_tx, ms);
    } else if (!f->rtt.have_sample) {
        ccnx_rtt_sample(&f->rtt, (double)(now - sl->first_us) / 1000.0);
    }
    ccnx_cwnd_on_data(&f->cw);
    f->last_progress_us = now;
    if (f->done || (!f->p.any_type && refuse_type(f, obj, pc))) {
        return;
    }
    note_final(f, sl->seg, obj, pc);
    sl->state = SLOT_CHECKING;
    ccnx_verifier_check(f->p.verifier, obj, len, pc, seg_checked, f);
    fill(f);
}

static void seg_timeout(void *arg)
{
    struct seg_slot *sl = arg;
    struct ccnx_fetch *f = sl->f;
    int silent = sl->counted; /* nothing sent after it came back either */
    sl->pending_id = 0;
    f->in_flight -= sl->counted;
    sl->counted = 0;
    f->stats.timeouts++;
    if (f->done) {
        return;
    }
    int64_t now = now_us();
    if (!f->paused && now - f->last_progress_us >= (int64_t)f->p.timeout_ms * 1000) {
        struct ccnx_buf u = CCNX_BUF_INIT;
        const char *name = uri_of(&u, f->name.enc.data, f->name.enc.len);
        if (!ccnx_client_connected(f->c)) {
            finish(f, CCNX_E_IO,
                   "lost the connection to ccnd (%s) and it did not come back within %d ms",
                   ccnx_client_where(f->c), f->p.timeout_ms);
        } else {
            finish(f, CCNX_E_NOTFOUND, "timeout: no answer for segment %llu of %s within %d ms",
                   (unsigned long long)sl->seg, name, f->p.timeout_ms);
        }
        ccnx_buf_free(&u);
        return;
    }
    note_loss(f, sl, silent);
    fill(f);
}

/* ---- Life cycle ---- */

static int pipeline_start(struct ccnx_fetch *f)
{
    unsigned win = f->p.max_window;
    size_t cap = (size_t)win * REORDER_PER_WIN;
    int rc = ccnx_reorder_init(&f->ro, cap < REORDER_MIN ? REORDER_MIN : cap, f->p.start_segment);
    if (rc != 0) {
        return rc;
    }
    f->slots = calloc(f->ro.cap, sizeof *f->slots);
    f->retx = calloc(2 * f->ro.cap, sizeof *f->retx);
    f->sent = calloc(2 * f->ro.cap, sizeof *f->sent);
    if (f->slots == NULL || f->retx == NULL || f->sent == NULL) {
        return CCNX_E_NOMEM;
    }
    rc = ccnx_name_copy(&f->segname, &f->name);
    if (rc != 0) {
        return rc;
    }
    double ceiling = (double)f->p.timeout_ms / TRIES_PER_TIMEOUT;
    ccnx_rtt_init(&f->rtt, INITIAL_RTO_MS, f->p.min_rto_ms,
                  ceiling < MAX_RTO_MS ? ceiling : MAX_RTO_MS);
    ccnx_cwnd_init(&f->cw, f->p.initial_window, win);
    f->next_seg = f->p.start_segment;
    f->start_us = f->last_progress_us = now_us();
    f->started = 1;
    fill(f);
    return 0;
}

static void resolved(void *arg, int result, const struct ccnx_name *name, const char *error)
{
    struct ccnx_fetch *f = arg;
    f->resolving = NULL;
    f->stats.resolve_s = (double)(ccnx_client_now_ms() - f->resolve_start_ms) / 1e3;
    if (result < 0) {
        finish(f, result, "%s", error);
        return;
    }
    int rc = ccnx_name_copy(&f->name, name);
    rc = rc == 0 ? pipeline_start(f) : rc;
    if (rc != 0) {
        finish(f, rc, "cannot start the fetch: %s", ccnx_strerror(rc));
    }
}

int ccnx_fetch_start(struct ccnx_client *c, const struct ccnx_fetch_params *p,
                     struct ccnx_fetch **out)
{
    if (c == NULL || p == NULL || p->name == NULL || out == NULL) {
        return CCNX_E_INVAL;
    }
    struct ccnx_fetch *f = calloc(1, sizeof *f);
    if (f == NULL) {
        return CCNX_E_NOMEM;
    }
    f->c = c;
    f->p = *p;
    f->p.max_window = p->max_window > 0 ? p->max_window : DEFAULT_WINDOW;
    f->p.initial_window = p->initial_window > 0 ? p->initial_window : DEFAULT_INITIAL;
    f->p.timeout_ms = p->timeout_ms > 0 ? p->timeout_ms : DEFAULT_TIMEOUT;
    f->p.min_rto_ms = p->min_rto_ms > 0 ? p->min_rto_ms : DEFAULT_MIN_RTO;
    f->final_seg = -1;
    f->stats.final_segment = -1;
    ccnx_buf_init(&f->msg);
    ccnx_buf_init(&f->err);
    int rc = ccnx_name_init(&f->name);
    rc = rc == 0 ? ccnx_name_init(&f->segname) : rc;
    rc = rc == 0 ? ccnx_name_copy(&f->name, p->name) : rc;
    if (rc == 0 && p->resolve) {
        int resolve_timeout =
            f->p.timeout_ms < CCNX_RESOLVE_TIMEOUT_MS ? f->p.timeout_ms : CCNX_RESOLVE_TIMEOUT_MS;
        f->resolve_start_ms = ccnx_client_now_ms();
        rc = ccnx_resolve_start(c, p->name, p->resolve_flags, resolve_timeout, resolved, f,
                                &f->resolving);
    } else if (rc == 0) {
        rc = pipeline_start(f);
    }
    if (rc != 0) {
        f->done = 1; /* no callback for a fetch that never started */
        ccnx_fetch_destroy(f);
        return rc;
    }
    *out = f;
    return 0;
}

void ccnx_fetch_destroy(struct ccnx_fetch *f)
{
    if (f == NULL) {
        return;
    }
    ccnx_resolve_cancel(f->resolving);
    if (f->slots != NULL) {
        cancel_flight(f, f->ro.base);
    }
    ccnx_verifier_cancel(f->p.verifier, f);
    ccnx_reorder_free(&f->ro);
    free(f->slots);
    free(f->retx);
    free(f->sent);
    ccnx_name_free(&f->name);
    ccnx_name_free(&f->segname);
    ccnx_buf_free(&f->msg);
    ccnx_buf_free(&f->err);
    free(f);
}

void ccnx_fetch_pause(struct ccnx_fetch *f)
{
    f->paused = 1;
}

void ccnx_fetch_resume(struct ccnx_fetch *f)
{
    f->paused = 0;
    f->last_progress_us = now_us(); /* a pause is no silence of the publisher */
    if (f->started) {
        fill(f);
    }
}

int ccnx_fetch_done(const struct ccnx_fetch *f)
{
    return f->done;
}

const struct ccnx_name *ccnx_fetch_name(const struct ccnx_fetch *f)
{
    return &f->name;
}

const struct ccnx_fetch_stats *ccnx_fetch_stats(const struct ccnx_fetch *f)
{
    struct ccnx_fetch *m = (struct ccnx_fetch *)f;
    m->stats.srtt_ms = f->rtt.srtt;
    m->stats.rto_ms = f->rtt.rto;
    m->stats.cwnd = f->cw.cwnd;
    if (f->started) {
        int64_t end = f->done ? f->end_us : now_us();
        m->stats.elapsed_s = (double)(end - f->start_us) / 1e6;
    }
    return &f->stats;
}
