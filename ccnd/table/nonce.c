/* The nonce table: a ring of slots in arrival order plus an open-addressing
 * index (see nonce.h). All memory is allocated up front, so the table can
 * never grow past its capacity. Index cells carry the lower half of their
 * nonce's hash beside the ring position: a probe rejects other nonces, and
 * a deletion finds a cell's home, without reading ring slots, which at 10^5
 * nonces cost a cache miss each. */
#include "table/nonce.h"

#include <ccnx/hashtab.h>

#include <stdlib.h>
#include <string.h>

struct slot {
    uint64_t expires;
    uint64_t hash;
    unsigned faceid;
    uint8_t len;
    uint8_t nonce[NONCE_MAX_LEN];
};

struct nonce_table {
    struct slot *ring; /* capacity slots; [head, head+count) live, in arrival order */
    size_t cap, head, count;
    uint64_t *index; /* hash tag << 32 | ring position + 1, 0 empty; linear probing */
    size_t nindex;   /* power of two, >= 2 * cap */
    struct nonce_stats st;
};

static uint64_t hash_nonce(const uint8_t *p, size_t n)
{
    return ccnx_hash_mix(ccnx_hash_bytes(CCNX_HASH_INIT, p, n));
}

struct nonce_table *nonce_create(size_t capacity)
{
    if (capacity == 0) {
        capacity = 1;
    }
    if (capacity > UINT32_MAX / 4) {
        return NULL;
    }
    struct nonce_table *t = calloc(1, sizeof *t);
    if (t == NULL) {
        return NULL;
    }
    t->cap = capacity;
    t->nindex = 16;
    while (t->nindex < 2 * capacity) {
        t->nindex *= 2;
    }
    t->ring = calloc(capacity, sizeof *t->ring);
    t->index = calloc(t->nindex, sizeof *t->index);
    if (t->ring == NULL || t->index == NULL) {
        nonce_destroy(t);
        return NULL;
    }
    return t;
}

void nonce_destroy(struct nonce_table *t)
{
    if (t != NULL) {
        free(t->ring);
        free(t->index);
        free(t);
    }
}

/* The index is at most 2^31 cells, so the tag holds every home bit. */
#define CELL_TAG(h)   ((uint64_t)(uint32_t)(h) << 32)
#define CELL_HOME(v)  ((size_t)((v) >> 32))
#define CELL_SLOT(v)  ((uint32_t)(v)-1u)
#define CELL(h, slot) (CELL_TAG(h) | ((uint64_t)(slot) + 1u))

/* Index position holding the nonce; SIZE_MAX if absent. */
static size_t index_find(const struct nonce_table *t, uint64_t h, const uint8_t *p, size_t n)
{
    size_t mask = t->nindex - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        uint64_t v = t->index[i];
        if (v == 0) {
            return SIZE_MAX;
        }
        if ((v >> 32) != (uint32_t)h) {
            continue;
        }
        const struct slot *s = &t->ring[CELL_SLOT(v)];
        if (s->hash == h && s->len == n && memcmp(s->nonce, p, n) == 0) {
            return i;
        }
    }
}

/* Deletes index position i, moving later members of its probe run back
 * (no tombstones, so probes stay short however long the table runs). */
static void index_delete(struct nonce_table *t, size_t i)
{
    size_t mask = t->nindex - 1;
    size_t j = i;
    t->index[i] = 0;
    for (;;) {
        j = (j + 1) & mask;
        uint64_t v = t->index[j];
        if (v == 0) {
            return;
        }
        size_t home = CELL_HOME(v) & mask;
        /* Move v back to i unless its home lies cyclically in (i, j]. */
        int stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!stays) {
            t->index[i] = v;
            t->index[j] = 0;
            i = j;
        }
    }
}

static void drop_oldest(struct nonce_table *t)
{
    struct slot *s = &t->ring[t->head];
    size_t i = index_find(t, s->hash, s->nonce, s->len);
    if (i != SIZE_MAX) {
        index_delete(t, i);
    }
    t->head = (t->head + 1) % t->cap;
    t->count--;
    t->st.entries--;
}

int nonce_check(struct nonce_table *t, const uint8_t *nonce, size_t n, unsigned faceid,
                uint64_t now, uint64_t expires, unsigned *faceid_out)
{
    if (n > NONCE_MAX_LEN) {
        n = NONCE_MAX_LEN;
    }
    uint64_t h = hash_nonce(nonce, n);
    size_t i = index_find(t, h, nonce, n);
    if (i != SIZE_MAX) {
        struct slot *s = &t->ring[CELL_SLOT(t->index[i])];
        if (s->expires > now) {
            t->st.duplicates++;
            if (faceid_out != NULL) {
                *faceid_out = s->faceid;
            }
            return NONCE_DUP;
        }
        /* Expired but not yet popped: forget it here so the new one is found. */
        index_delete(t, i);
        s->len = 0;
        s->hash = 0;
    }
    if (t->count == t->cap) {
        drop_oldest(t);
        t->st.evicted++;
    }
    size_t pos = (t->head + t->count) % t->cap;
    struct slot *s = &t->ring[pos];
    *s = (struct slot){expires, h, faceid, (uint8_t)n, {0}};
    memcpy(s->nonce, nonce, n);
    size_t mask = t->nindex - 1;
    for (i = h & mask; t->index[i] != 0; i = (i + 1) & mask) {
    }
    t->index[i] = CELL(h, pos);
    t->count++;
    t->st.entries++;
    t->st.added++;
    return NONCE_NEW;
}

size_t nonce_expire(struct nonce_table *t, uint64_t now)
{
    size_t n = 0;
    while (t->count > 0 && t->ring[t->head].expires <= now) {
        drop_oldest(t);
        n++;
    }
    return n;
}

void nonce_get_stats(const struct nonce_table *t, struct nonce_stats *out)
{
    *out = t->st;
}

size_t nonce_count(const struct nonce_table *t)
{
    return t->count;
}
