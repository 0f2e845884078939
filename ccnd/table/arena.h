/* Memory for content-store entries: large chunks carved in order, with
 * freed blocks kept on lists by size class for the next entry of that class.
 *
 * Why not one malloc per entry: a store that grows (a first fetch of a big
 * file) touches a fresh page for every 4 KB object, and each first touch is
 * a page fault: with malloc about 1.3 faults per 4 KB object, a seventh
 * of ccnd's CPU time in a segmented transfer. Here the pages of a chunk are made
 * present ahead of use in one madvise(MADV_POPULATE_WRITE) per step, so the
 * kernel does the same work without a trap per page. Huge pages are not
 * asked for: on a virtual machine whose host backs memory lazily, zeroing a
 * 2 MB page of never-used memory cost more than the faults it saves.
 *
 * Sizes are rounded up to a multiple of ARENA_GRAIN; blocks beyond
 * ARENA_MAX_BLOCK are not served (the caller uses malloc). Chunks are given
 * back only by arena_destroy, and a freed block serves only its own size
 * class: memory stays at the peak of each class, which suits a store whose
 * objects are mostly of a few sizes (segments of a file). */
#ifndef CCND_TABLE_ARENA_H
#define CCND_TABLE_ARENA_H

#include <stddef.h>

#define ARENA_GRAIN     64u
#define ARENA_MAX_BLOCK (80u * 1024u) /* a 64 KB object with its entry header and key */

struct arena;

struct arena_stats {
    size_t chunks; /* chunks mapped */
    size_t in_use; /* bytes of blocks handed out (rounded sizes) */
    size_t free;   /* bytes of blocks on the free lists */
    size_t reused; /* allocations served from a free list */
};

/* An empty arena (nothing mapped yet); NULL when out of memory. */
struct arena *arena_create(void);
/* Unmaps every chunk: all blocks become invalid. */
void arena_destroy(struct arena *a);
/* A block of at least n bytes (1 <= n <= ARENA_MAX_BLOCK), aligned for any
 * type; NULL when n is out of range or memory is short. */
void *arena_alloc(struct arena *a, size_t n);
/* Gives back a block from arena_alloc(a, n), with the same n. */
void arena_free(struct arena *a, void *p, size_t n);
void arena_get_stats(const struct arena *a, struct arena_stats *out);

#endif
