/* Strict UTF-8 decoding and encoding, and the characters a terminal must
 * never be handed from the network. */
#include "testutil.h"

#include <ccnx/utf8.h>

#include <string.h>

static int decode(const char *s, size_t n, uint32_t *cp)
{
    return ccnx_utf8_decode((const uint8_t *)s, n, cp);
}

static void test_decode(void **state)
{
    (void)state;
    uint32_t cp = 0;
    assert_int_equal(decode("A", 1, &cp), 1);
    assert_int_equal(cp, 'A');
    assert_int_equal(decode("\xC3\xA9", 2, &cp), 2);
    assert_int_equal(cp, 0xE9);
    assert_int_equal(decode("\xE2\x9C\x93", 3, &cp), 3);
    assert_int_equal(cp, 0x2713);
    assert_int_equal(decode("\xF0\x9F\x98\x80", 4, &cp), 4);
    assert_int_equal(cp, 0x1F600);
    assert_int_equal(decode("\xF4\x8F\xBF\xBF", 4, &cp), 4); /* U+10FFFF, the last */
    /* Not text: empty, cut short, stray continuation, overlong forms,
     * surrogates, past U+10FFFF, a bad continuation, bytes F8 and up. */
    assert_int_equal(decode("", 0, &cp), 0);
    assert_int_equal(decode("\xE2\x9C", 2, &cp), 0);
    assert_int_equal(decode("\x80", 1, &cp), 0);
    assert_int_equal(decode("\xC0\x80", 2, &cp), 0);
    assert_int_equal(decode("\xE0\x80\xAF", 3, &cp), 0);
    assert_int_equal(decode("\xF0\x80\x80\xAF", 4, &cp), 0);
    assert_int_equal(decode("\xED\xA0\x80", 3, &cp), 0);
    assert_int_equal(decode("\xF4\x90\x80\x80", 4, &cp), 0);
    assert_int_equal(decode("\xC3\x28", 2, &cp), 0);
    assert_int_equal(decode("\xF8\x88\x80\x80\x80", 5, &cp), 0);
}

/* Every scalar value encodes to what decodes back to it, in the shortest
 * form (the length follows the value). */
static void test_round_trip(void **state)
{
    (void)state;
    struct ccnx_buf b = CCNX_BUF_INIT;
    for (uint32_t v = 0; v <= 0x10FFFF; v += v < 0x1000 ? 1 : 61) {
        if (v >= 0xD800 && v <= 0xDFFF)
            continue;
        b.len = 0;
        assert_int_equal(ccnx_utf8_append(&b, v), 0);
        size_t want = v < 0x80 ? 1 : v < 0x800 ? 2 : v < 0x10000 ? 3 : 4;
        assert_int_equal(b.len, want);
        uint32_t cp;
        assert_int_equal(ccnx_utf8_decode(b.data, b.len, &cp), (int)want);
        assert_int_equal(cp, v);
    }
    ccnx_buf_free(&b);
    assert_true(ccnx_utf8_valid((const uint8_t *)"caf\xC3\xA9 \xE2\x9C\x93", 9));
    assert_false(ccnx_utf8_valid((const uint8_t *)"caf\xC3", 4));
    assert_true(ccnx_utf8_valid(NULL, 0));
}

static void test_unsafe(void **state)
{
    (void)state;
    static const uint32_t unsafe[] = {0x00,   0x07,   0x0A,   0x1B,   0x1F,   0x7F,
                                      0x80,   0x9B,   0x9F,   0x061C, 0x200E, 0x200F,
                                      0x202A, 0x202E, 0x2066, 0x2069, 0xFEFF};
    static const uint32_t safe[] = {0x20,   0x41,   0x7E,   0xA0,   0xE9,    0x2013,
                                    0x2029, 0x202F, 0x2065, 0x2713, 0x1F600, 0x10FFFF};
    for (size_t i = 0; i < sizeof unsafe / sizeof *unsafe; i++)
        assert_true(ccnx_utf8_unsafe(unsafe[i]));
    for (size_t i = 0; i < sizeof safe / sizeof *safe; i++)
        assert_false(ccnx_utf8_unsafe(safe[i]));
}

/* Every format character (Cf) and the zero-width family; in names also
 * the variation selectors and blank fillers, which running text keeps. */
static void test_unsafe_invisible(void **state)
{
    (void)state;
    static const uint32_t cf[] = {0x00AD,  0x0600,  0x0605,  0x06DD,  0x070F,  0x0890,
                                  0x08E2,  0x180E,  0x200B,  0x200C,  0x200D,  0x2060,
                                  0x2064,  0x206A,  0x206F,  0xFFF9,  0xFFFB,  0x110BD,
                                  0x13430, 0x1BCA0, 0x1D173, 0xE0001, 0xE0020, 0xE007F};
    static const uint32_t name_only[] = {0x034F, 0x115F, 0x1160, 0x17B4,  0x180B, 0x3164,
                                         0xFE00, 0xFE0F, 0xFFA0, 0xE0100, 0xE01EF};
    static const uint32_t visible[] = {0x0606, 0x2065, 0x2070, 0xFE10, 0xFFFC, 0xE0080};
    for (size_t i = 0; i < sizeof cf / sizeof *cf; i++) {
        assert_true(ccnx_utf8_unsafe(cf[i]));
        assert_true(ccnx_utf8_unsafe_in_name(cf[i]));
    }
    for (size_t i = 0; i < sizeof name_only / sizeof *name_only; i++) {
        assert_false(ccnx_utf8_unsafe(name_only[i]));
        assert_true(ccnx_utf8_unsafe_in_name(name_only[i]));
    }
    for (size_t i = 0; i < sizeof visible / sizeof *visible; i++)
        assert_false(ccnx_utf8_unsafe_in_name(visible[i]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_unsafe),
        cmocka_unit_test(test_unsafe_invisible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
