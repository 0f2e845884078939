/* Sends every new Interest to every candidate face at once: the fastest
 * answer wins, at the price of the traffic on every link. */
#include "fw/strategy.h"

static void parallel_interest(struct strategy_ctx *ctx, const unsigned *faces, size_t n, int is_new)
{
    if (!is_new)
        return;
    for (size_t i = 0; i < n; i++)
        if (!strategy_was_sent(ctx, faces[i]))
            strategy_send(ctx, faces[i]);
}

const struct strategy strategy_parallel = {
    .name = "parallel",
    .on_interest = parallel_interest,
    .on_timer = NULL,
    .on_satisfied = NULL,
    .on_expired = NULL,
};
