/* The forwarder's per-Interest records and sending: a record hangs on its
 * PIT entry's owner slot, and every send to a face goes through here,
 * counted. The base of the fw files: it calls only the tables and the
 * per-prefix memory (fw_pstate.c). */
#include <stdlib.h>
#include <string.h>

#include <ccnx/error.h>

#include "fw/fw_internal.h"
#include "table/pit.h"

uint32_t fw_random(struct fw *fw)
{
    /* xorshift64*: quality enough for nonces and jitter, no global state */
    uint64_t x = fw->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    fw->rng = x;
    return (uint32_t)((x * 0x2545F4914F6CDD1DULL) >> 32);
}

void fw_rec_free_mem(struct fw_rec *r)
{
    free(r->sched); /* faces and msg share its allocation */
    free(r);
}

/* ---- records ---- */

struct fw_rec *fw_rec_find(struct fw *fw, const struct pit_entry *e)
{
    (void)fw;
    return pit_entry_owner(e);
}

struct fw_rec *fw_rec_add(struct fw *fw, struct pit_entry *e)
{
    struct fw_rec *r = calloc(1, sizeof(*r));
    if (r == NULL)
        return NULL;
    r->entry = e;
    r->timer = UINT64_MAX;
    ccnx_heap_node_init(&r->due);
    r->next = fw->recs;
    if (r->next != NULL)
        r->next->prev = r;
    fw->recs = r;
    fw->nrecs++;
    pit_entry_set_owner(e, r);
    return r;
}

void fw_rec_remove(struct fw *fw, struct fw_rec *r)
{
    pit_entry_set_owner(r->entry, NULL);
    fw_pstate_drop(r->ps);
    if (r->prev != NULL)
        r->prev->next = r->next;
    else
        fw->recs = r->next;
    if (r->next != NULL)
        r->next->prev = r->prev;
    fw->nrecs--;
    ccnx_heap_remove(&fw->due, &r->due);
    fw_rec_free_mem(r);
}

void fw_note_deadline(struct fw *fw, struct fw_rec *rec, uint64_t when)
{
    if (!ccnx_heap_contains(&rec->due) || when < rec->due.when) {
        /* out of memory: the send or timer is lost, as the Interest may be */
        ccnx_heap_set(&fw->due, &rec->due, when);
    }
}

/* ---- sending ---- */

int fw_send_to(struct fw *fw, unsigned faceid, const uint8_t *msg, size_t len)
{
    int res;
    if (faceid == FW_INTERNAL_FACE)
        res = fw->internal != NULL ? fw->internal(fw->internal_arg, faceid, msg, len) : -1;
    else
        res = fw->ops->send(fw->arg, faceid, msg, len);
    /* A face that closed while records named it is no failure (see
     * fw_on_face_destroyed). */
    if (res < 0 && res != CCNX_E_NOTFOUND)
        fw->stats.send_failures++;
    return res < 0 ? res : 0;
}

int fw_rec_send(struct fw *fw, struct fw_rec *rec, unsigned faceid, uint64_t now)
{
    size_t i;
    for (i = 0; i < rec->nfaces && rec->faces[i] != faceid; i++)
        ;
    if (i == rec->nfaces)
        return CCNX_E_INVAL; /* only candidates: the pipeline filtered them */
    int res = fw_send_to(fw, faceid, rec->msg, rec->len);
    if (res < 0)
        return res;
    fw->stats.interests_out++;
    if (rec->pub != NULL && fw_face_is_local(fw, faceid))
        rec->pub->to_producer++;
    pit_entry_sent(fw->pit, rec->entry, faceid, now);
    /* a face that got the Interest needs no scheduled copy any more */
    for (i = 0; i < rec->nsched; i++) {
        if (rec->sched[i].faceid == faceid) {
            rec->sched[i] = rec->sched[--rec->nsched];
            break;
        }
    }
    return 0;
}

int fw_face_is_local(struct fw *fw, unsigned faceid)
{
    struct fw_face_props p;
    if (faceid == FW_INTERNAL_FACE)
        return 1;
    if (fw->ops->face_props == NULL || fw->ops->face_props(fw->arg, faceid, &p) < 0)
        return 0;
    return p.local != 0;
}
