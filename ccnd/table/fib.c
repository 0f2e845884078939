/* The forwarding table on the name tree (see fib.h). */
#include "table/fib.h"

#include "table/nametree.h"

#include <ccnx/buf.h>
#include <ccnx/ccnb.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/hashtab.h>
#include <ccnx/name.h>

#include <stdlib.h>
#include <string.h>

struct fib_entry {
    struct fib_nexthop *hops;
    size_t nhops, cap;
    char *strategy; /* NULL: inherit */
    char *params;
    int64_t strategy_owner; /* who chose the strategy */
    void *state;            /* the owner's (fib_set_state_free) */
};

struct fib {
    struct nametree *nt;
    size_t prefixes;
    uint64_t next_expiry;    /* no next hop expires before this: fib_expire skips its sweep */
    struct ccnx_htab byface; /* struct face_regs by face id */
    void (*state_free)(void *state);
};

/* Where one face is registered: the nodes of its next hops, so a closing
 * face's registrations go without a walk of the table. */
struct face_regs {
    struct ccnx_hnode hn;
    unsigned faceid;
    size_t n, cap;
    struct nametree_node **nodes;
};

#define REGS_OF(x) CCNX_HTAB_ENTRY(x, struct face_regs, hn)

static struct face_regs *regs_find(const struct fib *fib, unsigned faceid)
{
    uint64_t h = ccnx_hash_u64(faceid);
    for (struct ccnx_hnode *x = ccnx_htab_chain(&fib->byface, h); x != NULL; x = x->next) {
        if (x->hash == h && REGS_OF(x)->faceid == faceid) {
            return REGS_OF(x);
        }
    }
    return NULL;
}

static int regs_add(struct fib *fib, unsigned faceid, struct nametree_node *n)
{
    struct face_regs *g = regs_find(fib, faceid);
    if (g == NULL) {
        g = calloc(1, sizeof *g);
        if (g == NULL) {
            return CCNX_E_NOMEM;
        }
        g->faceid = faceid;
        ccnx_htab_insert(&fib->byface, &g->hn, ccnx_hash_u64(faceid));
    }
    if (g->n == g->cap) {
        size_t nc = g->cap ? 2 * g->cap : 4;
        struct nametree_node **v = realloc(g->nodes, nc * sizeof *v);
        if (v == NULL) {
            return CCNX_E_NOMEM; /* an empty g stays: harmless */
        }
        g->nodes = v;
        g->cap = nc;
    }
    g->nodes[g->n++] = n;
    return 0;
}

static void regs_free(struct face_regs *g)
{
    free(g->nodes);
    free(g);
}

static void regs_del(struct fib *fib, unsigned faceid, const struct nametree_node *n)
{
    struct face_regs *g = regs_find(fib, faceid);
    for (size_t i = 0; g != NULL && i < g->n; i++) {
        if (g->nodes[i] == n) {
            g->nodes[i] = g->nodes[--g->n];
            break;
        }
    }
    if (g != NULL && g->n == 0) {
        ccnx_htab_remove(&fib->byface, &g->hn);
        regs_free(g);
    }
}

struct fib *fib_create(void)
{
    struct fib *fib = calloc(1, sizeof *fib);
    if (fib == NULL) {
        return NULL;
    }
    fib->nt = nametree_create();
    if (fib->nt == NULL || ccnx_htab_init(&fib->byface, 16) != 0) {
        nametree_destroy(fib->nt);
        free(fib);
        return NULL;
    }
    fib->next_expiry = UINT64_MAX;
    return fib;
}

void fib_set_state_free(struct fib *fib, void (*fn)(void *state))
{
    fib->state_free = fn;
}

static void entry_free(const struct fib *fib, struct fib_entry *e)
{
    if (e->state != NULL && fib->state_free != NULL) {
        fib->state_free(e->state);
    }
    free(e->hops);
    free(e->strategy);
    free(e->params);
    free(e);
}

static int free_visit(struct nametree_node *n, void *ctx)
{
    if (n->data != NULL) {
        entry_free(ctx, n->data);
        n->data = NULL;
    }
    return 0;
}

void fib_destroy(struct fib *fib)
{
    if (fib == NULL) {
        return;
    }
    nametree_foreach(fib->nt, free_visit, fib);
    nametree_destroy(fib->nt);
    for (size_t i = 0; i <= fib->byface.mask; i++) {
        struct ccnx_hnode *x = fib->byface.buckets[i];
        while (x != NULL) {
            struct ccnx_hnode *next = x->next;
            regs_free(REGS_OF(x));
            x = next;
        }
    }
    ccnx_htab_free(&fib->byface);
    free(fib);
}

/* The tree's node for exactly the prefix, created when asked; NULL when
 * absent or out of memory. */
static struct nametree_node *node_at(struct nametree *nt, const uint8_t *name, size_t len,
                                     int create)
{
    struct nametree_name nn;
    if (nametree_name_init(&nn, name, len, NULL, 0, 0) != 0) {
        return NULL;
    }
    struct nametree_node *n =
        create ? nametree_insert(nt, &nn, nn.ncomps) : nametree_find(nt, &nn, nn.ncomps);
    nametree_name_free(&nn);
    return n;
}

/* The node's entry, created when asked; NULL when absent or out of memory. */
static struct fib_entry *entry_at(struct fib *fib, const uint8_t *name, size_t len, int create,
                                  struct nametree_node **node)
{
    *node = NULL;
    struct nametree_node *n = node_at(fib->nt, name, len, create);
    if (n == NULL) {
        return NULL;
    }
    *node = n;
    if (n->data == NULL && create) {
        n->data = calloc(1, sizeof(struct fib_entry));
        if (n->data == NULL) {
            nametree_release(fib->nt, n);
            *node = NULL;
            return NULL;
        }
        fib->prefixes++;
    }
    return n->data;
}

/* Frees the entry once it holds nothing, and the tree nodes it kept. */
static void entry_maybe_drop(struct fib *fib, struct nametree_node *n)
{
    struct fib_entry *e = n->data;
    if (e != NULL && e->nhops == 0 && e->strategy == NULL) {
        entry_free(fib, e);
        n->data = NULL;
        fib->prefixes--;
        nametree_release(fib->nt, n);
    }
}

int fib_add(struct fib *fib, const uint8_t *name, size_t len, unsigned faceid, unsigned flags,
            uint64_t expires, int64_t owner)
{
    struct nametree_node *n;
    if (ccnx_name_check_ccnb(name, len) != 0) {
        return CCNX_E_INVAL;
    }
    struct fib_entry *e = entry_at(fib, name, len, 1, &n);
    if (e == NULL) {
        return CCNX_E_NOMEM;
    }
    if (expires < fib->next_expiry) {
        fib->next_expiry = expires;
    }
    for (size_t i = 0; i < e->nhops; i++) {
        if (e->hops[i].faceid == faceid) {
            e->hops[i].flags = flags;
            e->hops[i].expires = expires;
            return 0;
        }
    }
    if (e->nhops == e->cap) {
        size_t nc = e->cap ? 2 * e->cap : 2;
        struct fib_nexthop *h = realloc(e->hops, nc * sizeof *h);
        if (h == NULL) {
            entry_maybe_drop(fib, n);
            return CCNX_E_NOMEM;
        }
        e->hops = h;
        e->cap = nc;
    }
    if (regs_add(fib, faceid, n) != 0) {
        entry_maybe_drop(fib, n);
        return CCNX_E_NOMEM;
    }
    e->hops[e->nhops++] = (struct fib_nexthop){faceid, flags, expires, owner};
    return 0;
}

struct fib_nexthop *fib_find(struct fib *fib, const uint8_t *name, size_t len, unsigned faceid)
{
    struct nametree_node *n;
    struct fib_entry *e =
        ccnx_name_check_ccnb(name, len) == 0 ? entry_at(fib, name, len, 0, &n) : NULL;
    for (size_t i = 0; e != NULL && i < e->nhops; i++) {
        if (e->hops[i].faceid == faceid) {
            return &e->hops[i];
        }
    }
    return NULL;
}

/* Removes the hops of node n's entry for which `drop` says so, and (with
 * index) their places in the per-face index; returns how many. */
static size_t filter_hops(struct fib *fib, struct nametree_node *n,
                          int (*drop)(const struct fib_nexthop *, uint64_t), uint64_t arg,
                          int index)
{
    struct fib_entry *e = n->data;
    size_t k = 0, removed = 0;
    for (size_t i = 0; i < e->nhops; i++) {
        if (drop(&e->hops[i], arg)) {
            if (index) {
                regs_del(fib, e->hops[i].faceid, n);
            }
            removed++;
        } else {
            e->hops[k++] = e->hops[i];
        }
    }
    e->nhops = k;
    return removed;
}

static int drop_face(const struct fib_nexthop *h, uint64_t faceid)
{
    return h->faceid == faceid;
}

static int drop_expired(const struct fib_nexthop *h, uint64_t now)
{
    return h->expires <= now;
}

int fib_remove(struct fib *fib, const uint8_t *name, size_t len, unsigned faceid)
{
    struct nametree_node *n;
    struct fib_entry *e = entry_at(fib, name, len, 0, &n);
    if (e == NULL || filter_hops(fib, n, drop_face, faceid, 1) == 0) {
        return CCNX_E_NOTFOUND;
    }
    entry_maybe_drop(fib, n);
    return 0;
}

/* Applies a filter to every entry. Nodes emptied are collected first and
 * released afterwards, since releasing changes the hash chains. */
struct sweep {
    struct fib *fib;
    int (*drop)(const struct fib_nexthop *, uint64_t);
    uint64_t arg;
    size_t removed;
    uint64_t next; /* earliest expiry among the hops kept */
    struct nametree_node **empty;
    size_t nempty, cap;
};

static int sweep_visit(struct nametree_node *n, void *ctx)
{
    struct sweep *s = ctx;
    struct fib_entry *e = n->data;
    if (e == NULL) {
        return 0;
    }
    size_t r = filter_hops(s->fib, n, s->drop, s->arg, 1);
    s->removed += r;
    for (size_t i = 0; i < e->nhops; i++) {
        s->next = e->hops[i].expires < s->next ? e->hops[i].expires : s->next;
    }
    if (r != 0 && e->nhops == 0 && e->strategy == NULL) {
        if (s->nempty == s->cap) {
            size_t nc = s->cap ? 2 * s->cap : 16;
            struct nametree_node **v = realloc(s->empty, nc * sizeof *v);
            if (v == NULL) {
                return 0; /* the entry stays, empty: harmless */
            }
            s->empty = v;
            s->cap = nc;
        }
        s->empty[s->nempty++] = n;
    }
    return 0;
}

static size_t sweep(struct fib *fib, int (*drop)(const struct fib_nexthop *, uint64_t),
                    uint64_t arg)
{
    struct sweep s = {fib, drop, arg, 0, UINT64_MAX, NULL, 0, 0};
    nametree_foreach(fib->nt, sweep_visit, &s);
    fib->next_expiry = s.next;
    for (size_t i = 0; i < s.nempty; i++) {
        entry_maybe_drop(fib, s.empty[i]);
    }
    free(s.empty);
    return s.removed;
}

int fib_face_registered(const struct fib *fib, unsigned faceid)
{
    const struct face_regs *g = regs_find(fib, faceid);
    return g != NULL && g->n > 0;
}

size_t fib_remove_face(struct fib *fib, unsigned faceid)
{
    struct face_regs *g = regs_find(fib, faceid);
    if (g == NULL) {
        return 0; /* most closing faces registered nothing */
    }
    ccnx_htab_remove(&fib->byface, &g->hn);
    size_t removed = 0;
    /* A node of the list is released only when its own entry empties: its
     * descendants' release stops at it while it holds data. */
    for (size_t i = 0; i < g->n; i++) {
        removed += filter_hops(fib, g->nodes[i], drop_face, faceid, 0);
        entry_maybe_drop(fib, g->nodes[i]);
    }
    regs_free(g);
    return removed;
}

size_t fib_expire(struct fib *fib, uint64_t now)
{
    if (now < fib->next_expiry) {
        return 0; /* the housekeeping tick would otherwise walk every prefix */
    }
    return sweep(fib, drop_expired, now);
}

int fib_set_strategy(struct fib *fib, const uint8_t *name, size_t len, const char *strategy,
                     const char *params, int64_t owner)
{
    struct nametree_node *n;
    if (ccnx_name_check_ccnb(name, len) != 0) {
        return CCNX_E_INVAL;
    }
    struct fib_entry *e = entry_at(fib, name, len, strategy != NULL, &n);
    if (e == NULL) {
        return strategy == NULL ? 0 : CCNX_E_NOMEM;
    }
    char *s = NULL, *p = NULL;
    if (strategy != NULL) {
        s = strdup(strategy);
        p = strdup(params ? params : "");
        if (s == NULL || p == NULL) {
            free(s);
            free(p);
            entry_maybe_drop(fib, n);
            return CCNX_E_NOMEM;
        }
    }
    free(e->strategy);
    free(e->params);
    e->strategy = s;
    e->params = p;
    e->strategy_owner = owner;
    entry_maybe_drop(fib, n);
    return 0;
}

int fib_strategy_owner(const struct fib *fib, const uint8_t *name, size_t len, int64_t *owner)
{
    const struct nametree_node *n = node_at(fib->nt, name, len, 0);
    const struct fib_entry *e = n != NULL ? n->data : NULL;
    if (e == NULL || e->strategy == NULL) {
        return 0;
    }
    *owner = e->strategy_owner;
    return 1;
}

struct others_walk {
    const struct nametree_node *top;
    int64_t owner;
    uint64_t now;
};

static int others_visit(struct nametree_node *n, void *ctx)
{
    const struct others_walk *w = ctx;
    const struct fib_entry *e = n->data;
    if (e == NULL || e->nhops == 0) {
        return 0;
    }
    const struct nametree_node *a = n;
    while (a != NULL && a->ncomps > w->top->ncomps) {
        a = a->parent;
    }
    if (a != w->top) {
        return 0;
    }
    for (size_t i = 0; i < e->nhops; i++) {
        if (e->hops[i].expires > w->now && e->hops[i].owner != w->owner) {
            return 1;
        }
    }
    return 0;
}

int fib_others_under(const struct fib *fib, const uint8_t *name, size_t len, int64_t owner,
                     uint64_t now)
{
    const struct nametree_node *top = node_at(fib->nt, name, len, 0);
    if (top == NULL) {
        return 0;
    }
    struct others_walk w = {top, owner, now};
    return nametree_foreach(fib->nt, others_visit, &w);
}

/* ---- Lookup ---- */

static int has_live_hop(const struct fib_entry *e, uint64_t now)
{
    for (size_t i = 0; i < e->nhops; i++) {
        if (e->hops[i].expires > now) {
            return 1;
        }
    }
    return 0;
}

static void set_add(unsigned *set, size_t *n, unsigned faceid)
{
    for (size_t i = 0; i < *n; i++) {
        if (set[i] == faceid) {
            return;
        }
    }
    if (*n < FIB_MAX_FACES) {
        set[(*n)++] = faceid;
    }
}

static void move_to_end(unsigned *set, size_t n, unsigned faceid)
{
    for (size_t i = 0; i < n; i++) {
        if (set[i] == faceid) {
            memmove(&set[i], &set[i + 1], (n - i - 1) * sizeof *set);
            set[n - 1] = faceid;
            return;
        }
    }
}

/* The reference's accumulation: `want` starts as ACTIVE; after each level
 * it gains CHILD_INHERIT, and CAPTURE_OK when that level had a CAPTURE
 * entry. CAPTURE_OK is tested inverted: once wanted, entries that carry it
 * (consenting to capture) are left out. */
static void collect(const struct nametree_node *n, uint64_t now, struct fib_result *out)
{
    unsigned want = FIB_ACTIVE;
    int have_last = 0;
    unsigned last = 0;
    for (; n != NULL; n = n->parent) {
        const struct fib_entry *e = n->data;
        unsigned more = FIB_CHILD_INHERIT;
        for (size_t i = 0; e != NULL && i < e->nhops; i++) {
            const struct fib_nexthop *h = &e->hops[i];
            if (h->expires <= now) {
                continue;
            }
            if (((h->flags ^ FIB_CAPTURE_OK) & want) == want) {
                set_add(out->faces, &out->nfaces, h->faceid);
                if (h->flags & FIB_TAP) {
                    set_add(out->tap, &out->ntap, h->faceid);
                }
                if (h->flags & FIB_LAST) {
                    have_last = 1;
                    last = h->faceid;
                }
            }
            out->namespace_flags |= h->flags;
            if (h->flags & FIB_CAPTURE) {
                more |= FIB_CAPTURE_OK;
            }
        }
        want |= more;
    }
    if (have_last) {
        move_to_end(out->faces, out->nfaces, last);
    }
}

int fib_lookup(const struct fib *fib, const uint8_t *name, size_t len, uint64_t now,
               struct fib_result *out)
{
    struct nametree_name nn;
    memset(out, 0, sizeof *out);
    out->prefix_comps = (uint32_t)-1;
    if (nametree_name_init(&nn, name, len, NULL, 0, 0) != 0) {
        return CCNX_E_INVAL;
    }
    /* Longest prefix that has an entry at all, then up to one with a live
     * next hop (the reference has already dropped expired ones). */
    struct nametree_node *n = nametree_longest(fib->nt, &nn, nn.ncomps);
    nametree_name_free(&nn);
    for (const struct nametree_node *s = n; s != NULL; s = s->parent) {
        const struct fib_entry *e = s->data;
        if (e != NULL && e->strategy != NULL) {
            out->strategy = e->strategy;
            out->params = e->params;
            out->strategy_comps = (uint32_t)s->ncomps;
            break;
        }
    }
    while (n != NULL && (n->data == NULL || !has_live_hop(n->data, now))) {
        n = n->parent;
    }
    if (n == NULL) {
        return 0;
    }
    out->prefix_comps = n->ncomps;
    out->state = &((struct fib_entry *)n->data)->state;
    collect(n, now, out);
    return 0;
}

/* ---- Iteration ---- */

struct visit {
    fib_visit_fn fn;
    void *ctx;
};

/* Rebuilds the encoded Name from the node's key. */
static int node_name(const struct nametree_node *n, struct ccnx_buf *b)
{
    ccnx_ccnb_open(b, CCNX_DTAG_Name);
    for (size_t pos = 0; pos + 4 <= n->keylen;) {
        const uint8_t *k = n->key + pos;
        size_t cl = ((size_t)k[0] << 24) | ((size_t)k[1] << 16) | ((size_t)k[2] << 8) | k[3];
        ccnx_ccnb_append_blob_element(b, CCNX_DTAG_Component, k + 4, cl);
        pos += 4 + cl;
    }
    ccnx_ccnb_append_closer(b);
    return ccnx_buf_status(b);
}

static int visit_node(struct nametree_node *n, void *ctx)
{
    struct visit *v = ctx;
    const struct fib_entry *e = n->data;
    if (e == NULL) {
        return 0;
    }
    struct ccnx_buf b = CCNX_BUF_INIT;
    int r = node_name(n, &b);
    if (r == 0) {
        r = v->fn(b.data, b.len, e->hops, e->nhops, e->strategy, e->params, v->ctx);
    }
    ccnx_buf_free(&b);
    return r;
}

int fib_foreach(const struct fib *fib, fib_visit_fn fn, void *ctx)
{
    struct visit v = {fn, ctx};
    return nametree_foreach(fib->nt, visit_node, &v);
}

size_t fib_prefix_count(const struct fib *fib)
{
    return fib->prefixes;
}
