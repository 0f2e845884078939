/* Flat name keys: memcmp order agrees with canonical order on random names
 * (including component lengths around the prefix-code boundaries), the
 * prefix relation carries over, both ccnb spellings give one key, and the
 * subtree comparison places names before, under and after a prefix. */
#include "testutil.h"

#include <ccnx/namekey.h>

#include <ccnx/buf.h>
#include <ccnx/ccnb.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/match.h>
#include <ccnx/name.h>

#include <stdlib.h>
#include <string.h>

static uint32_t seed = 12345;
static uint32_t rnd(void)
{
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
}

/* Lengths that straddle the prefix code's one-, three- and five-byte forms. */
static size_t random_len(void)
{
    static const size_t odd[] = {0, 1, 253, 254, 255, 65535, 65536};
    return rnd() % 4 == 0 ? odd[rnd() % 7] : rnd() % 4;
}

static void random_name(struct ccnx_name *n, uint8_t *scratch)
{
    ccnx_name_truncate(n, 0);
    size_t comps = rnd() % 4;
    for (size_t i = 0; i < comps; i++) {
        size_t len = random_len();
        for (size_t k = 0; k < len; k++) {
            scratch[k] = (uint8_t)(rnd() % 3); /* few values: many ties */
        }
        assert_int_equal(ccnx_name_append(n, scratch, len), 0);
    }
}

static size_t key_of(const struct ccnx_name *n, uint8_t *out)
{
    size_t len;
    uint32_t comps;
    assert_int_equal(ccnx_namekey_from_name(n->enc.data, n->enc.len, out, &len, &comps), 0);
    assert_true(len <= n->enc.len);
    assert_int_equal(comps, (uint32_t)ccnx_name_count_ccnb(n->enc.data, n->enc.len));
    return len;
}

static int sign(int x)
{
    return (x > 0) - (x < 0);
}

static void test_order_matches_canonical(void **state)
{
    (void)state;
    uint8_t *scratch = malloc(70000);
    uint8_t *ka = malloc(300000), *kb = malloc(300000);
    struct ccnx_name a, b;
    ccnx_name_init(&a);
    ccnx_name_init(&b);
    for (int i = 0; i < 3000; i++) {
        random_name(&a, scratch);
        random_name(&b, scratch);
        size_t la = key_of(&a, ka), lb = key_of(&b, kb);
        int want =
            ccnx_match_full_name_compare(a.enc.data, a.enc.len, NULL, b.enc.data, b.enc.len, NULL);
        assert_int_equal(sign(ccnx_namekey_compare(ka, la, kb, lb)), sign(want));
        int b_prefix = ccnx_name_is_prefix_ccnb(b.enc.data, b.enc.len, a.enc.data, a.enc.len);
        int sub = ccnx_namekey_subtree_compare(ka, la, kb, lb);
        assert_int_equal(sub == 0, b_prefix == 1);
        if (sub != 0) {
            assert_int_equal(sign(sub), sign(want));
        }
        if (ccnx_namekey_compare(ka, la, kb, lb) == 0) {
            assert_true(ccnx_namekey_hash(ka, la) == ccnx_namekey_hash(kb, lb));
        }
    }
    ccnx_name_free(&a);
    ccnx_name_free(&b);
    free(scratch);
    free(ka);
    free(kb);
}

/* <Name><Component>x</Component></Name> with the value as BLOB or UDATA. */
static void one_comp_name(struct ccnx_buf *b, int udata)
{
    ccnx_ccnb_open(b, CCNX_DTAG_Name);
    ccnx_ccnb_open(b, CCNX_DTAG_Component);
    ccnx_ccnb_append_header(b, 3, udata ? CCNX_TT_UDATA : CCNX_TT_BLOB);
    ccnx_buf_append(b, "abc", 3);
    ccnx_ccnb_append_closer(b);
    ccnx_ccnb_append_closer(b);
}

static void test_spellings_and_malformed(void **state)
{
    (void)state;
    struct ccnx_buf blob = CCNX_BUF_INIT, udata = CCNX_BUF_INIT;
    one_comp_name(&blob, 0);
    one_comp_name(&udata, 1);
    uint8_t k1[16], k2[16];
    size_t l1, l2;
    assert_int_equal(ccnx_namekey_from_name(blob.data, blob.len, k1, &l1, NULL), 0);
    assert_int_equal(ccnx_namekey_from_name(udata.data, udata.len, k2, &l2, NULL), 0);
    assert_int_equal(l1, 4);
    assert_int_equal(ccnx_namekey_compare(k1, l1, k2, l2), 0);
    assert_memory_equal(k1,
                        "\x03"
                        "abc",
                        4);
    static const uint8_t bad[] = {0xF2, 0xFA, 0x9D, 'a'};
    assert_int_not_equal(ccnx_namekey_from_name(bad, sizeof bad, k1, &l1, NULL), 0);
    ccnx_buf_free(&blob);
    ccnx_buf_free(&udata);
}

static void test_length_prefix(void **state)
{
    (void)state;
    static uint8_t big[70000];
    uint8_t *out = malloc(70010);
    assert_int_equal(ccnx_namekey_put_comp(out, big, 253), 254);
    assert_int_equal(out[0], 253);
    assert_int_equal(ccnx_namekey_put_comp(out, big, 254), 257);
    assert_memory_equal(out, "\xFE\x00\xFE", 3);
    assert_int_equal(ccnx_namekey_put_comp(out, big, 65536), 65541);
    assert_memory_equal(out, "\xFF\x00\x01\x00\x00", 5);
    free(out);
}

/* Reading a key back gives the components it was made from; a key cut
 * inside a length prefix or a component is refused. */
static void test_next_comp(void **state)
{
    (void)state;
    static uint8_t scratch[70000];
    uint8_t *key = malloc(4 * 70010);
    struct ccnx_name n;
    assert_int_equal(ccnx_name_init(&n), 0);
    for (int round = 0; round < 200; round++) {
        random_name(&n, scratch);
        size_t len = key_of(&n, key), pos = 0, clen;
        struct ccnx_name_iter it;
        struct ccnx_comp c;
        assert_int_equal(ccnx_name_iter_init(&it, n.enc.data, n.enc.len), 0);
        while (ccnx_name_iter_next(&it, &c) == 1) {
            size_t start = pos;
            assert_int_equal(ccnx_namekey_next_comp(key, len, &pos, &clen), 1);
            assert_int_equal(clen, c.n);
            assert_memory_equal(key + pos - clen, c.p, c.n);
            if (pos - start > 1) {
                size_t cut = start;
                assert_int_equal(ccnx_namekey_next_comp(key, pos - 1, &cut, &clen), CCNX_E_INVAL);
            }
        }
        assert_int_equal(ccnx_namekey_next_comp(key, len, &pos, &clen), 0);
    }
    ccnx_name_free(&n);
    free(key);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_matches_canonical),
        cmocka_unit_test(test_spellings_and_malformed),
        cmocka_unit_test(test_length_prefix),
        cmocka_unit_test(test_next_comp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
