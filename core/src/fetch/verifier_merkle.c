/* Merkle-batched objects checked with as little hashing as possible.
 *
 * Every object's leaf (its signed part) must be hashed, but the path above
 * it is shared with the rest of its batch. Once a root has verified, every
 * node on a path that led to it is authentic: the nodes computed on the way
 * and the sibling digests the Witness supplied (SHA-256 being collision
 * resistant). Those are kept per batch, by node number. The next object of
 * the batch is hashed upward only until it meets a kept node: usually its
 * own leaf, which its neighbour's Witness already supplied, or one level up.
 * A batch costs one RSA operation; a segment about one leaf hash. */
#include "verifier_internal.h"

#include <ccnx/error.h>
#include <ccnx/key.h>
#include <ccnx/merkle.h>

#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>

#define ROOT_CACHE 64   /* roots verified recently (retransmissions reach back) */
#define TREES      4    /* batches whose nodes are kept (in flight at once) */
#define TREE_SLOTS 4096 /* node table per batch: a power of two */
#define TREE_FILL  3072 /* nodes kept per batch at most (a 1024-leaf batch has 2047) */
#define MAX_LEVELS 64   /* node numbers are 64 bits */

struct root_entry {
    uint8_t root[CCNX_SHA256_LEN];
    uint8_t key[CCNX_DIGEST_LEN];
    uint8_t sig[MERKLE_SIG_MAX];
    size_t sig_len;
};

struct node {
    uint64_t index; /* 0: empty slot */
    uint8_t hash[CCNX_SHA256_LEN];
};

/* The authentic nodes of one batch, named by its signature and key. */
struct tree {
    uint8_t key[CCNX_DIGEST_LEN];
    uint8_t sig[MERKLE_SIG_MAX];
    size_t sig_len; /* 0: unused */
    uint64_t used;  /* for eviction: the oldest goes */
    size_t count;
    struct node *nodes; /* TREE_SLOTS, allocated on first use */
};

struct merkle_cache {
    /* SHA-256 fetched once and one context reused: per-call setup would
     * cost more than hashing the 64-byte interior nodes. NULL when
     * unavailable (ccnx_sha256 is used then). */
    EVP_MD *sha;
    EVP_MD_CTX *ctx;
    struct root_entry roots[ROOT_CACHE];
    size_t nroots, next_root;
    struct tree trees[TREES];
    uint64_t clock;
};

/* The nodes one object's check went through, to be kept once authentic. */
struct walk {
    uint64_t index[2 * MAX_LEVELS + 1];
    const uint8_t *hash[2 * MAX_LEVELS + 1];
    size_t n;
    uint8_t computed[MAX_LEVELS + 1][CCNX_SHA256_LEN];
};

int merkle_cache_create(struct merkle_cache **out)
{
    struct merkle_cache *m = calloc(1, sizeof *m);
    if (m == NULL) {
        return CCNX_E_NOMEM;
    }
    m->sha = EVP_MD_fetch(NULL, "SHA256", NULL);
    m->ctx = EVP_MD_CTX_new();
    if (m->sha == NULL || m->ctx == NULL) {
        EVP_MD_free(m->sha);
        EVP_MD_CTX_free(m->ctx);
        m->sha = NULL;
        m->ctx = NULL;
        ERR_clear_error();
    }
    *out = m;
    return 0;
}

void merkle_cache_free(struct merkle_cache *m)
{
    if (m == NULL) {
        return;
    }
    for (size_t i = 0; i < TREES; i++) {
        free(m->trees[i].nodes);
    }
    EVP_MD_free(m->sha);
    EVP_MD_CTX_free(m->ctx);
    free(m);
}

/* ---- Hashing ---- */

static int hash_parts(struct merkle_cache *m, const uint8_t *a, size_t an, const uint8_t *b,
                      size_t bn, uint8_t out[CCNX_SHA256_LEN])
{
    if (m->ctx == NULL) {
        uint8_t both[2 * CCNX_SHA256_LEN];
        if (bn == 0) {
            return ccnx_sha256(a, an, out);
        }
        memcpy(both, a, an);
        memcpy(both + an, b, bn);
        return ccnx_sha256(both, an + bn, out);
    }
    if (EVP_DigestInit_ex2(m->ctx, m->sha, NULL) != 1 || EVP_DigestUpdate(m->ctx, a, an) != 1 ||
        (bn > 0 && EVP_DigestUpdate(m->ctx, b, bn) != 1) ||
        EVP_DigestFinal_ex(m->ctx, out, NULL) != 1) {
        ERR_clear_error();
        return CCNX_E_CRYPTO;
    }
    return 0;
}

/* ---- Verified roots ---- */

static int root_known(const struct merkle_cache *m, const uint8_t *root, const uint8_t *key,
                      const uint8_t *sig, size_t sig_len)
{
    for (size_t i = 0; i < m->nroots; i++) {
        const struct root_entry *e = &m->roots[i];
        if (memcmp(e->root, root, sizeof e->root) == 0 && e->sig_len == sig_len &&
            memcmp(e->key, key, sizeof e->key) == 0 && memcmp(e->sig, sig, sig_len) == 0) {
            return 1;
        }
    }
    return 0;
}

static void root_remember(struct merkle_cache *m, const uint8_t *root, const uint8_t *key,
                          const uint8_t *sig, size_t sig_len)
{
    struct root_entry *e = &m->roots[m->next_root];
    m->next_root = (m->next_root + 1) % ROOT_CACHE;
    if (m->nroots < ROOT_CACHE) {
        m->nroots++;
    }
    memcpy(e->root, root, sizeof e->root);
    memcpy(e->key, key, sizeof e->key);
    memcpy(e->sig, sig, sig_len);
    e->sig_len = sig_len;
}

/* ---- Authentic nodes per batch ---- */

static struct tree *tree_find(struct merkle_cache *m, const uint8_t *key, const uint8_t *sig,
                              size_t sig_len)
{
    for (size_t i = 0; i < TREES; i++) {
        struct tree *t = &m->trees[i];
        if (t->sig_len == sig_len && memcmp(t->sig, sig, sig_len) == 0 &&
            memcmp(t->key, key, sizeof t->key) == 0) {
            t->used = ++m->clock;
            return t;
        }
    }
    return NULL;
}

/* A fresh entry for a batch whose root just verified: the least recently
 * used one is emptied. NULL when its table cannot be allocated. */
static struct tree *tree_new(struct merkle_cache *m, const uint8_t *key, const uint8_t *sig,
                             size_t sig_len)
{
    struct tree *t = &m->trees[0];
    for (size_t i = 1; i < TREES; i++) {
        if (m->trees[i].used < t->used) {
            t = &m->trees[i];
        }
    }
    if (t->nodes == NULL && (t->nodes = malloc(TREE_SLOTS * sizeof *t->nodes)) == NULL) {
        return NULL;
    }
    memset(t->nodes, 0, TREE_SLOTS * sizeof *t->nodes);
    t->count = 0;
    memcpy(t->key, key, sizeof t->key);
    memcpy(t->sig, sig, sig_len);
    t->sig_len = sig_len;
    t->used = ++m->clock;
    return t;
}

static size_t slot_of(uint64_t index)
{
    return (size_t)((index * 0x9e3779b97f4a7c15ULL) >> 40) & (TREE_SLOTS - 1);
}

static const uint8_t *tree_get(const struct tree *t, uint64_t index)
{
    for (size_t i = slot_of(index);; i = (i + 1) & (TREE_SLOTS - 1)) {
        if (t->nodes[i].index == index) {
            return t->nodes[i].hash;
        }
        if (t->nodes[i].index == 0) {
            return NULL;
        }
    }
}

/* Past TREE_FILL nodes a batch just stops growing (its later objects hash
 * their whole path): the table never fills, so lookups always end. */
static void tree_put(struct tree *t, uint64_t index, const uint8_t *hash)
{
    size_t i = slot_of(index);
    while (t->nodes[i].index != 0 && t->nodes[i].index != index) {
        i = (i + 1) & (TREE_SLOTS - 1);
    }
    if (t->nodes[i].index == 0) {
        if (t->count >= TREE_FILL) {
            return;
        }
        t->count++;
        t->nodes[i].index = index;
    }
    memcpy(t->nodes[i].hash, hash, CCNX_SHA256_LEN);
}

static void tree_keep(struct tree *t, const struct walk *w)
{
    for (size_t i = 0; t != NULL && i < w->n; i++) {
        tree_put(t, w->index[i], w->hash[i]);
    }
}

/* ---- Checking ---- */

static void walk_note(struct walk *w, uint64_t index, const uint8_t *hash)
{
    w->index[w->n] = index;
    w->hash[w->n] = hash;
    w->n++;
}

/* Hashes from the leaf upward until a node of t (may be NULL) matches, or
 * to the root. 1: met an authentic node; 0: *top is the computed root;
 * else a CCNX_E_* code. A node of t that differs is ignored: the root then
 * decides, as it would without t. */
static int climb(struct merkle_cache *m, const struct ccnx_merkle_path *path, const uint8_t *obj,
                 const struct ccnx_content_parsed *pc, const struct tree *t, struct walk *w,
                 const uint8_t **top)
{
    uint8_t(*cur)[CCNX_SHA256_LEN] = w->computed;
    int rc = hash_parts(m, obj + pc->signed_part.off, pc->signed_part.len, NULL, 0, *cur);
    uint64_t k = path->node_index;
    for (size_t e = path->count; rc == 0; k >>= 1) {
        const uint8_t *known = t != NULL ? tree_get(t, k) : NULL;
        if (known != NULL && memcmp(known, *cur, CCNX_SHA256_LEN) == 0) {
            return 1;
        }
        walk_note(w, k, *cur);
        if (e-- == 0) {
            break;
        }
        const uint8_t *sib = path->hashes + e * path->hash_stride;
        walk_note(w, k ^ 1, sib);
        rc = (k & 1) ? hash_parts(m, sib, CCNX_SHA256_LEN, *cur, CCNX_SHA256_LEN, cur[1])
                     : hash_parts(m, *cur, CCNX_SHA256_LEN, sib, CCNX_SHA256_LEN, cur[1]);
        cur++;
    }
    *top = *cur;
    return rc;
}

int merkle_cache_verify(struct merkle_cache *m, const uint8_t *obj,
                        const struct ccnx_content_parsed *pc, const struct ccnx_key *key,
                        uint64_t *rsa_ops)
{
    struct ccnx_merkle_path path;
    int rc = ccnx_merkle_witness_parse(obj + pc->witness.off, pc->witness.len, &path);
    if (rc != 0) {
        return rc;
    }
    size_t levels = 0;
    for (uint64_t k = path.node_index; k > 1; k >>= 1) {
        levels++;
    }
    if (path.node_index == 0 || path.count != levels) {
        return CCNX_E_BADSIG;
    }
    const uint8_t *sig = obj + pc->signature_bits.off;
    size_t sig_len = pc->signature_bits.len;
    const uint8_t *kd = ccnx_key_digest(key);
    struct tree *t = tree_find(m, kd, sig, sig_len);
    struct walk w;
    w.n = 0;
    const uint8_t *root = NULL;
    rc = climb(m, &path, obj, pc, t, &w, &root);
    if (rc == 1) {
        tree_keep(t, &w);
        return 0;
    }
    if (rc != 0) {
        return rc;
    }
    const uint8_t *known_root = t != NULL ? tree_get(t, 1) : NULL;
    if (known_root != NULL && memcmp(known_root, root, CCNX_SHA256_LEN) != 0) {
        return CCNX_E_BADSIG; /* one signature cannot sign two roots: no RSA needed */
    }
    if (!root_known(m, root, kd, sig, sig_len)) {
        ++*rsa_ops;
        rc = ccnx_key_verify(key, root, CCNX_SHA256_LEN, sig, sig_len);
        if (rc != 0) {
            return rc;
        }
        root_remember(m, root, kd, sig, sig_len);
    }
    if (known_root == NULL) {
        t = tree_new(m, kd, sig, sig_len);
    }
    tree_keep(t, &w);
    return 0;
}
