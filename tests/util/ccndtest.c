#include "ccndtest.h"
#include "testutil.h"

#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/interest.h>
#include <ccnx/mgmt.h>
#include <ccnx/name.h>
#include <ccnx/content_sign.h>
#include <ccnx/key.h>
#include <ccnx/uri.h>

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *bin_dir(void)
{
    const char *bin = getenv("CCNX_BIN");
    return bin != NULL ? bin : ".";
}

static int try_connect(const char *path)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0) {
        return fd;
    }
    if (fd >= 0) {
        close(fd);
    }
    return -1;
}

/* Forwarders still running when the test ends (a failed assertion skips
 * tu_ccnd_stop) are killed at exit, so no test leaves processes behind. */
#define MAX_RUNNING 8
static pid_t running[MAX_RUNNING];

static void kill_leftovers(void)
{
    for (int i = 0; i < MAX_RUNNING; i++) {
        if (running[i] > 0) {
            kill(running[i], SIGKILL);
            waitpid(running[i], NULL, 0);
        }
    }
}

static void note_running(pid_t pid, pid_t gone)
{
    static int registered;
    if (!registered) {
        atexit(kill_leftovers);
        registered = 1;
    }
    for (int i = 0; i < MAX_RUNNING; i++) {
        if (running[i] == gone) {
            running[i] = pid;
            return;
        }
    }
}

void tu_ccnd_start(struct tu_ccnd *d, unsigned offset)
{
    tu_ccnd_start_in(d, offset, NULL);
}

/* 20000-27999: no other test's ccnd uses these (docs/testing.md): four
 * ports per test process, in the slot its pid picks, or the one
 * CCNX_TEST_PORT_SLOT (0-1999) names, for a wrapper that must know the
 * ports in advance (the Wireshark capture test records only them). */
static unsigned port_slot(void)
{
    const char *s = getenv("CCNX_TEST_PORT_SLOT");
    char *end;
    unsigned long v = s != NULL ? strtoul(s, &end, 10) : 2000;
    if (s == NULL || *s == '\0' || *end != '\0' || v >= 2000) {
        return (unsigned)(getpid() % 2000);
    }
    return (unsigned)v;
}

void tu_ccnd_start_in(struct tu_ccnd *d, unsigned offset, const char *netns)
{
    signal(SIGPIPE, SIG_IGN);
    snprintf(d->dir, sizeof d->dir, "/tmp/ccnd-test-XXXXXX");
    assert_non_null(mkdtemp(d->dir));
    snprintf(d->port, sizeof d->port, "%u", 20000u + port_slot() * 4 + offset);
    snprintf(d->stem, sizeof d->stem, "%s/sock", d->dir);
    snprintf(d->sock, sizeof d->sock, "%s.%s", d->stem, d->port);
    char exe[600];
    snprintf(exe, sizeof exe, "%s/ccnd", bin_dir());
    d->pid = fork();
    assert_true(d->pid >= 0);
    if (d->pid == 0) {
        setenv("CCN_LOCAL_PORT", d->port, 1);
        setenv("CCN_LOCAL_SOCKNAME", d->stem, 1);
        setenv("CCND_KEYSTORE_DIRECTORY", d->dir, 1);
        setenv("CCND_DEBUG", "0", 1);
        if (netns != NULL) {
            /* ip execs ccnd after entering the namespace: same pid. */
            execlp("ip", "ip", "netns", "exec", netns, exe, (char *)NULL);
        } else {
            execl(exe, "ccnd", (char *)NULL);
        }
        _exit(127);
    }
    note_running(d->pid, 0);
    for (int tries = 0; tries < 200; tries++) {
        int fd = try_connect(d->sock);
        if (fd >= 0) {
            close(fd);
            return;
        }
        usleep(25000);
    }
    fail_msg("ccnd did not come up on %s", d->sock);
}

void tu_ccnd_stop(struct tu_ccnd *d)
{
    int status = 0;
    kill(d->pid, SIGTERM);
    waitpid(d->pid, &status, 0);
    note_running(0, d->pid);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", d->dir);
    assert_int_equal(system(cmd), 0);
    if (WIFSIGNALED(status)) {
        fail_msg("ccnd was killed by signal %d instead of exiting on SIGTERM", WTERMSIG(status));
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fail_msg("ccnd exited with status %d after SIGTERM", WEXITSTATUS(status));
    }
}

int tu_ccnd_connect(const struct tu_ccnd *d)
{
    int fd = try_connect(d->sock);
    if (fd < 0) {
        fail_msg("cannot connect to ccnd at %s", d->sock);
    }
    return fd;
}

int tu_ccndc(const struct tu_ccnd *d, const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "CCN_LOCAL_PORT=%s CCN_LOCAL_SOCKNAME=%s CCNX_DIR=%s/user %s/ccndc %s >/dev/null",
             d->port, d->stem, d->dir, bin_dir(), args);
    int status = system(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void tu_send_all(int fd, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        assert_true(w > 0);
        p += w;
        n -= (size_t)w;
    }
}

int tu_try_read_element(int fd, struct ccnx_buf *out, int ms)
{
    struct ccnx_skel s;
    ccnx_skel_init(&s);
    ccnx_buf_reset(out);
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, ms) != 1) {
            return 0;
        }
        uint8_t c; /* a byte at a time: never read past the element */
        if (read(fd, &c, 1) != 1) {
            return 0;
        }
        ccnx_buf_append_byte(out, c);
        size_t used;
        int res = ccnx_skel_feed(&s, &c, 1, &used);
        assert_true(res >= 0);
        if (res == 1) {
            return 1;
        }
    }
}

void tu_read_element(int fd, struct ccnx_buf *out, const char *what)
{
    if (!tu_try_read_element(fd, out, 5000)) {
        fail_msg("no %s within 5 s", what);
    }
}

void tu_interest(struct ccnx_buf *out, const char *uri)
{
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
    struct ccnx_interest_params p;
    ccnx_interest_params_init(&p);
    p.name = n.enc.data;
    p.name_len = n.enc.len;
    ccnx_buf_reset(out);
    assert_int_equal(ccnx_interest_build(out, &p), 0);
    ccnx_name_free(&n);
}

void tu_content(struct ccnx_buf *out, const char *uri, const char *text, const struct ccnx_key *key)
{
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
    struct ccnx_content_params p;
    ccnx_content_params_init(&p);
    p.name = n.enc.data;
    p.name_len = n.enc.len;
    p.key_locator = CCNX_KEYLOC_KEY;
    p.content = (const uint8_t *)text;
    p.content_len = strlen(text);
    ccnx_buf_reset(out);
    assert_int_equal(ccnx_content_sign(out, &p, key), 0);
    ccnx_name_free(&n);
}

void tu_selfreg(int fd, const char *prefix_uri, const struct ccnx_key *key)
{
    struct ccnx_buf msg = CCNX_BUF_INIT, body = CCNX_BUF_INIT, req = CCNX_BUF_INIT;
    tu_interest(&msg, "ccnx:/%C1.M.S.localhost/%C1.M.SRV/ccnd/KEY");
    tu_send_all(fd, msg.data, msg.len);
    tu_read_element(fd, &msg, "KEY object");
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(msg.data, msg.len, &pc), 0);
    uint8_t ccndid[32];
    assert_int_equal(pc.publisher.len, 32);
    memcpy(ccndid, msg.data + pc.publisher.off, 32);

    struct ccnx_name prefix, empty, n;
    ccnx_name_init(&prefix);
    ccnx_name_init(&empty);
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&prefix, prefix_uri), 0);
    struct ccnx_forwarding_entry fe;
    ccnx_forwarding_entry_init(&fe);
    fe.action = (struct ccnx_view){(const uint8_t *)"selfreg", 7};
    fe.name = (struct ccnx_view){prefix.enc.data, prefix.enc.len};
    assert_int_equal(ccnx_forwarding_entry_build(&body, &fe), 0);
    struct ccnx_content_params cp;
    ccnx_content_params_init(&cp);
    cp.name = empty.enc.data;
    cp.name_len = empty.enc.len;
    cp.key_locator = CCNX_KEYLOC_KEY;
    cp.content = body.data;
    cp.content_len = body.len;
    assert_int_equal(ccnx_content_sign(&req, &cp, key), 0);
    assert_int_equal(ccnx_mgmt_request_name(&n, ccndid, "selfreg", req.data, req.len), 0);
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = n.enc.data;
    ip.name_len = n.enc.len;
    ccnx_buf_reset(&msg);
    assert_int_equal(ccnx_interest_build(&msg, &ip), 0);
    tu_send_all(fd, msg.data, msg.len);
    tu_read_element(fd, &msg, "selfreg reply");
    assert_int_equal(ccnx_content_parse(msg.data, msg.len, &pc), 0);
    assert_true(pc.type == CCNX_TYPE_DATA);
    ccnx_name_free(&prefix);
    ccnx_name_free(&empty);
    ccnx_name_free(&n);
    ccnx_buf_free(&msg);
    ccnx_buf_free(&body);
    ccnx_buf_free(&req);
}
