/* Chunked allocation with size-class free lists for content-store entries
 * (see arena.h). */
#include "table/arena.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

/* Freed blocks are poisoned in sanitizer builds, so that a use after free
 * of an entry is still reported although the memory stays mapped. */
#if defined(__SANITIZE_ADDRESS__)
#define ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ASAN 1
#endif
#endif
#ifdef ARENA_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n)   ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n)   ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define CHUNK_SIZE    ((size_t)4 << 20)
#define POPULATE_STEP ((size_t)256 << 10) /* pages made present per madvise */
#define NCLASSES      (ARENA_MAX_BLOCK / ARENA_GRAIN)

struct free_block {
    struct free_block *next;
};

struct arena {
    uint8_t *bump, *end; /* the unused part of the newest chunk */
    uint8_t *ready;      /* its pages below this are present */
    int populate;        /* 0 once the kernel refused MADV_POPULATE_WRITE */
    uint8_t **chunks;
    size_t capchunks;
    struct free_block *free[NCLASSES]; /* [c - 1]: blocks of c grains */
    struct arena_stats st;
};

struct arena *arena_create(void)
{
    struct arena *a = calloc(1, sizeof(*a));
    if (a != NULL) {
        a->populate = 1;
    }
    return a;
}

void arena_destroy(struct arena *a)
{
    if (a == NULL) {
        return;
    }
    for (size_t i = 0; i < a->st.chunks; i++) {
        UNPOISON(a->chunks[i], CHUNK_SIZE); /* the next mapping here starts clean */
        munmap(a->chunks[i], CHUNK_SIZE);
    }
    free(a->chunks);
    free(a);
}

/* Bytes left to carve in the newest chunk. */
static size_t arena_left(const struct arena *a)
{
    return a->bump != NULL ? (size_t)(a->end - a->bump) : 0;
}

static void push_free(struct arena *a, void *p, size_t grains)
{
    struct free_block *b = p;
    b->next = a->free[grains - 1];
    a->free[grains - 1] = b;
    a->st.free += grains * ARENA_GRAIN;
    POISON(p, grains * ARENA_GRAIN);
}

/* Maps a new chunk; the old one's unused tail goes to its size class. */
static int new_chunk(struct arena *a)
{
    if (a->st.chunks == a->capchunks) {
        size_t cap = a->capchunks ? 2 * a->capchunks : 16;
        uint8_t **c = realloc(a->chunks, cap * sizeof(*c));
        if (c == NULL) {
            return -1;
        }
        a->chunks = c;
        a->capchunks = cap;
    }
    void *m = mmap(NULL, CHUNK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        return -1;
    }
    size_t tail = arena_left(a) / ARENA_GRAIN;
    if (tail > 0) {
        UNPOISON(a->bump, tail * ARENA_GRAIN);
        push_free(a, a->bump, tail);
    }
    a->chunks[a->st.chunks++] = m;
    a->bump = a->ready = m;
    a->end = a->bump + CHUNK_SIZE;
    POISON(m, CHUNK_SIZE);
    return 0;
}

/* Makes the pages up to the bump pointer present, a step at a time. */
static void make_ready(struct arena *a)
{
    while (a->populate && a->ready < a->bump) {
        size_t step = (size_t)(a->end - a->ready);
        step = step < POPULATE_STEP ? step : POPULATE_STEP;
        if (madvise(a->ready, step, MADV_POPULATE_WRITE) != 0 && errno == EINVAL) {
            a->populate = 0; /* older kernel: the pages fault in on first use */
            break;
        }
        a->ready += step;
    }
}

void *arena_alloc(struct arena *a, size_t n)
{
    if (n == 0 || n > ARENA_MAX_BLOCK) {
        return NULL;
    }
    size_t grains = (n + ARENA_GRAIN - 1) / ARENA_GRAIN, size = grains * ARENA_GRAIN;
    struct free_block *b = a->free[grains - 1];
    if (b != NULL) {
        UNPOISON(b, size);
        a->free[grains - 1] = b->next;
        a->st.free -= size;
        a->st.reused++;
        a->st.in_use += size;
        return b;
    }
    if (arena_left(a) < size && new_chunk(a) != 0) {
        return NULL;
    }
    void *p = a->bump;
    a->bump += size;
    make_ready(a);
    UNPOISON(p, size);
    a->st.in_use += size;
    return p;
}

void arena_free(struct arena *a, void *p, size_t n)
{
    if (p == NULL) {
        return;
    }
    size_t grains = (n + ARENA_GRAIN - 1) / ARENA_GRAIN;
    a->st.in_use -= grains * ARENA_GRAIN;
    push_free(a, p, grains);
}

void arena_get_stats(const struct arena *a, struct arena_stats *out)
{
    *out = a->st;
}
