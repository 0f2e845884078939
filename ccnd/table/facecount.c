/* Per-face counts (see facecount.h): linear probing, removal by shifting
 * the following run back, so no tombstones accumulate. */
#include "table/facecount.h"

#include <ccnx/error.h>

#include <stdlib.h>

static size_t home(const struct facecount *fc, unsigned faceid)
{
    return (size_t)((faceid * 0x9E3779B1u) ^ (faceid >> 16)) & (fc->cap - 1);
}

/* The slot holding faceid, or the free slot where it would go. */
static size_t probe(const struct facecount *fc, unsigned faceid)
{
    size_t i = home(fc, faceid);
    while (fc->slots[i].count != 0 && fc->slots[i].faceid != faceid) {
        i = (i + 1) & (fc->cap - 1);
    }
    return i;
}

void facecount_free(struct facecount *fc)
{
    free(fc->slots);
    fc->slots = NULL;
    fc->cap = fc->used = 0;
}

static int grow(struct facecount *fc)
{
    size_t ncap = fc->cap ? fc->cap * 2 : 16;
    struct facecount_slot *old = fc->slots;
    size_t ocap = fc->cap;
    struct facecount_slot *v = calloc(ncap, sizeof *v);
    if (v == NULL) {
        return CCNX_E_NOMEM;
    }
    fc->slots = v;
    fc->cap = ncap;
    for (size_t i = 0; i < ocap; i++) {
        if (old[i].count != 0) {
            fc->slots[probe(fc, old[i].faceid)] = old[i];
        }
    }
    free(old);
    return 0;
}

int facecount_add(struct facecount *fc, unsigned faceid)
{
    /* At most half full, so probe runs stay short. */
    if ((fc->used + 1) * 2 > fc->cap && grow(fc) != 0) {
        return CCNX_E_NOMEM;
    }
    struct facecount_slot *s = &fc->slots[probe(fc, faceid)];
    if (s->count == 0) {
        s->faceid = faceid;
        s->head = NULL;
        fc->used++;
    }
    s->count++;
    return 0;
}

/* Empties the slot at i, moving back the later members of its run. */
static void slot_clear(struct facecount *fc, size_t i)
{
    fc->slots[i].count = 0;
    fc->used--;
    /* Moves back every later member of the run that may sit at i. */
    size_t mask = fc->cap - 1;
    for (size_t j = (i + 1) & mask; fc->slots[j].count != 0; j = (j + 1) & mask) {
        size_t h = home(fc, fc->slots[j].faceid);
        if (((j - h) & mask) >= ((j - i) & mask)) {
            fc->slots[i] = fc->slots[j];
            fc->slots[j].count = 0;
            i = j;
        }
    }
}

void facecount_sub(struct facecount *fc, unsigned faceid)
{
    if (fc->cap == 0) {
        return;
    }
    size_t i = probe(fc, faceid);
    if (fc->slots[i].count == 0 || --fc->slots[i].count > 0) {
        return;
    }
    slot_clear(fc, i);
}

size_t facecount_get(const struct facecount *fc, unsigned faceid)
{
    return fc->cap == 0 ? 0 : fc->slots[probe(fc, faceid)].count;
}

size_t facecount_faces(const struct facecount *fc)
{
    return fc->used;
}

void **facecount_head(struct facecount *fc, unsigned faceid)
{
    if (fc->cap == 0) {
        return NULL;
    }
    struct facecount_slot *s = &fc->slots[probe(fc, faceid)];
    return s->count != 0 ? &s->head : NULL;
}
