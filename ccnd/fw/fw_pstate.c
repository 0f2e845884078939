/* The strategies' per-prefix memory: one record for each registered
 * prefix Interests went under, on the prefix's FIB node (fib.h's state
 * slot), trimmed with it; a record in use outlives its prefix until the
 * last Interest using it is done. Also the prefix's response time. */
#include <stdlib.h>
#include <string.h>

#include "fw/fw_internal.h"

struct fw_pstate *fw_pstate_get(struct fw *fw, void **slot, const struct strategy *strategy)
{
    void **at = slot != NULL ? slot : (void **)&fw->root_state;
    struct fw_pstate *p = *at;
    if (p == NULL) {
        p = calloc(1, sizeof(*p));
        if (p == NULL)
            return NULL;
        p->fw = fw;
        fw->npstates++;
        *at = p;
    }
    if (p->strategy != strategy) {
        /* another strategy's memory means nothing to this one */
        memset(&p->mem, 0, sizeof(p->mem));
        p->strategy = strategy;
    }
    return p;
}

void fw_pstate_hold(struct fw_pstate *ps)
{
    if (ps != NULL)
        ps->refs++;
}

static void pstate_free(struct fw_pstate *ps)
{
    ps->fw->npstates--;
    free(ps);
}

void fw_pstate_drop(struct fw_pstate *ps)
{
    if (ps != NULL && --ps->refs == 0 && ps->orphan)
        pstate_free(ps);
}

void fw_pstate_release(void *state)
{
    struct fw_pstate *ps = state;
    if (ps->refs == 0)
        pstate_free(ps);
    else
        ps->orphan = 1;
}

size_t fw_strategy_memories(const struct fw *fw)
{
    return fw->npstates;
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
