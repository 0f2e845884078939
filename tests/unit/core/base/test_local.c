/* The local forwarder's port and socket path conventions. */
#include "testutil.h"

#include <ccnx/error.h>
#include <ccnx/local.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

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

/* A datagram socket standing for the service manager: bound at `path`
 * (abstract when it starts with '@'). */
static int manager_socket(const char *path)
{
    int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_un sun = {.sun_family = AF_UNIX};
    size_t len = strlen(path);
    memcpy(sun.sun_path, path, len);
    if (path[0] == '@') {
        sun.sun_path[0] = '\0';
    }
    assert_int_equal(bind(fd, (struct sockaddr *)&sun,
                          (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len)),
                     0);
    return fd;
}

static void expect_message(int fd, const char *want)
{
    char got[64] = "";
    ssize_t n = recv(fd, got, sizeof got - 1, MSG_DONTWAIT);
    assert_int_equal(n, (ssize_t)strlen(want));
    assert_string_equal(got, want);
}

static void test_notify(void **state)
{
    (void)state;
    char path[64];
    snprintf(path, sizeof path, "/tmp/ccnx-notify-test.%d", (int)getpid());
    unlink(path);
    int fd = manager_socket(path);
    assert_int_equal(ccnx_local_notify(path, "READY=1"), 0);
    expect_message(fd, "READY=1");
    close(fd);
    unlink(path);
    /* gone: the daemon is told it could not reach the manager */
    assert_int_equal(ccnx_local_notify(path, "READY=1"), CCNX_E_IO);

    char abstract[64];
    snprintf(abstract, sizeof abstract, "@ccnx-notify-test.%d", (int)getpid());
    fd = manager_socket(abstract);
    assert_int_equal(ccnx_local_notify(abstract, "STOPPING=1"), 0);
    expect_message(fd, "STOPPING=1");
    close(fd);

    /* no manager, or a value that names no socket */
    assert_int_equal(ccnx_local_notify(NULL, "READY=1"), 0);
    assert_int_equal(ccnx_local_notify("", "READY=1"), 0);
    assert_int_equal(ccnx_local_notify("relative/path", "READY=1"), CCNX_E_INVAL);
    assert_int_equal(ccnx_local_notify("@", "READY=1"), CCNX_E_INVAL);
    char longpath[200];
    memset(longpath, 'a', sizeof longpath - 1);
    longpath[0] = '/';
    longpath[sizeof longpath - 1] = '\0';
    assert_int_equal(ccnx_local_notify(longpath, "READY=1"), CCNX_E_INVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_port),
        cmocka_unit_test(test_sockname),
        cmocka_unit_test(test_notify),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
