/* The deadline heap: order of removal, moving and removing nodes in the
 * middle, against a naive model under random use. */
#include "testutil.h"

#include "table/dheap.h"

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
    struct dheap h;
    struct dheap_node a, b, c;
    dheap_init(&h);
    dheap_node_init(&a);
    dheap_node_init(&b);
    dheap_node_init(&c);
    assert_null(dheap_top(&h));
    assert_true(dheap_next(&h) == UINT64_MAX);
    assert_int_equal(dheap_set(&h, &a, 30), 0);
    assert_int_equal(dheap_set(&h, &b, 10), 0);
    assert_int_equal(dheap_set(&h, &c, 20), 0);
    assert_ptr_equal(dheap_top(&h), &b);
    assert_int_equal(dheap_set(&h, &a, 5), 0); /* moves up */
    assert_ptr_equal(dheap_top(&h), &a);
    assert_int_equal(dheap_set(&h, &a, 50), 0); /* moves down */
    assert_ptr_equal(dheap_top(&h), &b);
    dheap_remove(&h, &b);
    assert_false(dheap_contains(&b));
    dheap_remove(&h, &b); /* out already: nothing */
    assert_ptr_equal(dheap_top(&h), &c);
    assert_true(dheap_next(&h) == 20);
    dheap_free(&h);
}

/* Random sets, moves and removals; the top is always the model's minimum. */
static void test_random_model(void **state)
{
    (void)state;
    struct dheap h;
    struct dheap_node *nodes = calloc(N, sizeof *nodes);
    uint64_t *model = calloc(N, sizeof *model); /* UINT64_MAX: out */
    dheap_init(&h);
    for (size_t i = 0; i < N; i++) {
        dheap_node_init(&nodes[i]);
        model[i] = UINT64_MAX;
    }
    for (int step = 0; step < 20000; step++) {
        size_t i = rnd() % N;
        if (rnd() % 3 == 0) {
            dheap_remove(&h, &nodes[i]);
            model[i] = UINT64_MAX;
        } else {
            uint64_t when = rnd() % 1000;
            assert_int_equal(dheap_set(&h, &nodes[i], when), 0);
            model[i] = when;
        }
        uint64_t min = UINT64_MAX;
        size_t count = 0;
        for (size_t k = 0; k < N; k++) {
            min = model[k] < min ? model[k] : min;
            count += model[k] != UINT64_MAX;
            assert_int_equal(dheap_contains(&nodes[k]), model[k] != UINT64_MAX);
        }
        assert_int_equal(h.n, count);
        assert_true(dheap_next(&h) == min);
    }
    /* Popping everything comes out in order. */
    uint64_t last = 0;
    struct dheap_node *x;
    while ((x = dheap_top(&h)) != NULL) {
        assert_true(x->when >= last);
        last = x->when;
        dheap_remove(&h, x);
    }
    dheap_free(&h);
    free(nodes);
    free(model);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic),
        cmocka_unit_test(test_random_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
