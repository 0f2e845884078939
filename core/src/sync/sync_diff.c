/* What a neighbour's tree holds that ours lacks (docs/sync.md, "Finding
 * what is missing").
 *
 * A node covers the names from its min to its max; when our names in that
 * range sum to the node's hash we hold exactly what it holds (the sums of
 * two different sets agree only by a 2^-256 accident), so it is skipped
 * without fetching anything under it. Otherwise a leaf's names are looked
 * up one by one and a composite's children are asked for, each hash once:
 * a hash seen before (a loop, or a node shared by two parents) is not asked
 * for again, and a node that was not asked for is refused. */
#include "sync/sync_internal.h"

#include <ccnx/ccnb.h>
#include <ccnx/error.h>
#include <ccnx/hashtab.h>

#include <stdlib.h>
#include <string.h>

/* Every hash asked for, with what became of it. */
struct asked {
    struct ccnx_hnode hn;
    struct ccnx_sync_hash hash;
    unsigned depth; /* of the node it names, the root's being 1 */
    int state;      /* QUEUED, OUT (handed out by next_want), DONE */
};

enum { QUEUED, OUT, DONE };

struct ccnx_sync_diff {
    struct ccnx_sync_tree *local;
    int have_root;
    struct ccnx_htab by_hash;
    struct asked **asked; /* in the order asked */
    size_t nasked, cap, next_queued, pending;
    struct ccnx_buf missing; /* names back to back */
    size_t missing_read;
    struct ccnx_sync_diff_stats stats;
};

int ccnx_sync_diff_create(struct ccnx_sync_tree *local, struct ccnx_sync_diff **out)
{
    struct ccnx_sync_diff *d = calloc(1, sizeof *d);
    if (d == NULL || ccnx_htab_init(&d->by_hash, 64) != 0) {
        free(d);
        return CCNX_E_NOMEM;
    }
    d->local = local;
    *out = d;
    return 0;
}

void ccnx_sync_diff_destroy(struct ccnx_sync_diff *d)
{
    if (d == NULL) {
        return;
    }
    for (size_t i = 0; i < d->nasked; i++) {
        free(d->asked[i]);
    }
    free(d->asked);
    ccnx_htab_free(&d->by_hash);
    ccnx_buf_free(&d->missing);
    free(d);
}

static uint64_t hash_key(const struct ccnx_sync_hash *h)
{
    return ccnx_hash_mix(ccnx_hash_bytes(CCNX_HASH_INIT, h->b, h->len));
}

static struct asked *find(const struct ccnx_sync_diff *d, const struct ccnx_sync_hash *h)
{
    uint64_t key = hash_key(h);
    for (struct ccnx_hnode *n = ccnx_htab_chain(&d->by_hash, key); n != NULL; n = n->next) {
        struct asked *a = CCNX_HTAB_ENTRY(n, struct asked, hn);
        if (n->hash == key && a->hash.len == h->len && memcmp(a->hash.b, h->b, h->len) == 0) {
            return a;
        }
    }
    return NULL;
}

static int ask(struct ccnx_sync_diff *d, const struct ccnx_sync_hash *h, unsigned depth)
{
    if (find(d, h) != NULL) {
        return 0;
    }
    if (d->nasked == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 64;
        struct asked **grown = realloc(d->asked, cap * sizeof *grown);
        if (grown == NULL) {
            return CCNX_E_NOMEM;
        }
        d->asked = grown;
        d->cap = cap;
    }
    struct asked *a = calloc(1, sizeof *a);
    if (a == NULL) {
        return CCNX_E_NOMEM;
    }
    a->hash = *h;
    a->depth = depth;
    a->state = QUEUED;
    ccnx_htab_insert(&d->by_hash, &a->hn, hash_key(h));
    d->asked[d->nasked++] = a;
    d->pending++;
    return 0;
}

static void settle_asked(struct ccnx_sync_diff *d, struct asked *a)
{
    if (a->state != DONE) {
        a->state = DONE;
        d->pending--;
    }
}

/* The node's elements against ours. A composite that lists its own hash
 * (its only child, or itself: a hash is its elements' sum) is refused:
 * a Node Fetch for that hash cannot tell the two apart, so what lies
 * under it could never be asked for. */
static int walk(struct ccnx_sync_diff *d, const uint8_t *p, const struct ccnx_sync_node *nd,
                unsigned depth)
{
    struct ccnx_sync_hash self;
    ccnx_sync_hash_set(&self, p + nd->hash_off, nd->hash_len);
    size_t cursor = 0;
    struct ccnx_sync_elem e;
    while (ccnx_sync_node_elem(p, nd, &cursor, &e) == 1) {
        if (!e.is_hash) {
            d->stats.names_seen++;
            if (!ccnx_sync_tree_has(d->local, p + e.off, e.len)) {
                d->stats.names_missing++;
                ccnx_buf_append(&d->missing, p + e.off, e.len);
            }
            continue;
        }
        struct ccnx_sync_hash h;
        ccnx_sync_hash_set(&h, p + e.off, e.len);
        if (ccnx_sync_hash_equal(&h, &self)) {
            return CCNX_E_VALUE;
        }
        if (sync_tree_built_has(d->local, &h)) {
            d->stats.skipped++; /* we have that very node */
            continue;
        }
        if (depth + 1 > CCNX_SYNC_MAX_DEPTH) {
            return CCNX_E_VALUE;
        }
        int rc = ask(d, &h, depth + 1);
        if (rc != 0) {
            return rc;
        }
    }
    return ccnx_buf_status(&d->missing);
}

/* 1 when our names in the node's range sum to its hash. */
static int same_range(struct ccnx_sync_diff *d, const uint8_t *p, const struct ccnx_sync_node *nd)
{
    struct ccnx_sync_hash ours, theirs;
    ccnx_sync_hash_set(&theirs, p + nd->hash_off, nd->hash_len);
    return ccnx_sync_tree_range_hash(d->local, p + nd->min_off, nd->min_len, p + nd->max_off,
                                     nd->max_len, &ours) == 0 &&
           ccnx_sync_hash_equal(&ours, &theirs);
}

int ccnx_sync_diff_feed(struct ccnx_sync_diff *d, const uint8_t *node, size_t n)
{
    struct ccnx_sync_node nd;
    if (ccnx_sync_node_parse(node, n, &nd) != 0) {
        d->stats.refused++;
        return CCNX_E_VALUE;
    }
    struct ccnx_sync_hash h;
    ccnx_sync_hash_set(&h, node + nd.hash_off, nd.hash_len);
    unsigned depth = 1;
    struct asked *a = find(d, &h);
    if (a != NULL && a->state != DONE) {
        depth = a->depth;
        settle_asked(d, a);
    } else if (d->have_root || a != NULL) {
        d->stats.refused++; /* not asked for, or come twice */
        return CCNX_E_VALUE;
    } else {
        int rc = ask(d, &h, 1); /* the root: never asked for again */
        if (rc != 0) {
            return rc;
        }
        settle_asked(d, d->asked[d->nasked - 1]);
        d->next_queued = d->nasked;
        d->have_root = 1;
    }
    d->stats.nodes++;
    if (same_range(d, node, &nd)) {
        d->stats.skipped++;
        return 0;
    }
    int rc = walk(d, node, &nd, depth);
    if (rc == CCNX_E_VALUE) {
        d->stats.refused++;
    }
    return rc;
}

int ccnx_sync_diff_next_want(struct ccnx_sync_diff *d, struct ccnx_sync_hash *out)
{
    while (d->next_queued < d->nasked) {
        struct asked *a = d->asked[d->next_queued++];
        if (a->state == QUEUED) {
            a->state = OUT;
            *out = a->hash;
            return 1;
        }
    }
    return 0;
}

void ccnx_sync_diff_give_up(struct ccnx_sync_diff *d, const struct ccnx_sync_hash *h)
{
    struct asked *a = find(d, h);
    if (a != NULL) {
        settle_asked(d, a);
    }
}

int ccnx_sync_diff_next_missing(struct ccnx_sync_diff *d, struct ccnx_buf *out)
{
    if (d->missing_read >= d->missing.len) {
        return 0;
    }
    size_t end;
    if (ccnx_ccnb_element_end(d->missing.data, d->missing.len, d->missing_read, &end) != 0) {
        return 0;
    }
    ccnx_buf_reset(out);
    ccnx_buf_append(out, d->missing.data + d->missing_read, end - d->missing_read);
    d->missing_read = end;
    return ccnx_buf_status(out) == 0 ? 1 : CCNX_E_NOMEM;
}

int ccnx_sync_diff_done(const struct ccnx_sync_diff *d)
{
    return d->have_root && d->pending == 0;
}

const struct ccnx_sync_diff_stats *ccnx_sync_diff_stats(const struct ccnx_sync_diff *d)
{
    return &d->stats;
}
