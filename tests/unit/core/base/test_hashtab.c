/* The intrusive hash table: lookups through the chains after inserts,
 * removals and growth, colliding hashes kept apart by the owner's compare,
 * against a model under random use; and the FNV-1a hash's known values. */
#include "testutil.h"

#include <ccnx/hashtab.h>

#include <stdlib.h>
#include <string.h>

#define N 2000

struct item {
    struct ccnx_hnode node;
    unsigned key;
    int in;
};

static uint32_t seed = 4242;
static uint32_t rnd(void)
{
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
}

/* Few distinct hashes on purpose: every chain holds several keys, so a
 * lookup must compare the owner's key after the hash. */
static uint64_t weak_hash(unsigned key)
{
    return ccnx_hash_mix(ccnx_hash_bytes(CCNX_HASH_INIT, &key, sizeof key)) % 97;
}

static struct item *find(const struct ccnx_htab *t, unsigned key)
{
    uint64_t h = weak_hash(key);
    for (struct ccnx_hnode *n = ccnx_htab_chain(t, h); n != NULL; n = n->next) {
        struct item *it = CCNX_HTAB_ENTRY(n, struct item, node);
        if (n->hash == h && it->key == key) {
            return it;
        }
    }
    return NULL;
}

static void test_insert_find_remove(void **state)
{
    (void)state;
    struct ccnx_htab t;
    assert_int_equal(ccnx_htab_init(&t, 3), 0);
    assert_int_equal(t.mask, 3); /* rounded up to 4 buckets */
    struct item a = {.key = 1}, b = {.key = 2}, c = {.key = 3};
    assert_null(find(&t, 1));
    ccnx_htab_insert(&t, &a.node, weak_hash(a.key));
    ccnx_htab_insert(&t, &b.node, weak_hash(b.key));
    ccnx_htab_insert(&t, &c.node, weak_hash(c.key));
    assert_int_equal(t.count, 3);
    assert_ptr_equal(find(&t, 1), &a);
    assert_ptr_equal(find(&t, 2), &b);
    assert_ptr_equal(find(&t, 3), &c);
    ccnx_htab_remove(&t, &b.node);
    assert_int_equal(t.count, 2);
    assert_null(find(&t, 2));
    assert_ptr_equal(find(&t, 1), &a);
    assert_ptr_equal(find(&t, 3), &c);
    ccnx_htab_remove(&t, &b.node); /* no longer in: nothing happens */
    assert_int_equal(t.count, 2);
    ccnx_htab_free(&t);
    assert_null(t.buckets);
}

static void test_grows_and_keeps_every_node(void **state)
{
    (void)state;
    struct ccnx_htab t;
    assert_int_equal(ccnx_htab_init(&t, 1), 0);
    struct item *items = calloc(N, sizeof *items);
    assert_non_null(items);
    for (unsigned i = 0; i < N; i++) {
        items[i].key = i;
        ccnx_htab_insert(&t, &items[i].node, ccnx_hash_mix(i * 2654435761u));
    }
    assert_int_equal(t.count, N);
    assert_true(t.mask + 1 >= N); /* doubled as it filled */
    size_t seen = 0;
    for (size_t b = 0; b <= t.mask; b++) {
        for (struct ccnx_hnode *n = t.buckets[b]; n != NULL; n = n->next) {
            assert_int_equal(n->hash & t.mask, b); /* each node in its own bucket */
            seen++;
        }
    }
    assert_int_equal(seen, N);
    ccnx_htab_free(&t);
    free(items);
}

static void test_random_use_against_a_model(void **state)
{
    (void)state;
    struct ccnx_htab t;
    assert_int_equal(ccnx_htab_init(&t, 8), 0);
    struct item *items = calloc(N, sizeof *items);
    assert_non_null(items);
    size_t in = 0;
    for (unsigned i = 0; i < N; i++) {
        items[i].key = i;
    }
    for (int step = 0; step < 20000; step++) {
        struct item *it = &items[rnd() % N];
        if (it->in) {
            ccnx_htab_remove(&t, &it->node);
            it->in = 0;
            in--;
        } else {
            ccnx_htab_insert(&t, &it->node, weak_hash(it->key));
            it->in = 1;
            in++;
        }
        assert_int_equal(t.count, in);
        struct item *probe = &items[rnd() % N];
        assert_ptr_equal(find(&t, probe->key), probe->in ? probe : NULL);
    }
    for (unsigned i = 0; i < N; i++) {
        assert_ptr_equal(find(&t, i), items[i].in ? &items[i] : NULL);
    }
    ccnx_htab_free(&t);
    free(items);
}

/* FNV-1a's published test values (64-bit): "" and "a" and "foobar". */
static void test_fnv1a_known_values(void **state)
{
    (void)state;
    assert_true(ccnx_hash_bytes(CCNX_HASH_INIT, "", 0) == 0xcbf29ce484222325ull);
    assert_true(ccnx_hash_bytes(CCNX_HASH_INIT, "a", 1) == 0xaf63dc4c8601ec8cull);
    assert_true(ccnx_hash_bytes(CCNX_HASH_INIT, "foobar", 6) == 0x85944171f73967e8ull);
    /* incremental: fed in two pieces, the same hash */
    uint64_t h = ccnx_hash_bytes(CCNX_HASH_INIT, "foo", 3);
    assert_true(ccnx_hash_bytes(h, "bar", 3) == 0x85944171f73967e8ull);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_insert_find_remove),
        cmocka_unit_test(test_grows_and_keeps_every_node),
        cmocka_unit_test(test_random_use_against_a_model),
        cmocka_unit_test(test_fnv1a_known_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
