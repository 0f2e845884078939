/* A count per face id (how many PIT downstream records each face holds),
 * for the PIT's per-face share: an open-addressing hash table keyed by
 * face id, so reading, raising or lowering one count is O(1) on average.
 * Faces whose count falls to 0 leave the table, so its size is the number
 * of faces holding something. */
#ifndef CCND_TABLE_FACECOUNT_H
#define CCND_TABLE_FACECOUNT_H

#include <stddef.h>
#include <stdint.h>

struct facecount_slot {
    unsigned faceid;
    uint32_t count; /* 0: the slot is free */
    void *head;     /* the owner's per-face pointer (a list head), NULL when new */
};

struct facecount {
    struct facecount_slot *slots;
    size_t cap; /* a power of two, or 0 before the first add */
    size_t used;
};

#define FACECOUNT_INIT                                                                             \
    {                                                                                              \
        NULL, 0, 0                                                                                 \
    }

void facecount_free(struct facecount *fc);
/* Adds one to faceid's count: 0 or CCNX_E_NOMEM. */
int facecount_add(struct facecount *fc, unsigned faceid);
/* Takes one from faceid's count (nothing when it is 0). */
void facecount_sub(struct facecount *fc, unsigned faceid);
size_t facecount_get(const struct facecount *fc, unsigned faceid);
/* The owner's pointer kept with faceid's count, or NULL when the count is
 * 0 (valid until the next add, sub or forget). */
void **facecount_head(struct facecount *fc, unsigned faceid);
/* How many faces have a count above 0. */
size_t facecount_faces(const struct facecount *fc);

#endif
