/* The content store: owned copies of ContentObjects in canonical order of
 * their full names (Name plus implicit digest), answering Interests with
 * the one pick algorithm of <ccnx/match.h> (ccnx_match_pick_cursor).
 *
 * Structure: a skiplist (p = 1/4) in canonical order, plus a hash index of
 * exact names in front of it. Why:
 *  - ordered, so the pick walk's seeks (first object under a prefix, past a
 *    child, past an excluded range) are O(log n) and `next` is one pointer
 *    chase;
 *  - every entry keeps its full name as a flat key (<ccnx/namekey.h>: the
 *    Name re-encoded so memcmp is canonical order, then the digest as a
 *    last component), so a comparison during a descent is one memcmp of a
 *    few dozen bytes instead of a ccnb walk of both names;
 *  - most Interests name an object exactly and carry no selectors that
 *    move the start of the walk: the hash index (names without digest)
 *    finds the first object with exactly the Interest's name, and a bit
 *    kept from a back pointer at level 0 tells whether anything else under
 *    that name sorts before it; when nothing does, the walk starts there
 *    without a descent, so such a hit costs a fixed number of memory
 *    accesses whatever the size (only their cache misses grow with it);
 *  - one allocation per object: node header, forward pointers, flat key
 *    and object bytes, carved from the store's arena (table/arena.h: large
 *    chunks whose pages are made present ahead, free lists by size); with
 *    the index's slots and the staleness heap's slot the overhead is under
 *    300 bytes per entry for common names;
 *  - p = 1/4 keeps about 1.33 pointers per node and a search does ~log4(n)
 *    levels.
 *
 * Capacity: a count of objects (CCND_CAP) and, when set, a bound on the
 * bytes the entries cost, the objects with their nodes, keys and index
 * share (CCND_CAP_BYTES). Past either the least recently used
 * object is evicted, by second chance: objects queue in arrival order, and
 * one returned by cs_lookup since it last reached the front goes to the
 * back once instead of out. A hit then only sets a bit in its entry, rather
 * than relinking it between two neighbours that are, in a large store,
 * two more cache misses. The reference's
 * default is (~0U)/2, i.e. effectively unlimited (CS_DEFAULT_CAPACITY).
 * With capacity 0 nothing is kept (the reference makes everything stale at
 * once and trims it).
 *
 * Staleness: an object becomes stale FreshnessSeconds after its arrival
 * (the `now` passed to cs_insert); objects without FreshnessSeconds use the
 * default time-to-stale, and every value is capped by the limit, as the
 * reference's CCND_DEFAULT_TIME_TO_STALE / CCND_MAX_TIME_TO_STALE do
 * (defaults: none, so the limit; 126230400 s, four years). Stale objects
 * answer only Interests that allow stale answers. An Interest with
 * AnswerOriginKind's "mark stale" bit and Scope 0 makes the object it gets
 * stale; the reference's parser refuses that bit with any other Scope, so
 * here it is simply ignored then. Receiving a stale object again makes it
 * fresh (counted as a duplicate).
 *
 * Times are microseconds of a monotonic clock supplied by the caller.
 */
#ifndef CCND_TABLE_CS_H
#define CCND_TABLE_CS_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/content.h>
#include <ccnx/interest.h>

#define CS_DEFAULT_CAPACITY      ((size_t)(~0U / 2))
#define CS_MAX_TIME_TO_STALE     126230400u /* seconds: four years, the reference's limit */
#define CS_DEFAULT_TIME_TO_STALE (-1)       /* none: objects without freshness use the limit */

struct cs;
struct cs_entry;

struct cs_stats {
    uint64_t entries;    /* objects held */
    uint64_t bytes;      /* object bytes held */
    uint64_t charged;    /* what the entries cost, their nodes, keys and index share
                            included: what max_bytes bounds */
    uint64_t hits;       /* cs_lookup calls that returned an object */
    uint64_t misses;     /* cs_lookup calls that returned none */
    uint64_t evictions;  /* objects dropped for capacity */
    uint64_t duplicates; /* inserts of an object already held */
    uint64_t inserts;    /* objects added */
    uint64_t removals;   /* objects removed by cs_remove */
    uint64_t memory;     /* bytes held for entries (node, key, object), the arena's free
                            blocks included: what the store costs beyond its index */
    uint64_t capacity;   /* the bounds: objects */
    uint64_t max_bytes;  /* and bytes charged (UINT64_MAX: none) */
};

/* Allocates an empty store holding at most `capacity` objects; NULL when
 * out of memory. */
struct cs *cs_create(size_t capacity);
void cs_destroy(struct cs *cs);
/* Changes the capacity, evicting least recently used objects past it. */
void cs_set_capacity(struct cs *cs, size_t capacity);
/* Bounds the bytes the entries cost as well (stats.charged: objects with
 * their nodes, keys and index share; 0: no bound), evicting as above. */
void cs_set_max_bytes(struct cs *cs, uint64_t max_bytes);
/* Default time-to-stale for objects without FreshnessSeconds (negative:
 * use the limit) and the limit on any object's (0 keeps the current one). */
void cs_set_staleness(struct cs *cs, int64_t default_seconds, uint32_t limit_seconds);

enum cs_insert_result {
    CS_INSERTED = 0,  /* a new object was stored */
    CS_DUPLICATE = 1, /* the same object (same digest) was already held */
    CS_NOT_KEPT = 2,  /* capacity 0: nothing is stored */
};

/* Stores a copy of the ContentObject obj[0..len) that arrived at `now`.
 * `pc` may be NULL to have the store parse it. Without a `digest` the store
 * computes it only when it needs it (another object of the same Name, a
 * lookup that names or excludes digests; see cs.c), which most objects
 * never do. A stored object's digest is computed at the latest by
 * cs_entry_digest.
 * *out (optional) gets the stored entry (NULL with CS_NOT_KEPT). Returns an
 * enum cs_insert_result, or a negative CCNX_E* code (malformed object, out
 * of memory). May evict the least recently used object. */
int cs_insert(struct cs *cs, const uint8_t *obj, size_t len, const struct ccnx_content_parsed *pc,
              const uint8_t digest[32], uint64_t now, const struct cs_entry **out);

/* The object the store answers the Interest with, or NULL. Counts a hit or
 * a miss, marks the object used (second chance) and applies the mark-stale
 * bit (with Scope 0). The entry stays valid until the next call that
 * inserts, removes or changes the capacity. */
const struct cs_entry *cs_lookup(struct cs *cs, const uint8_t *ibuf,
                                 const struct ccnx_interest_parsed *pi, uint64_t now);

/* The entry with exactly this full name (encoded Name element + digest), or
 * NULL. Counts nothing. */
const struct cs_entry *cs_find(const struct cs *cs, const uint8_t *name, size_t name_len,
                               const uint8_t digest[32]);
/* Removes (and frees) an entry. 0, or CCNX_E_NOTFOUND. */
int cs_remove(struct cs *cs, const struct cs_entry *e);
/* Marks an entry stale now. */
void cs_mark_stale(struct cs *cs, const struct cs_entry *e, uint64_t now);
/* Removes up to `max` stale objects, those stale the longest first (a
 * deadline heap: no scan of fresh objects); returns how many. */
size_t cs_purge_stale(struct cs *cs, uint64_t now, size_t max);

/* Canonical-order iteration (status page, tests). */
const struct cs_entry *cs_first(const struct cs *cs);
const struct cs_entry *cs_next(const struct cs_entry *e);

const uint8_t *cs_entry_object(const struct cs_entry *e, size_t *len);
const uint8_t *cs_entry_digest(const struct cs_entry *e);
/* The encoded Name element inside the object. */
const uint8_t *cs_entry_name(const struct cs_entry *e, size_t *len);
uint64_t cs_entry_arrival(const struct cs_entry *e);
int cs_entry_is_stale(const struct cs_entry *e, uint64_t now);

void cs_get_stats(const struct cs *cs, struct cs_stats *out);
size_t cs_count(const struct cs *cs);

#endif
