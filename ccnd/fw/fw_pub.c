/* Publisher reports: per-prefix counters for what local applications
 * registered (see fw.h). */
#include "fw/fw_internal.h"

#include <ccnx/error.h>
#include <ccnx/name.h>

#include <stdlib.h>
#include <string.h>

int fw_pub_add(struct fw *fw, const uint8_t *name, size_t len)
{
    int comps = ccnx_name_count_ccnb(name, len);
    if (comps < 0)
        return CCNX_E_INVAL;
    for (size_t i = 0; i < fw->npubs; i++)
        if (fw->pubs[i].len == len && memcmp(fw->pubs[i].name, name, len) == 0)
            return 0;
    if (fw->npubs == FW_PUB_MAX)
        return CCNX_E_TOOBIG;
    if (fw->pubs == NULL && (fw->pubs = calloc(FW_PUB_MAX, sizeof(*fw->pubs))) == NULL)
        return CCNX_E_NOMEM;
    struct fw_pub *p = &fw->pubs[fw->npubs];
    if ((p->name = malloc(len)) == NULL)
        return CCNX_E_NOMEM;
    memcpy(p->name, name, len);
    p->len = len;
    p->comps = (uint32_t)comps;
    fw->npubs++;
    return 0;
}

const struct fw_pub *fw_pubs(const struct fw *fw, size_t *n)
{
    *n = fw->npubs;
    return fw->pubs;
}

/* 1 when the first `comps` components of the two encoded Names are equal. */
static int same_prefix(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen, uint32_t comps)
{
    struct ccnx_name_iter ia, ib;
    struct ccnx_comp ca, cb;
    if (ccnx_name_iter_init(&ia, a, alen) != 0 || ccnx_name_iter_init(&ib, b, blen) != 0)
        return 0;
    for (uint32_t i = 0; i < comps; i++)
        if (ccnx_name_iter_next(&ia, &ca) != 1 || ccnx_name_iter_next(&ib, &cb) != 1 ||
            ca.n != cb.n || memcmp(ca.p, cb.p, ca.n) != 0)
            return 0;
    return 1;
}

struct fw_pub *fw_pub_match(struct fw *fw, const uint8_t *name, size_t len, uint32_t comps)
{
    for (size_t i = 0; i < fw->npubs; i++)
        if (fw->pubs[i].comps == comps &&
            same_prefix(fw->pubs[i].name, fw->pubs[i].len, name, len, comps))
            return &fw->pubs[i];
    return NULL;
}

void fw_pub_free(struct fw *fw)
{
    for (size_t i = 0; i < fw->npubs; i++)
        free(fw->pubs[i].name);
    free(fw->pubs);
    fw->pubs = NULL;
    fw->npubs = 0;
}
