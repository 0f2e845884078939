/* The ContentObject pipeline: parse, PIT match, cache, send once to every
 * downstream of the entries satisfied, and report the response time to
 * their strategies. */
#include <stdlib.h>
#include <string.h>

#include <ccnx/content.h>

#include "fw/fw_internal.h"
#include "table/cs.h"
#include "table/pit.h"

#define FW_MATCH_BATCH 64

/* The time since the last send to faceid; *attempts gets the sends. */
static uint64_t upstream_rtt(const struct pit_entry *e, unsigned faceid, uint64_t now,
                             uint32_t *attempts)
{
    size_t n;
    const struct pit_upstream *up = pit_entry_upstreams(e, &n);
    *attempts = 0;
    for (size_t i = 0; i < n; i++) {
        if (up[i].faceid == faceid) {
            *attempts = up[i].attempts;
            return now >= up[i].sent ? now - up[i].sent : 0;
        }
    }
    return 0;
}

/* Sends the object to the live downstreams of e not served yet (sent[]
 * grows), then retires the entry. */
static void satisfy_entry(struct fw *fw, struct pit_entry *e, unsigned from, const uint8_t *msg,
                          size_t len, unsigned *sent, size_t *nsent, size_t maxsent, uint64_t now)
{
    size_t nd;
    const struct pit_downstream *d = pit_entry_downstreams(e, &nd);
    for (size_t i = 0; i < nd; i++) {
        unsigned f = d[i].faceid;
        size_t k;
        if (f == from || d[i].expires <= now)
            continue;
        for (k = 0; k < *nsent && sent[k] != f; k++)
            ;
        if (k < *nsent)
            continue;
        if (*nsent < maxsent)
            sent[(*nsent)++] = f;
        if (fw_send_to(fw, f, msg, len) == 0)
            fw->stats.content_out++;
    }
    struct fw_rec *r = fw_rec_find(fw, e);
    if (r != NULL) {
        uint32_t attempts;
        uint64_t rtt = upstream_rtt(e, from, now, &attempts);
        if (r->ps != NULL && attempts == 1)
            fw_pstate_sample(r->ps, rtt);
        if (r->strategy != NULL && r->strategy->on_satisfied != NULL) {
            struct strategy_ctx ctx = {fw, r, now};
            r->strategy->on_satisfied(&ctx, from, rtt);
        }
        fw_rec_remove(fw, r);
    }
    pit_consume(fw->pit, e);
}

void fw_content(struct fw *fw, unsigned faceid, const uint8_t *msg, size_t len, int store,
                uint64_t now)
{
    struct ccnx_content_parsed pc;
    /* No digest here: the PIT and the store compute it only for the rare
     * Interests and neighbours that need it. */
    const uint8_t *digest = NULL;
    fw->stats.content_in++;
    if (ccnx_content_parse(msg, len, &pc) < 0) {
        fw->stats.content_malformed++;
        return;
    }
    struct pit_entry *match[FW_MATCH_BATCH];
    size_t n = pit_match(fw->pit, msg, len, &pc, digest, match, FW_MATCH_BATCH);
    if (n == 0) {
        /* a local application may publish ahead of demand; strangers may not fill our store */
        if (store && fw_face_is_local(fw, faceid)) {
            fw->stats.content_unsolicited_kept++;
            cs_insert(fw->cs, msg, len, &pc, digest, now, NULL);
        } else {
            fw->stats.content_unsolicited++;
        }
        return;
    }
    if (store) {
        cs_insert(fw->cs, msg, len, &pc, digest, now, NULL);
    }
    unsigned sent[FW_MATCH_BATCH * 4];
    size_t nsent = 0;
    while (n > 0) {
        size_t k = n < FW_MATCH_BATCH ? n : FW_MATCH_BATCH;
        for (size_t i = 0; i < k; i++)
            satisfy_entry(fw, match[i], faceid, msg, len, sent, &nsent,
                          sizeof(sent) / sizeof(sent[0]), now);
        n = pit_match(fw->pit, msg, len, &pc, digest, match, FW_MATCH_BATCH);
    }
}
