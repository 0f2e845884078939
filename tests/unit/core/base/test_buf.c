/* Growable buffers, file reading and error strings. */
#include "testutil.h"

#include <ccnx/buf.h>
#include <ccnx/error.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_append_and_grow(void **state)
{
    (void)state;
    struct ccnx_buf b = CCNX_BUF_INIT;
    for (int i = 0; i < 100000; i++) {
        assert_int_equal(ccnx_buf_append_byte(&b, (uint8_t)i), 0);
    }
    assert_int_equal(b.len, 100000);
    for (int i = 0; i < 100000; i++) {
        assert_int_equal(b.data[i], (uint8_t)i);
    }
    ccnx_buf_reset(&b);
    assert_int_equal(b.len, 0);
    assert_int_equal(ccnx_buf_append_str(&b, "ab"), 0);
    assert_int_equal(ccnx_buf_printf(&b, "%d-%s", 42, "x"), 0);
    assert_string_equal(ccnx_buf_cstr(&b), "ab42-x");
    assert_int_equal(b.len, 6); /* the terminator is not counted */
    assert_int_equal(ccnx_buf_append(&b, NULL, 0), 0);
    assert_int_equal(ccnx_buf_status(&b), 0);
    ccnx_buf_free(&b);
    assert_null(b.data);
}

static void test_failure_is_sticky(void **state)
{
    (void)state;
    struct ccnx_buf b = CCNX_BUF_INIT;
    ccnx_buf_append_str(&b, "keep");
    /* A request that cannot be met marks the buffer and keeps its contents. */
    assert_null(ccnx_buf_reserve(&b, SIZE_MAX - 8));
    assert_int_equal(ccnx_buf_status(&b), CCNX_E_NOMEM);
    assert_int_equal(ccnx_buf_append_str(&b, "more"), CCNX_E_NOMEM);
    assert_int_equal(ccnx_buf_append_byte(&b, 'x'), CCNX_E_NOMEM);
    assert_int_equal(b.len, 4);
    assert_memory_equal(b.data, "keep", 4);
    ccnx_buf_reset(&b);
    assert_int_equal(ccnx_buf_status(&b), 0);
    assert_int_equal(ccnx_buf_append_str(&b, "ok"), 0);
    ccnx_buf_free(&b);
}

static void test_read_file(void **state)
{
    (void)state;
    char path[] = "/tmp/ccnx-buf-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    uint8_t data[200000];
    for (size_t i = 0; i < sizeof data; i++) {
        data[i] = (uint8_t)(i * 7);
    }
    assert_int_equal(write(fd, data, sizeof data), (ssize_t)sizeof data);
    close(fd);
    struct ccnx_buf b = CCNX_BUF_INIT;
    assert_int_equal(ccnx_buf_read_file(&b, path), 0);
    assert_int_equal(b.len, sizeof data);
    assert_memory_equal(b.data, data, sizeof data);
    unlink(path);
    ccnx_buf_reset(&b);
    assert_int_equal(ccnx_buf_read_file(&b, path), CCNX_E_IO);
    ccnx_buf_free(&b);
}

static void test_error_strings(void **state)
{
    (void)state;
    for (int code = 0; code >= CCNX_E_KEYSTORE; code--) {
        const char *s = ccnx_strerror(code);
        assert_non_null(s);
        assert_string_not_equal(s, "unknown error");
    }
    assert_string_equal(ccnx_strerror(-1000), "unknown error");
    assert_string_equal(ccnx_strerror(CCNX_E_BADSIG), "signature does not verify");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_append_and_grow),
        cmocka_unit_test(test_failure_is_sticky),
        cmocka_unit_test(test_read_file),
        cmocka_unit_test(test_error_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
