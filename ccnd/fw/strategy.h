/* Forwarding strategies: which upstream faces get an Interest, and when.
 *
 * A strategy is one struct strategy of callbacks in its own file, listed in
 * the registry of fw_strategy.c. It never sees the tables, the faces or the
 * wire encoding: only the opaque struct strategy_ctx of one pending
 * Interest (one PIT entry) and the services declared below. The pipeline
 * (fw.c) has already removed every face the Interest must not go to (the
 * arrival face and the entry's other downstreams, faces out of scope,
 * faces that are gone), so any face in `faces` may be used.
 *
 * Callbacks (any may be NULL):
 *  - on_interest: an Interest arrived for the entry. `is_new` is 1 when it
 *    created the entry; 0 when it joined a pending one from a new
 *    downstream or with a new nonce (aggregation: nothing is sent again
 *    unless the strategy sends it). `faces` are the candidate upstreams in
 *    FIB order.
 *  - on_timer: the timer set with strategy_set_timer fired while the entry
 *    was still pending; `faces` as for on_interest.
 *  - on_satisfied: content for the entry came from `faceid`, `rtt` microseconds
 *    after the Interest was last sent there (0 when it was never sent
 *    there, e.g. a producer answering another downstream's copy).
 *  - on_expired: the entry expired unsatisfied.
 *
 * Services: strategy_send sends the entry's Interest now; strategy_schedule
 * sends it after a delay unless the entry is satisfied, expired or the face
 * already got it; strategy_set_timer arms on_timer (one timer per entry,
 * rearming replaces it). strategy_state gives a per-prefix memory (zeroed
 * the first time, kept while the same strategy governs the prefix): the
 * prefix is the longest FIB prefix of the Interest's name, so what a
 * strategy learns about a namespace (the fastest face, a rotation index)
 * carries over to the next Interest under it.
 *
 * Times are microseconds.
 */
#ifndef CCND_FW_STRATEGY_H
#define CCND_FW_STRATEGY_H

#include <stddef.h>
#include <stdint.h>

#define STRATEGY_STATE_SIZE 64 /* bytes of per-prefix memory a strategy may use */

struct strategy_ctx;

struct strategy {
    const char *name; /* as selected through the FIB (fib_set_strategy) */
    void (*on_interest)(struct strategy_ctx *ctx, const unsigned *faces, size_t n, int is_new);
    void (*on_timer)(struct strategy_ctx *ctx, const unsigned *faces, size_t n);
    void (*on_satisfied)(struct strategy_ctx *ctx, unsigned faceid, uint64_t rtt);
    void (*on_expired)(struct strategy_ctx *ctx);
};

/* Sends the Interest to faceid now (a face of the candidate list). 0, or
 * negative when the face refused it. */
int strategy_send(struct strategy_ctx *ctx, unsigned faceid);
/* Sends it to faceid at now + delay, unless that face was sent it since. */
void strategy_schedule(struct strategy_ctx *ctx, unsigned faceid, uint64_t delay);
/* Calls on_timer at now + delay. */
void strategy_set_timer(struct strategy_ctx *ctx, uint64_t delay);
/* 1 when the Interest was already sent to faceid. */
int strategy_was_sent(const struct strategy_ctx *ctx, unsigned faceid);
/* Per-prefix memory, STRATEGY_STATE_SIZE bytes, suitably aligned; never NULL. */
void *strategy_state(struct strategy_ctx *ctx);
/* Current time, and a pseudo-random number (per forwarder). */
uint64_t strategy_now(const struct strategy_ctx *ctx);
uint32_t strategy_random(struct strategy_ctx *ctx);
/* The forwarder's ceiling on predicted response times (CCND_MAX_RTE_MICROSEC). */
uint64_t strategy_rte_limit(const struct strategy_ctx *ctx);

/* The registry: NULL for an unknown name. */
const struct strategy *strategy_find(const char *name);
/* Names of every registered strategy, NULL-terminated. */
const char *const *strategy_names(void);

extern const struct strategy strategy_default;
extern const struct strategy strategy_parallel;
extern const struct strategy strategy_loadsharing;
extern const struct strategy strategy_null;

#endif
