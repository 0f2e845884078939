/* Names: building, components, canonical order, prefixes. */
#include "testutil.h"

#include <ccnx/ccnb.h>
#include <ccnx/error.h>
#include <ccnx/name.h>

#include <stdlib.h>
#include <string.h>

static void make(struct ccnx_name *n, const char *const *comps, size_t count)
{
    assert_int_equal(ccnx_name_init(n), 0);
    for (size_t i = 0; i < count; i++) {
        assert_int_equal(ccnx_name_append_str(n, comps[i]), 0);
    }
}

static void test_build_and_components(void **state)
{
    (void)state;
    struct ccnx_name n;
    const char *const comps[] = {"example", "", "vec"};
    make(&n, comps, 3);
    assert_int_equal(n.count, 3);
    assert_int_equal(ccnx_name_count_ccnb(n.enc.data, n.enc.len), 3);
    struct ccnx_comp c;
    assert_int_equal(ccnx_name_comp(&n, 0, &c), 0);
    assert_int_equal(c.n, 7);
    assert_memory_equal(c.p, "example", 7);
    assert_int_equal(ccnx_name_comp(&n, 1, &c), 0);
    assert_int_equal(c.n, 0);
    assert_int_equal(ccnx_name_comp(&n, 2, &c), 0);
    assert_memory_equal(c.p, "vec", 3);
    assert_int_equal(ccnx_name_comp(&n, 3, &c), CCNX_E_NOTFOUND);
    size_t end;
    assert_int_equal(ccnx_ccnb_element_end(n.enc.data, n.enc.len, 0, &end), 0);
    assert_int_equal(end, n.enc.len);

    assert_int_equal(ccnx_name_truncate(&n, 1), 0);
    assert_int_equal(n.count, 1);
    assert_int_equal(ccnx_name_count_ccnb(n.enc.data, n.enc.len), 1);

    struct ccnx_name copy;
    ccnx_name_init(&copy);
    assert_int_equal(ccnx_name_set_ccnb(&copy, n.enc.data, n.enc.len), 0);
    assert_int_equal(ccnx_name_compare(&copy, &n), 0);
    ccnx_name_free(&copy);
    ccnx_name_free(&n);
}

static void test_long_binary_components(void **state)
{
    (void)state;
    struct ccnx_name n;
    ccnx_name_init(&n);
    uint8_t big[3000];
    for (size_t i = 0; i < sizeof big; i++) {
        big[i] = (uint8_t)i;
    }
    assert_int_equal(ccnx_name_append(&n, big, sizeof big), 0);
    assert_int_equal(ccnx_name_append(&n, big, 16), 0); /* header needs two bytes at 16 */
    struct ccnx_comp c;
    assert_int_equal(ccnx_name_comp(&n, 0, &c), 0);
    assert_int_equal(c.n, sizeof big);
    assert_memory_equal(c.p, big, sizeof big);
    assert_int_equal(ccnx_name_comp(&n, 1, &c), 0);
    assert_int_equal(c.n, 16);
    ccnx_name_free(&n);
}

static void test_component_limit(void **state)
{
    (void)state;
    struct ccnx_name n;
    ccnx_name_init(&n);
    for (int i = 0; i < CCNX_NAME_MAX_COMPONENTS; i++) {
        assert_int_equal(ccnx_name_append(&n, "x", 1), 0);
    }
    assert_int_equal(ccnx_name_append(&n, "x", 1), CCNX_E_TOOBIG);
    ccnx_name_free(&n);
}

static void test_canonical_order(void **state)
{
    (void)state;
    /* Shorter components first, then bytewise: "zz" < "aaa". */
    assert_true(ccnx_comp_compare((const uint8_t *)"zz", 2, (const uint8_t *)"aaa", 3) < 0);
    assert_true(ccnx_comp_compare((const uint8_t *)"ab", 2, (const uint8_t *)"aa", 2) > 0);
    assert_true(ccnx_comp_compare((const uint8_t *)"", 0, (const uint8_t *)"\0", 1) < 0);
    assert_int_equal(ccnx_comp_compare((const uint8_t *)"q", 1, (const uint8_t *)"q", 1), 0);

    const char *const a[] = {"a", "b"}, *const ab[] = {"a", "b", "c"}, *const b[] = {"a", "zz"},
                      *const c[] = {"a", "aaa"};
    struct ccnx_name na, nab, nb, nc;
    make(&na, a, 2);
    make(&nab, ab, 3);
    make(&nb, b, 2);
    make(&nc, c, 2);
    assert_true(ccnx_name_compare(&na, &nab) < 0); /* a prefix sorts first */
    assert_true(ccnx_name_compare(&nab, &nb) < 0); /* "b" < "zz" by length */
    assert_true(ccnx_name_compare(&nb, &nc) < 0);  /* "zz" < "aaa" */
    assert_true(ccnx_name_compare(&nc, &na) > 0);
    assert_int_equal(ccnx_name_compare(&na, &na), 0);

    assert_true(ccnx_name_is_prefix(&na, &nab));
    assert_true(ccnx_name_is_prefix(&na, &na));
    assert_false(ccnx_name_is_prefix(&nab, &na));
    assert_false(ccnx_name_is_prefix(&nb, &nab));
    struct ccnx_name root;
    ccnx_name_init(&root);
    assert_true(ccnx_name_is_prefix(&root, &nab));
    assert_true(ccnx_name_compare(&root, &na) < 0);
    ccnx_name_free(&root);
    ccnx_name_free(&na);
    ccnx_name_free(&nab);
    ccnx_name_free(&nb);
    ccnx_name_free(&nc);
}

static void test_malformed_names(void **state)
{
    (void)state;
    struct ccnx_buf b = CCNX_BUF_INIT;
    struct ccnx_name_iter it;
    struct ccnx_comp c;
    tu_hex("F2 FA 9D 61", &b); /* component claims 3 bytes, one present */
    assert_int_equal(ccnx_name_iter_init(&it, b.data, b.len), 0);
    assert_true(ccnx_name_iter_next(&it, &c) < 0);
    assert_true(ccnx_name_count_ccnb(b.data, b.len) < 0);
    tu_hex("FA 00", &b); /* not a Name */
    assert_true(ccnx_name_iter_init(&it, b.data, b.len) < 0);
    tu_hex("F2 F2 00 00", &b); /* a Name inside a Name is not a component */
    assert_true(ccnx_name_count_ccnb(b.data, b.len) < 0);
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_true(ccnx_name_set_ccnb(&n, b.data, b.len) < 0);
    ccnx_name_free(&n);
    ccnx_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_build_and_components), cmocka_unit_test(test_long_binary_components),
        cmocka_unit_test(test_component_limit),      cmocka_unit_test(test_canonical_order),
        cmocka_unit_test(test_malformed_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
