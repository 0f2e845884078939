/* The name tree: chained hash of prefixes with parent links (see nametree.h). */
#include "table/nametree.h"

#include <ccnx/error.h>
#include <ccnx/hashtab.h>
#include <ccnx/name.h>

#include <stdlib.h>
#include <string.h>

struct nametree {
    struct ccnx_htab nodes;
};

#define NODE_OF(x) CCNX_HTAB_ENTRY(x, struct nametree_node, hn)

/* ---- Splitting names ---- */

static int grow_name(struct nametree_name *nn, size_t need_comps, size_t need_key)
{
    if (need_comps + 2 > NAMETREE_INLINE_COMPS + 2 && nn->ends == nn->ends_i) {
        size_t *e = malloc((need_comps + 2) * sizeof *e);
        uint64_t *h = malloc((need_comps + 2) * sizeof *h);
        if (e == NULL || h == NULL) {
            free(e);
            free(h);
            return CCNX_E_NOMEM;
        }
        nn->ends = e;
        nn->hashes = h;
    }
    if (need_key > NAMETREE_INLINE_KEY) {
        nn->key = malloc(need_key);
        if (nn->key == NULL) {
            return CCNX_E_NOMEM;
        }
    }
    return 0;
}

static void put_comp(struct nametree_name *nn, size_t *pos, const uint8_t *p, size_t n)
{
    uint8_t *k = nn->key + *pos;
    k[0] = (uint8_t)(n >> 24);
    k[1] = (uint8_t)(n >> 16);
    k[2] = (uint8_t)(n >> 8);
    k[3] = (uint8_t)n;
    if (n != 0) {
        memcpy(k + 4, p, n);
    }
    nn->hashes[nn->ncomps + 1] = ccnx_hash_bytes(nn->hashes[nn->ncomps], k, n + 4);
    *pos += n + 4;
    nn->ends[++nn->ncomps] = *pos;
}

int nametree_name_init(struct nametree_name *nn, const uint8_t *name, size_t len,
                       const uint8_t *extra, size_t extra_n, int has_extra)
{
    struct ccnx_name_iter it;
    struct ccnx_comp c;
    int r;
    nn->ncomps = 0;
    nn->ends = nn->ends_i;
    nn->hashes = nn->hashes_i;
    nn->key = nn->key_i;
    int count = ccnx_name_count_ccnb(name, len);
    if (count < 0) {
        return CCNX_E_INVAL;
    }
    /* The encoding is longer than the key except for 4 bytes per component. */
    size_t need_key = len + 4 * ((size_t)count + 1) + extra_n;
    if ((r = grow_name(nn, (size_t)count + 1, need_key)) != 0) {
        nametree_name_free(nn);
        return r;
    }
    nn->ends[0] = 0;
    nn->hashes[0] = CCNX_HASH_INIT;
    size_t pos = 0;
    ccnx_name_iter_init(&it, name, len);
    while ((r = ccnx_name_iter_next(&it, &c)) == 1) {
        put_comp(nn, &pos, c.p, c.n);
    }
    if (r < 0) {
        nametree_name_free(nn);
        return CCNX_E_INVAL;
    }
    if (has_extra) {
        put_comp(nn, &pos, extra, extra_n);
    }
    return 0;
}

void nametree_name_free(struct nametree_name *nn)
{
    if (nn->ends != nn->ends_i) {
        free(nn->ends);
        free(nn->hashes);
    }
    if (nn->key != nn->key_i) {
        free(nn->key);
    }
    nn->ends = nn->ends_i;
    nn->hashes = nn->hashes_i;
    nn->key = nn->key_i;
    nn->ncomps = 0;
}

/* ---- The table ---- */

struct nametree *nametree_create(void)
{
    struct nametree *nt = calloc(1, sizeof *nt);
    if (nt == NULL) {
        return NULL;
    }
    if (ccnx_htab_init(&nt->nodes, 64) != 0) {
        free(nt);
        return NULL;
    }
    return nt;
}

void nametree_destroy(struct nametree *nt)
{
    if (nt == NULL) {
        return;
    }
    for (size_t i = 0; i <= nt->nodes.mask; i++) {
        struct ccnx_hnode *x = nt->nodes.buckets[i];
        while (x != NULL) {
            struct ccnx_hnode *next = x->next;
            free(NODE_OF(x));
            x = next;
        }
    }
    ccnx_htab_free(&nt->nodes);
    free(nt);
}

size_t nametree_count(const struct nametree *nt)
{
    return nt->nodes.count;
}

struct nametree_node *nametree_find(const struct nametree *nt, const struct nametree_name *nn,
                                    uint32_t ncomps)
{
    if (ncomps > nn->ncomps) {
        return NULL;
    }
    uint64_t h = ccnx_hash_mix(nn->hashes[ncomps]);
    size_t klen = nn->ends[ncomps];
    for (struct ccnx_hnode *x = ccnx_htab_chain(&nt->nodes, h); x != NULL; x = x->next) {
        struct nametree_node *n = NODE_OF(x);
        if (x->hash == h && n->keylen == klen && n->ncomps == ncomps &&
            memcmp(n->key, nn->key, klen) == 0) {
            return n;
        }
    }
    return NULL;
}

struct nametree_node *nametree_insert(struct nametree *nt, const struct nametree_name *nn,
                                      uint32_t ncomps)
{
    if (ncomps > nn->ncomps) {
        return NULL;
    }
    struct nametree_node *n = nametree_find(nt, nn, ncomps);
    if (n != NULL) {
        return n;
    }
    struct nametree_node *parent = NULL;
    if (ncomps > 0 && (parent = nametree_insert(nt, nn, ncomps - 1)) == NULL) {
        return NULL;
    }
    size_t klen = nn->ends[ncomps];
    n = malloc(sizeof *n + klen);
    if (n == NULL) {
        if (parent != NULL) {
            nametree_release(nt, parent);
        }
        return NULL;
    }
    memset(n, 0, sizeof *n);
    n->parent = parent;
    n->ncomps = ncomps;
    n->keylen = klen;
    memcpy(n->key, nn->key, klen);
    if (parent != NULL) {
        parent->children++;
    }
    ccnx_htab_insert(&nt->nodes, &n->hn, ccnx_hash_mix(nn->hashes[ncomps]));
    return n;
}

struct nametree_node *nametree_longest(const struct nametree *nt, const struct nametree_name *nn,
                                       uint32_t max_comps)
{
    uint32_t k = max_comps < nn->ncomps ? max_comps : nn->ncomps;
    for (;;) {
        struct nametree_node *n = nametree_find(nt, nn, k);
        if (n != NULL) {
            /* Ancestors of a node always exist: the rest is parent links. */
            for (; n != NULL; n = n->parent) {
                if (n->data != NULL) {
                    return n;
                }
            }
            return NULL;
        }
        if (k == 0) {
            return NULL;
        }
        k--;
    }
}

void nametree_release(struct nametree *nt, struct nametree_node *node)
{
    while (node != NULL && node->data == NULL && node->children == 0) {
        ccnx_htab_remove(&nt->nodes, &node->hn);
        struct nametree_node *parent = node->parent;
        if (parent != NULL) {
            parent->children--;
        }
        free(node);
        node = parent;
    }
}

int nametree_foreach(const struct nametree *nt, int (*fn)(struct nametree_node *, void *),
                     void *ctx)
{
    for (size_t i = 0; i <= nt->nodes.mask; i++) {
        for (struct ccnx_hnode *x = nt->nodes.buckets[i]; x != NULL; x = x->next) {
            int r = fn(NODE_OF(x), ctx);
            if (r != 0) {
                return r;
            }
        }
    }
    return 0;
}
