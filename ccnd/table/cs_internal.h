/* The content store's insides, shared by cs.c (the skiplist, the index,
 * insertion, lookup, eviction) and cs_query.c (finding, removing and
 * reading entries, statistics). Not for other files: cs.h is the API. */
#ifndef CCND_TABLE_CS_INTERNAL_H
#define CCND_TABLE_CS_INTERNAL_H

#include "table/cs.h"

#include <ccnx/content.h>
#include <ccnx/heap.h>
#include <ccnx/namekey.h>

#include <stddef.h>
#include <stdint.h>

#define CS_MAX_LEVEL  16  /* 4^16 objects before the top level fills */
#define CS_KEY_INLINE 512 /* search keys up to this size need no allocation */

struct cs_entry {
    struct cs_entry *lru_prev, *lru_next; /* lru_next points towards newer use */
    struct cs_entry *prev;                /* level-0 predecessor (the head for the first) */
    struct ccnx_heap_node stale;          /* when: first `now` at which the object is stale */
    uint64_t arrival;
    uint32_t hash; /* of the flat Name, without the digest */
    uint32_t len;  /* object bytes */
    uint32_t keylen;
    uint32_t name_off, name_len, name_count;
    uint32_t pub_off, pub_len;
    uint8_t level;           /* forward pointers in next[] */
    uint8_t covered;         /* prev lies under this entry's Name (sorts first within it) */
    uint8_t lazy;            /* digest not computed yet: the key ends with zeros instead */
    uint8_t used;            /* returned by a lookup since it last reached the LRU front */
    struct cs_entry *next[]; /* then the flat full name, then the object bytes */
};

/* The index keeps each entry's name hash beside it, so a probe passes over
 * other names without reading their entries (a cache miss each). */
struct cs_slot {
    uint32_t hash;
    struct cs_entry *e; /* NULL: empty */
};

struct cs {
    struct cs_entry *head; /* skiplist sentinel (CS_MAX_LEVEL pointers, no object), also the
                              sentinel of the LRU ring: head->lru_next is the oldest */
    int level;             /* levels in use */
    uint64_t rng;
    size_t capacity;
    uint64_t max_bytes; /* object bytes held at most; UINT64_MAX: no bound */
    int64_t tts_default;
    uint32_t tts_limit;
    struct cs_slot *slots; /* exact-name index: open addressing, power of two, load <= 1/2 */
    size_t nslots;
    struct ccnx_heap stale; /* entries by the time they go stale */
    struct arena *mem;      /* entries up to ARENA_MAX_BLOCK bytes; larger ones are malloc'ed */
    uint64_t big_bytes;     /* bytes of the malloc'ed ones */
    struct cs_stats st;
};

static inline const uint8_t *entry_key(const struct cs_entry *e)
{
    return (const uint8_t *)&e->next[e->level];
}

/* The flat Name alone: the key without its digest component. */
static inline size_t entry_name_keylen(const struct cs_entry *e)
{
    return e->keylen - CCNX_NAMEKEY_DIGEST_LEN;
}

static inline const uint8_t *entry_bytes(const struct cs_entry *e)
{
    return entry_key(e) + e->keylen;
}

/* ---- Digests computed when needed ----
 *
 * Hashing every object (2.5 us per 4 KB) was the largest cost of a new
 * object, while the digest only decides something when another key has a
 * 32-byte component at the digest's place: another object of the same
 * Name, a longer name whose next component is 32 bytes long, or a search
 * key (an Interest naming a digest, an Exclude bound) with one there. So
 * an entry may be stored with zeros in place of its digest ("lazy") as
 * long as no other entry's key starts with its Name followed by a 32-byte
 * component: then every stored key sorts the same whatever the digest, and
 * computing it later rewrites the key in place without moving it. The
 * insertions and seeks that could see the difference settle the lazy entry
 * (compute its digest) first. */

static inline void settle(struct cs_entry *e)
{
    if (e->lazy) {
        uint8_t *d = (uint8_t *)entry_key(e) + e->keylen - 32;
        /* The object was parsed on the way in, so hashing cannot fail. */
        ccnx_content_digest(entry_bytes(e), e->len, d);
        e->lazy = 0;
    }
}

static inline struct cs_entry *entry_of_stale(struct ccnx_heap_node *x)
{
    return (struct cs_entry *)((uint8_t *)x - offsetof(struct cs_entry, stale));
}

static inline uint32_t name_hash(const uint8_t *key, size_t len)
{
    return (uint32_t)ccnx_namekey_hash(key, len);
}

/* Takes e out of the skiplist, the index, the LRU ring and the staleness
 * heap, and frees it. 0, or CCNX_E_NOTFOUND. */
int cs_remove_entry(struct cs *cs, struct cs_entry *e);

#endif
