/* The local forwarder's port and socket path conventions. */
#include "testutil.h"

#include <ccnx/error.h>
#include <ccnx/local.h>

#include <string.h>

static void test_port(void **state)
{
    (void)state;
    assert_int_equal(ccnx_local_port(NULL), 9695);
    assert_int_equal(ccnx_local_port(""), 9695);
    assert_int_equal(ccnx_local_port("19695"), 19695);
    assert_int_equal(ccnx_local_port("0"), 9695);
    assert_int_equal(ccnx_local_port("65536"), 9695);
    assert_int_equal(ccnx_local_port("12x"), 9695);
    assert_int_equal(ccnx_local_port("-5"), 9695);
}

static void test_sockname(void **state)
{
    (void)state;
    char path[108];
    assert_int_equal(ccnx_local_sockname(path, sizeof path, NULL, NULL), 0);
    assert_string_equal(path, "/tmp/.ccnd.sock");
    assert_int_equal(ccnx_local_sockname(path, sizeof path, "", "9695"), 0);
    assert_string_equal(path, "/tmp/.ccnd.sock");
    assert_int_equal(ccnx_local_sockname(path, sizeof path, NULL, "19695"), 0);
    assert_string_equal(path, "/tmp/.ccnd.sock.19695");
    assert_int_equal(ccnx_local_sockname(path, sizeof path, "/run/me/ccnd", "20000"), 0);
    assert_string_equal(path, "/run/me/ccnd.20000");
    char tiny[8];
    assert_int_equal(ccnx_local_sockname(tiny, sizeof tiny, NULL, NULL), CCNX_E_TOOBIG);
    char big[400];
    char longname[200];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    /* Fits the buffer but not a sockaddr_un. */
    assert_int_equal(ccnx_local_sockname(big, sizeof big, longname, NULL), CCNX_E_TOOBIG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_port),
        cmocka_unit_test(test_sockname),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
