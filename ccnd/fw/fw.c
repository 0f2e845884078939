/* The forwarder object: creation, the per-Interest records, the
 * ContentObject pipeline, timers and face removal. The Interest pipeline
 * is in fw_interest.c, the strategy services in fw_strategy.c. */
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
#define FW_MATCH_BATCH            64
#define FW_STALE_PURGE_MAX        1000 /* stale objects dropped per tick, to bound its cost */
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
    dheap_init(&fw->due);
    ccnx_buf_init(&fw->scratch);
    fw->cs = cs_create(fw->cfg.cs_capacity);
    if (fw->cs != NULL)
        cs_set_max_bytes(fw->cs, fw->cfg.cs_max_bytes);
    fw->pit = pit_create(fw->cfg.pit_limit);
    fw->fib = fib_create();
    fw->nonces = nonce_create(fw->cfg.nonce_capacity);
    fw->nrbuckets = 256;
    fw->rbuckets = calloc(fw->nrbuckets, sizeof(*fw->rbuckets));
    fw->npbuckets = 64;
    fw->pbuckets = calloc(fw->npbuckets, sizeof(*fw->pbuckets));
    if (fw->cs == NULL || fw->pit == NULL || fw->fib == NULL || fw->nonces == NULL ||
        fw->rbuckets == NULL || fw->pbuckets == NULL || add_default_internal_prefixes(fw) < 0) {
        fw_destroy(fw);
        return NULL;
    }
    cs_set_staleness(fw->cs, fw->cfg.cs_default_stale, fw->cfg.cs_max_stale);
    pit_set_expire_hook(fw->pit, on_entry_expired, fw);
    return fw;
}

static void rec_free_mem(struct fw_rec *r)
{
    free(r->sched); /* faces and msg share its allocation */
    free(r);
}

void fw_destroy(struct fw *fw)
{
    if (fw == NULL)
        return;
    for (size_t i = 0; i < fw->nrecs; i++)
        rec_free_mem(fw->recs[i]);
    free(fw->recs);
    free(fw->rbuckets);
    dheap_free(&fw->due);
    for (size_t i = 0; fw->pbuckets != NULL && i < fw->npbuckets; i++) {
        struct fw_pstate *p = fw->pbuckets[i];
        while (p != NULL) {
            struct fw_pstate *next = p->next;
            free(p);
            p = next;
        }
    }
    free(fw->pbuckets);
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

/* ---- records ---- */

static size_t ptr_bucket(const struct fw *fw, const void *p)
{
    uint64_t h = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ULL;
    return (size_t)(h >> 32) & (fw->nrbuckets - 1);
}

struct fw_rec *fw_rec_find(struct fw *fw, const struct pit_entry *e)
{
    for (struct fw_rec *r = fw->rbuckets[ptr_bucket(fw, e)]; r != NULL; r = r->hnext)
        if (r->entry == e)
            return r;
    return NULL;
}

static void rec_grow_buckets(struct fw *fw)
{
    size_t n = fw->nrbuckets * 2;
    struct fw_rec **b = calloc(n, sizeof(*b));
    if (b == NULL)
        return; /* longer chains, still correct */
    free(fw->rbuckets);
    fw->rbuckets = b;
    fw->nrbuckets = n;
    for (size_t i = 0; i < fw->nrecs; i++) {
        struct fw_rec *r = fw->recs[i];
        size_t k = ptr_bucket(fw, r->entry);
        r->hnext = b[k];
        b[k] = r;
    }
}

struct fw_rec *fw_rec_add(struct fw *fw, struct pit_entry *e)
{
    if (fw->nrecs == fw->caprecs) {
        size_t cap = fw->caprecs ? fw->caprecs * 2 : 64;
        struct fw_rec **a = realloc(fw->recs, cap * sizeof(*a));
        if (a == NULL)
            return NULL;
        fw->recs = a;
        fw->caprecs = cap;
    }
    struct fw_rec *r = calloc(1, sizeof(*r));
    if (r == NULL)
        return NULL;
    r->entry = e;
    r->timer = UINT64_MAX;
    dheap_node_init(&r->due);
    r->index = fw->nrecs;
    fw->recs[fw->nrecs++] = r;
    size_t k = ptr_bucket(fw, e);
    r->hnext = fw->rbuckets[k];
    fw->rbuckets[k] = r;
    if (fw->nrecs > fw->nrbuckets)
        rec_grow_buckets(fw);
    return r;
}

void fw_rec_remove(struct fw *fw, struct fw_rec *r)
{
    struct fw_rec **pp = &fw->rbuckets[ptr_bucket(fw, r->entry)];
    while (*pp != NULL && *pp != r)
        pp = &(*pp)->hnext;
    if (*pp == r)
        *pp = r->hnext;
    struct fw_rec *last = fw->recs[--fw->nrecs];
    fw->recs[r->index] = last;
    last->index = r->index;
    dheap_remove(&fw->due, &r->due);
    rec_free_mem(r);
}

void fw_note_deadline(struct fw *fw, struct fw_rec *rec, uint64_t when)
{
    if (!dheap_contains(&rec->due) || when < rec->due.when) {
        /* out of memory: the send or timer is lost, as the Interest may be */
        dheap_set(&fw->due, &rec->due, when);
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
    if (res < 0)
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

/* ---- ContentObject pipeline ---- */

int fw_face_is_local(struct fw *fw, unsigned faceid)
{
    struct fw_face_props p;
    if (faceid == FW_INTERNAL_FACE)
        return 1;
    if (fw->ops->face_props == NULL || fw->ops->face_props(fw->arg, faceid, &p) < 0)
        return 0;
    return p.local != 0;
}

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

static void fw_content(struct fw *fw, unsigned faceid, const uint8_t *msg, size_t len, uint64_t now)
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
        if (fw_face_is_local(fw, faceid)) {
            fw->stats.content_unsolicited_kept++;
            cs_insert(fw->cs, msg, len, &pc, digest, now, NULL);
        } else {
            fw->stats.content_unsolicited++;
        }
        return;
    }
    cs_insert(fw->cs, msg, len, &pc, digest, now, NULL);
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
        fw_content(fw, faceid, msg, len, now);
    else
        fw->stats.other_dropped++;
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
    struct dheap_node *x;
    for (size_t budget = fw->due.n;
         budget > 0 && (x = dheap_top(&fw->due)) != NULL && x->when <= now; budget--) {
        struct fw_rec *r = (struct fw_rec *)((uint8_t *)x - offsetof(struct fw_rec, due));
        dheap_remove(&fw->due, x);
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
    uint64_t next = dheap_next(&fw->due);
    if (pit_next_expiry(fw->pit) < next)
        next = pit_next_expiry(fw->pit);
    if (pending && fw->housekeeping_due < next)
        next = fw->housekeeping_due;
    return next;
}

/* ---- faces ---- */

/* 1 when every downstream of the entry is on faceid: pit_remove_face will
 * drop the entry. */
static int only_downstream(const struct pit_entry *e, unsigned faceid)
{
    size_t n;
    const struct pit_downstream *d = pit_entry_downstreams(e, &n);
    for (size_t i = 0; i < n; i++)
        if (d[i].faceid != faceid)
            return 0;
    return 1;
}

static void rec_drop_face(struct fw_rec *r, unsigned faceid)
{
    for (size_t i = 0; i < r->nfaces; i++) {
        if (r->faces[i] == faceid) {
            memmove(&r->faces[i], &r->faces[i + 1], (r->nfaces - i - 1) * sizeof(r->faces[0]));
            r->nfaces--;
            break;
        }
    }
    for (size_t i = 0; i < r->nsched; i++) {
        if (r->sched[i].faceid == faceid) {
            r->sched[i] = r->sched[--r->nsched];
            break;
        }
    }
}

void fw_on_face_destroyed(struct fw *fw, unsigned faceid)
{
    size_t i = 0;
    while (i < fw->nrecs) {
        struct fw_rec *r = fw->recs[i];
        if (only_downstream(r->entry, faceid)) {
            fw_rec_remove(fw, r);
            continue;
        }
        rec_drop_face(r, faceid);
        i++;
    }
    pit_remove_face(fw->pit, faceid);
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
