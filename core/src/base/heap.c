/* The deadline min-heap (see <ccnx/heap.h>). */
#include <ccnx/error.h>
#include <ccnx/heap.h>

#include <stdlib.h>

void ccnx_heap_init(struct ccnx_heap *h)
{
    h->v = NULL;
    h->n = h->cap = 0;
    h->sets = 0;
}

void ccnx_heap_free(struct ccnx_heap *h)
{
    free(h->v); /* the nodes are the owners', who may have freed them already */
    ccnx_heap_init(h);
}

static int before(const struct ccnx_heap_node *a, const struct ccnx_heap_node *b)
{
    return a->when < b->when || (a->when == b->when && a->order < b->order);
}

static void place(struct ccnx_heap *h, size_t i, struct ccnx_heap_node *x)
{
    h->v[i] = x;
    x->index = i;
}

static void sift_up(struct ccnx_heap *h, size_t i)
{
    struct ccnx_heap_node *x = h->v[i];
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!before(x, h->v[parent])) {
            break;
        }
        place(h, i, h->v[parent]);
        i = parent;
    }
    place(h, i, x);
}

static void sift_down(struct ccnx_heap *h, size_t i)
{
    struct ccnx_heap_node *x = h->v[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n) {
            break;
        }
        if (c + 1 < h->n && before(h->v[c + 1], h->v[c])) {
            c++;
        }
        if (!before(h->v[c], x)) {
            break;
        }
        place(h, i, h->v[c]);
        i = c;
    }
    place(h, i, x);
}

int ccnx_heap_set(struct ccnx_heap *h, struct ccnx_heap_node *x, uint64_t when)
{
    if (x->index != CCNX_HEAP_NONE) {
        x->when = when;
        x->order = h->sets++;
        sift_up(h, x->index);
        sift_down(h, x->index);
        return 0;
    }
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 64;
        struct ccnx_heap_node **v = realloc(h->v, cap * sizeof *v);
        if (v == NULL) {
            return CCNX_E_NOMEM;
        }
        h->v = v;
        h->cap = cap;
    }
    x->when = when;
    x->order = h->sets++;
    place(h, h->n++, x);
    sift_up(h, h->n - 1);
    return 0;
}

void ccnx_heap_remove(struct ccnx_heap *h, struct ccnx_heap_node *x)
{
    size_t i = x->index;
    if (i >= h->n || h->v[i] != x) {
        return; /* out, or a node never initialized (zeroed): not ours */
    }
    x->index = CCNX_HEAP_NONE;
    struct ccnx_heap_node *last = h->v[--h->n];
    if (last == x) {
        return;
    }
    place(h, i, last);
    sift_up(h, i);
    sift_down(h, last->index);
}
