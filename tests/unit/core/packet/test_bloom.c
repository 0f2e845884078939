/* Exclude Bloom filters. The expected wire bytes and membership masks are
 * known answers produced by the CCNx 0.8.2 reference library for the same
 * sizes, seeds and keys, so they pin down the hash, the seed handling and
 * the bit packing. */
#include "testutil.h"

#include <ccnx/bloom.h>
#include <ccnx/error.h>

#include <openssl/sha.h>
#include <stdio.h>
#include <string.h>

static void expect_wire(const struct ccnx_bloom *b, const char *hex)
{
    struct ccnx_buf want = CCNX_BUF_INIT;
    tu_hex(hex, &want);
    assert_int_equal(b->wire_len, want.len);
    assert_memory_equal(b->wire, want.data, want.len);
    ccnx_buf_free(&want);
}

/* Bit i set when the key "<prefix><i>" tests as a member. */
static uint64_t probe_mask(const uint8_t *wire, size_t n, const char *prefix)
{
    uint64_t mask = 0;
    char key[16];
    for (int i = 0; i < 64; i++) {
        snprintf(key, sizeof key, "%s%d", prefix, i);
        int r = ccnx_bloom_wire_test(wire, n, key, strlen(key));
        assert_true(r == 0 || r == 1);
        if (r == 1) {
            mask |= (uint64_t)1 << i;
        }
    }
    return mask;
}

static void test_known_small(void **state)
{
    (void)state;
    const uint8_t seed[4] = {1, 2, 3, 4};
    struct ccnx_bloom b;
    assert_int_equal(ccnx_bloom_init(&b, 3, seed), 0);
    assert_int_equal(ccnx_bloom_insert(&b, "a", 1), 5);
    assert_int_equal(ccnx_bloom_insert(&b, "b", 1), 6);
    assert_int_equal(ccnx_bloom_insert(&b, "c", 1), 4);
    assert_int_equal(ccnx_bloom_insert(&b, "a", 1), 0); /* already there */
    assert_int_equal(b.members, 4);
    expect_wire(&b, "0507410001020304110cfbc9");
    assert_true(probe_mask(b.wire, b.wire_len, "x") == 0x2000); /* x13 is a false positive */
    assert_int_equal(ccnx_bloom_test(&b, "b", 1), 1);
}

static void test_known_seed_high_bit_and_byte_ff(void **state)
{
    (void)state;
    /* Seed bit 31 is dropped; key byte 0xFF must feed 256, not 0. */
    const uint8_t seed[4] = {0x80, 0, 0, 1};
    struct ccnx_bloom b;
    assert_int_equal(ccnx_bloom_init(&b, 1, seed), 0);
    assert_true(ccnx_bloom_insert(&b, "\xff\xff", 2) > 0);
    assert_true(ccnx_bloom_insert(&b, "", 0) >= 0);
    expect_wire(&b, "030541008000000147");
    assert_int_equal(ccnx_bloom_test(&b, "", 0), 1);
    assert_int_equal(ccnx_bloom_test(&b, "\xff\xff", 2), 1);
}

static void test_known_hundred_members(void **state)
{
    (void)state;
    const uint8_t seed[4] = {0xde, 0xad, 0xbe, 0xef};
    struct ccnx_bloom b;
    char key[16];
    assert_int_equal(ccnx_bloom_init(&b, 100, seed), 0);
    for (int i = 0; i < 100; i++) {
        snprintf(key, sizeof key, "k%d", i);
        assert_true(ccnx_bloom_insert(&b, key, strlen(key)) >= 0);
    }
    expect_wire(&b, "0a074100deadbeef00001f4800002f8400f34f1200008f21000fffc80003ff444003ff0280"
                    "03fd01481612ef842121cf9649693f6984943b20ff48fa10ff94f5a9ff32faccff71f5eeff"
                    "40c2ffff80d1ffff10ccffff20ccf721481fff33842f218413ef124823dfa184fffc5248ff"
                    "fca421fff05812ffd018f83f0025842e0048124fff84218f00");
    for (int i = 0; i < 100; i++) {
        snprintf(key, sizeof key, "k%d", i);
        assert_int_equal(ccnx_bloom_test(&b, key, strlen(key)), 1);
    }
    assert_true(probe_mask(b.wire, b.wire_len, "p") == 0);
}

static void test_known_largest_filter(void **state)
{
    (void)state;
    const uint8_t seed[4] = {0xff, 0xff, 0xff, 0xff};
    struct ccnx_bloom b;
    uint8_t key[32];
    assert_int_equal(ccnx_bloom_init(&b, 1000, seed), 0);
    for (int i = 0; i < 1000; i++) {
        for (int j = 0; j < 32; j++) {
            key[j] = (uint8_t)(i * 7 + j * 13);
        }
        assert_true(ccnx_bloom_insert(&b, key, sizeof key) >= 0);
    }
    assert_int_equal(b.wire_len, CCNX_BLOOM_MAX_WIRE);
    uint8_t md[32];
    SHA256(b.wire, b.wire_len, md);
    struct ccnx_buf want = CCNX_BUF_INIT;
    tu_hex("e1aec36b187b7e39f7442667d8df573acec98d594d97b0f422fef51f52ea4007", &want);
    assert_memory_equal(md, want.data, 32);
    ccnx_buf_free(&want);
    for (int i = 0; i < 64; i++) {
        for (int j = 0; j < 32; j++) {
            key[j] = (uint8_t)(i * 11 + j * 5 + 1);
        }
        assert_int_equal(ccnx_bloom_test(&b, key, sizeof key), 0);
    }
}

static void test_known_dense_filters(void **state)
{
    (void)state;
    const uint8_t seed[4] = {7, 7, 7, 7};
    struct ccnx_bloom b;
    assert_int_equal(ccnx_bloom_init(&b, 1, seed), 0);
    assert_true(ccnx_bloom_insert(&b, "q", 1) > 0);
    expect_wire(&b, "0305410007070707c1");
    assert_true(probe_mask(b.wire, b.wire_len, "x") == 0x0100200400801000ull);

    /* A filter written by hand: lg_bits 4, 3 hashes, two bytes of bits. */
    const uint8_t wire[10] = {4, 3, 'A', 0, 0x12, 0x34, 0x56, 0x78, 0x5a, 0xc3};
    assert_true(probe_mask(wire, sizeof wire, "x") == 0x1050288140aa0581ull);
}

static void test_sizing(void **state)
{
    (void)state;
    static const struct {
        unsigned long n;
        unsigned lg, nh;
    } cases[] = {{0, 3, 32},
                 {1, 3, 5},
                 {3, 5, 7},
                 {9, 6, 4},
                 {27, 8, 6},
                 {81, 9, 4},
                 {243, 11, 5},
                 {729, 13, 7},
                 {2187, 13, 2},
                 {19683, 13, 2},
                 /* 13 * n + 1 wraps to 0 in 64 bits for the first one */
                 {(unsigned long)0xb13b13b13b13b13bull, 13, 2},
                 {(unsigned long)-1, 13, 2}};
    const uint8_t seed[4] = {1, 2, 3, 4};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ccnx_bloom b;
        assert_int_equal(ccnx_bloom_init(&b, cases[i].n, seed), 0);
        assert_int_equal(b.wire[0], cases[i].lg);
        assert_int_equal(b.wire[1], cases[i].nh);
        assert_int_equal(b.wire[2], 'A');
        assert_int_equal(b.wire[3], 0);
        assert_memory_equal(b.wire + 4, seed, 4);
        assert_int_equal(b.wire_len, 8 + (1u << (cases[i].lg - 3)));
        assert_int_equal(ccnx_bloom_validate(b.wire, b.wire_len), 0);
    }
}

static void test_validate(void **state)
{
    (void)state;
    uint8_t w[8 + 1024];
    const uint8_t good[8] = {4, 3, 'A', 0, 1, 2, 3, 4};
    memset(w, 0, sizeof w);
    memcpy(w, good, 8);
    assert_int_equal(ccnx_bloom_validate(w, 10), 0);
    assert_int_equal(ccnx_bloom_validate(NULL, 10), CCNX_E_INVAL);
    assert_int_equal(ccnx_bloom_validate(w, 8), CCNX_E_VALUE);  /* header only */
    assert_int_equal(ccnx_bloom_validate(w, 9), CCNX_E_VALUE);  /* 16 bits need 2 bytes */
    assert_int_equal(ccnx_bloom_validate(w, 11), CCNX_E_VALUE); /* ... exactly */
    w[0] = 2;
    assert_int_equal(ccnx_bloom_validate(w, 8), CCNX_E_VALUE);
    assert_int_equal(ccnx_bloom_validate(w, 9), CCNX_E_VALUE);
    w[0] = 3;
    assert_int_equal(ccnx_bloom_validate(w, 9), 0);
    w[0] = 13;
    assert_int_equal(ccnx_bloom_validate(w, sizeof w), 0);
    w[0] = 14;
    assert_int_equal(ccnx_bloom_validate(w, sizeof w), CCNX_E_VALUE);
    w[0] = 4;
    w[1] = 0;
    assert_int_equal(ccnx_bloom_validate(w, 10), CCNX_E_VALUE);
    w[1] = 32;
    assert_int_equal(ccnx_bloom_validate(w, 10), 0);
    w[1] = 33;
    assert_int_equal(ccnx_bloom_validate(w, 10), CCNX_E_VALUE);
    w[1] = 3;
    w[2] = 'B';
    assert_int_equal(ccnx_bloom_validate(w, 10), CCNX_E_VALUE);
    w[2] = 'A';
    w[3] = 1;
    assert_int_equal(ccnx_bloom_validate(w, 10), CCNX_E_VALUE);
    assert_int_equal(ccnx_bloom_wire_test(w, 10, "x", 1), CCNX_E_VALUE);
    w[3] = 0;
    assert_true(ccnx_bloom_wire_test(w, 10, "x", 1) == 0); /* no bits set */
    assert_int_equal(ccnx_bloom_wire_test(w, 10, NULL, 1), CCNX_E_INVAL);
}

static void test_saturated_filter(void **state)
{
    (void)state;
    /* All bits set: every key is a member, whatever the hashes. */
    uint8_t w[8 + 32];
    const uint8_t hdr[8] = {8, 32, 'A', 0, 9, 8, 7, 6};
    memcpy(w, hdr, 8);
    memset(w + 8, 0xff, 32);
    for (int k = 0; k < 256; k++) {
        uint8_t key = (uint8_t)k;
        assert_int_equal(ccnx_bloom_wire_test(w, sizeof w, &key, 1), 1);
    }
}

static void test_init_params_and_decode(void **state)
{
    (void)state;
    const uint8_t seed[4] = {0, 0, 0, 0};
    struct ccnx_bloom b, c;
    assert_int_equal(ccnx_bloom_init_params(&b, 2, 1, seed), CCNX_E_INVAL);
    assert_int_equal(ccnx_bloom_init_params(&b, 14, 1, seed), CCNX_E_INVAL);
    assert_int_equal(ccnx_bloom_init_params(&b, 5, 0, seed), CCNX_E_INVAL);
    assert_int_equal(ccnx_bloom_init_params(&b, 5, 33, seed), CCNX_E_INVAL);
    assert_int_equal(ccnx_bloom_init_params(&b, 5, 2, NULL), CCNX_E_INVAL);
    assert_int_equal(ccnx_bloom_init(NULL, 5, seed), CCNX_E_INVAL);
    assert_int_equal(ccnx_bloom_init_params(&b, 7, 3, seed), 0);
    assert_int_equal(b.wire_len, 8 + 16);
    int set = ccnx_bloom_insert(&b, "one", 3);
    assert_true(set >= 1 && set <= 3); /* 3 hashes into an empty filter */
    assert_int_equal(ccnx_bloom_test(&b, "one", 3), 1);

    assert_int_equal(ccnx_bloom_decode(&c, b.wire, b.wire_len - 1), CCNX_E_VALUE);
    assert_int_equal(ccnx_bloom_decode(NULL, b.wire, b.wire_len), CCNX_E_INVAL);
    assert_int_equal(ccnx_bloom_decode(&c, b.wire, b.wire_len), 0);
    assert_int_equal(c.members, 128);
    assert_int_equal(ccnx_bloom_test(&c, "one", 3), 1);
    assert_true(ccnx_bloom_insert(&c, "two", 3) >= 0);
    assert_int_equal(ccnx_bloom_test(&c, "two", 3), 1);
    assert_int_equal(ccnx_bloom_insert(NULL, "x", 1), CCNX_E_INVAL);
    assert_int_equal(ccnx_bloom_insert(&c, NULL, 1), CCNX_E_INVAL);
    assert_int_equal(ccnx_bloom_test(NULL, "x", 1), CCNX_E_INVAL);
}

static void test_no_false_negatives(void **state)
{
    (void)state;
    for (unsigned lg = 3; lg <= 13; lg++) {
        const uint8_t seed[4] = {(uint8_t)lg, 0x55, 0xaa, (uint8_t)(lg * 3)};
        struct ccnx_bloom b;
        assert_int_equal(ccnx_bloom_init_params(&b, lg, 1 + lg % 5, seed), 0);
        uint8_t key[3];
        for (int i = 0; i < 300; i++) {
            key[0] = (uint8_t)i;
            key[1] = (uint8_t)(i >> 8);
            key[2] = (uint8_t)lg;
            assert_true(ccnx_bloom_insert(&b, key, (size_t)(i % 4 == 0 ? 1 : 3)) >= 0);
        }
        for (int i = 0; i < 300; i++) {
            key[0] = (uint8_t)i;
            key[1] = (uint8_t)(i >> 8);
            key[2] = (uint8_t)lg;
            assert_int_equal(ccnx_bloom_test(&b, key, (size_t)(i % 4 == 0 ? 1 : 3)), 1);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_small),
        cmocka_unit_test(test_known_seed_high_bit_and_byte_ff),
        cmocka_unit_test(test_known_hundred_members),
        cmocka_unit_test(test_known_largest_filter),
        cmocka_unit_test(test_known_dense_filters),
        cmocka_unit_test(test_sizing),
        cmocka_unit_test(test_validate),
        cmocka_unit_test(test_saturated_filter),
        cmocka_unit_test(test_init_params_and_decode),
        cmocka_unit_test(test_no_false_negatives),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
