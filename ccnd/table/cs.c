/* The content store: a skiplist of single-allocation entries with an
 * exact-name hash index in front (see cs.h). */
#include "table/cs_internal.h"

#include "table/arena.h"

#include <ccnx/error.h>
#include <ccnx/match.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static size_t entry_size(int level, size_t klen, size_t len)
{
    return sizeof(struct cs_entry) + (size_t)level * sizeof(struct cs_entry *) + klen + len;
}

/* What an entry costs the process: its block as the arena rounds it (or
 * malloc's, with its header), its share of the index (at most half full:
 * two slots) and of the staleness heap (a pointer, with room to double).
 * The byte bound holds these, not the object bytes alone, so ccnd's
 * memory stays within a few percent of it (object bytes alone left it
 * 16% over with 4 KB objects). */
static uint64_t entry_charge(const struct cs_entry *e)
{
    size_t n = entry_size(e->level, e->keylen, e->len);
    size_t block = n <= ARENA_MAX_BLOCK ? (n + ARENA_GRAIN - 1) / ARENA_GRAIN * ARENA_GRAIN
                                        : n + 2 * sizeof(size_t);
    return block + 2 * sizeof(struct cs_slot) + 2 * sizeof(void *);
}

static void entry_free(struct cs *cs, struct cs_entry *e)
{
    size_t n = entry_size(e->level, e->keylen, e->len);
    if (n <= ARENA_MAX_BLOCK) {
        arena_free(cs->mem, e, n);
    } else {
        cs->big_bytes -= n;
        free(e);
    }
}

/* 1 when p (possibly the head) lies in the subtree of e's Name. */
static int under_name_of(const struct cs_entry *p, const struct cs_entry *e, const struct cs *cs)
{
    return p != cs->head && ccnx_namekey_subtree_compare(entry_key(p), p->keylen, entry_key(e),
                                                         entry_name_keylen(e)) == 0;
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

/* ---- Exact-name index ---- */

static void index_place(struct cs_slot *slots, size_t n, uint32_t h, struct cs_entry *e)
{
    size_t i = h & (n - 1);
    while (slots[i].e != NULL) {
        i = (i + 1) & (n - 1);
    }
    slots[i] = (struct cs_slot){h, e};
}

/* Makes room for one more entry; 0, or CCNX_E_NOMEM when the table is full
 * and cannot grow. */
static int index_reserve(struct cs *cs)
{
    size_t need = (size_t)cs->st.entries + 1;
    if (need * 2 <= cs->nslots) {
        return 0;
    }
    size_t n = cs->nslots * 2;
    struct cs_slot *v = calloc(n, sizeof *v);
    if (v == NULL) {
        return need < cs->nslots ? 0 : CCNX_E_NOMEM; /* fuller, still correct */
    }
    for (size_t i = 0; i < cs->nslots; i++) {
        if (cs->slots[i].e != NULL) {
            index_place(v, n, cs->slots[i].hash, cs->slots[i].e);
        }
    }
    free(cs->slots);
    cs->slots = v;
    cs->nslots = n;
    return 0;
}

static void index_insert(struct cs *cs, struct cs_entry *e)
{
    index_place(cs->slots, cs->nslots, e->hash, e);
}

/* Empties e's slot, moving later members of its probe run back (no
 * tombstones, so probes stay short however long the store runs). */
static void index_remove(struct cs *cs, struct cs_entry *e)
{
    size_t mask = cs->nslots - 1;
    size_t i = e->hash & mask;
    while (cs->slots[i].e != e) {
        i = (i + 1) & mask;
    }
    for (size_t j = (i + 1) & mask; cs->slots[j].e != NULL; j = (j + 1) & mask) {
        size_t home = cs->slots[j].hash & mask;
        int stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!stays) {
            cs->slots[i] = cs->slots[j];
            i = j;
        }
    }
    cs->slots[i] = (struct cs_slot){0, NULL};
}

/* The first entry in canonical order whose Name is exactly key[0..len)
 * (entries of one Name differ only in their digest), or NULL. */
static struct cs_entry *index_first_named(const struct cs *cs, const uint8_t *key, size_t len)
{
    uint32_t h = name_hash(key, len);
    size_t mask = cs->nslots - 1;
    struct cs_entry *best = NULL;
    for (size_t i = h & mask; cs->slots[i].e != NULL; i = (i + 1) & mask) {
        struct cs_entry *e = cs->slots[i].e;
        if (cs->slots[i].hash != h || entry_name_keylen(e) != len ||
            memcmp(entry_key(e), key, len) != 0) {
            continue;
        }
        if (best == NULL ||
            memcmp(entry_key(e) + len, entry_key(best) + len, CCNX_NAMEKEY_DIGEST_LEN) < 0) {
            best = e;
        }
    }
    return best;
}

/* Settles the entry named exactly key[0..len) if it is lazy (then it is
 * the only one of that Name). */
static void settle_named(const struct cs *cs, const uint8_t *key, size_t len)
{
    struct cs_entry *e = index_first_named(cs, key, len);
    if (e != NULL && e->lazy) {
        settle(e);
    }
}

/* Settles every lazy entry whose key the search or insertion key
 * key[0..len) extends by a 32-byte component at the digest's place. */
static void settle_under(const struct cs *cs, const uint8_t *key, size_t len)
{
    size_t pos = 0, start = 0, n;
    while (ccnx_namekey_next_comp(key, len, &pos, &n) == 1) {
        if (n == 32) {
            settle_named(cs, key, start);
        }
        start = pos;
    }
}

/* ---- Creation ---- */

struct cs *cs_create(size_t capacity)
{
    struct cs *cs = calloc(1, sizeof *cs);
    if (cs == NULL) {
        return NULL;
    }
    cs->head = calloc(1, sizeof *cs->head + CS_MAX_LEVEL * sizeof(struct cs_entry *));
    cs->nslots = 64;
    cs->slots = calloc(cs->nslots, sizeof *cs->slots);
    cs->mem = arena_create();
    if (cs->head == NULL || cs->slots == NULL || cs->mem == NULL) {
        arena_destroy(cs->mem);
        free(cs->head);
        free(cs->slots);
        free(cs);
        return NULL;
    }
    cs->head->level = CS_MAX_LEVEL;
    cs->level = 1;
    cs->rng = 0x9E3779B97F4A7C15ull;
    cs->head->lru_next = cs->head->lru_prev = cs->head;
    ccnx_heap_init(&cs->stale);
    cs->capacity = capacity;
    cs->max_bytes = UINT64_MAX;
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
        entry_free(cs, e);
        e = n;
    }
    arena_destroy(cs->mem);
    ccnx_heap_free(&cs->stale);
    free(cs->slots);
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

/* Fills update[] with the last node at each level whose full name sorts
 * before the flat full name key[0..len). */
static void find_preds(const struct cs *cs, const uint8_t *key, size_t len,
                       struct cs_entry **update)
{
    struct cs_entry *x = cs->head;
    for (int l = cs->level - 1; l >= 0; l--) {
        struct cs_entry *n;
        while ((n = x->next[l]) != NULL &&
               ccnx_namekey_compare(entry_key(n), n->keylen, key, len) < 0) {
            x = n;
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
    if (e->next[0] != NULL) {
        e->next[0]->prev = e->prev;
        e->next[0]->covered = (uint8_t)under_name_of(e->prev, e->next[0], cs);
    }
    while (cs->level > 1 && cs->head->next[cs->level - 1] == NULL) {
        cs->level--;
    }
    lru_unlink(e);
    index_remove(cs, e);
    ccnx_heap_remove(&cs->stale, &e->stale);
    cs->st.entries--;
    cs->st.bytes -= e->len;
    cs->st.charged -= entry_charge(e);
    entry_free(cs, e);
}

int cs_remove_entry(struct cs *cs, struct cs_entry *e)
{
    struct cs_entry *update[CS_MAX_LEVEL];
    find_preds(cs, entry_key(e), e->keylen, update);
    if (update[0]->next[0] != e) {
        return CCNX_E_NOTFOUND;
    }
    unlink_entry(cs, e, update);
    return 0;
}

static int over(const struct cs *cs, size_t limit)
{
    return cs->st.entries > limit || cs->st.charged > cs->max_bytes;
}

/* Evicts from the front of the LRU ring until at most `limit` entries and
 * max_bytes bytes (entry_charge) are held, giving a used entry a second chance at
 * the back. `keep` (the entry just inserted, or NULL) is never evicted:
 * alone and still over the byte bound, it stays until the next insert.
 * Every other entry is passed over at most once, so this ends. */
static void evict_to(struct cs *cs, size_t limit, const struct cs_entry *keep)
{
    while (over(cs, limit) && cs->head->lru_next != cs->head) {
        struct cs_entry *e = cs->head->lru_next;
        if (e == keep && cs->st.entries == 1)
            break;
        if (e->used || e == keep) {
            e->used = 0;
            lru_unlink(e);
            lru_push_newest(cs, e);
            continue;
        }
        cs_remove_entry(cs, e);
        cs->st.evictions++;
    }
}

void cs_set_capacity(struct cs *cs, size_t capacity)
{
    cs->capacity = capacity;
    evict_to(cs, capacity, NULL);
}

void cs_set_max_bytes(struct cs *cs, uint64_t max_bytes)
{
    cs->max_bytes = max_bytes > 0 ? max_bytes : UINT64_MAX;
    evict_to(cs, cs->capacity, NULL);
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

/* A node for the object with the flat key key[0..klen) (name hash h), not
 * linked anywhere yet; NULL when out of memory. */
static struct cs_entry *entry_new(struct cs *cs, const uint8_t *obj, size_t len,
                                  const struct ccnx_content_parsed *pc, const uint8_t *key,
                                  size_t klen, uint32_t h, uint64_t now)
{
    int level = random_level(cs);
    size_t n = entry_size(level, klen, len);
    struct cs_entry *e = n <= ARENA_MAX_BLOCK ? arena_alloc(cs->mem, n) : malloc(n);
    if (e == NULL) {
        return NULL;
    }
    if (n > ARENA_MAX_BLOCK) {
        cs->big_bytes += n;
    }
    e->level = (uint8_t)level;
    e->used = 0;
    e->keylen = (uint32_t)klen;
    memcpy((uint8_t *)entry_key(e), key, klen);
    memcpy((uint8_t *)entry_bytes(e), obj, len);
    e->hash = h;
    e->arrival = now;
    ccnx_heap_node_init(&e->stale);
    e->stale.when = stale_time(cs, pc, now);
    e->len = (uint32_t)len;
    e->name_off = (uint32_t)pc->name.off;
    e->name_len = (uint32_t)pc->name.len;
    e->name_count = pc->name_count;
    e->pub_off = (uint32_t)pc->publisher.off;
    e->pub_len = (uint32_t)pc->publisher.len;
    return e;
}

static void link_entry(struct cs *cs, struct cs_entry *e, struct cs_entry **update)
{
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
    e->prev = update[0];
    e->covered = (uint8_t)under_name_of(e->prev, e, cs);
    if (e->next[0] != NULL) {
        e->next[0]->prev = e;
        e->next[0]->covered = (uint8_t)under_name_of(e, e->next[0], cs);
    }
    lru_push_newest(cs, e);
    index_insert(cs, e);
}

#define CS_NEED_DIGEST 3 /* insert_keyed: the lazy key would collide; digest it first */

/* Links a new node for the object, or finds the one already held, given
 * its flat full name key[0..klen) (the Name's part hashing to h; with
 * `lazy`, the digest's place holds zeros). */
static int insert_keyed(struct cs *cs, const uint8_t *obj, size_t len,
                        const struct ccnx_content_parsed *pc, const uint8_t *key, size_t klen,
                        uint32_t h, int lazy, uint64_t now, const struct cs_entry **out)
{
    struct cs_entry *update[CS_MAX_LEVEL];
    find_preds(cs, key, klen, update);
    struct cs_entry *at = update[0]->next[0];
    size_t named = klen - 32; /* the Name's key and the digest's length byte */
    if (lazy && at != NULL && at->keylen >= klen && memcmp(entry_key(at), key, named) == 0) {
        settle(at); /* it was the only one of its kind, so it does not move */
        return CS_NEED_DIGEST;
    }
    if (at != NULL && ccnx_namekey_compare(entry_key(at), at->keylen, key, klen) == 0) {
        /* Same digest, same object: make it fresh again if it went stale. */
        if (cs_entry_is_stale(at, now)) {
            at->arrival = now;
            ccnx_heap_set(&cs->stale, &at->stale, stale_time(cs, pc, now));
        }
        cs->st.duplicates++;
        *out = at;
        return CS_DUPLICATE;
    }
    if (index_reserve(cs) != 0) {
        return CCNX_E_NOMEM;
    }
    struct cs_entry *e = entry_new(cs, obj, len, pc, key, klen, h, now);
    if (e == NULL) {
        return CCNX_E_NOMEM;
    }
    e->lazy = (uint8_t)lazy;
    if (ccnx_heap_set(&cs->stale, &e->stale, e->stale.when) != 0) {
        entry_free(cs, e);
        return CCNX_E_NOMEM;
    }
    link_entry(cs, e, update);
    cs->st.entries++;
    cs->st.bytes += len;
    cs->st.charged += entry_charge(e);
    cs->st.inserts++;
    *out = e;
    return CS_INSERTED;
}

static int insert_checked(struct cs *cs, const uint8_t *obj, size_t len,
                          const struct ccnx_content_parsed *pc, const uint8_t *digest, uint64_t now,
                          const struct cs_entry **out)
{
    uint8_t inline_key[CS_KEY_INLINE];
    /* A flat key is never longer than the encoded Name it comes from. */
    size_t keymax = pc->name.len + CCNX_NAMEKEY_DIGEST_LEN, klen;
    uint8_t *key = keymax <= sizeof inline_key ? inline_key : malloc(keymax);
    if (key == NULL) {
        return CCNX_E_NOMEM;
    }
    static const uint8_t zeros[32];
    int r = ccnx_namekey_from_name(obj + pc->name.off, pc->name.len, key, &klen, NULL);
    if (r == 0) {
        uint32_t h = name_hash(key, klen);
        settle_under(cs, key, klen);
        size_t nlen = klen;
        if (digest != NULL) {
            settle_named(cs, key, nlen);
        }
        klen += ccnx_namekey_put_comp(key + klen, digest != NULL ? digest : zeros, 32);
        r = insert_keyed(cs, obj, len, pc, key, klen, h, digest == NULL, now, out);
        if (r == CS_NEED_DIGEST) {
            r = ccnx_content_digest(obj, len, key + nlen + 1);
            r = r == 0 ? insert_keyed(cs, obj, len, pc, key, klen, h, 0, now, out) : r;
        }
    }
    if (key != inline_key) {
        free(key);
    }
    return r;
}

int cs_insert(struct cs *cs, const uint8_t *obj, size_t len, const struct ccnx_content_parsed *pc,
              const uint8_t digest[32], uint64_t now, const struct cs_entry **out)
{
    struct ccnx_content_parsed own;
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
    if (cs->capacity == 0) {
        return CS_NOT_KEPT;
    }
    int r = insert_checked(cs, obj, len, pc, digest, now, out);
    if (r == CS_INSERTED && over(cs, cs->capacity)) {
        /* The new entry is passed over, so *out stays valid. */
        evict_to(cs, cs->capacity, *out);
    }
    return r;
}

/* ---- Lookup: the shared pick over a skiplist cursor ---- */

struct cursor {
    const struct cs *cs; /* its lazy entries may be settled: that changes no order */
    struct cs_entry *at;
    uint64_t now;
    struct ccnx_content_parsed pc; /* scratch: only the fields the walk reads */
    /* the flat search key: the walk's prefix (flattened once), then a child */
    const uint8_t *prefix; /* the encoded Name it was made from */
    size_t prefix_len, prefix_keylen;
    uint8_t *key;
    size_t cap;
    uint8_t key_inline[CS_KEY_INLINE];
};

/* Makes c->key hold the flat key of k and sets *len; 0, or <0 when that
 * needs memory there is none of. */
static int cursor_key(struct cursor *c, const struct ccnx_match_key *k, size_t *len)
{
    size_t need = k->len + (k->has_child ? k->child_n + CCNX_NAMEKEY_COMP_MAX : 0);
    if (need > c->cap) {
        uint8_t *p = c->key == c->key_inline ? NULL : c->key;
        p = realloc(p, need);
        if (p == NULL) {
            return CCNX_E_NOMEM;
        }
        if (c->key == c->key_inline && c->prefix != NULL) {
            memcpy(p, c->key_inline, c->prefix_keylen);
        }
        c->key = p;
        c->cap = need;
    }
    if (k->name != c->prefix || k->len != c->prefix_len) {
        if (ccnx_namekey_from_name(k->name, k->len, c->key, &c->prefix_keylen, NULL) != 0) {
            c->prefix = NULL;
            return CCNX_E_INVAL;
        }
        c->prefix = k->name;
        c->prefix_len = k->len;
        settle_under(c->cs, c->key, c->prefix_keylen);
    }
    *len = c->prefix_keylen;
    if (k->has_child) {
        if (k->child_n == 32) {
            settle_named(c->cs, c->key, c->prefix_keylen);
        }
        *len += ccnx_namekey_put_comp(c->key + *len, k->child, k->child_n);
    }
    return 0;
}

/* The first entry under key[0..len) when an entry named exactly so starts
 * that subtree, found without a descent (or a look at its neighbour: the
 * `covered` bit is kept as neighbours come and go); NULL when the index
 * cannot tell. */
static struct cs_entry *fast_first(const struct cs *cs, const uint8_t *key, size_t len)
{
    struct cs_entry *e = index_first_named(cs, key, len);
    if (e == NULL || e->covered) {
        return NULL; /* covered: a longer name under the prefix sorts first */
    }
    return e;
}

static void cursor_seek(void *store, const struct ccnx_match_key *k, int floor)
{
    struct cursor *c = store;
    size_t len;
    if (cursor_key(c, k, &len) != 0) {
        c->at = NULL; /* out of memory for a huge name: answer nothing rather than wrongly */
        return;
    }
    if (floor < 0 && !k->has_child && (c->at = fast_first(c->cs, c->key, len)) != NULL) {
        return;
    }
    struct cs_entry *x = c->cs->head;
    for (int l = c->cs->level - 1; l >= 0; l--) {
        struct cs_entry *n;
        while ((n = x->next[l]) != NULL &&
               ccnx_namekey_subtree_compare(entry_key(n), n->keylen, c->key, len) <= floor) {
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
    /* A lazy digest stays so: the matcher computes it only if it needs it. */
    *out = (struct ccnx_match_candidate){entry_bytes(e), e->len, &c->pc,
                                         e->lazy ? NULL : cs_entry_digest(e),
                                         cs_entry_is_stale(e, c->now)};
    return e;
}

static const struct ccnx_match_cursor_ops cursor_ops = {cursor_seek, cursor_next, cursor_current};

/* Most Interests name one object outright and carry no selectors. The
 * answer is then the first object under the name, found as the walk's
 * first seek finds it; the walk would go on to read the object's bytes to
 * match its name again, a cache miss of its own in a large store. NULL
 * when the walk must decide. */
static struct cs_entry *lookup_plain(struct cursor *c, const uint8_t *ibuf,
                                     const struct ccnx_interest_parsed *pi)
{
    int aok = ccnx_interest_aok(pi);
    if (pi->has_min_suffix || pi->has_max_suffix || pi->exclude.len != 0 ||
        pi->publisher.len != 0 || (pi->child_selector > 0 && (pi->child_selector & 1) != 0) ||
        (aok & CCNX_AOK_CS) == 0) {
        return NULL;
    }
    struct ccnx_match_key k = {ibuf + pi->name.off, pi->name.len, NULL, 0, 0};
    size_t len;
    if (cursor_key(c, &k, &len) != 0) {
        return NULL;
    }
    struct cs_entry *e = fast_first(c->cs, c->key, len);
    if (e == NULL || (cs_entry_is_stale(e, c->now) && (aok & CCNX_AOK_STALE) == 0)) {
        return NULL;
    }
    return e;
}

const struct cs_entry *cs_lookup(struct cs *cs, const uint8_t *ibuf,
                                 const struct ccnx_interest_parsed *pi, uint64_t now)
{
    struct cursor c;
    c.cs = cs;
    c.at = NULL;
    c.now = now;
    memset(&c.pc, 0, sizeof c.pc);
    c.prefix = NULL;
    c.prefix_len = c.prefix_keylen = 0;
    c.key = c.key_inline;
    c.cap = sizeof c.key_inline;
    struct cs_entry *e = lookup_plain(&c, ibuf, pi);
    if (e == NULL) {
        e = (struct cs_entry *)ccnx_match_pick_cursor(&cursor_ops, &c, ibuf, pi,
                                                      CCNX_MATCH_MAX_PROBES);
    }
    if (c.key != c.key_inline) {
        free(c.key);
    }
    if (e == NULL) {
        cs->st.misses++;
        return NULL;
    }
    cs->st.hits++;
    e->used = 1;
    if (pi->scope == 0 && (ccnx_interest_aok(pi) & CCNX_AOK_EXPIRE) != 0) {
        cs_mark_stale(cs, e, now);
    }
    return e;
}
