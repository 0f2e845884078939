/* The deadline heap: order of removal, moving and removing nodes in the
 * middle, equal deadlines first in first out, against a naive model under
 * random use. */
#include "testutil.h"

#include <ccnx/heap.h>

#include <stdlib.h>

#define N 500

static uint32_t seed = 777;
static uint32_t rnd(void)
{
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
}

static void test_basic(void **state)
{
    (void)state;
    struct ccnx_heap h;
    struct ccnx_heap_node a, b, c;
    ccnx_heap_init(&h);
    ccnx_heap_node_init(&a);
    ccnx_heap_node_init(&b);
    ccnx_heap_node_init(&c);
    assert_null(ccnx_heap_top(&h));
    assert_true(ccnx_heap_next(&h) == UINT64_MAX);
    assert_int_equal(ccnx_heap_set(&h, &a, 30), 0);
    assert_int_equal(ccnx_heap_set(&h, &b, 10), 0);
    assert_int_equal(ccnx_heap_set(&h, &c, 20), 0);
    assert_ptr_equal(ccnx_heap_top(&h), &b);
    assert_int_equal(ccnx_heap_set(&h, &a, 5), 0); /* moves up */
    assert_ptr_equal(ccnx_heap_top(&h), &a);
    assert_int_equal(ccnx_heap_set(&h, &a, 50), 0); /* moves down */
    assert_ptr_equal(ccnx_heap_top(&h), &b);
    ccnx_heap_remove(&h, &b);
    assert_false(ccnx_heap_contains(&b));
    ccnx_heap_remove(&h, &b); /* out already: nothing */
    assert_ptr_equal(ccnx_heap_top(&h), &c);
    assert_true(ccnx_heap_next(&h) == 20);
    ccnx_heap_free(&h);
}

/* Nodes of one deadline come out in the order they were set; a node set
 * again goes after the others of its deadline. */
static void test_ties_in_order(void **state)
{
    (void)state;
    struct ccnx_heap h;
    struct ccnx_heap_node n[6];
    ccnx_heap_init(&h);
    for (int i = 0; i < 6; i++) {
        ccnx_heap_node_init(&n[i]);
        assert_int_equal(ccnx_heap_set(&h, &n[i], i % 2 ? 7 : 9), 0);
    }
    assert_int_equal(ccnx_heap_set(&h, &n[1], 7), 0); /* again: after 3 and 5 */
    const int want[6] = {3, 5, 1, 0, 2, 4};
    for (int i = 0; i < 6; i++) {
        struct ccnx_heap_node *x = ccnx_heap_top(&h);
        assert_ptr_equal(x, &n[want[i]]);
        ccnx_heap_remove(&h, x);
    }
    assert_null(ccnx_heap_top(&h));
    ccnx_heap_free(&h);
}

/* Random sets, moves and removals; the top is always the model's minimum. */
static void test_random_model(void **state)
{
    (void)state;
    struct ccnx_heap h;
    struct ccnx_heap_node *nodes = calloc(N, sizeof *nodes);
    uint64_t *model = calloc(N, sizeof *model); /* UINT64_MAX: out */
    ccnx_heap_init(&h);
    for (size_t i = 0; i < N; i++) {
        ccnx_heap_node_init(&nodes[i]);
        model[i] = UINT64_MAX;
    }
    for (int step = 0; step < 20000; step++) {
        size_t i = rnd() % N;
        if (rnd() % 3 == 0) {
            ccnx_heap_remove(&h, &nodes[i]);
            model[i] = UINT64_MAX;
        } else {
            uint64_t when = rnd() % 1000;
            assert_int_equal(ccnx_heap_set(&h, &nodes[i], when), 0);
            model[i] = when;
        }
        uint64_t min = UINT64_MAX;
        size_t count = 0;
        for (size_t k = 0; k < N; k++) {
            min = model[k] < min ? model[k] : min;
            count += model[k] != UINT64_MAX;
            assert_int_equal(ccnx_heap_contains(&nodes[k]), model[k] != UINT64_MAX);
        }
        assert_int_equal(h.n, count);
        assert_true(ccnx_heap_next(&h) == min);
    }
    /* Popping everything comes out in order. */
    uint64_t last = 0;
    struct ccnx_heap_node *x;
    while ((x = ccnx_heap_top(&h)) != NULL) {
        assert_true(x->when >= last);
        last = x->when;
        ccnx_heap_remove(&h, x);
    }
    ccnx_heap_free(&h);
    free(nodes);
    free(model);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic),
        cmocka_unit_test(test_ties_in_order),
        cmocka_unit_test(test_random_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
