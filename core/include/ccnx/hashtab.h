/* An intrusive hash table with chaining: the nodes live in their owners'
 * structs and carry their full hash, so the table never allocates per
 * entry and never hashes twice; owners get back from a node with
 * CCNX_HTAB_ENTRY. The bucket array doubles when the table holds as many
 * nodes as buckets (and stays as it is if memory runs out: chains grow
 * longer, nothing is lost). Lookups walk one chain comparing hashes, then
 * whatever the owner compares. One table type serves ccnd's PIT, name
 * tree, FIB, per-face counts and UDP peers and the client library's
 * pending Interests. */
#ifndef CCNX_HASHTAB_H
#define CCNX_HASHTAB_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

struct ccnx_hnode {
    struct ccnx_hnode *next; /* in its bucket's chain */
    uint64_t hash;
};

struct ccnx_htab {
    struct ccnx_hnode **buckets;
    size_t mask; /* buckets - 1: a power of two less one */
    size_t count;
};

#define CCNX_HTAB_ENTRY(node, type, member) ((type *)((char *)(node)-offsetof(type, member)))

/* An empty table of at least `buckets` buckets (rounded up to a power of
 * two). 0, or CCNX_E_NOMEM. */
int ccnx_htab_init(struct ccnx_htab *t, size_t buckets);
/* Frees the bucket array; the nodes are the owners'. */
void ccnx_htab_free(struct ccnx_htab *t);
/* Adds n with its hash (n must not be in a table). */
void ccnx_htab_insert(struct ccnx_htab *t, struct ccnx_hnode *n, uint64_t hash);
/* Takes n out (n must be in t). */
void ccnx_htab_remove(struct ccnx_htab *t, struct ccnx_hnode *n);

/* The hash the tables' owners use: 64-bit FNV-1a, cheap and incremental.
 * Start from CCNX_HASH_INIT, feed bytes with ccnx_hash_bytes, and pass the
 * result through ccnx_hash_mix before it meets a power-of-two mask (FNV's
 * low bits alone are weak). */
#define CCNX_HASH_INIT 0xcbf29ce484222325ull

static inline uint64_t ccnx_hash_bytes(uint64_t h, const void *bytes, size_t n)
{
    const uint8_t *p = (const uint8_t *)bytes;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ p[i]) * 0x100000001b3ull;
    }
    return h;
}

static inline uint64_t ccnx_hash_mix(uint64_t h)
{
    return h ^ (h >> 29);
}

/* The hash of an integer key (a face id): Fibonacci hashing, its high half
 * folded into the low one, so a power-of-two mask sees every bit of the key. */
static inline uint64_t ccnx_hash_u64(uint64_t key)
{
    uint64_t h = key * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 32);
}

/* The chain where nodes of `hash` are: walk it with ->next and compare
 * ->hash first. */
static inline struct ccnx_hnode *ccnx_htab_chain(const struct ccnx_htab *t, uint64_t hash)
{
    return t->buckets[hash & t->mask];
}

CCNX_API_END

#endif
