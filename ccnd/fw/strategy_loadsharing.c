/* Spreads Interests over the faces of a prefix: each new Interest goes to
 * the next face in turn, so n faces each carry about 1/n of the traffic.
 * When that face has not answered within the forwarder's response-time
 * limit, the Interest is tried on the following face, and so on, so one
 * dead face costs a delay rather than lost Interests. */
#include <stdint.h>

#include "fw/strategy.h"

struct loadsharing_state {
    uint32_t next; /* rotation index */
};

static void send_next(struct strategy_ctx *ctx, const unsigned *faces, size_t n)
{
    struct loadsharing_state *s = strategy_state(ctx);
    for (size_t k = 0; k < n; k++) {
        unsigned f = faces[s->next++ % n];
        if (!strategy_was_sent(ctx, f) && strategy_send(ctx, f) == 0) {
            strategy_set_timer(ctx, strategy_rte_limit(ctx));
            return;
        }
    }
}

static void loadsharing_interest(struct strategy_ctx *ctx, const unsigned *faces, size_t n,
                                 int is_new)
{
    if (is_new && n > 0)
        send_next(ctx, faces, n);
}

static void loadsharing_timer(struct strategy_ctx *ctx, const unsigned *faces, size_t n)
{
    send_next(ctx, faces, n);
}

const struct strategy strategy_loadsharing = {
    .name = "loadsharing",
    .on_interest = loadsharing_interest,
    .on_timer = loadsharing_timer,
    .on_satisfied = NULL,
    .on_expired = NULL,
};
