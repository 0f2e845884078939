/* The default strategy, after the reference's: remember which face answers
 * best under a prefix (and the one before it) and a predicted response
 * time. A new Interest goes at once to that face only; the previous source
 * is tried once the prediction has passed, and the remaining faces after
 * it, spread out in time, so a face that stops answering is replaced
 * without flooding every Interest to every face. With no history, every
 * face is tried, a few milliseconds apart.
 *
 * Predictions are kept per face (up to PRED_FACES), as quantile trackers:
 * one grows by 1/8 when its face is late (the chosen face's timer, or an
 * answer slower than predicted) and shrinks by 1/128 when it answers in
 * time, so it settles where about one answer in sixteen is late. A face
 * seen for the first time is predicted at 9/8 of its first round trip.
 *
 * Where this parts from the reference, which made whichever face answered
 * last the chosen one: an answering face becomes the chosen one only when
 * its prediction is below the chosen face's. With two paths of different
 * delay and a window of Interests in flight, the late answers of the
 * previous choice otherwise took the choice back at once, and a faster path
 * held it only for moments. And one new Interest in PROBE_EVERY also goes
 * at once to another face (each in turn), so a face that became faster is
 * found even when the chosen one is never late; that costs one Interest in
 * PROBE_EVERY sent twice. */
#include <limits.h>
#include <stdint.h>

#include "fw/strategy.h"

#define NOFACE          UINT_MAX
#define INITIAL_USEC    50000 /* prediction before any answer */
#define MIN_USEC        127
#define NOHIST_LOW      4000  /* no history: first try after 4 ms */
#define NOHIST_RANGE    75000 /* ... and the others spread over about 150 ms */
#define SHORT_PREDICTED 2000  /* below this, jitter instead of the prediction */
#define PROBE_EVERY     64
#define PRED_FACES      6

struct default_state {
    unsigned init;
    unsigned src;  /* the chosen face */
    unsigned osrc; /* and the one chosen before it */
    uint32_t sent; /* new Interests sent to the chosen face */
    struct {
        unsigned face;
        uint32_t usec;
    } pred[PRED_FACES]; /* predicted response times; face NOFACE: free */
};

_Static_assert(sizeof(struct default_state) <= STRATEGY_STATE_SIZE, "state too large");

static struct default_state *get_state(struct strategy_ctx *ctx)
{
    struct default_state *s = strategy_state(ctx);
    if (!s->init) {
        s->init = 1;
        s->src = s->osrc = NOFACE;
        for (int i = 0; i < PRED_FACES; i++)
            s->pred[i].face = NOFACE;
    }
    return s;
}

/* The slot of face's prediction; with create, a free slot, or else another
 * face's (never the chosen or the previous face's), reset to 0. */
static int pred_slot(struct default_state *s, unsigned face, int create)
{
    int free_slot = -1, other = -1;
    for (int i = 0; i < PRED_FACES; i++) {
        unsigned f = s->pred[i].face;
        if (f == face)
            return i;
        if (f == NOFACE && free_slot < 0)
            free_slot = i;
        else if (f != NOFACE && f != s->src && f != s->osrc && other < 0)
            other = i;
    }
    int i = free_slot >= 0 ? free_slot : other;
    if (!create || i < 0)
        return -1;
    s->pred[i].face = face;
    s->pred[i].usec = 0;
    return i;
}

static uint64_t predicted(struct default_state *s, unsigned face)
{
    int i = pred_slot(s, face, 0);
    return i >= 0 && s->pred[i].usec > 0 ? s->pred[i].usec : INITIAL_USEC;
}

static void grow(struct strategy_ctx *ctx, struct default_state *s, int i)
{
    uint64_t t = s->pred[i].usec + (s->pred[i].usec >> 3);
    s->pred[i].usec = (uint32_t)(t > strategy_rte_limit(ctx) ? strategy_rte_limit(ctx) : t);
}

static int has_face(const unsigned *faces, size_t n, unsigned f)
{
    for (size_t i = 0; i < n; i++)
        if (faces[i] == f)
            return 1;
    return 0;
}

/* Every PROBE_EVERY-th Interest sent to the chosen face, another face
 * (each in turn), or NOFACE. */
static unsigned probe_face(struct default_state *s, const unsigned *faces, size_t n, unsigned best)
{
    if (++s->sent % PROBE_EVERY != 0 || n < 2)
        return NOFACE;
    size_t k = (s->sent / PROBE_EVERY) % (n - 1);
    for (size_t i = 0; i < n; i++)
        if (faces[i] != best && k-- == 0)
            return faces[i];
    return NOFACE;
}

static void default_interest(struct strategy_ctx *ctx, const unsigned *faces, size_t n, int is_new)
{
    struct default_state *s = get_state(ctx);
    if (!is_new || n == 0)
        return;
    unsigned best = s->src != NOFACE ? s->src : s->osrc;
    unsigned probe = NOFACE;
    uint64_t low = NOHIST_LOW, range = NOHIST_RANGE;
    if (best != NOFACE && has_face(faces, n, best)) {
        uint64_t usec = predicted(s, best);
        low = usec < SHORT_PREDICTED ? 100 + strategy_random(ctx) % 4096u : usec;
        range = (low + 1) / 2;
        strategy_send(ctx, best);
        strategy_set_timer(ctx, usec);
        probe = probe_face(s, faces, n, best);
        if (probe != NOFACE)
            strategy_send(ctx, probe);
    } else {
        best = NOFACE;
    }
    size_t nleft = 0;
    for (size_t i = 0; i < n; i++)
        if (faces[i] != best && faces[i] != s->osrc && faces[i] != probe)
            nleft++;
    if (s->osrc != best && s->osrc != probe && has_face(faces, n, s->osrc))
        strategy_schedule(ctx, s->osrc, low);
    if (nleft == 0)
        return;
    uint64_t amt = (2 * range + nleft - 1) / nleft;
    uint64_t at = low;
    for (size_t i = 0; i < n; i++) {
        if (faces[i] == best || faces[i] == s->osrc || faces[i] == probe)
            continue;
        strategy_schedule(ctx, faces[i], at);
        at += strategy_random(ctx) % (amt ? amt : 1);
    }
}

static void default_timer(struct strategy_ctx *ctx, const unsigned *faces, size_t n)
{
    (void)faces;
    (void)n;
    /* the chosen face is late: predict longer next time */
    struct default_state *s = get_state(ctx);
    int i = s->src != NOFACE ? pred_slot(s, s->src, 1) : -1;
    if (i >= 0) {
        if (s->pred[i].usec == 0)
            s->pred[i].usec = INITIAL_USEC;
        grow(ctx, s, i);
    }
}

static void default_satisfied(struct strategy_ctx *ctx, unsigned faceid, uint64_t rtt)
{
    struct default_state *s = get_state(ctx);
    int i = pred_slot(s, faceid, 1);
    if (i < 0)
        return;
    if (s->pred[i].usec == 0) {
        uint64_t t = rtt + (rtt >> 3);
        s->pred[i].usec = (uint32_t)(t < MIN_USEC ? MIN_USEC : t > UINT32_MAX ? UINT32_MAX : t);
    } else if (rtt > s->pred[i].usec && faceid != s->src) {
        grow(ctx, s, i); /* the chosen face's lateness is its timer's */
    } else if (rtt <= s->pred[i].usec) {
        uint32_t t = s->pred[i].usec - (s->pred[i].usec >> 7);
        s->pred[i].usec = t < MIN_USEC ? MIN_USEC : t;
    }
    if (s->src == NOFACE) {
        s->src = faceid;
    } else if (faceid != s->src && s->pred[i].usec < predicted(s, s->src)) {
        s->osrc = s->src;
        s->src = faceid;
    }
}

const struct strategy strategy_default = {
    .name = "default",
    .on_interest = default_interest,
    .on_timer = default_timer,
    .on_satisfied = default_satisfied,
    .on_expired = NULL,
};
