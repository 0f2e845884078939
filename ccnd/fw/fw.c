/* The forwarder object: creation, dispatch of messages to the Interest
 * (fw_interest.c) and ContentObject (fw_content.c) pipelines, timers, face
 * removal. The files below it call each other only downwards: fw_interest
 * uses fw_strategy (the strategies' services), fw_pub (publisher counters),
 * fw_rec (records and sending) and fw_pstate (per-prefix memory);
 * fw_content uses fw_rec and fw_pstate; fw_strategy uses fw_rec; fw_rec
 * uses fw_pstate. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/name.h>

#include "fw/fw_internal.h"
#include "table/cs.h"
#include "table/fib.h"
#include "table/nonce.h"
#include "table/pit.h"

#define FW_NONCE_DEFAULT_CAPACITY 100000
#define FW_RTE_LIMIT_DEFAULT      160000 /* the reference's predicted_response_limit */
#define FW_STALE_PURGE_MAX        1000   /* stale objects dropped per tick, to bound its cost */
/* Stale objects stay this long (microseconds) for Interests that accept
 * stale content (and ccnrm -o); the reference keeps them until the store
 * is full, which lets memory grow without bound. */
#define FW_STALE_KEEP_US (60 * 1000000ull)
#define FW_HOUSEKEEPING  100000 /* table expiry sweeps: at most every 100 ms */

void fw_config_default(struct fw_config *c)
{
    memset(c, 0, sizeof(*c));
    c->cs_capacity = CS_DEFAULT_CAPACITY;
    c->pit_limit = PIT_DEFAULT_LIMIT;
    c->nonce_capacity = FW_NONCE_DEFAULT_CAPACITY;
    c->cs_default_stale = CS_DEFAULT_TIME_TO_STALE;
    c->cs_max_stale = CS_MAX_TIME_TO_STALE;
    c->rte_limit = FW_RTE_LIMIT_DEFAULT;
    c->nonce_len = 12;
    c->seed = 0;
}

static uint64_t seed_from_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 40);
}

static int add_default_internal_prefixes(struct fw *fw)
{
    /* ccnx:/ccnx and ccnx:/%C1.M.S.localhost, encoded by hand: a Name (F2)
     * holding one Component (FA) with a short BLOB */
    static const uint8_t ccnx[] = {0xF2, 0xFA, 0xA5, 'c', 'c', 'n', 'x', 0, 0};
    static const uint8_t local[] = {0xF2, 0xFA, 0xFD, 0xC1, '.', 'M', '.', 'S', '.', 'l',
                                    'o',  'c',  'a',  'l',  'h', 'o', 's', 't', 0,   0};
    int res = fw_internal_add_prefix(fw, ccnx, sizeof(ccnx));
    return res < 0 ? res : fw_internal_add_prefix(fw, local, sizeof(local));
}

static void on_entry_expired(void *arg, struct pit_entry *e);
static void expire_pending(struct fw *fw, uint64_t now);

struct fw *fw_create(const struct fw_config *c, const struct fw_ops *ops, void *arg)
{
    struct fw *fw = calloc(1, sizeof(*fw));
    if (fw == NULL)
        return NULL;
    if (c != NULL)
        fw->cfg = *c;
    else
        fw_config_default(&fw->cfg);
    if (fw->cfg.nonce_len == 0 || fw->cfg.nonce_len > NONCE_MAX_LEN)
        fw->cfg.nonce_len = 12;
    fw->ops = ops;
    fw->arg = arg;
    fw->rng = fw->cfg.seed != 0 ? fw->cfg.seed : seed_from_clock();
    if (fw->rng == 0)
        fw->rng = 1;
    ccnx_heap_init(&fw->due);
    ccnx_buf_init(&fw->scratch);
    fw->cs = cs_create(fw->cfg.cs_capacity);
    if (fw->cs != NULL)
        cs_set_max_bytes(fw->cs, fw->cfg.cs_max_bytes);
    fw->pit = pit_create(fw->cfg.pit_limit);
    fw->fib = fib_create();
    fw->nonces = nonce_create(fw->cfg.nonce_capacity);
    if (fw->cs == NULL || fw->pit == NULL || fw->fib == NULL || fw->nonces == NULL ||
        add_default_internal_prefixes(fw) < 0) {
        fw_destroy(fw);
        return NULL;
    }
    cs_set_staleness(fw->cs, fw->cfg.cs_default_stale, fw->cfg.cs_max_stale);
    fib_set_state_free(fw->fib, fw_pstate_release);
    pit_set_expire_hook(fw->pit, on_entry_expired, fw);
    return fw;
}

void fw_destroy(struct fw *fw)
{
    if (fw == NULL)
        return;
    while (fw->recs != NULL) {
        struct fw_rec *r = fw->recs;
        fw->recs = r->next;
        fw_pstate_drop(r->ps);
        fw_rec_free_mem(r);
    }
    free(fw->root_state); /* the others go with the FIB */
    ccnx_heap_free(&fw->due);
    for (size_t i = 0; i < fw->niprefix; i++)
        free(fw->iprefix[i]);
    free(fw->iprefix);
    fw_pub_free(fw);
    free(fw->iprefix_len);
    ccnx_buf_free(&fw->scratch);
    if (fw->cs != NULL)
        cs_destroy(fw->cs);
    if (fw->pit != NULL)
        pit_destroy(fw->pit);
    if (fw->fib != NULL)
        fib_destroy(fw->fib);
    if (fw->nonces != NULL)
        nonce_destroy(fw->nonces);
    free(fw);
}

/* ---- dispatch ---- */

void fw_on_message(struct fw *fw, unsigned faceid, const uint8_t *msg, size_t len, uint64_t now)
{
    struct ccnx_ccnb_reader r;
    ccnx_ccnb_reader_init(&r, msg, len, 0);
    int64_t dtag = len > 0 ? ccnx_ccnb_peek_dtag(&r) : -1;
    expire_pending(fw, now);
    if (dtag == CCNX_DTAG_Interest)
        fw_interest(fw, faceid, msg, len, now);
    else if (dtag == CCNX_DTAG_ContentObject)
        fw_content(fw, faceid, msg, len, 1, now);
    else
        fw->stats.other_dropped++;
}

void fw_on_reply(struct fw *fw, const uint8_t *msg, size_t len, uint64_t now)
{
    expire_pending(fw, now);
    fw_content(fw, FW_INTERNAL_FACE, msg, len, 0, now);
}

/* ---- timers ---- */

static uint64_t rec_deadline(const struct fw_rec *r)
{
    uint64_t t = r->timer;
    for (size_t i = 0; i < r->nsched; i++)
        if (r->sched[i].due < t)
            t = r->sched[i].due;
    return t;
}

/* Runs a record's due sends and its timer. */
static void rec_run(struct fw *fw, struct fw_rec *r, uint64_t now)
{
    size_t i = 0;
    while (i < r->nsched) {
        if (r->sched[i].due <= now) {
            unsigned f = r->sched[i].faceid;
            r->sched[i] = r->sched[--r->nsched];
            fw_rec_send(fw, r, f, now);
        } else {
            i++;
        }
    }
    if (r->timer <= now) {
        r->timer = UINT64_MAX;
        if (r->strategy != NULL && r->strategy->on_timer != NULL) {
            struct strategy_ctx ctx = {fw, r, now};
            r->strategy->on_timer(&ctx, r->faces, r->nfaces);
        }
    }
}

/* pit_expire's hook, for an entry about to be dropped: tell the strategy,
 * and forget the record first so no record outlives its entry. */
static void on_entry_expired(void *arg, struct pit_entry *e)
{
    struct fw *fw = arg;
    struct fw_rec *r = fw_rec_find(fw, e);
    if (r == NULL)
        return;
    if (r->strategy != NULL && r->strategy->on_expired != NULL) {
        struct strategy_ctx ctx = {fw, r, fw->expiring_now};
        r->strategy->on_expired(&ctx);
    }
    fw->stats.interests_expired++;
    fw_rec_remove(fw, r);
}

/* Pending Interests expire on time, like the reference's: the tick is due
 * at the earliest expiry, and a message arriving later first retires what
 * has expired, so that an Interest sent again once its lifetime is over
 * starts a new entry (and is forwarded) instead of joining the old one. */
static void expire_pending(struct fw *fw, uint64_t now)
{
    if (now >= pit_next_expiry(fw->pit)) {
        fw->expiring_now = now;
        pit_expire(fw->pit, now);
    }
}

/* The other tables' expiry: pops what is due from their heaps and rings,
 * so it costs what expires, not what is held; batched at most once per
 * FW_HOUSEKEEPING (that much late at worst). */
static void housekeeping(struct fw *fw, uint64_t now)
{
    nonce_expire(fw->nonces, now);
    fib_expire(fw->fib, now);
    if (now > FW_STALE_KEEP_US)
        cs_purge_stale(fw->cs, now - FW_STALE_KEEP_US, FW_STALE_PURGE_MAX);
    fw->housekeeping_due = now + FW_HOUSEKEEPING;
}

uint64_t fw_tick(struct fw *fw, uint64_t now)
{
    expire_pending(fw, now);
    if (now >= fw->housekeeping_due) {
        housekeeping(fw, now);
    }
    /* Each record due runs about once per tick even if a strategy re-arms
     * it for `now`; what is left makes the next deadline `now`. */
    struct ccnx_heap_node *x;
    for (size_t budget = fw->due.n;
         budget > 0 && (x = ccnx_heap_top(&fw->due)) != NULL && x->when <= now; budget--) {
        struct fw_rec *r = (struct fw_rec *)((uint8_t *)x - offsetof(struct fw_rec, due));
        ccnx_heap_remove(&fw->due, x);
        rec_run(fw, r, now);
        uint64_t t = rec_deadline(r);
        if (t != UINT64_MAX)
            fw_note_deadline(fw, r, t);
    }
    return fw_next_deadline(fw);
}

uint64_t fw_next_deadline(const struct fw *fw)
{
    int pending = fw->nrecs > 0 || pit_count(fw->pit) > 0 || nonce_count(fw->nonces) > 0 ||
                  fib_prefix_count(fw->fib) > 0 || cs_count(fw->cs) > 0;
    uint64_t next = ccnx_heap_next(&fw->due);
    if (pit_next_expiry(fw->pit) < next)
        next = pit_next_expiry(fw->pit);
    if (pending && fw->housekeeping_due < next)
        next = fw->housekeeping_due;
    return next;
}

/* ---- faces ---- */

static void on_entry_dropped(void *arg, struct pit_entry *e)
{
    struct fw *fw = arg;
    struct fw_rec *r = fw_rec_find(fw, e);
    if (r != NULL)
        fw_rec_remove(fw, r);
}

/* A closed face goes from the tables without a walk of them: the PIT
 * drops its downstream records (and the entries left without any) through
 * the face's own list, the FIB its registrations through its per-face
 * index. Where it is still named (an upstream tried, a candidate of a
 * pending record) a send to it finds no face and is skipped. */
void fw_on_face_destroyed(struct fw *fw, unsigned faceid)
{
    pit_remove_face(fw->pit, faceid, on_entry_dropped, fw);
    fib_remove_face(fw->fib, faceid);
}

/* ---- access ---- */

struct fib *fw_fib(struct fw *fw)
{
    return fw->fib;
}
struct cs *fw_cs(struct fw *fw)
{
    return fw->cs;
}
struct pit *fw_pit(struct fw *fw)
{
    return fw->pit;
}

struct nonce_table *fw_nonces(struct fw *fw)
{
    return fw->nonces;
}

void fw_get_stats(const struct fw *fw, struct fw_stats *out)
{
    *out = fw->stats;
}

void fw_set_internal(struct fw *fw,
                     int (*handler)(void *arg, unsigned faceid, const uint8_t *interest,
                                    size_t len),
                     void *arg)
{
    fw->internal = handler;
    fw->internal_arg = arg;
}

int fw_internal_add_prefix(struct fw *fw, const uint8_t *name, size_t len)
{
    if (ccnx_name_check_ccnb(name, len) != 0)
        return CCNX_E_INVAL;
    uint8_t *copy = malloc(len);
    uint8_t **p = realloc(fw->iprefix, (fw->niprefix + 1) * sizeof(*p));
    if (p != NULL)
        fw->iprefix = p;
    size_t *l = realloc(fw->iprefix_len, (fw->niprefix + 1) * sizeof(*l));
    if (l != NULL)
        fw->iprefix_len = l;
    if (copy == NULL || p == NULL || l == NULL) {
        free(copy);
        return CCNX_E_NOMEM;
    }
    memcpy(copy, name, len);
    fw->iprefix[fw->niprefix] = copy;
    fw->iprefix_len[fw->niprefix++] = len;
    return 0;
}
