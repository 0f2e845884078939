/* The status page of a real ccnd: HTML, XML and JSON over its TCP port,
 * counters that move with traffic, and the ccndstatus and ccndlogging
 * tools against it. */
#include "ccndtest.h"
#include "testutil.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ccnx/buf.h>

static struct tu_ccnd ccnd;

static int start_ccnd(void **state)
{
    (void)state;
    tu_ccnd_start(&ccnd, 0);
    return 0;
}

static int stop_ccnd(void **state)
{
    (void)state;
    tu_ccnd_stop(&ccnd); /* also checks a clean SIGTERM shutdown */
    return 0;
}

/* GET target over TCP; the whole answer (header and body) in out. */
static void http_get(const char *target, struct ccnx_buf *out)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(ccnd.port))};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    char req[256];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", target);
    assert_int_equal(write(fd, req, (size_t)n), n);
    ccnx_buf_reset(out);
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        assert_true(poll(&p, 1, 5000) == 1);
        uint8_t *space = ccnx_buf_reserve(out, 65536);
        ssize_t got = read(fd, space, 65536);
        assert_true(got >= 0);
        if (got == 0) {
            break;
        }
        out->len += (size_t)got;
    }
    close(fd);
    assert_non_null(ccnx_buf_cstr(out));
}

/* The reference's ccndsmoketest asks for the page on the unix socket with a
 * bare request line ("GET / " and no headers); the answer is the same page. */
static void test_status_on_unix_socket(void **state)
{
    (void)state;
    int fd = tu_ccnd_connect(&ccnd);
    static const char req[] = "GET /?f=xml ";
    assert_int_equal(write(fd, req, sizeof req - 1), (ssize_t)(sizeof req - 1));
    struct ccnx_buf page = CCNX_BUF_INIT;
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        assert_true(poll(&p, 1, 5000) == 1);
        uint8_t *space = ccnx_buf_reserve(&page, 65536);
        ssize_t got = read(fd, space, 65536);
        assert_true(got >= 0);
        if (got == 0) {
            break;
        }
        page.len += (size_t)got;
    }
    close(fd);
    const char *text = ccnx_buf_cstr(&page);
    assert_non_null(strstr(text, "HTTP/1.1 200"));
    assert_non_null(strstr(text, "<ccnd>"));
    ccnx_buf_free(&page);
}

/* Runs a shell command with the test's port; its output in out, exit code returned. */
static int run(const char *cmd, char *out, size_t n)
{
    char full[1024];
    snprintf(full, sizeof full, "CCN_LOCAL_PORT=%s timeout 20 %s/%s 2>&1", ccnd.port,
             getenv("CCNX_BIN") ? getenv("CCNX_BIN") : ".", cmd);
    FILE *p = popen(full, "r");
    assert_non_null(p);
    size_t len = fread(out, 1, n - 1, p);
    out[len] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int has_python(void)
{
    return system("python3 -c 'import json, xml.dom.minidom' >/dev/null 2>&1") == 0;
}

/* Checks the body (after the header) with python3's parsers when present. */
static void check_parses(const struct ccnx_buf *page, const char *module)
{
    if (!has_python()) {
        return;
    }
    const char *body = strstr((const char *)page->data, "\r\n\r\n");
    assert_non_null(body);
    char path[128], cmd[512];
    snprintf(path, sizeof path, "%s/page", ccnd.dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(body + 4, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "python3 -c \"import sys,%s; %s\" < %s", module,
             strcmp(module, "json") == 0 ? "json.load(sys.stdin)"
                                         : "xml.dom.minidom.parseString(sys.stdin.read())",
             path);
    assert_int_equal(system(cmd), 0);
}

static void test_status_page(void **state)
{
    (void)state;
    /* Traffic: an Interest for ccnx:/a over the unix socket. */
    int fd = tu_ccnd_connect(&ccnd);
    static const uint8_t interest[] = {0x01, 0xD2, 0xF2, 0xFA, 0x8D, 'a', 0x00, 0x00, 0x00};
    assert_int_equal(write(fd, interest, sizeof interest), (ssize_t)sizeof interest);
    usleep(200000);
    struct ccnx_buf page = CCNX_BUF_INIT;
    http_get("/?f=json", &page);
    const char *s = (const char *)page.data;
    assert_non_null(strstr(s, "HTTP/1.1 200 OK"));
    assert_non_null(strstr(s, "application/json"));
    assert_non_null(strstr(s, "\"interests_in\":1"));
    assert_non_null(strstr(s, "\"intrin\":{\"total\":1,"));
    check_parses(&page, "json");

    http_get("/?f=xml", &page);
    s = (const char *)page.data;
    assert_non_null(strstr(s, "<ccnd><identity><ccndid>"));
    assert_non_null(strstr(s, "<intrin><total>1</total>"));
    assert_non_null(strstr(s, "<accepted>1</accepted>"));
    check_parses(&page, "xml.dom.minidom");

    http_get("/", &page);
    assert_non_null(strstr((const char *)page.data, "<h4>Faces</h4>"));
    http_get("/nothing", &page);
    assert_non_null(strstr((const char *)page.data, "404"));
    close(fd);
    ccnx_buf_free(&page);
}

/* The first number after "key": in text, -1 when absent. */
static long number_after(const char *text, const char *key)
{
    const char *at = strstr(text, key);
    return at == NULL ? -1 : strtol(at + strlen(key), NULL, 10);
}

static void send_interests(int fd, const char *const *uris, size_t n)
{
    struct ccnx_buf msg = CCNX_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        tu_interest(&msg, uris[i]);
        tu_send_all(fd, msg.data, msg.len);
    }
    ccnx_buf_free(&msg);
}

/* input_malformed on the page now. */
static long malformed_now(void)
{
    struct ccnx_buf page = CCNX_BUF_INIT;
    http_get("/?f=json", &page);
    long n = number_after((const char *)page.data, "\"input_malformed\":");
    ccnx_buf_free(&page);
    return n;
}

/* Sends junk on a stream socket and waits for ccnd to close it. */
static void junk_and_wait_closed(int fd)
{
    static const uint8_t junk[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x01};
    tu_send_all(fd, junk, sizeof junk);
    uint8_t buf[256];
    struct pollfd p = {fd, POLLIN, 0};
    assert_int_equal(poll(&p, 1, 20000), 1);
    while (read(fd, buf, sizeof buf) > 0) {
    }
    close(fd);
}

/* Junk on a unix face, a TCP face and the UDP socket is counted: per face
 * while it lives, and in input_malformed, faces closed for it included. */
static void test_malformed_input_counted(void **state)
{
    (void)state;
    long before = malformed_now();
    assert_true(before >= 0);
    junk_and_wait_closed(tu_ccnd_connect(&ccnd));
    int tcp = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(ccnd.port))};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(tcp, (struct sockaddr *)&sa, sizeof sa), 0);
    junk_and_wait_closed(tcp);
    assert_int_equal(malformed_now(), before + 2);
    int udp = socket(AF_INET, SOCK_DGRAM, 0);
    static const char junk[] = "not ccnb";
    assert_int_equal(sendto(udp, junk, sizeof junk - 1, 0, (struct sockaddr *)&sa, sizeof sa),
                     (ssize_t)(sizeof junk - 1));
    close(udp);
    /* the datagram is read when ccnd gets to it: wait for the count */
    long now = malformed_now();
    for (int i = 0; i < 200 && now < before + 3; i++) {
        usleep(50000);
        now = malformed_now();
    }
    assert_int_equal(now, before + 3);
}

/* Per face, "pending" is the Interests from that face still waiting (an
 * aggregated one counts for each face); overall, pending sums the faces,
 * propagating counts PIT entries and noted the nonces remembered. */
static void test_pending_counts(void **state)
{
    (void)state;
    int one = tu_ccnd_connect(&ccnd), two = tu_ccnd_connect(&ccnd);
    static const char *const a[] = {"ccnx:/pend/1", "ccnx:/pend/2", "ccnx:/pend/3"};
    static const char *const b[] = {"ccnx:/pend/1", "ccnx:/pend/4"};
    send_interests(one, a, 3);
    send_interests(two, b, 2);
    usleep(200000);
    struct ccnx_buf page = CCNX_BUF_INIT;
    http_get("/?f=json", &page);
    const char *s = (const char *)page.data;
    assert_non_null(strstr(s, "\"pending\":3,\"msgs_in\":3,"));
    assert_non_null(strstr(s, "\"pending\":2,\"msgs_in\":2,"));
    assert_int_equal(number_after(s, "\"pending\":"), 5);
    assert_int_equal(number_after(s, "\"propagating\":"), 4);
    assert_true(number_after(s, "\"noted\":") >= 5); /* one nonce per Interest */
    http_get("/?f=xml", &page);
    s = (const char *)page.data;
    assert_non_null(strstr(s, "<pending>3</pending><recvcount>3</recvcount>"));
    assert_non_null(strstr(s, "<pending>5</pending><propagating>4</propagating>"));
    http_get("/", &page);
    assert_non_null(strstr((const char *)page.data, "<b>pending:</b> 2 <b>activity:</b> 2"));
    /* A closed face's Interests are no longer pending; the shared one stays. */
    close(one);
    usleep(200000);
    http_get("/?f=json", &page);
    s = (const char *)page.data;
    assert_int_equal(number_after(s, "\"pending\":"), 2);
    assert_int_equal(number_after(s, "\"propagating\":"), 2);
    close(two);
    ccnx_buf_free(&page);
}

static void test_tools(void **state)
{
    (void)state;
    char out[65536];
    assert_int_equal(run("ccndstatus", out, sizeof out), 0);
    assert_non_null(strstr(out, "Content items:"));
    assert_null(strstr(out, "<div>"));
    assert_int_equal(run("ccndstatus -x", out, sizeof out), 0);
    assert_non_null(strstr(out, "<forwarding>"));
    assert_int_equal(run("ccndlogging med", out, sizeof out), 0);
    assert_non_null(strstr(out, "CCND_DEBUG=71"));
    struct ccnx_buf page = CCNX_BUF_INIT;
    http_get("/?f=json", &page);
    assert_non_null(strstr((const char *)page.data, "\"debug\":71"));
    assert_int_equal(run("ccndlogging none", out, sizeof out), 0);
    assert_int_equal(run("ccndlogging loud", out, sizeof out), 2);
    ccnx_buf_free(&page);
    /* Nobody on the port: the message names the fix. */
    char cmd[128];
    snprintf(cmd, sizeof cmd, "ccndstatus -T 127.0.0.1");
    char saved[16];
    snprintf(saved, sizeof saved, "%s", ccnd.port);
    snprintf(ccnd.port, sizeof ccnd.port, "%d", 1);
    assert_int_equal(run(cmd, out, sizeof out), 1);
    assert_non_null(strstr(out, "ccndstart"));
    snprintf(ccnd.port, sizeof ccnd.port, "%s", saved);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_page),
        cmocka_unit_test(test_status_on_unix_socket),
        cmocka_unit_test(test_pending_counts),
        cmocka_unit_test(test_tools),
        cmocka_unit_test(test_malformed_input_counted),
    };
    return cmocka_run_group_tests(tests, start_ccnd, stop_ccnd);
}
