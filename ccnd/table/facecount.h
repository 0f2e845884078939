/* A count per face id (how many PIT downstream records each face holds),
 * for the PIT's per-face share, in the core's hash table keyed by face id,
 * so reading, raising or lowering one count is O(1) on average. A face
 * whose count falls to 0 leaves the table, so its size is the number of
 * faces holding something. */
#ifndef CCND_TABLE_FACECOUNT_H
#define CCND_TABLE_FACECOUNT_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/hashtab.h>

struct facecount_entry;

struct facecount {
    struct ccnx_htab faces; /* of struct facecount_entry; empty until the first add */
    /* The entry last looked up: the PIT asks for one face several times in
     * a row (a record added, a face's records dropped one by one). */
    struct facecount_entry *last;
};

#define FACECOUNT_INIT                                                                             \
    {                                                                                              \
        {NULL, 0, 0}, NULL                                                                         \
    }

void facecount_free(struct facecount *fc);
/* Adds one to faceid's count: 0 or CCNX_E_NOMEM. */
int facecount_add(struct facecount *fc, unsigned faceid);
/* Takes one from faceid's count (nothing when it is 0). */
void facecount_sub(struct facecount *fc, unsigned faceid);
size_t facecount_get(const struct facecount *fc, unsigned faceid);
/* The owner's pointer kept with faceid's count, NULL when new, or NULL
 * itself when the count is 0 (valid while the count stays above 0). */
void **facecount_head(struct facecount *fc, unsigned faceid);
/* How many faces have a count above 0. */
size_t facecount_faces(const struct facecount *fc);

#endif
