/* An intrusive binary min-heap of deadlines: the nodes live in their
 * owners' structs (owners get back from a node with offsetof), so a table
 * finds its earliest deadline in O(1) and adds, moves or drops one in
 * O(log n) instead of sweeping every record. Nodes with equal deadlines
 * come out in the order they were last set (first set, first out), which
 * an event loop's timers rely on. One heap serves ccnd's tables, its
 * forwarder and event loop, and the client library's timers. */
#ifndef CCNX_HEAP_H
#define CCNX_HEAP_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

#define CCNX_HEAP_NONE SIZE_MAX /* index of a node in no heap */

struct ccnx_heap_node {
    uint64_t when;
    uint64_t order; /* the heap's count when it was set: ties go first in, first out */
    size_t index;   /* in the heap's array, CCNX_HEAP_NONE when out */
};

struct ccnx_heap {
    struct ccnx_heap_node **v;
    size_t n, cap;
    uint64_t sets; /* nodes set so far: the next node's order */
};

void ccnx_heap_init(struct ccnx_heap *h);
/* Frees the array only: nodes still in it are left as they are. */
void ccnx_heap_free(struct ccnx_heap *h);

/* Marks a node as in no heap (before its first ccnx_heap_set). */
static inline void ccnx_heap_node_init(struct ccnx_heap_node *x)
{
    x->index = CCNX_HEAP_NONE;
}

/* Puts the node in the heap with deadline `when`, or moves it there if it
 * is in already (it then goes after the nodes of the same deadline). 0, or
 * CCNX_E_NOMEM (a node not in yet is then left out). */
int ccnx_heap_set(struct ccnx_heap *h, struct ccnx_heap_node *x, uint64_t when);
/* Takes the node out (nothing if it is out, or is not in h: even a zeroed
 * node never set is left alone). */
void ccnx_heap_remove(struct ccnx_heap *h, struct ccnx_heap_node *x);

/* The earliest node, or NULL when empty. */
static inline struct ccnx_heap_node *ccnx_heap_top(const struct ccnx_heap *h)
{
    return h->n > 0 ? h->v[0] : NULL;
}
/* The earliest deadline, UINT64_MAX when empty. */
static inline uint64_t ccnx_heap_next(const struct ccnx_heap *h)
{
    return h->n > 0 ? h->v[0]->when : UINT64_MAX;
}
static inline int ccnx_heap_contains(const struct ccnx_heap_node *x)
{
    return x->index != CCNX_HEAP_NONE;
}

CCNX_API_END

#endif
