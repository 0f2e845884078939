/* ccndc against a real ccnd: routes over UDP and TCP to sockets the test
 * owns, config files, strategies, faces, and the errors users meet first. */
#include "ccndtest.h"
#include "testutil.h"

#include <ccnx/ccnb.h>
#include <ccnx/interest.h>
#include <ccnx/name.h>
#include <ccnx/uri.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static struct tu_ccnd ccnd;
static char bin[512];
static int client = -1; /* our own face on ccnd, where Interests come from */

static int start_ccnd(void **state)
{
    (void)state;
    tu_ccnd_start(&ccnd, 0);
    const char *b = getenv("CCNX_BIN");
    snprintf(bin, sizeof bin, "%s", b != NULL ? b : ".");
    /* Every ccndc the test runs inherits these: the same socket as ccnd, and
     * CCNX_DIR keeps the user key the tools create inside the temp folder. */
    char user[96];
    snprintf(user, sizeof user, "%s/user", ccnd.dir);
    setenv("CCN_LOCAL_PORT", ccnd.port, 1);
    setenv("CCN_LOCAL_SOCKNAME", ccnd.stem, 1);
    setenv("CCNX_DIR", user, 1);
    unsetenv("CCN_LOCAL_TRANSPORT");
    client = tu_ccnd_connect(&ccnd);
    return 0;
}

static int stop_ccnd(void **state)
{
    (void)state;
    close(client);
    tu_ccnd_stop(&ccnd);
    return 0;
}

/* Runs "ccndc <args>" (through sh, stderr folded into out); its exit code. */
static int ccndc(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int ccndc(char *out, size_t n, const char *fmt, ...)
{
    char args[512], cmd[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "'%s/ccndc' %s 2>&1", bin, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t got = fread(out, 1, n - 1, p);
    out[got] = '\0';
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int udp_socket(unsigned *port)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof sa;
    assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
    *port = ntohs(sa.sin_port);
    return fd;
}

static void express(const char *uri)
{
    struct ccnx_name n;
    struct ccnx_buf msg = CCNX_BUF_INIT;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = n.enc.data;
    ip.name_len = n.enc.len;
    assert_int_equal(ccnx_interest_build(&msg, &ip), 0);
    assert_int_equal(write(client, msg.data, msg.len), (ssize_t)msg.len);
    ccnx_name_free(&n);
    ccnx_buf_free(&msg);
}

/* 1 when an Interest for exactly `uri` arrives on fd within ms. */
static int arrives(int fd, const char *uri, int ms)
{
    struct pollfd p = {fd, POLLIN, 0};
    uint8_t buf[9000];
    while (poll(&p, 1, ms) == 1) {
        ssize_t r = recv(fd, buf, sizeof buf, 0);
        assert_true(r > 0);
        size_t end;
        assert_int_equal(ccnx_ccnb_element_end(buf, (size_t)r, 0, &end), 0);
        struct ccnx_interest_parsed pi;
        struct ccnx_buf got = CCNX_BUF_INIT;
        if (ccnx_interest_parse(buf, end, &pi) == 0 &&
            ccnx_uri_append(&got, buf + pi.name.off, pi.name.len) == 0 &&
            strcmp(ccnx_buf_cstr(&got), uri) == 0) {
            ccnx_buf_free(&got);
            return 1;
        }
        ccnx_buf_free(&got);
    }
    return 0;
}

static void test_udp_add_del(void **state)
{
    (void)state;
    char out[2048];
    unsigned port;
    int fd = udp_socket(&port);
    assert_int_equal(ccndc(out, sizeof out, "add ccnx:/test/udp udp 127.0.0.1 %u", port), 0);
    express("ccnx:/test/udp/a");
    assert_true(arrives(fd, "ccnx:/test/udp/a", 3000));
    assert_int_equal(ccndc(out, sizeof out, "del ccnx:/test/udp udp 127.0.0.1 %u", port), 0);
    express("ccnx:/test/udp/b");
    assert_false(arrives(fd, "ccnx:/test/udp/b", 500));
    /* A second del has nothing to remove: ccnd's reason is shown. */
    assert_int_equal(ccndc(out, sizeof out, "del ccnx:/test/udp udp 127.0.0.1 %u", port), 1);
    assert_non_null(strstr(out, "no such registration"));
    close(fd);
}

static void test_tcp_add(void **state)
{
    (void)state;
    char out[2048];
    int lfd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof sa;
    assert_int_equal(bind(lfd, (struct sockaddr *)&sa, sizeof sa), 0);
    assert_int_equal(listen(lfd, 4), 0);
    assert_int_equal(getsockname(lfd, (struct sockaddr *)&sa, &len), 0);
    assert_int_equal(ccndc(out, sizeof out, "-v add ccnx:/test/tcp tcp localhost %u",
                           (unsigned)ntohs(sa.sin_port)),
                     0);
    assert_non_null(strstr(out, "prefixreg ccnx:/test/tcp"));
    struct pollfd p = {lfd, POLLIN, 0};
    assert_int_equal(poll(&p, 1, 3000), 1);
    int fd = accept(lfd, NULL, NULL);
    assert_true(fd >= 0);
    express("ccnx:/test/tcp/x");
    assert_true(arrives(fd, "ccnx:/test/tcp/x", 3000));
    /* The same peer again is the same face: no second connection, and del
     * finds the registration add made. */
    assert_int_equal(ccndc(out, sizeof out, "add ccnx:/test/tcp2 tcp localhost %u",
                           (unsigned)ntohs(sa.sin_port)),
                     0);
    assert_int_equal(poll(&p, 1, 300), 0);
    assert_int_equal(
        ccndc(out, sizeof out, "del ccnx:/test/tcp tcp localhost %u", (unsigned)ntohs(sa.sin_port)),
        0);
    express("ccnx:/test/tcp/y");
    assert_false(arrives(fd, "ccnx:/test/tcp/y", 300));
    express("ccnx:/test/tcp2/y");
    assert_true(arrives(fd, "ccnx:/test/tcp2/y", 3000));
    close(fd);
    close(lfd);
}

static void test_config_file(void **state)
{
    (void)state;
    char out[2048], path[128];
    unsigned port;
    int fd = udp_socket(&port);
    snprintf(path, sizeof path, "%s/ccnd.conf", ccnd.dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "# routes for the test\n\n"
            "add ccnx:/conf/one udp 127.0.0.1 %u   # trailing comment\n"
            "   add ccnx:/conf/two udp 127.0.0.1 %u 3\n"
            "setstrategy ccnx:/conf parallel\n",
            port, port);
    fclose(f);
    assert_int_equal(ccndc(out, sizeof out, "-f %s", path), 0);
    express("ccnx:/conf/one/1");
    assert_true(arrives(fd, "ccnx:/conf/one/1", 3000));
    express("ccnx:/conf/two/2");
    assert_true(arrives(fd, "ccnx:/conf/two/2", 3000));
    assert_int_equal(ccndc(out, sizeof out, "getstrategy ccnx:/conf/two"), 0);
    assert_non_null(strstr(out, "is parallel"));

    /* One bad line: reported with its number, and nothing is applied. */
    f = fopen(path, "w");
    fprintf(f, "add ccnx:/conf/three udp 127.0.0.1 %u\nadd ccnx:/conf/four udp\n", port);
    fclose(f);
    assert_int_equal(ccndc(out, sizeof out, "-f %s", path), 1);
    assert_non_null(strstr(out, ":2:"));
    assert_non_null(strstr(out, "nothing was applied"));
    express("ccnx:/conf/three/3");
    assert_false(arrives(fd, "ccnx:/conf/three/3", 500));
    close(fd);
}

static void test_strategy(void **state)
{
    (void)state;
    char out[2048];
    assert_int_equal(ccndc(out, sizeof out, "setstrategy ccnx:/strat loadsharing"), 0);
    assert_string_equal(out, "Strategy at ccnx:/strat is loadsharing \n");
    /* The answer names the prefix the strategy is set on, as the reference's. */
    assert_int_equal(ccndc(out, sizeof out, "getstrategy ccnx:/strat/below"), 0);
    assert_string_equal(out, "Strategy at ccnx:/strat is loadsharing \n");
    assert_int_equal(ccndc(out, sizeof out, "removestrategy ccnx:/strat"), 0);
    assert_null(strstr(out, "loadsharing"));
    assert_int_equal(ccndc(out, sizeof out, "getstrategy ccnx:/strat/below"), 0);
    assert_string_equal(out, "Strategy at ccnx:/ is default \n");
    assert_int_equal(ccndc(out, sizeof out, "setstrategy ccnx:/strat muchtoolongstrategyname"), 2);
    /* an unknown strategy is refused and changes nothing */
    assert_int_equal(ccndc(out, sizeof out, "setstrategy ccnx:/strat nosuchstrategy"), 1);
    assert_non_null(strstr(out, "no such strategy"));
    assert_int_equal(ccndc(out, sizeof out, "getstrategy ccnx:/strat/below"), 0);
    assert_string_equal(out, "Strategy at ccnx:/ is default \n");
}

static void test_faces(void **state)
{
    (void)state;
    char out[2048];
    unsigned port, face = 0;
    int fd = udp_socket(&port);
    assert_int_equal(ccndc(out, sizeof out, "-v create udp 127.0.0.1 %u", port), 0);
    const char *f = strstr(out, "face ");
    assert_non_null(f);
    assert_int_equal(sscanf(f, "face %u", &face), 1);
    assert_int_equal(ccndc(out, sizeof out, "add ccnx:/byface face %u", face), 0);
    express("ccnx:/byface/1");
    assert_true(arrives(fd, "ccnx:/byface/1", 3000));
    assert_int_equal(ccndc(out, sizeof out, "destroyface %u", face), 0);
    assert_int_equal(ccndc(out, sizeof out, "destroyface %u", face), 1);
    assert_non_null(strstr(out, "no such face"));
    close(fd);
}

static void test_errors(void **state)
{
    (void)state;
    char out[2048];
    assert_int_equal(ccndc(out, sizeof out, "--help"), 0);
    assert_non_null(strstr(out, "setstrategy"));
    assert_int_equal(ccndc(out, sizeof out, "add ccnx:/x"), 2);
    assert_int_equal(ccndc(out, sizeof out, "frobnicate"), 2);
    assert_int_equal(ccndc(out, sizeof out, "add ccnx:/x udp 127.0.0.1 9 300"), 2);
    assert_int_equal(ccndc(out, sizeof out, "-t -5 add ccnx:/x face 1"), 2);
    assert_int_equal(ccndc(out, sizeof out, "add ccnx:/x udp no.such.host.invalid"), 1);
    /* No ccnd on this socket: say which one was tried and how to start one. */
    char nowhere[128], saved[128];
    snprintf(saved, sizeof saved, "%s", getenv("CCN_LOCAL_SOCKNAME"));
    snprintf(nowhere, sizeof nowhere, "%s/nowhere", ccnd.dir);
    setenv("CCN_LOCAL_SOCKNAME", nowhere, 1);
    int rc = ccndc(out, sizeof out, "add ccnx:/x face 1");
    setenv("CCN_LOCAL_SOCKNAME", saved, 1);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(out, "no ccnd at "));
    assert_non_null(strstr(out, "/nowhere."));
    assert_non_null(strstr(out, "ccndstart"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_udp_add_del), cmocka_unit_test(test_tcp_add),
        cmocka_unit_test(test_config_file), cmocka_unit_test(test_strategy),
        cmocka_unit_test(test_faces),       cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, start_ccnd, stop_ccnd);
}
