/* The content store: a skiplist of single-allocation entries (see cs.h). */
#include "table/cs.h"

#include <ccnx/error.h>
#include <ccnx/match.h>

#include <stdlib.h>
#include <string.h>

#define CS_MAX_LEVEL 16 /* 4^16 objects before the top level fills */

struct cs_entry {
    struct cs_entry *lru_prev, *lru_next; /* lru_next points towards newer use */
    uint64_t arrival;
    uint64_t stale_at; /* first `now` at which the object is stale */
    uint32_t len;      /* object bytes */
    uint32_t name_off, name_len, name_count;
    uint32_t pub_off, pub_len;
    uint8_t level; /* forward pointers in next[] */
    uint8_t digest[32];
    struct cs_entry *next[]; /* then the object bytes */
};

struct cs {
    struct cs_entry *head; /* skiplist sentinel (CS_MAX_LEVEL pointers, no object), also the
                              sentinel of the LRU ring: head->lru_next is the oldest */
    int level;             /* levels in use */
    uint64_t rng;
    size_t capacity;
    int64_t tts_default;
    uint32_t tts_limit;
    struct cs_stats st;
};

static const uint8_t *entry_bytes(const struct cs_entry *e)
{
    return (const uint8_t *)&e->next[e->level];
}

/* ---- LRU ring ---- */

static void lru_unlink(struct cs_entry *e)
{
    e->lru_prev->lru_next = e->lru_next;
    e->lru_next->lru_prev = e->lru_prev;
}

static void lru_push_newest(struct cs *cs, struct cs_entry *e)
{
    e->lru_next = cs->head;
    e->lru_prev = cs->head->lru_prev;
    cs->head->lru_prev->lru_next = e;
    cs->head->lru_prev = e;
}

/* ---- Creation ---- */

struct cs *cs_create(size_t capacity)
{
    struct cs *cs = calloc(1, sizeof *cs);
    if (cs == NULL) {
        return NULL;
    }
    cs->head = calloc(1, sizeof *cs->head + CS_MAX_LEVEL * sizeof(struct cs_entry *));
    if (cs->head == NULL) {
        free(cs);
        return NULL;
    }
    cs->head->level = CS_MAX_LEVEL;
    cs->level = 1;
    cs->rng = 0x9E3779B97F4A7C15ull;
    cs->head->lru_next = cs->head->lru_prev = cs->head;
    cs->capacity = capacity;
    cs->tts_default = CS_DEFAULT_TIME_TO_STALE;
    cs->tts_limit = CS_MAX_TIME_TO_STALE;
    return cs;
}

void cs_destroy(struct cs *cs)
{
    if (cs == NULL) {
        return;
    }
    struct cs_entry *e = cs->head->next[0];
    while (e != NULL) {
        struct cs_entry *n = e->next[0];
        free(e);
        e = n;
    }
    free(cs->head);
    free(cs);
}

void cs_set_staleness(struct cs *cs, int64_t default_seconds, uint32_t limit_seconds)
{
    cs->tts_default = default_seconds;
    if (limit_seconds != 0) {
        cs->tts_limit = limit_seconds;
    }
}

/* ---- Ordering ---- */

static int entry_compare(const struct cs_entry *e, const uint8_t *name, size_t len,
                         const uint8_t digest[32])
{
    return ccnx_match_full_name_compare(entry_bytes(e) + e->name_off, e->name_len, e->digest, name,
                                        len, digest);
}

/* Fills update[] with the last node at each level whose full name sorts
 * before (name, digest). */
static void find_preds(const struct cs *cs, const uint8_t *name, size_t len,
                       const uint8_t digest[32], struct cs_entry **update)
{
    struct cs_entry *x = cs->head;
    for (int l = cs->level - 1; l >= 0; l--) {
        while (x->next[l] != NULL && entry_compare(x->next[l], name, len, digest) < 0) {
            x = x->next[l];
        }
        update[l] = x;
    }
}

static int random_level(struct cs *cs)
{
    /* xorshift64: two bits per level give p = 1/4. */
    uint64_t x = cs->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    cs->rng = x;
    int l = 1;
    while (l < CS_MAX_LEVEL && (x & 3) == 0) {
        l++;
        x >>= 2;
    }
    return l;
}

static void unlink_entry(struct cs *cs, struct cs_entry *e, struct cs_entry **update)
{
    for (int l = 0; l < e->level; l++) {
        update[l]->next[l] = e->next[l];
    }
    while (cs->level > 1 && cs->head->next[cs->level - 1] == NULL) {
        cs->level--;
    }
    lru_unlink(e);
    cs->st.entries--;
    cs->st.bytes -= e->len;
    free(e);
}

static int remove_entry(struct cs *cs, struct cs_entry *e)
{
    struct cs_entry *update[CS_MAX_LEVEL];
    find_preds(cs, entry_bytes(e) + e->name_off, e->name_len, e->digest, update);
    if (update[0]->next[0] != e) {
        return CCNX_E_NOTFOUND;
    }
    unlink_entry(cs, e, update);
    return 0;
}

static void evict_to(struct cs *cs, size_t limit)
{
    while (cs->st.entries > limit && cs->head->lru_next != cs->head) {
        remove_entry(cs, cs->head->lru_next);
        cs->st.evictions++;
    }
}

void cs_set_capacity(struct cs *cs, size_t capacity)
{
    cs->capacity = capacity;
    evict_to(cs, capacity);
}

/* ---- Insertion ---- */

static uint64_t stale_time(const struct cs *cs, const struct ccnx_content_parsed *pc, uint64_t now)
{
    int64_t s = pc->freshness >= 0 ? pc->freshness : cs->tts_default;
    if (s < 0 || s > (int64_t)cs->tts_limit) {
        s = cs->tts_limit;
    }
    return now + (uint64_t)s * 1000000u;
}

static struct cs_entry *entry_new(struct cs *cs, const uint8_t *obj, size_t len,
                                  const struct ccnx_content_parsed *pc, const uint8_t *digest,
                                  uint64_t now)
{
    int level = random_level(cs);
    struct cs_entry *e = malloc(sizeof *e + (size_t)level * sizeof(struct cs_entry *) + len);
    if (e == NULL) {
        return NULL;
    }
    e->level = (uint8_t)level;
    e->arrival = now;
    e->stale_at = stale_time(cs, pc, now);
    e->len = (uint32_t)len;
    e->name_off = (uint32_t)pc->name.off;
    e->name_len = (uint32_t)pc->name.len;
    e->name_count = pc->name_count;
    e->pub_off = (uint32_t)pc->publisher.off;
    e->pub_len = (uint32_t)pc->publisher.len;
    memcpy(e->digest, digest, 32);
    memcpy((uint8_t *)entry_bytes(e), obj, len);
    return e;
}

static int insert_checked(struct cs *cs, const uint8_t *obj, size_t len,
                          const struct ccnx_content_parsed *pc, const uint8_t *digest, uint64_t now,
                          const struct cs_entry **out)
{
    struct cs_entry *update[CS_MAX_LEVEL];
    const uint8_t *name = obj + pc->name.off;
    find_preds(cs, name, pc->name.len, digest, update);
    struct cs_entry *at = update[0]->next[0];
    if (at != NULL && entry_compare(at, name, pc->name.len, digest) == 0) {
        /* Same digest, same object: make it fresh again if it went stale. */
        if (cs_entry_is_stale(at, now)) {
            at->arrival = now;
            at->stale_at = stale_time(cs, pc, now);
        }
        cs->st.duplicates++;
        *out = at;
        return CS_DUPLICATE;
    }
    struct cs_entry *e = entry_new(cs, obj, len, pc, digest, now);
    if (e == NULL) {
        return CCNX_E_NOMEM;
    }
    for (int l = cs->level; l < e->level; l++) {
        update[l] = cs->head;
    }
    if (e->level > cs->level) {
        cs->level = e->level;
    }
    for (int l = 0; l < e->level; l++) {
        e->next[l] = update[l]->next[l];
        update[l]->next[l] = e;
    }
    lru_push_newest(cs, e);
    cs->st.entries++;
    cs->st.bytes += len;
    cs->st.inserts++;
    *out = e;
    return CS_INSERTED;
}

int cs_insert(struct cs *cs, const uint8_t *obj, size_t len, const struct ccnx_content_parsed *pc,
              const uint8_t digest[32], uint64_t now, const struct cs_entry **out)
{
    struct ccnx_content_parsed own;
    uint8_t own_digest[32];
    const struct cs_entry *dummy;
    if (out == NULL) {
        out = &dummy;
    }
    *out = NULL;
    if (cs == NULL || obj == NULL || len > UINT32_MAX) {
        return CCNX_E_INVAL;
    }
    if (pc == NULL) {
        int r = ccnx_content_parse(obj, len, &own);
        if (r != 0) {
            return r;
        }
        pc = &own;
    }
    if (digest == NULL) {
        int r = ccnx_content_digest(obj, len, own_digest);
        if (r != 0) {
            return r;
        }
        digest = own_digest;
    }
    if (cs->capacity == 0) {
        return CS_NOT_KEPT;
    }
    int r = insert_checked(cs, obj, len, pc, digest, now, out);
    if (r == CS_INSERTED && cs->st.entries > cs->capacity) {
        /* The newest entry is the last to go, so *out stays valid. */
        evict_to(cs, cs->capacity);
    }
    return r;
}

/* ---- Lookup: the shared pick over a skiplist cursor ---- */

struct cursor {
    const struct cs *cs;
    struct cs_entry *at;
    uint64_t now;
    struct ccnx_content_parsed pc; /* scratch: only the fields the walk reads */
};

static void cursor_seek(void *store, const struct ccnx_match_key *k, int floor)
{
    struct cursor *c = store;
    struct cs_entry *x = c->cs->head;
    struct ccnx_match_candidate cand;
    for (int l = c->cs->level - 1; l >= 0; l--) {
        for (struct cs_entry *n = x->next[l]; n != NULL; n = x->next[l]) {
            c->at = n;
            c->pc.name = (struct ccnx_span){n->name_off, n->name_len};
            cand = (struct ccnx_match_candidate){entry_bytes(n), n->len, &c->pc, n->digest, 0};
            if (ccnx_match_key_compare(&cand, k) > floor) {
                break;
            }
            x = n;
        }
    }
    c->at = x->next[0];
}

static void cursor_next(void *store)
{
    struct cursor *c = store;
    if (c->at != NULL) {
        c->at = c->at->next[0];
    }
}

static const void *cursor_current(void *store, struct ccnx_match_candidate *out)
{
    struct cursor *c = store;
    struct cs_entry *e = c->at;
    if (e == NULL) {
        return NULL;
    }
    c->pc.object = (struct ccnx_span){0, e->len};
    c->pc.name = (struct ccnx_span){e->name_off, e->name_len};
    c->pc.name_count = e->name_count;
    c->pc.publisher = (struct ccnx_span){e->pub_off, e->pub_len};
    *out = (struct ccnx_match_candidate){entry_bytes(e), e->len, &c->pc, e->digest,
                                         cs_entry_is_stale(e, c->now)};
    return e;
}

static const struct ccnx_match_cursor_ops cursor_ops = {cursor_seek, cursor_next, cursor_current};

const struct cs_entry *cs_lookup(struct cs *cs, const uint8_t *ibuf,
                                 const struct ccnx_interest_parsed *pi, uint64_t now)
{
    struct cursor c;
    c.cs = cs;
    c.at = NULL;
    c.now = now;
    memset(&c.pc, 0, sizeof c.pc);
    struct cs_entry *e =
        (struct cs_entry *)ccnx_match_pick_cursor(&cursor_ops, &c, ibuf, pi, CCNX_MATCH_MAX_PROBES);
    if (e == NULL) {
        cs->st.misses++;
        return NULL;
    }
    cs->st.hits++;
    lru_unlink(e);
    lru_push_newest(cs, e);
    if (pi->scope == 0 && (ccnx_interest_aok(pi) & CCNX_AOK_EXPIRE) != 0) {
        cs_mark_stale(cs, e);
    }
    return e;
}

/* ---- The rest ---- */

const struct cs_entry *cs_find(const struct cs *cs, const uint8_t *name, size_t name_len,
                               const uint8_t digest[32])
{
    struct cs_entry *update[CS_MAX_LEVEL];
    find_preds(cs, name, name_len, digest, update);
    struct cs_entry *at = update[0]->next[0];
    if (at != NULL && entry_compare(at, name, name_len, digest) == 0) {
        return at;
    }
    return NULL;
}

int cs_remove(struct cs *cs, const struct cs_entry *e)
{
    int r = remove_entry(cs, (struct cs_entry *)e);
    if (r == 0) {
        cs->st.removals++;
    }
    return r;
}

void cs_mark_stale(struct cs *cs, const struct cs_entry *e)
{
    (void)cs;
    ((struct cs_entry *)e)->stale_at = 0;
}

size_t cs_purge_stale(struct cs *cs, uint64_t now, size_t max)
{
    size_t done = 0;
    struct cs_entry *e = cs->head->lru_next;
    while (e != cs->head && done < max) {
        struct cs_entry *n = e->lru_next;
        if (cs_entry_is_stale(e, now)) {
            remove_entry(cs, e);
            cs->st.removals++;
            done++;
        }
        e = n;
    }
    return done;
}

const struct cs_entry *cs_first(const struct cs *cs)
{
    return cs->head->next[0];
}

const struct cs_entry *cs_next(const struct cs_entry *e)
{
    return e->next[0];
}

const uint8_t *cs_entry_object(const struct cs_entry *e, size_t *len)
{
    *len = e->len;
    return entry_bytes(e);
}

const uint8_t *cs_entry_digest(const struct cs_entry *e)
{
    return e->digest;
}

const uint8_t *cs_entry_name(const struct cs_entry *e, size_t *len)
{
    *len = e->name_len;
    return entry_bytes(e) + e->name_off;
}

uint64_t cs_entry_arrival(const struct cs_entry *e)
{
    return e->arrival;
}

int cs_entry_is_stale(const struct cs_entry *e, uint64_t now)
{
    return now >= e->stale_at;
}

void cs_get_stats(const struct cs *cs, struct cs_stats *out)
{
    *out = cs->st;
}

size_t cs_count(const struct cs *cs)
{
    return (size_t)cs->st.entries;
}
