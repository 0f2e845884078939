/* The pure parts of the segmented fetch (fetch_cc.c): round-trip
 * estimation, the congestion window and the reordering buffer. Internal to
 * libccnx; the unit tests compile fetch_cc.c with it. */
#ifndef CCNX_FETCH_CC_H
#define CCNX_FETCH_CC_H

#include <stddef.h>
#include <stdint.h>

/* ---- Building blocks (pure; exposed for tests and custom fetchers) ---- */

/* Round-trip estimation (Jacobson/Karels as in RFC 6298): RTO = SRTT +
 * 4 RTTVAR, clamped to [min, max]; each timeout doubles it (back-off) until
 * the next sample. Samples must come from Interests sent once (Karn). */
struct ccnx_rtt {
    double srtt, rttvar, rto; /* ms */
    double min_rto, max_rto;
    int have_sample;
    unsigned backoffs;
};
void ccnx_rtt_init(struct ccnx_rtt *r, double initial_rto, double min_rto, double max_rto);
void ccnx_rtt_sample(struct ccnx_rtt *r, double ms);
void ccnx_rtt_backoff(struct ccnx_rtt *r);

/* The congestion window: slow start (+1 per answer) below ssthresh,
 * additive increase (+1/cwnd per answer) above, halving on loss at most
 * once per window: a loss of an Interest sent before the last cut (its
 * transmission number below `recover`) does not cut again. Slow start also
 * ends, from 16 Interests on, when a round's round trip rises over the
 * previous round's (ccnx_cwnd_on_rtt; HyStart++, RFC 9406, without its
 * conservative phase): the window has outrun what the path or the producer
 * delivers (a producer that makes each segment as its Interest arrives
 * then answers at the same rate with a round trip that grows with the
 * window), and doubling on would only fill a queue. */
struct ccnx_cwnd {
    double cwnd, ssthresh, min, max;
    uint64_t recover;
    /* slow start's rounds: a round ends with the answer to the first
     * Interest sent after the previous one ended */
    uint64_t round_end;
    double round_min, last_round_min; /* least of a round's first samples */
    unsigned round_samples;
};
void ccnx_cwnd_init(struct ccnx_cwnd *w, double initial, double max);
void ccnx_cwnd_on_data(struct ccnx_cwnd *w);
/* A round-trip sample (ms) of transmission tx, next_tx being the number
 * the next Interest will get; call before ccnx_cwnd_on_data. */
void ccnx_cwnd_on_rtt(struct ccnx_cwnd *w, uint64_t tx, uint64_t next_tx, double ms);
/* tx: transmission number of the lost Interest; next_tx: the number the
 * next Interest will get. Returns 1 when the window was cut. */
int ccnx_cwnd_on_loss(struct ccnx_cwnd *w, uint64_t tx, uint64_t next_tx);
/* Interests allowed in flight: floor(cwnd), at least 1. */
unsigned ccnx_cwnd_allowed(const struct ccnx_cwnd *w);

/* The reordering buffer: a ring of `cap` slots for segments base ..
 * base+cap-1; slot buffers are kept and reused, so steady state does not
 * allocate. */
struct ccnx_reorder_slot {
    uint8_t *data;
    size_t len, cap;
    int full;
};
struct ccnx_reorder {
    struct ccnx_reorder_slot *slots;
    size_t cap; /* a power of two */
    uint64_t base;
    size_t count; /* slots held */
};
/* cap is rounded up to a power of two. */
int ccnx_reorder_init(struct ccnx_reorder *r, size_t cap, uint64_t base);
void ccnx_reorder_free(struct ccnx_reorder *r);
/* 1 when seg has a slot now (base <= seg < base + cap). */
int ccnx_reorder_fits(const struct ccnx_reorder *r, uint64_t seg);
/* Copies a segment in: 1 stored, 0 already held or already delivered,
 * CCNX_E_INVAL beyond the ring, CCNX_E_NOMEM. */
int ccnx_reorder_put(struct ccnx_reorder *r, uint64_t seg, const uint8_t *p, size_t n);
/* 1 with the next in-order segment (valid until the next call) and the
 * base advanced past it; 0 when it has not arrived. */
int ccnx_reorder_pop(struct ccnx_reorder *r, const uint8_t **p, size_t *n);
/* Moves base past a segment delivered without entering the buffer (base
 * itself); its slot must be empty. */
void ccnx_reorder_skip(struct ccnx_reorder *r);

#endif
