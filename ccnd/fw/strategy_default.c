/* The reference's default strategy: remember which face answered last
 * under a prefix (and the one before it) and a predicted response time.
 * A new Interest goes at once to that face only; the previous source is
 * tried once the prediction has passed, and the remaining faces after it,
 * spread out in time, so a face that stops answering is replaced without
 * flooding every Interest to every face. With no history, every face is
 * tried, a few milliseconds apart. The prediction grows by 1/8 each time
 * the chosen face is late and shrinks by 1/128 each time it answers. */
#include <limits.h>
#include <stdint.h>

#include "fw/strategy.h"

#define NOFACE          UINT_MAX
#define INITIAL_USEC    50000 /* first prediction */
#define MIN_USEC        127
#define NOHIST_LOW      4000  /* no history: first try after 4 ms */
#define NOHIST_RANGE    75000 /* ... and the others spread over about 150 ms */
#define SHORT_PREDICTED 2000  /* below this, jitter instead of the prediction */

struct default_state {
    int init;
    unsigned src;  /* face of the most recent content */
    unsigned osrc; /* and of the content before it */
    uint32_t usec; /* predicted response time */
};

static struct default_state *get_state(struct strategy_ctx *ctx)
{
    struct default_state *s = strategy_state(ctx);
    if (!s->init) {
        s->init = 1;
        s->src = s->osrc = NOFACE;
        s->usec = INITIAL_USEC;
    }
    return s;
}

static int has_face(const unsigned *faces, size_t n, unsigned f)
{
    for (size_t i = 0; i < n; i++)
        if (faces[i] == f)
            return 1;
    return 0;
}

static void default_interest(struct strategy_ctx *ctx, const unsigned *faces, size_t n, int is_new)
{
    struct default_state *s = get_state(ctx);
    if (!is_new || n == 0)
        return;
    unsigned best = s->src != NOFACE ? s->src : s->osrc;
    uint64_t low = NOHIST_LOW, range = NOHIST_RANGE;
    if (best != NOFACE && has_face(faces, n, best)) {
        low = s->usec;
        if (low < SHORT_PREDICTED)
            low = 100 + strategy_random(ctx) % 4096u;
        range = (low + 1) / 2;
        strategy_send(ctx, best);
        strategy_set_timer(ctx, s->usec);
    } else {
        best = NOFACE;
    }
    size_t nleft = 0;
    for (size_t i = 0; i < n; i++)
        if (faces[i] != best && faces[i] != s->osrc)
            nleft++;
    if (s->osrc != best && has_face(faces, n, s->osrc))
        strategy_schedule(ctx, s->osrc, low);
    if (nleft == 0)
        return;
    uint64_t amt = (2 * range + nleft - 1) / nleft;
    uint64_t at = low;
    for (size_t i = 0; i < n; i++) {
        if (faces[i] == best || faces[i] == s->osrc)
            continue;
        strategy_schedule(ctx, faces[i], at);
        at += strategy_random(ctx) % (amt ? amt : 1);
    }
}

static void adjust(struct strategy_ctx *ctx, struct default_state *s, unsigned faceid)
{
    uint64_t t = s->usec;
    if (faceid == NOFACE) {
        t += t >> 3;
        if (t > strategy_rte_limit(ctx))
            t = strategy_rte_limit(ctx);
    } else if (faceid == s->src) {
        t -= t >> 7;
        if (t < MIN_USEC)
            t = MIN_USEC;
    }
    s->usec = (uint32_t)t;
    if (faceid == NOFACE)
        return;
    if (s->src == NOFACE) {
        s->src = faceid;
    } else if (s->src != faceid) {
        s->osrc = s->src;
        s->src = faceid;
    }
}

static void default_timer(struct strategy_ctx *ctx, const unsigned *faces, size_t n)
{
    (void)faces;
    (void)n;
    /* the chosen face is late: predict longer next time */
    adjust(ctx, get_state(ctx), NOFACE);
}

static void default_satisfied(struct strategy_ctx *ctx, unsigned faceid, uint64_t rtt)
{
    (void)rtt;
    adjust(ctx, get_state(ctx), faceid);
}

const struct strategy strategy_default = {
    .name = "default",
    .on_interest = default_interest,
    .on_timer = default_timer,
    .on_satisfied = default_satisfied,
    .on_expired = NULL,
};
