/* Per-face counts (see facecount.h): one entry per face holding something,
 * made on its first record and freed with its last. */
#include "table/facecount.h"

#include <ccnx/error.h>

#include <stdlib.h>

struct facecount_entry {
    struct ccnx_hnode hn;
    unsigned faceid;
    uint32_t count; /* above 0 while in the table */
    void *head;     /* the owner's per-face pointer (a list head), NULL when new */
};

#define ENTRY_OF(x) CCNX_HTAB_ENTRY(x, struct facecount_entry, hn)

static struct facecount_entry *find(const struct facecount *fc, unsigned faceid)
{
    if (fc->last != NULL && fc->last->faceid == faceid) {
        return fc->last;
    }
    if (fc->faces.buckets == NULL) {
        return NULL;
    }
    uint64_t h = ccnx_hash_u64(faceid);
    for (struct ccnx_hnode *x = ccnx_htab_chain(&fc->faces, h); x != NULL; x = x->next) {
        if (x->hash == h && ENTRY_OF(x)->faceid == faceid) {
            return ENTRY_OF(x);
        }
    }
    return NULL;
}

void facecount_free(struct facecount *fc)
{
    for (size_t b = 0; fc->faces.buckets != NULL && b <= fc->faces.mask; b++) {
        struct ccnx_hnode *x = fc->faces.buckets[b];
        while (x != NULL) {
            struct ccnx_hnode *next = x->next;
            free(ENTRY_OF(x));
            x = next;
        }
    }
    ccnx_htab_free(&fc->faces);
    fc->last = NULL;
}

int facecount_add(struct facecount *fc, unsigned faceid)
{
    struct facecount_entry *e = find(fc, faceid);
    if (e == NULL) {
        if (fc->faces.buckets == NULL && ccnx_htab_init(&fc->faces, 16) != 0) {
            return CCNX_E_NOMEM;
        }
        e = calloc(1, sizeof *e);
        if (e == NULL) {
            return CCNX_E_NOMEM;
        }
        e->faceid = faceid;
        ccnx_htab_insert(&fc->faces, &e->hn, ccnx_hash_u64(faceid));
    }
    fc->last = e;
    e->count++;
    return 0;
}

void facecount_sub(struct facecount *fc, unsigned faceid)
{
    struct facecount_entry *e = find(fc, faceid);
    if (e != NULL && --e->count == 0) {
        ccnx_htab_remove(&fc->faces, &e->hn);
        fc->last = fc->last == e ? NULL : fc->last;
        free(e);
    }
}

size_t facecount_get(const struct facecount *fc, unsigned faceid)
{
    const struct facecount_entry *e = find(fc, faceid);
    return e != NULL ? e->count : 0;
}

size_t facecount_faces(const struct facecount *fc)
{
    return fc->faces.count;
}

void **facecount_head(struct facecount *fc, unsigned faceid)
{
    struct facecount_entry *e = find(fc, faceid);
    fc->last = e != NULL ? e : fc->last;
    return e != NULL ? &e->head : NULL;
}
