/* The entry arena: blocks are distinct, aligned and writable, freed blocks
 * serve later requests of their size class only, the counters add up, and
 * requests out of range are refused. Use after free is left to the
 * sanitizer build (freed blocks are poisoned there). */
#include "testutil.h"

#include "table/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NBLOCKS 3000

static size_t rounded(size_t n)
{
    return (n + ARENA_GRAIN - 1) / ARENA_GRAIN * ARENA_GRAIN;
}

/* Many blocks of assorted sizes, across several chunks: each keeps its own
 * bytes while the others are written. */
static void test_distinct_blocks(void **state)
{
    (void)state;
    struct arena *a = arena_create();
    assert_non_null(a);
    static uint8_t *p[NBLOCKS];
    static size_t len[NBLOCKS];
    size_t total = 0;
    for (size_t i = 0; i < NBLOCKS; i++) {
        len[i] = 1 + (i * 7919) % 9000;
        p[i] = arena_alloc(a, len[i]);
        assert_non_null(p[i]);
        assert_int_equal((uintptr_t)p[i] % 16, 0);
        memset(p[i], (int)(i & 0xff), len[i]);
        total += rounded(len[i]);
    }
    for (size_t i = 0; i < NBLOCKS; i++) {
        assert_int_equal(p[i][0], i & 0xff);
        assert_int_equal(p[i][len[i] - 1], i & 0xff);
    }
    struct arena_stats st;
    arena_get_stats(a, &st);
    assert_int_equal(st.in_use, total);
    assert_true(st.chunks >= 2); /* ~13 MB of blocks in 4 MB chunks */
    for (size_t i = 0; i < NBLOCKS; i++) {
        arena_free(a, p[i], len[i]);
    }
    arena_get_stats(a, &st);
    assert_int_equal(st.in_use, 0);
    assert_true(st.free >= total);
    arena_destroy(a);
}

/* A freed block is handed out again for a request of the same class, and
 * not for another class. */
static void test_reuse_by_class(void **state)
{
    (void)state;
    struct arena *a = arena_create();
    assert_non_null(a);
    void *x = arena_alloc(a, 4300);
    void *y = arena_alloc(a, 100);
    assert_non_null(x);
    assert_non_null(y);
    arena_free(a, x, 4300);
    void *other = arena_alloc(a, 8000);
    assert_non_null(other);
    assert_ptr_not_equal(other, x);
    /* 4300 and 4290 round to the same size: the freed block comes back */
    assert_int_equal(rounded(4300), rounded(4290));
    void *again = arena_alloc(a, 4290);
    assert_ptr_equal(again, x);
    struct arena_stats st;
    arena_get_stats(a, &st);
    assert_int_equal(st.reused, 1);
    assert_int_equal(st.in_use, rounded(4290) + rounded(100) + rounded(8000));
    arena_free(a, again, 4290);
    arena_free(a, y, 100);
    arena_free(a, other, 8000);
    arena_destroy(a);
}

static void test_out_of_range(void **state)
{
    (void)state;
    struct arena *a = arena_create();
    assert_non_null(a);
    assert_null(arena_alloc(a, 0));
    assert_null(arena_alloc(a, ARENA_MAX_BLOCK + 1));
    uint8_t *big = arena_alloc(a, ARENA_MAX_BLOCK);
    assert_non_null(big);
    memset(big, 0x5a, ARENA_MAX_BLOCK);
    struct arena_stats st;
    arena_get_stats(a, &st);
    assert_int_equal(st.in_use, ARENA_MAX_BLOCK);
    arena_free(a, NULL, 10); /* ignored */
    arena_free(a, big, ARENA_MAX_BLOCK);
    arena_destroy(a);
    arena_destroy(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distinct_blocks),
        cmocka_unit_test(test_reuse_by_class),
        cmocka_unit_test(test_out_of_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
