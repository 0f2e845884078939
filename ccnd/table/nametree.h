/* The name tree: a hash table of name prefixes, each node linked to its
 * parent, so that longest-prefix match costs one hash probe per component
 * (O(#components)) whatever the table size, and walks towards the root are
 * pointer chases.
 *
 * Keys are component values, not their ccnb spelling (a component sent as
 * UDATA and one sent as BLOB are the same component). A name is first split
 * into a nametree_name: its key bytes and the hash of every prefix, computed
 * once, incrementally, so probing all prefixes costs one pass over the name.
 *
 * Nodes exist for every ancestor of a node that was inserted. A node is
 * kept while it has children or a non-NULL `data`; nametree_release drops
 * it (and ancestors that become empty) otherwise.
 */
#ifndef CCND_TABLE_NAMETREE_H
#define CCND_TABLE_NAMETREE_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/hashtab.h>

struct nametree;

struct nametree_node {
    struct nametree_node *parent; /* NULL at the root (the empty name) */
    struct ccnx_hnode hn;         /* in the tree's table, by the prefix's hash */
    uint32_t ncomps;
    uint32_t children;
    void *data; /* the owning table's payload */
    size_t keylen;
    uint8_t key[]; /* per component: 4-byte big-endian length, then the bytes */
};

/* A name split for lookups: prefix k (k components) is key[0..ends[k]) with
 * hash hashes[k]. Small names use the inline storage. */
#define NAMETREE_INLINE_COMPS 16
#define NAMETREE_INLINE_KEY   256
struct nametree_name {
    uint32_t ncomps;
    size_t *ends;
    uint64_t *hashes;
    uint8_t *key;
    size_t ends_i[NAMETREE_INLINE_COMPS + 2];
    uint64_t hashes_i[NAMETREE_INLINE_COMPS + 2];
    uint8_t key_i[NAMETREE_INLINE_KEY];
};

/* Splits the encoded Name element name[0..len), plus the optional extra
 * component extra[0..extra_n) when has_extra (an object's digest). May
 * allocate for long names: free with nametree_name_free. 0 or CCNX_E*. */
int nametree_name_init(struct nametree_name *nn, const uint8_t *name, size_t len,
                       const uint8_t *extra, size_t extra_n, int has_extra);
void nametree_name_free(struct nametree_name *nn);

struct nametree *nametree_create(void);
/* Frees every node; payloads are the owner's to free before. */
void nametree_destroy(struct nametree *nt);
size_t nametree_count(const struct nametree *nt);

/* The node for the first `ncomps` components of nn, or NULL. */
struct nametree_node *nametree_find(const struct nametree *nt, const struct nametree_name *nn,
                                    uint32_t ncomps);
/* The same, creating it and its missing ancestors; NULL when out of memory. */
struct nametree_node *nametree_insert(struct nametree *nt, const struct nametree_name *nn,
                                      uint32_t ncomps);
/* The longest prefix of nn (at most max_comps components) that has a node
 * with non-NULL data, or NULL. */
struct nametree_node *nametree_longest(const struct nametree *nt, const struct nametree_name *nn,
                                       uint32_t max_comps);
/* Drops the node if it has no data and no children, then its ancestors
 * likewise. */
void nametree_release(struct nametree *nt, struct nametree_node *node);

/* Calls fn for every node (in no particular order) until it returns nonzero.
 * fn must not insert or release nodes. */
int nametree_foreach(const struct nametree *nt, int (*fn)(struct nametree_node *, void *),
                     void *ctx);

#endif
