/* The nonce table: duplicates, expiry, the size bound, and agreement with
 * a naive model under random use. */
#include "testutil.h"

#include "table/nonce.h"

#include <stdio.h>
#include <string.h>

static int check(struct nonce_table *t, const char *n, unsigned face, uint64_t now, uint64_t exp)
{
    return nonce_check(t, (const uint8_t *)n, strlen(n), face, now, exp, NULL);
}

static void test_duplicates_and_expiry(void **state)
{
    (void)state;
    struct nonce_table *t = nonce_create(10);
    unsigned first = 0;
    assert_int_equal(check(t, "abcd", 1, 0, 100), NONCE_NEW);
    assert_int_equal(nonce_check(t, (const uint8_t *)"abcd", 4, 2, 50, 150, &first), NONCE_DUP);
    assert_int_equal(first, 1);
    assert_int_equal(check(t, "abce", 1, 0, 100), NONCE_NEW);
    /* After expiry the nonce is new again, even before nonce_expire. */
    assert_int_equal(check(t, "abcd", 3, 100, 300), NONCE_NEW);
    assert_int_equal(check(t, "abcd", 3, 200, 300), NONCE_DUP);
    assert_int_equal(nonce_expire(t, 150), 2); /* the old abcd slot and abce */
    assert_int_equal(nonce_count(t), 1);
    assert_int_equal(check(t, "abcd", 3, 200, 300), NONCE_DUP);
    assert_int_equal(nonce_expire(t, 300), 1);
    assert_int_equal(nonce_count(t), 0);
    struct nonce_stats st;
    nonce_get_stats(t, &st);
    assert_int_equal(st.duplicates, 3);
    assert_int_equal(st.added, 3);
    nonce_destroy(t);
}

static void test_bound(void **state)
{
    (void)state;
    struct nonce_table *t = nonce_create(100);
    char n[32];
    for (int i = 0; i < 1000; i++) {
        snprintf(n, sizeof n, "nonce-%d", i);
        assert_int_equal(check(t, n, 1, 0, 1000), NONCE_NEW);
        assert_true(nonce_count(t) <= 100);
    }
    assert_int_equal(nonce_count(t), 100);
    /* The newest 100 are remembered, the rest forgotten oldest first. */
    assert_int_equal(check(t, "nonce-999", 1, 0, 1000), NONCE_DUP);
    assert_int_equal(check(t, "nonce-900", 1, 0, 1000), NONCE_DUP);
    assert_int_equal(check(t, "nonce-899", 1, 0, 1000), NONCE_NEW);
    struct nonce_stats st;
    nonce_get_stats(t, &st);
    assert_int_equal(st.evicted, 901);
    nonce_destroy(t);
}

/* Random adds and expiries against a plain array holding the same window. */
static void test_random_model(void **state)
{
    (void)state;
    enum { CAP = 64, KEYS = 200 };
    struct nonce_table *t = nonce_create(CAP);
    struct {
        int key;
        uint64_t exp;
    } model[CAP];
    size_t mn = 0;
    uint64_t x = 42, now = 0;
    for (int step = 0; step < 20000; step++) {
        x = x * 6364136223846793005ull + 1;
        int key = (int)((x >> 33) % KEYS);
        now += (x >> 20) % 3;
        char n[16];
        snprintf(n, sizeof n, "%d", key);
        int want = NONCE_NEW;
        for (size_t i = 0; i < mn; i++) {
            if (model[i].key == key && model[i].exp > now) {
                want = NONCE_DUP;
            }
        }
        uint64_t exp = now + 1 + (x >> 40) % 50;
        assert_int_equal(check(t, n, 1, now, exp), want);
        if (want == NONCE_NEW) {
            if (mn == CAP) {
                memmove(&model[0], &model[1], (CAP - 1) * sizeof model[0]);
                mn--;
            }
            model[mn].key = key;
            model[mn].exp = exp;
            mn++;
        }
        if (step % 7 == 0) {
            size_t k = nonce_expire(t, now);
            size_t drop = 0;
            while (drop < mn && model[drop].exp <= now) {
                drop++;
            }
            assert_int_equal(k, drop);
            memmove(&model[0], &model[drop], (mn - drop) * sizeof model[0]);
            mn -= drop;
        }
        assert_int_equal(nonce_count(t), mn);
    }
    nonce_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_duplicates_and_expiry),
        cmocka_unit_test(test_bound),
        cmocka_unit_test(test_random_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
