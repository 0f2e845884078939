/* A binary min-heap of deadlines whose nodes live in the owners' structs, so
 * that a table can find its earliest deadline in O(1), and add, move or
 * drop one in O(log n), instead of sweeping every record. Ties come out in
 * no particular order. Owners get back from a node with offsetof. */
#ifndef CCND_TABLE_DHEAP_H
#define CCND_TABLE_DHEAP_H

#include <stddef.h>
#include <stdint.h>

#define DHEAP_NONE SIZE_MAX /* index of a node not in any heap */

struct dheap_node {
    uint64_t when;
    size_t index; /* in the heap's array, DHEAP_NONE when out */
};

struct dheap {
    struct dheap_node **v;
    size_t n, cap;
};

void dheap_init(struct dheap *h);
/* Frees the array only: nodes still in it are left as they are. */
void dheap_free(struct dheap *h);

/* Marks a node as in no heap (before its first dheap_set). */
static inline void dheap_node_init(struct dheap_node *x)
{
    x->index = DHEAP_NONE;
}

/* Puts the node in the heap with deadline `when`, or moves it there if it
 * is in already. 0, or CCNX_E_NOMEM (the node is then left out). */
int dheap_set(struct dheap *h, struct dheap_node *x, uint64_t when);
/* Takes the node out (nothing if it is out). */
void dheap_remove(struct dheap *h, struct dheap_node *x);
/* The earliest node, or NULL when empty. */
static inline struct dheap_node *dheap_top(const struct dheap *h)
{
    return h->n > 0 ? h->v[0] : NULL;
}
/* The earliest deadline, UINT64_MAX when empty. */
static inline uint64_t dheap_next(const struct dheap *h)
{
    return h->n > 0 ? h->v[0]->when : UINT64_MAX;
}
static inline int dheap_contains(const struct dheap_node *x)
{
    return x->index != DHEAP_NONE;
}

#endif
