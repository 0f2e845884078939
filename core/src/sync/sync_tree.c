/* A set of full names kept in canonical order, with the nodes of its Sync
 * tree built on demand (docs/sync.md, "Our trees").
 *
 * Names are added in any order: new ones wait in a pending run that is
 * sorted and merged before the next ordered use, so a burst of additions
 * costs a sort, not a shift of the whole array per name. Membership is a
 * hash table on the names' digests.
 *
 * Leaves end after a name whose digest's last byte is a multiple of
 * LEAF_SPLIT (or once they hold LEAF_MAX_BYTES), composites after a child
 * whose hash's last byte is a multiple of NODE_SPLIT (or at NODE_MAX_KIDS
 * children): boundaries depend on the names, not on their positions, so an
 * added name changes one leaf and the nodes above it, and a neighbour that
 * shares most of our names shares most of our nodes.
 *
 * Nodes that a rebuild replaced stay answerable for RETIRED_GENS more
 * rebuilds, as long as they take no more than twice the current tree's
 * bytes (RETIRED_MIN_BYTES at least; the oldest go first): a neighbour
 * walks the root we advised a moment ago, and while names keep coming (a
 * repository ingesting a file rebuilds on every heartbeat and for every
 * Root Advise it answers) that root's nodes would otherwise be gone before
 * it asks for them, leaving its walk to wait out each Node Fetch's
 * lifetime. */
#include "sync/sync_internal.h"

#include <ccnx/error.h>
#include <ccnx/hashtab.h>

#include <stdlib.h>
#include <string.h>

#define LEAF_SPLIT        32
#define LEAF_MAX_BYTES    3000
#define NODE_SPLIT        16
#define NODE_MAX_KIDS     64
#define SLAB              1024
#define RETIRED_GENS      32
#define RETIRED_MIN_BYTES (256 * 1024)

struct name_ent {
    struct ccnx_hnode hn;
    uint8_t digest[CCNX_DIGEST_LEN];
    size_t off, len; /* in names */
};

struct built {
    struct ccnx_sync_hash hash;
    size_t off, len; /* in nodes */
    size_t min, max; /* indexes of its first and last names in order */
    uint64_t leaf_count, depth, byte_count;
};

/* The nodes one rebuild replaced: their encodings, and an index sorted by
 * hash. */
struct retired_node {
    struct ccnx_sync_hash hash;
    size_t off, len; /* in nodes */
};
struct retired {
    struct ccnx_buf nodes;
    struct retired_node *idx;
    size_t n;
};

struct ccnx_sync_tree {
    struct ccnx_buf names;
    struct name_ent **slabs;
    size_t nslabs, count;
    struct ccnx_htab by_digest;
    struct name_ent **order; /* [0, sorted) in order, then the pending */
    size_t sorted, order_cap;
    struct ccnx_sync_hash total;
    int dirty;
    struct ccnx_buf nodes;
    struct built *built; /* every node, the root last */
    size_t nbuilt, built_cap;
    struct built **by_hash; /* the same, sorted by hash */
    struct retired retired[RETIRED_GENS];
    size_t retired_next; /* the oldest generation, replaced next */
};

int ccnx_sync_tree_create(struct ccnx_sync_tree **out)
{
    struct ccnx_sync_tree *t = calloc(1, sizeof *t);
    if (t == NULL || ccnx_htab_init(&t->by_digest, 64) != 0) {
        free(t);
        return CCNX_E_NOMEM;
    }
    *out = t;
    return 0;
}

void ccnx_sync_tree_destroy(struct ccnx_sync_tree *t)
{
    if (t == NULL) {
        return;
    }
    for (size_t i = 0; i < t->nslabs; i++) {
        free(t->slabs[i]);
    }
    free(t->slabs);
    ccnx_htab_free(&t->by_digest);
    ccnx_buf_free(&t->names);
    ccnx_buf_free(&t->nodes);
    free(t->order);
    free(t->built);
    free(t->by_hash);
    for (size_t i = 0; i < RETIRED_GENS; i++) {
        ccnx_buf_free(&t->retired[i].nodes);
        free(t->retired[i].idx);
    }
    free(t);
}

static uint64_t digest_key(const uint8_t *d)
{
    uint64_t k;
    memcpy(&k, d, sizeof k); /* a digest's bytes are already uniform */
    return ccnx_hash_mix(k);
}

static struct name_ent *find(const struct ccnx_sync_tree *t, const struct ccnx_sync_hash *h)
{
    uint64_t key = digest_key(h->b);
    for (struct ccnx_hnode *n = ccnx_htab_chain(&t->by_digest, key); n != NULL; n = n->next) {
        struct name_ent *e = CCNX_HTAB_ENTRY(n, struct name_ent, hn);
        if (n->hash == key && memcmp(e->digest, h->b, CCNX_DIGEST_LEN) == 0) {
            return e;
        }
    }
    return NULL;
}

static struct name_ent *new_ent(struct ccnx_sync_tree *t)
{
    if (t->count % SLAB == 0) {
        struct name_ent **grown = realloc(t->slabs, (t->nslabs + 1) * sizeof *grown);
        if (grown == NULL) {
            return NULL;
        }
        t->slabs = grown;
        t->slabs[t->nslabs] = malloc(SLAB * sizeof(struct name_ent));
        if (t->slabs[t->nslabs] == NULL) {
            return NULL;
        }
        t->nslabs++;
    }
    return &t->slabs[t->count / SLAB][t->count % SLAB];
}

int ccnx_sync_tree_add(struct ccnx_sync_tree *t, const uint8_t *name, size_t len)
{
    struct ccnx_sync_hash h;
    if (ccnx_name_check_ccnb(name, len) != 0 || ccnx_sync_name_hash(name, len, &h) != 0) {
        return CCNX_E_VALUE;
    }
    if (find(t, &h) != NULL) {
        return 0;
    }
    if (t->count == t->order_cap) {
        size_t cap = t->order_cap ? 2 * t->order_cap : 256;
        struct name_ent **grown = realloc(t->order, cap * sizeof *grown);
        if (grown == NULL) {
            return CCNX_E_NOMEM;
        }
        t->order = grown;
        t->order_cap = cap;
    }
    struct name_ent *e = new_ent(t);
    if (e == NULL || ccnx_buf_append(&t->names, name, len) != 0) {
        return CCNX_E_NOMEM;
    }
    memcpy(e->digest, h.b, CCNX_DIGEST_LEN);
    e->off = t->names.len - len;
    e->len = len;
    ccnx_htab_insert(&t->by_digest, &e->hn, digest_key(e->digest));
    t->order[t->count++] = e;
    ccnx_sync_hash_add(&t->total, &h);
    t->dirty = 1;
    return 1;
}

int ccnx_sync_tree_has(struct ccnx_sync_tree *t, const uint8_t *name, size_t len)
{
    struct ccnx_sync_hash h;
    if (ccnx_sync_name_hash(name, len, &h) != 0) {
        return 0;
    }
    struct name_ent *e = find(t, &h);
    return e != NULL && e->len == len && memcmp(t->names.data + e->off, name, len) == 0;
}

size_t ccnx_sync_tree_count(const struct ccnx_sync_tree *t)
{
    return t->count;
}

const struct ccnx_sync_hash *ccnx_sync_tree_hash(const struct ccnx_sync_tree *t)
{
    return &t->total;
}

/* ---- Order ---- */

static int ent_less(const struct ccnx_sync_tree *t, const struct name_ent *x,
                    const struct name_ent *y)
{
    const uint8_t *base = t->names.data;
    return ccnx_name_compare_ccnb(base + x->off, x->len, base + y->off, y->len) < 0;
}

/* Merges the runs a[0, n1) and a[n1, n) through tmp. */
static void merge(const struct ccnx_sync_tree *t, struct name_ent **a, size_t n1, size_t n,
                  struct name_ent **tmp)
{
    size_t i = 0, j = n1, k = 0;
    while (i < n1 || j < n) {
        int left = j == n || (i < n1 && !ent_less(t, a[j], a[i]));
        tmp[k++] = left ? a[i++] : a[j++];
    }
    memcpy(a, tmp, n * sizeof *a);
}

/* A stable merge sort (qsort takes no context, and the order needs the
 * tree's names). */
static void sort_run(const struct ccnx_sync_tree *t, struct name_ent **a, size_t n,
                     struct name_ent **tmp)
{
    if (n < 2) {
        return;
    }
    sort_run(t, a, n / 2, tmp);
    sort_run(t, a + n / 2, n - n / 2, tmp);
    merge(t, a, n / 2, n, tmp);
}

/* Sorts the pending run and merges it in. */
static int settle(struct ccnx_sync_tree *t)
{
    if (t->sorted == t->count) {
        return 0;
    }
    struct name_ent **tmp = malloc(t->count * sizeof *tmp);
    if (tmp == NULL) {
        return CCNX_E_NOMEM;
    }
    sort_run(t, t->order + t->sorted, t->count - t->sorted, tmp);
    merge(t, t->order, t->sorted, t->count, tmp);
    free(tmp);
    t->sorted = t->count;
    return 0;
}

/* The first index whose name is not below (above, with after) name. */
static size_t bound(const struct ccnx_sync_tree *t, const uint8_t *name, size_t len, int after)
{
    size_t lo = 0, hi = t->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct name_ent *e = t->order[mid];
        int c = ccnx_name_compare_ccnb(t->names.data + e->off, e->len, name, len);
        if (c < 0 || (after && c == 0)) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

int ccnx_sync_tree_range_hash(struct ccnx_sync_tree *t, const uint8_t *lo, size_t lolen,
                              const uint8_t *hi, size_t hilen, struct ccnx_sync_hash *out)
{
    int rc = settle(t);
    ccnx_sync_hash_clear(out);
    if (rc != 0) {
        return rc;
    }
    size_t end = bound(t, hi, hilen, 1);
    for (size_t i = bound(t, lo, lolen, 0); i < end; i++) {
        struct ccnx_sync_hash h;
        ccnx_sync_hash_set(&h, t->order[i]->digest, CCNX_DIGEST_LEN);
        ccnx_sync_hash_add(out, &h);
    }
    return 0;
}

int ccnx_sync_tree_name(struct ccnx_sync_tree *t, size_t i, const uint8_t **name, size_t *len)
{
    int rc = settle(t);
    if (rc != 0) {
        return rc;
    }
    if (i >= t->count) {
        return CCNX_E_NOTFOUND;
    }
    *name = t->names.data + t->order[i]->off;
    *len = t->order[i]->len;
    return 0;
}

/* ---- Nodes ---- */

static struct built *new_built(struct ccnx_sync_tree *t)
{
    if (t->nbuilt == t->built_cap) {
        size_t cap = t->built_cap ? 2 * t->built_cap : 64;
        struct built *grown = realloc(t->built, cap * sizeof *grown);
        if (grown == NULL) {
            return NULL;
        }
        t->built = grown;
        t->built_cap = cap;
    }
    struct built *b = &t->built[t->nbuilt++];
    memset(b, 0, sizeof *b);
    b->off = t->nodes.len;
    return b;
}

static const struct name_ent *ent(const struct ccnx_sync_tree *t, size_t i)
{
    return t->order[i];
}

/* Closes node b (written from b->off on) with its tail. */
static int close_node(struct ccnx_sync_tree *t, struct built *b)
{
    const struct name_ent *lo = ent(t, b->min), *hi = ent(t, b->max);
    struct sync_node_tail tail = {b->hash,
                                  t->names.data + lo->off,
                                  t->names.data + hi->off,
                                  lo->len,
                                  hi->len,
                                  b->leaf_count,
                                  b->depth,
                                  b->byte_count};
    int rc = sync_node_close(&t->nodes, &tail);
    b->len = t->nodes.len - b->off;
    return rc;
}

/* A leaf of the names order[first..last]. */
static int emit_leaf(struct ccnx_sync_tree *t, size_t first, size_t last)
{
    struct built *b = new_built(t);
    if (b == NULL) {
        return CCNX_E_NOMEM;
    }
    sync_node_open(&t->nodes);
    for (size_t i = first; i <= last; i++) {
        struct ccnx_sync_hash h;
        ccnx_sync_hash_set(&h, ent(t, i)->digest, CCNX_DIGEST_LEN);
        ccnx_sync_hash_add(&b->hash, &h);
        ccnx_buf_append(&t->nodes, t->names.data + ent(t, i)->off, ent(t, i)->len);
    }
    b->min = first;
    b->max = last;
    b->leaf_count = last - first + 1;
    b->depth = 1;
    return close_node(t, b);
}

static int build_leaves(struct ccnx_sync_tree *t)
{
    size_t first = 0, bytes = 0;
    for (size_t i = 0; i < t->count; i++) {
        bytes += ent(t, i)->len;
        int last = i + 1 == t->count;
        int cut = ent(t, i)->digest[CCNX_DIGEST_LEN - 1] % LEAF_SPLIT == 0 ||
                  (!last && bytes + ent(t, i + 1)->len > LEAF_MAX_BYTES);
        if (cut || last) {
            int rc = emit_leaf(t, first, i);
            if (rc != 0) {
                return rc;
            }
            first = i + 1;
            bytes = 0;
        }
    }
    return 0;
}

/* A composite over the built nodes [first..last]. */
static int emit_composite(struct ccnx_sync_tree *t, size_t first, size_t last)
{
    struct built *b = new_built(t);
    if (b == NULL) {
        return CCNX_E_NOMEM;
    }
    sync_node_open(&t->nodes);
    for (size_t i = first; i <= last; i++) {
        const struct built *k = &t->built[i];
        sync_node_add_hash(&t->nodes, &k->hash);
        ccnx_sync_hash_add(&b->hash, &k->hash);
        b->leaf_count += k->leaf_count;
        b->byte_count += k->len + k->byte_count;
        b->depth = k->depth + 1 > b->depth ? k->depth + 1 : b->depth;
    }
    b->min = t->built[first].min;
    b->max = t->built[last].max;
    return close_node(t, b);
}

/* Parents for the nodes [lo, hi): groups of at least two, so every level
 * is smaller than the one below. No group is left with one child: a
 * composite over a single node would have that node's hash (a hash is its
 * elements' sum), and a Node Fetch for it could get either; the last node
 * of a level joins the group before it (NODE_MAX_KIDS + 1 at most). */
static int build_level(struct ccnx_sync_tree *t, size_t lo, size_t hi)
{
    size_t first = lo;
    for (size_t i = lo; i < hi; i++) {
        const struct ccnx_sync_hash *h = &t->built[i].hash;
        int boundary =
            (i > first && h->b[h->len - 1] % NODE_SPLIT == 0) || i + 1 - first >= NODE_MAX_KIDS;
        int cut = i + 1 == hi || (boundary && i + 2 != hi);
        if (cut) {
            int rc = emit_composite(t, first, i);
            if (rc != 0) {
                return rc;
            }
            first = i + 1;
        }
    }
    return 0;
}

static int built_compare(const void *a, const void *b)
{
    const struct built *x = *(struct built *const *)a, *y = *(struct built *const *)b;
    return ccnx_sync_hash_compare(&x->hash, &y->hash);
}

/* bsearch comparators: a hash against a build's index (pointers to its
 * nodes) and against a retired generation's index. */
static int hash_vs_built(const void *key, const void *elem)
{
    return ccnx_sync_hash_compare(key, &(*(struct built *const *)elem)->hash);
}

static int hash_vs_retired(const void *key, const void *elem)
{
    return ccnx_sync_hash_compare(key, &((const struct retired_node *)elem)->hash);
}

static const struct built *find_built(const struct ccnx_sync_tree *t,
                                      const struct ccnx_sync_hash *h)
{
    struct built *const *b =
        t->nbuilt > 0 ? bsearch(h, t->by_hash, t->nbuilt, sizeof *t->by_hash, hash_vs_built) : NULL;
    return b != NULL ? *b : NULL;
}

static const struct retired_node *find_retired(const struct retired *g,
                                               const struct ccnx_sync_hash *h)
{
    return g->n > 0 ? bsearch(h, g->idx, g->n, sizeof *g->idx, hash_vs_retired) : NULL;
}

/* The previous build's nodes, moved aside while the new one is made. */
struct old_build {
    struct ccnx_buf nodes;
    struct built *built;
    size_t nbuilt;
    struct built **by_hash;
};

static void take_old(struct ccnx_sync_tree *t, struct old_build *o)
{
    o->nodes = t->nodes;
    o->built = t->built;
    o->nbuilt = t->nbuilt;
    o->by_hash = t->by_hash;
    ccnx_buf_init(&t->nodes);
    t->built = NULL;
    t->by_hash = NULL;
    t->nbuilt = t->built_cap = 0;
}

/* Empties the oldest generations (never `newest`) while the retired
 * nodes take more than the budget. */
static void drop_oldest_beyond_budget(struct ccnx_sync_tree *t, const struct retired *newest)
{
    size_t total = 0, budget = 2 * t->nodes.len;
    budget = budget > RETIRED_MIN_BYTES ? budget : RETIRED_MIN_BYTES;
    for (size_t i = 0; i < RETIRED_GENS; i++) {
        total += t->retired[i].nodes.len;
    }
    for (size_t i = 0; i < RETIRED_GENS && total > budget; i++) {
        struct retired *g = &t->retired[(t->retired_next + i) % RETIRED_GENS]; /* oldest first */
        if (g == newest) {
            break;
        }
        total -= g->nodes.len;
        ccnx_buf_free(&g->nodes);
        ccnx_buf_init(&g->nodes);
        free(g->idx);
        g->idx = NULL;
        g->n = 0;
    }
}

/* Keeps the old nodes the new build lacks as the newest retired
 * generation (the oldest one goes), then frees the old build. A failure
 * only loses the retired copies. */
static void retire_old(struct ccnx_sync_tree *t, struct old_build *o)
{
    struct retired *g = &t->retired[t->retired_next];
    t->retired_next = (t->retired_next + 1) % RETIRED_GENS;
    ccnx_buf_reset(&g->nodes);
    g->n = 0;
    free(g->idx);
    g->idx = o->nbuilt > 0 ? malloc(o->nbuilt * sizeof *g->idx) : NULL;
    for (size_t i = 0; g->idx != NULL && i < o->nbuilt; i++) {
        const struct built *b = o->by_hash[i]; /* in hash order: the index stays sorted */
        if (find_built(t, &b->hash) != NULL) {
            continue;
        }
        g->idx[g->n] = (struct retired_node){b->hash, g->nodes.len, b->len};
        if (ccnx_buf_append(&g->nodes, o->nodes.data + b->off, b->len) != 0) {
            break;
        }
        g->n++;
    }
    ccnx_buf_free(&o->nodes);
    free(o->built);
    free(o->by_hash);
    drop_oldest_beyond_budget(t, g);
}

static int build(struct ccnx_sync_tree *t)
{
    if (!t->dirty) {
        return 0;
    }
    int rc = settle(t);
    struct old_build old;
    take_old(t, &old);
    rc = rc == 0 ? build_leaves(t) : rc;
    size_t lo = 0;
    while (rc == 0 && t->nbuilt - lo > 1) {
        size_t hi = t->nbuilt;
        rc = build_level(t, lo, hi);
        lo = hi;
    }
    t->by_hash = rc == 0 ? malloc((t->nbuilt + 1) * sizeof *t->by_hash) : NULL;
    if (rc != 0 || t->by_hash == NULL) {
        t->nbuilt = 0;
        retire_old(t, &old);
        return rc != 0 ? rc : CCNX_E_NOMEM;
    }
    for (size_t i = 0; i < t->nbuilt; i++) {
        t->by_hash[i] = &t->built[i];
    }
    qsort(t->by_hash, t->nbuilt, sizeof *t->by_hash, built_compare);
    retire_old(t, &old);
    t->dirty = 0;
    return 0;
}

int sync_tree_built_has(struct ccnx_sync_tree *t, const struct ccnx_sync_hash *h)
{
    return (t->nbuilt > 0 || build(t) == 0) && find_built(t, h) != NULL;
}

int ccnx_sync_tree_root(struct ccnx_sync_tree *t, const uint8_t **p, size_t *n)
{
    int rc = build(t);
    if (rc != 0) {
        return rc;
    }
    if (t->nbuilt == 0) {
        return CCNX_E_NOTFOUND;
    }
    const struct built *root = &t->built[t->nbuilt - 1];
    *p = t->nodes.data + root->off;
    *n = root->len;
    return 0;
}

int ccnx_sync_tree_node(struct ccnx_sync_tree *t, const struct ccnx_sync_hash *h, const uint8_t **p,
                        size_t *n)
{
    /* A rebuild only when the current root itself is asked for (its hash,
     * a sum, goes out in Root Advise before any node is built): the other
     * nodes asked for belong to a root given out earlier, and a rebuild for
     * each Node Fetch while names arrive would cost the whole tree each
     * time and retire what is being walked. */
    int rc = t->nbuilt == 0 || ccnx_sync_hash_equal(h, &t->total) ? build(t) : 0;
    if (rc != 0) {
        return rc;
    }
    const struct built *b = find_built(t, h);
    if (b != NULL) {
        *p = t->nodes.data + b->off;
        *n = b->len;
        return 0;
    }
    for (size_t k = 1; k <= RETIRED_GENS; k++) { /* the newest generation first */
        const struct retired *g = &t->retired[(t->retired_next + RETIRED_GENS - k) % RETIRED_GENS];
        const struct retired_node *r = find_retired(g, h);
        if (r != NULL) {
            *p = g->nodes.data + r->off;
            *n = r->len;
            return 0;
        }
    }
    return CCNX_E_NOTFOUND;
}

size_t ccnx_sync_tree_node_count(struct ccnx_sync_tree *t)
{
    return build(t) == 0 ? t->nbuilt : 0;
}
