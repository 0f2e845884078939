/* CCNx Sync, as the 0.8.2 repositories speak it: collections ("slices")
 * kept the same across repositories by comparing the hashes of their name
 * sets and fetching what one side lacks (docs/sync.md).
 *
 * A slice names a topological prefix (where its Sync Interests go), a
 * naming prefix (which content it holds) and filter clauses. The names of
 * a slice's content (full names, ending in the implicit digest) form a
 * tree of nodes: a leaf node lists names, a composite node lists the
 * hashes of its children. A name's hash is its digest component; the hash
 * of a set of names, and of a node, is the sum of its names' hashes as
 * big-endian integers with every carry kept, so the root's hash does not
 * depend on the tree's shape and two repositories holding the same names
 * agree on it whatever their trees look like.
 *
 * Everything here is pure (no I/O): encodings, hashes, a tree of names
 * with its nodes, and a diff that walks a neighbour's nodes against it.
 */
#ifndef CCNX_SYNC_H
#define CCNX_SYNC_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>
#include <ccnx/name.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

#define CCNX_SYNC_VERSION  20110614 /* SyncVersion of slices and nodes */
#define CCNX_SYNC_HASH_MAX 40       /* 32 bytes and room for 2^64 carries */
#define CCNX_SYNC_NODE_MAX 65536    /* a node larger than this is refused */

/* Marker components (name components, not text). */
#define CCNX_SYNC_RA_MARKER   "\xC1.S.ra"          /* Root Advise */
#define CCNX_SYNC_NF_MARKER   "\xC1.S.nf"          /* Node Fetch */
#define CCNX_SYNC_CS_MARKER   "\xC1.S.cs"          /* Create Slice */
#define CCNX_SYNC_LOCALHOST   "\xC1.M.S.localhost" /* where slices are stored */
#define CCNX_SYNC_FRESHNESS_S 4                    /* answers' FreshnessSeconds */
#define CCNX_SYNC_RA_LIFETIME 20                   /* Root Advise Interests, seconds */

/* ---- The combined hash ---- */

/* A big-endian integer of len bytes (0 for the empty set). */
struct ccnx_sync_hash {
    size_t len;
    uint8_t b[CCNX_SYNC_HASH_MAX];
};

void ccnx_sync_hash_clear(struct ccnx_sync_hash *h);
/* h = p[0..n); CCNX_E_TOOBIG when n exceeds CCNX_SYNC_HASH_MAX. */
int ccnx_sync_hash_set(struct ccnx_sync_hash *h, const uint8_t *p, size_t n);
/* acc += v. The result is as long as the longer operand, one byte more
 * when the sum carries out of it (as the reference's sums grow). */
void ccnx_sync_hash_add(struct ccnx_sync_hash *acc, const struct ccnx_sync_hash *v);
/* 1 when a and b are the same number (leading zero bytes ignored). */
int ccnx_sync_hash_equal(const struct ccnx_sync_hash *a, const struct ccnx_sync_hash *b);
/* Bytewise order of the encodings, shorter first (how they sort as name
 * components, in an Exclude). */
int ccnx_sync_hash_compare(const struct ccnx_sync_hash *a, const struct ccnx_sync_hash *b);
/* The hash of a full name (a <Name> element): its last component, which
 * must be a 32-byte digest; CCNX_E_VALUE otherwise. */
int ccnx_sync_name_hash(const uint8_t *name, size_t len, struct ccnx_sync_hash *out);
/* Hex text of h (lower case), for logs and tools. */
int ccnx_sync_hash_hex(const struct ccnx_sync_hash *h, struct ccnx_buf *out);
/* Parses hex text (an even number of digits, at most 2 * HASH_MAX). */
int ccnx_sync_hash_from_hex(struct ccnx_sync_hash *h, const char *hex);

/* ---- Slices ---- */

struct ccnx_sync_slice {
    struct ccnx_name topo;     /* where Root Advise and Node Fetch go */
    struct ccnx_name prefix;   /* the content the slice holds */
    struct ccnx_name *clauses; /* filters: a name must match one, when any */
    size_t nclauses;
};

int ccnx_sync_slice_init(struct ccnx_sync_slice *s);
void ccnx_sync_slice_free(struct ccnx_sync_slice *s);
int ccnx_sync_slice_add_clause(struct ccnx_sync_slice *s, const struct ccnx_name *filter);
/* The SyncConfigSlice element. */
int ccnx_sync_slice_encode(const struct ccnx_sync_slice *s, struct ccnx_buf *out);
/* Replaces s with the slice encoded in p[0..n). */
int ccnx_sync_slice_decode(struct ccnx_sync_slice *s, const uint8_t *p, size_t n);
/* SHA-256 of the encoding: the slice's name in every Sync Interest. */
int ccnx_sync_slice_hash(const struct ccnx_sync_slice *s, uint8_t out[32]);
/* 1 when the name (a <Name> element) belongs to the slice: under its
 * prefix and, when there are clauses, matching one of them. A clause
 * matches a name that it is a prefix of, a component of the single byte
 * 0xFF standing for any one component. */
int ccnx_sync_slice_covers(const struct ccnx_sync_slice *s, const uint8_t *name, size_t len);
/* <topo>/<marker>/<slice hash>: where a slice's Root Advise
 * (CCNX_SYNC_RA_MARKER) or Node Fetch (CCNX_SYNC_NF_MARKER) Interests go,
 * the hash they advise or ask for following. Replaces out. */
int ccnx_sync_slice_prefix(const struct ccnx_sync_slice *s, const char *marker,
                           struct ccnx_name *out);
/* The name a slice is stored under: /%C1.M.S.localhost/%C1.S.cs/<hash>
 * (a Create Slice request writes it there, versioned, into a repository;
 * a GONE object at a newer version deletes it). */
int ccnx_sync_slice_config_name(const struct ccnx_sync_slice *s, struct ccnx_name *out);

/* ---- Root Advise ---- */

/* The roots a Root Advise excludes besides its own: the last
 * CCNX_SYNC_SEEN_MAX roots heard from neighbours (walked, or refused as a
 * lie), a ring, each once. Zeroed memory is an empty set. */
#define CCNX_SYNC_SEEN_MAX 32
struct ccnx_sync_seen {
    struct ccnx_sync_hash h[CCNX_SYNC_SEEN_MAX];
    size_t n, next;
};
void ccnx_sync_seen_add(struct ccnx_sync_seen *s, const struct ccnx_sync_hash *h);
int ccnx_sync_seen_has(const struct ccnx_sync_seen *s, const struct ccnx_sync_hash *h);
void ccnx_sync_seen_clear(struct ccnx_sync_seen *s);

/* A Root Advise Interest, as the reference sends it: ra_prefix
 * (ccnx_sync_slice_prefix with CCNX_SYNC_RA_MARKER) and our root, an
 * Exclude of our root and every root in seen (canonical order, each once;
 * an empty root is left out), the scope (-1: none) and a lifetime in
 * seconds. Replaces out. */
int ccnx_sync_root_advise_interest(struct ccnx_buf *out, const struct ccnx_name *ra_prefix,
                                   const struct ccnx_sync_hash *root,
                                   const struct ccnx_sync_seen *seen, int scope,
                                   unsigned lifetime_s);

/* A Node Fetch Interest, as the reference sends it: nf_prefix
 * (ccnx_sync_slice_prefix with CCNX_SYNC_NF_MARKER) and the node's hash,
 * ChildSelector 1, the scope (-1: none) and a lifetime in seconds.
 * Replaces out. */
int ccnx_sync_node_fetch_interest(struct ccnx_buf *out, const struct ccnx_name *nf_prefix,
                                  const struct ccnx_sync_hash *h, int scope, unsigned lifetime_s);

/* ---- Nodes ---- */

/* A parsed SyncNode: offsets into the caller's buffer. */
struct ccnx_sync_node {
    uint64_t kind, leaf_count, depth, byte_count;
    size_t hash_off, hash_len;   /* SyncContentHash: the node's hash */
    size_t min_off, min_len;     /* the first name under the node (<Name>) */
    size_t max_off, max_len;     /* the last one */
    size_t elems_off, elems_end; /* the elements, back to back */
    size_t nnames, nhashes;      /* leaf names, and children's hashes */
};

/* One element: a name (a whole <Name>) or a child's hash (its bytes). */
struct ccnx_sync_elem {
    int is_hash;
    size_t off, len;
};

/* Parses and checks a node: well formed, elements in strictly increasing
 * order (names canonically, every name a full one), and its hash the sum
 * of its elements' (so a node that lies about its content is refused with
 * CCNX_E_VALUE). */
int ccnx_sync_node_parse(const uint8_t *p, size_t n, struct ccnx_sync_node *out);
/* Element after *cursor (start at 0): 1 with *e, or 0 at the end. */
int ccnx_sync_node_elem(const uint8_t *p, const struct ccnx_sync_node *nd, size_t *cursor,
                        struct ccnx_sync_elem *e);

/* ---- A tree of names ---- */

struct ccnx_sync_tree;

int ccnx_sync_tree_create(struct ccnx_sync_tree **out);
void ccnx_sync_tree_destroy(struct ccnx_sync_tree *t);
/* Adds a full name: 1 when new, 0 when held already, CCNX_E_VALUE for a
 * name without a digest. */
int ccnx_sync_tree_add(struct ccnx_sync_tree *t, const uint8_t *name, size_t len);
int ccnx_sync_tree_has(struct ccnx_sync_tree *t, const uint8_t *name, size_t len);
size_t ccnx_sync_tree_count(const struct ccnx_sync_tree *t);
/* The sum over every name. */
const struct ccnx_sync_hash *ccnx_sync_tree_hash(const struct ccnx_sync_tree *t);
/* The sum over the names in [lo, hi] (canonical order, both <Name>s). */
int ccnx_sync_tree_range_hash(struct ccnx_sync_tree *t, const uint8_t *lo, size_t lolen,
                              const uint8_t *hi, size_t hilen, struct ccnx_sync_hash *out);
/* The name at index i of the canonical order (0 <= i < count). */
int ccnx_sync_tree_name(struct ccnx_sync_tree *t, size_t i, const uint8_t **name, size_t *len);
/* The root node's encoding (built after changes); CCNX_E_NOTFOUND when
 * the tree is empty (an empty collection has no node). */
int ccnx_sync_tree_root(struct ccnx_sync_tree *t, const uint8_t **p, size_t *n);
/* The node whose hash is h, for a Node Fetch: among the nodes of the last
 * build and of the 32 builds before it (within twice the tree's bytes, the
 * oldest dropped first), so that a neighbour walking a
 * root we gave out a moment ago still finds its nodes; CCNX_E_NOTFOUND if
 * none. The tree is rebuilt here only when h is its current root (the
 * sum ccnx_sync_tree_hash gives) or nothing was built yet. */
int ccnx_sync_tree_node(struct ccnx_sync_tree *t, const struct ccnx_sync_hash *h, const uint8_t **p,
                        size_t *n);
/* How many nodes the tree has now (after building). */
size_t ccnx_sync_tree_node_count(struct ccnx_sync_tree *t);

/* ---- What a neighbour has that we lack ---- */

/* Walks a neighbour's tree from its root node against a local tree: a
 * node whose range holds the same sum locally is skipped whole, a
 * composite's children are asked for by hash, a leaf's names we lack come
 * out. Each hash is asked for once, and only nodes asked for (or the root)
 * are taken, so loops and stray nodes go nowhere. */
struct ccnx_sync_diff;

struct ccnx_sync_diff_stats {
    uint64_t nodes, names_seen, names_missing, skipped, refused;
};

/* local is read while the diff runs: do not destroy it before the diff. */
int ccnx_sync_diff_create(struct ccnx_sync_tree *local, struct ccnx_sync_diff **out);
void ccnx_sync_diff_destroy(struct ccnx_sync_diff *d);
/* A node of the neighbour's: first its root, then nodes asked for. Returns
 * 0, or CCNX_E_VALUE for a node that does not parse or check, that was
 * not asked for, or that nests deeper than the limit (counted refused). */
int ccnx_sync_diff_feed(struct ccnx_sync_diff *d, const uint8_t *node, size_t n);
/* The next hash to fetch (Node Fetch): 1 and *out, or 0. */
int ccnx_sync_diff_next_want(struct ccnx_sync_diff *d, struct ccnx_sync_hash *out);
/* Forget a wanted hash that could not be fetched. */
void ccnx_sync_diff_give_up(struct ccnx_sync_diff *d, const struct ccnx_sync_hash *h);
/* The next name the local tree lacks: 1 and the <Name> copied into out,
 * or 0. */
int ccnx_sync_diff_next_missing(struct ccnx_sync_diff *d, struct ccnx_buf *out);
/* 1 when every node asked for has come (or was given up). */
int ccnx_sync_diff_done(const struct ccnx_sync_diff *d);
const struct ccnx_sync_diff_stats *ccnx_sync_diff_stats(const struct ccnx_sync_diff *d);

CCNX_API_END

#endif
