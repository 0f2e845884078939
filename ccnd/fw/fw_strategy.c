/* The services strategies call (strategy.h), their registry and the
 * per-prefix memory. */
#include <stdlib.h>
#include <string.h>

#include <ccnx/name.h>

#include "fw/fw_internal.h"
#include "table/pit.h"

static const struct strategy *const registry[] = {
    &strategy_default,
    &strategy_parallel,
    &strategy_loadsharing,
    &strategy_null,
};
#define NREGISTRY (sizeof(registry) / sizeof(registry[0]))

const struct strategy *strategy_find(const char *name)
{
    for (size_t i = 0; name != NULL && i < NREGISTRY; i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

const char *const *strategy_names(void)
{
    static const char *names[NREGISTRY + 1];
    for (size_t i = 0; i < NREGISTRY; i++)
        names[i] = registry[i]->name;
    names[NREGISTRY] = NULL;
    return names;
}

int strategy_send(struct strategy_ctx *ctx, unsigned faceid)
{
    return fw_rec_send(ctx->fw, ctx->rec, faceid, ctx->now);
}

void strategy_schedule(struct strategy_ctx *ctx, unsigned faceid, uint64_t delay)
{
    struct fw_rec *r = ctx->rec;
    size_t i;
    for (i = 0; i < r->nfaces && r->faces[i] != faceid; i++)
        ;
    if (i == r->nfaces)
        return; /* not a candidate */
    uint64_t due = ctx->now + delay;
    for (i = 0; i < r->nsched; i++) {
        if (r->sched[i].faceid == faceid) {
            r->sched[i].due = due;
            break;
        }
    }
    if (i == r->nsched) /* room: nsched never exceeds nfaces */
        r->sched[r->nsched++] = (struct fw_sched){faceid, due};
    fw_note_deadline(ctx->fw, r, due);
}

void strategy_set_timer(struct strategy_ctx *ctx, uint64_t delay)
{
    ctx->rec->timer = ctx->now + delay;
    fw_note_deadline(ctx->fw, ctx->rec, ctx->rec->timer);
}

int strategy_was_sent(const struct strategy_ctx *ctx, unsigned faceid)
{
    size_t n;
    const struct pit_upstream *up = pit_entry_upstreams(ctx->rec->entry, &n);
    for (size_t i = 0; i < n; i++)
        if (up[i].faceid == faceid && up[i].attempts > 0)
            return 1;
    return 0;
}

void *strategy_state(struct strategy_ctx *ctx)
{
    return ctx->rec->ps->mem.bytes;
}

uint64_t strategy_now(const struct strategy_ctx *ctx)
{
    return ctx->now;
}

uint32_t strategy_random(struct strategy_ctx *ctx)
{
    return fw_random(ctx->fw);
}

uint64_t strategy_rte_limit(const struct strategy_ctx *ctx)
{
    return ctx->fw->cfg.rte_limit;
}
