/* The intrusive hash table (see <ccnx/hashtab.h>). */
#include <ccnx/error.h>
#include <ccnx/hashtab.h>

#include <stdlib.h>

int ccnx_htab_init(struct ccnx_htab *t, size_t buckets)
{
    size_t n = 1;
    while (n < buckets && n < SIZE_MAX / 2 / sizeof *t->buckets) {
        n *= 2;
    }
    t->buckets = calloc(n, sizeof *t->buckets);
    t->mask = n - 1;
    t->count = 0;
    return t->buckets != NULL ? 0 : CCNX_E_NOMEM;
}

void ccnx_htab_free(struct ccnx_htab *t)
{
    free(t->buckets);
    t->buckets = NULL;
    t->mask = 0;
    t->count = 0;
}

/* Doubles the bucket array; without the memory the table stays as it is. */
static void grow(struct ccnx_htab *t)
{
    size_t n = (t->mask + 1) * 2;
    if (n > SIZE_MAX / sizeof *t->buckets) {
        return;
    }
    struct ccnx_hnode **b = calloc(n, sizeof *b);
    if (b == NULL) {
        return;
    }
    for (size_t i = 0; i <= t->mask; i++) {
        struct ccnx_hnode *x = t->buckets[i];
        while (x != NULL) {
            struct ccnx_hnode *next = x->next;
            x->next = b[x->hash & (n - 1)];
            b[x->hash & (n - 1)] = x;
            x = next;
        }
    }
    free(t->buckets);
    t->buckets = b;
    t->mask = n - 1;
}

void ccnx_htab_insert(struct ccnx_htab *t, struct ccnx_hnode *n, uint64_t hash)
{
    if (t->count > t->mask) {
        grow(t);
    }
    n->hash = hash;
    struct ccnx_hnode **b = &t->buckets[hash & t->mask];
    n->next = *b;
    *b = n;
    t->count++;
}

void ccnx_htab_remove(struct ccnx_htab *t, struct ccnx_hnode *n)
{
    struct ccnx_hnode **pp = &t->buckets[n->hash & t->mask];
    while (*pp != NULL && *pp != n) {
        pp = &(*pp)->next;
    }
    if (*pp == n) {
        *pp = n->next;
        n->next = NULL;
        t->count--;
    }
}
