/* The pure parts of the segmented fetch: round-trip estimation, the
 * congestion window and the reordering buffer. No sockets, no clock: the
 * caller passes measurements in, so each piece is tested on its own. */
#include <ccnx/error.h>
#include "fetch_cc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- RTT (RFC 6298 constants: alpha 1/8, beta 1/4, K 4) ---- */

static double clamp(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

void ccnx_rtt_init(struct ccnx_rtt *r, double initial_rto, double min_rto, double max_rto)
{
    memset(r, 0, sizeof *r);
    r->min_rto = min_rto;
    r->max_rto = max_rto < min_rto ? min_rto : max_rto;
    r->rto = clamp(initial_rto, r->min_rto, r->max_rto);
}

void ccnx_rtt_sample(struct ccnx_rtt *r, double ms)
{
    if (ms < 0) {
        ms = 0;
    }
    if (!r->have_sample) {
        r->srtt = ms;
        r->rttvar = ms / 2;
        r->have_sample = 1;
    } else {
        double err = ms - r->srtt;
        r->rttvar += ((err < 0 ? -err : err) - r->rttvar) / 4;
        r->srtt += err / 8;
    }
    r->backoffs = 0;
    r->rto = clamp(r->srtt + 4 * r->rttvar, r->min_rto, r->max_rto);
}

void ccnx_rtt_backoff(struct ccnx_rtt *r)
{
    r->backoffs++;
    r->rto = clamp(r->rto * 2, r->min_rto, r->max_rto);
}

/* ---- Congestion window ---- */

void ccnx_cwnd_init(struct ccnx_cwnd *w, double initial, double max)
{
    memset(w, 0, sizeof *w);
    w->max = max < 1 ? 1 : max;
    w->min = 1;
    w->cwnd = clamp(initial, w->min, w->max);
    w->ssthresh = w->max;
    w->round_min = w->last_round_min = HUGE_VAL;
}

void ccnx_cwnd_on_data(struct ccnx_cwnd *w)
{
    if (w->cwnd < w->ssthresh) {
        w->cwnd += 1;
    } else {
        w->cwnd += 1 / w->cwnd;
    }
    if (w->cwnd > w->max) {
        w->cwnd = w->max;
    }
}

/* RFC 9406's constants: the first 8 samples of a round decide, and a rise
 * of an eighth of the previous round's least round trip, at least 4 ms and
 * at most 16 ms, ends slow start; below 16 Interests (Linux's
 * hystart_low_window) it runs on, so a path shared with other consumers,
 * whose queues move the round trip anyway, is not left with a window too
 * small to fill it. */
#define ROUND_SAMPLES 8
#define RISE_MIN_MS   4.0
#define RISE_MAX_MS   16.0
#define LOW_WINDOW    16

void ccnx_cwnd_on_rtt(struct ccnx_cwnd *w, uint64_t tx, uint64_t next_tx, double ms)
{
    if (w->cwnd >= w->ssthresh) {
        return;
    }
    if (tx >= w->round_end) {
        w->last_round_min = w->round_min;
        w->round_min = HUGE_VAL;
        w->round_samples = 0;
        w->round_end = next_tx;
    }
    if (w->round_samples >= ROUND_SAMPLES) {
        return;
    }
    w->round_samples++;
    w->round_min = ms < w->round_min ? ms : w->round_min;
    if (w->cwnd >= LOW_WINDOW && w->round_samples == ROUND_SAMPLES &&
        w->last_round_min < HUGE_VAL &&
        w->round_min >=
            w->last_round_min + clamp(w->last_round_min / 8, RISE_MIN_MS, RISE_MAX_MS)) {
        w->ssthresh = w->cwnd;
    }
}

int ccnx_cwnd_on_loss(struct ccnx_cwnd *w, uint64_t tx, uint64_t next_tx)
{
    if (tx < w->recover) {
        return 0; /* same loss episode: the window was already cut for it */
    }
    w->ssthresh = w->cwnd / 2 < 2 ? 2 : w->cwnd / 2;
    w->cwnd = clamp(w->ssthresh, w->min, w->max);
    w->recover = next_tx;
    return 1;
}

unsigned ccnx_cwnd_allowed(const struct ccnx_cwnd *w)
{
    return w->cwnd < 1 ? 1u : (unsigned)w->cwnd;
}

/* ---- Reordering buffer ---- */

int ccnx_reorder_init(struct ccnx_reorder *r, size_t cap, uint64_t base)
{
    memset(r, 0, sizeof *r);
    size_t n = 1;
    while (n < cap) {
        if (n > SIZE_MAX / 2 / sizeof *r->slots) {
            return CCNX_E_NOMEM;
        }
        n *= 2;
    }
    r->slots = calloc(n, sizeof *r->slots);
    if (r->slots == NULL) {
        return CCNX_E_NOMEM;
    }
    r->cap = n;
    r->base = base;
    return 0;
}

void ccnx_reorder_free(struct ccnx_reorder *r)
{
    for (size_t i = 0; r->slots != NULL && i < r->cap; i++) {
        free(r->slots[i].data);
    }
    free(r->slots);
    memset(r, 0, sizeof *r);
}

int ccnx_reorder_fits(const struct ccnx_reorder *r, uint64_t seg)
{
    return seg >= r->base && seg - r->base < r->cap;
}

int ccnx_reorder_put(struct ccnx_reorder *r, uint64_t seg, const uint8_t *p, size_t n)
{
    if (seg < r->base) {
        return 0;
    }
    if (!ccnx_reorder_fits(r, seg)) {
        return CCNX_E_INVAL;
    }
    struct ccnx_reorder_slot *s = &r->slots[seg & (r->cap - 1)];
    if (s->full) {
        return 0;
    }
    if (n > s->cap) {
        uint8_t *d = realloc(s->data, n);
        if (d == NULL) {
            return CCNX_E_NOMEM;
        }
        s->data = d;
        s->cap = n;
    }
    if (n > 0) {
        memcpy(s->data, p, n);
    }
    s->len = n;
    s->full = 1;
    r->count++;
    return 1;
}

int ccnx_reorder_pop(struct ccnx_reorder *r, const uint8_t **p, size_t *n)
{
    struct ccnx_reorder_slot *s = &r->slots[r->base & (r->cap - 1)];
    if (!s->full) {
        return 0;
    }
    s->full = 0;
    r->count--;
    r->base++;
    *p = s->data;
    *n = s->len;
    return 1;
}

void ccnx_reorder_skip(struct ccnx_reorder *r)
{
    struct ccnx_reorder_slot *s = &r->slots[r->base & (r->cap - 1)];
    if (s->full) {
        s->full = 0;
        r->count--;
    }
    r->base++;
}
