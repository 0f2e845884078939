/* The services strategies call (strategy.h), their registry and the
 * per-prefix memory. */
#include <stdlib.h>
#include <string.h>

#include <ccnx/name.h>

#include "fw/fw_internal.h"
#include <ccnx/namekey.h>
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

/* ---- per-prefix memory ---- */

/* The key is the flat key of the prefix (<ccnx/namekey.h>), so the same
 * prefix spelled with UDATA or BLOB components is one key. key has room
 * for len bytes (a flat key is never longer than its Name). */
static int prefix_key(const uint8_t *name, size_t len, uint32_t ncomps, uint8_t *key,
                      size_t *keylen)
{
    struct ccnx_name_iter it;
    struct ccnx_comp c;
    size_t pos = 0;
    if (ccnx_name_iter_init(&it, name, len) < 0)
        return -1;
    for (uint32_t i = 0; i < ncomps && ccnx_name_iter_next(&it, &c) == 1; i++)
        pos += ccnx_namekey_put_comp(key + pos, c.p, c.n);
    *keylen = pos;
    return 0;
}

static void pstate_grow(struct fw *fw)
{
    size_t n = fw->npbuckets * 2;
    struct fw_pstate **b = calloc(n, sizeof(*b));
    if (b == NULL)
        return;
    for (size_t i = 0; i < fw->npbuckets; i++) {
        struct fw_pstate *p = fw->pbuckets[i];
        while (p != NULL) {
            struct fw_pstate *next = p->next;
            p->next = b[p->hash & (n - 1)];
            b[p->hash & (n - 1)] = p;
            p = next;
        }
    }
    free(fw->pbuckets);
    fw->pbuckets = b;
    fw->npbuckets = n;
}

#define PSTATE_KEY_INLINE 512

struct fw_pstate *fw_pstate_get(struct fw *fw, const uint8_t *name, size_t len, uint32_t ncomps,
                                const struct strategy *strategy)
{
    uint8_t inline_key[PSTATE_KEY_INLINE];
    uint8_t *key = len <= sizeof(inline_key) ? inline_key : malloc(len);
    struct fw_pstate *p = NULL;
    size_t klen;
    if (key == NULL || prefix_key(name, len, ncomps, key, &klen) < 0)
        goto out;
    uint64_t h = ccnx_namekey_hash(key, klen);
    for (p = fw->pbuckets[h & (fw->npbuckets - 1)]; p != NULL; p = p->next)
        /* The root prefix has an empty key. */
        if (p->hash == h && p->keylen == klen && (klen == 0 || memcmp(p->key, key, klen) == 0))
            break;
    if (p == NULL) {
        p = calloc(1, sizeof(*p) + klen);
        if (p == NULL)
            goto out;
        p->hash = h;
        p->keylen = klen;
        if (klen > 0)
            memcpy(p->key, key, klen);
        p->next = fw->pbuckets[h & (fw->npbuckets - 1)];
        fw->pbuckets[h & (fw->npbuckets - 1)] = p;
        if (++fw->npstates > fw->npbuckets)
            pstate_grow(fw);
    }
    if (p->strategy != strategy) {
        /* another strategy's memory means nothing to this one */
        memset(&p->mem, 0, sizeof(p->mem));
        p->strategy = strategy;
    }
out:
    if (key != inline_key)
        free(key);
    return p;
}

/* RFC 6298's estimator, in microseconds */
void fw_pstate_sample(struct fw_pstate *ps, uint64_t rtt)
{
    uint32_t r = rtt > UINT32_MAX / 2 ? UINT32_MAX / 2 : (uint32_t)rtt;
    if (ps->srtt == 0) {
        ps->srtt = r > 0 ? r : 1;
        ps->rttvar = r / 2;
        return;
    }
    uint32_t dev = r > ps->srtt ? r - ps->srtt : ps->srtt - r;
    ps->rttvar = ps->rttvar - ps->rttvar / 4 + dev / 4;
    ps->srtt = ps->srtt - ps->srtt / 8 + r / 8;
    if (ps->srtt == 0)
        ps->srtt = 1;
}
