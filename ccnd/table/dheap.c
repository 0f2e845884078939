/* The deadline min-heap (see dheap.h). */
#include "table/dheap.h"

#include <ccnx/error.h>

#include <stdlib.h>

void dheap_init(struct dheap *h)
{
    h->v = NULL;
    h->n = h->cap = 0;
}

void dheap_free(struct dheap *h)
{
    free(h->v); /* the nodes are the owners', who may have freed them already */
    dheap_init(h);
}

static void place(struct dheap *h, size_t i, struct dheap_node *x)
{
    h->v[i] = x;
    x->index = i;
}

static void sift_up(struct dheap *h, size_t i)
{
    struct dheap_node *x = h->v[i];
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (h->v[parent]->when <= x->when) {
            break;
        }
        place(h, i, h->v[parent]);
        i = parent;
    }
    place(h, i, x);
}

static void sift_down(struct dheap *h, size_t i)
{
    struct dheap_node *x = h->v[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n) {
            break;
        }
        if (c + 1 < h->n && h->v[c + 1]->when < h->v[c]->when) {
            c++;
        }
        if (x->when <= h->v[c]->when) {
            break;
        }
        place(h, i, h->v[c]);
        i = c;
    }
    place(h, i, x);
}

int dheap_set(struct dheap *h, struct dheap_node *x, uint64_t when)
{
    if (x->index != DHEAP_NONE) {
        uint64_t old = x->when;
        x->when = when;
        if (when < old) {
            sift_up(h, x->index);
        } else if (when > old) {
            sift_down(h, x->index);
        }
        return 0;
    }
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 64;
        struct dheap_node **v = realloc(h->v, cap * sizeof *v);
        if (v == NULL) {
            return CCNX_E_NOMEM;
        }
        h->v = v;
        h->cap = cap;
    }
    x->when = when;
    place(h, h->n++, x);
    sift_up(h, h->n - 1);
    return 0;
}

void dheap_remove(struct dheap *h, struct dheap_node *x)
{
    size_t i = x->index;
    if (i == DHEAP_NONE) {
        return;
    }
    x->index = DHEAP_NONE;
    struct dheap_node *last = h->v[--h->n];
    if (last == x) {
        return;
    }
    place(h, i, last);
    sift_up(h, i);
    sift_down(h, last->index);
}
