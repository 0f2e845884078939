/* struct ucred (the peer credentials of a unix socket) is a GNU extension. */
#define _GNU_SOURCE

#include "ccnd_link.h"

#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/local.h>
#include <ccnx/mgmt.h>
#include <ccnx/content_sign.h>
#include <ccnx/key.h>
#include <ccnx/keystore.h>
#include <ccnx/uri.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define KEY_URI "ccnx:/%C1.M.S.localhost/%C1.M.SRV/ccnd/KEY"

int ccnd_link_address(char *out, size_t n)
{
    const char *transport = getenv("CCN_LOCAL_TRANSPORT");
    const char *port = getenv(CCNX_ENV_PORT);
    if (transport != NULL && strcmp(transport, "tcp") == 0) {
        int len = snprintf(out, n, "tcp 127.0.0.1:%u", ccnx_local_port(port));
        return len < 0 || (size_t)len >= n ? CCNX_E_TOOBIG : 1;
    }
    return ccnx_local_sockname(out, n, getenv(CCNX_ENV_SOCKNAME), port);
}

static int connect_tcp(unsigned port)
{
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        fd = -1;
    }
    return fd;
}

static int connect_unix(const char *path)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof sa.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(sa.sun_path, path, strlen(path) + 1);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        fd = -1;
    }
    return fd;
}

int ccnd_link_open(struct ccnd_link *link)
{
    memset(link, 0, sizeof *link);
    link->fd = -1;
    link->timeout_ms = CCND_LINK_TIMEOUT_MS;
    ccnx_buf_init(&link->in);
    int tcp = ccnd_link_address(link->where, sizeof link->where);
    if (tcp < 0) {
        snprintf(link->err, sizeof link->err,
                 "CCN_LOCAL_SOCKNAME is too long for a unix socket path");
        return tcp;
    }
    link->fd =
        tcp ? connect_tcp(ccnx_local_port(getenv(CCNX_ENV_PORT))) : connect_unix(link->where);
    if (link->fd < 0) {
        /* The two usual causes get their own advice. */
        const char *why = strerror(errno);
        if (errno == ENOENT || errno == ECONNREFUSED) {
            why = "start it with ccndstart";
        } else if (errno == EACCES) {
            why = "permission denied: the socket belongs to another user";
        }
        snprintf(link->err, sizeof link->err, "no ccnd at %s: %s", link->where, why);
        return CCNX_E_IO;
    }
    return 0;
}

void ccnd_link_close(struct ccnd_link *link)
{
    if (link->fd >= 0) {
        close(link->fd);
        link->fd = -1;
    }
    ccnx_buf_free(&link->in);
    if (link->ks != NULL) {
        ccnx_keystore_destroy(link->ks);
        link->ks = NULL;
    }
}

int ccnd_link_send(struct ccnd_link *link, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t w = send(link->fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            snprintf(link->err, sizeof link->err, "cannot send to ccnd at %s: %s", link->where,
                     strerror(errno));
            return CCNX_E_IO;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Moves the first whole element of link->in (if any) to out: 1 when found. */
static int cut_element(struct ccnd_link *link, struct ccnx_buf *out)
{
    struct ccnx_skel s;
    size_t used = 0;
    ccnx_skel_init(&s);
    int res = ccnx_skel_feed(&s, link->in.data, link->in.len, &used);
    if (res < 0) {
        snprintf(link->err, sizeof link->err, "ccnd at %s sent malformed data (%s)", link->where,
                 ccnx_strerror(res));
        return res;
    }
    if (res == 0) {
        return 0;
    }
    ccnx_buf_reset(out);
    ccnx_buf_append(out, link->in.data, used);
    memmove(link->in.data, link->in.data + used, link->in.len - used);
    link->in.len -= used;
    return ccnx_buf_status(out) == 0 ? 1 : CCNX_E_NOMEM;
}

int ccnd_link_recv(struct ccnd_link *link, struct ccnx_buf *out, int timeout_ms)
{
    int64_t deadline = now_ms() + timeout_ms;
    for (;;) {
        int res = cut_element(link, out);
        if (res != 0) {
            return res < 0 ? res : 0;
        }
        int64_t left = deadline - now_ms();
        struct pollfd p = {link->fd, POLLIN, 0};
        if (left <= 0 || poll(&p, 1, (int)left) == 0) {
            snprintf(link->err, sizeof link->err, "no answer from ccnd at %s within %d ms",
                     link->where, timeout_ms);
            return CCNX_E_IO;
        }
        uint8_t *room = ccnx_buf_reserve(&link->in, 8192);
        if (room == NULL) {
            return CCNX_E_NOMEM;
        }
        ssize_t r = read(link->fd, room, 8192);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            snprintf(link->err, sizeof link->err, "ccnd at %s closed the connection%s%s",
                     link->where, r < 0 ? ": " : "", r < 0 ? strerror(errno) : "");
            return CCNX_E_IO;
        }
        link->in.len += (size_t)r;
    }
}

int ccnd_link_get(struct ccnd_link *link, const uint8_t *interest, size_t len,
                  struct ccnx_buf *object)
{
    int res = ccnd_link_send(link, interest, len);
    int64_t deadline = now_ms() + link->timeout_ms;
    while (res == 0) {
        int64_t left = deadline - now_ms();
        res = ccnd_link_recv(link, object, left > 0 ? (int)left : 0);
        /* Only a ContentObject answers; an Interest ccnd forwards is skipped. */
        struct ccnx_content_parsed pc;
        if (res == 0 && ccnx_content_parse(object->data, object->len, &pc) == 0) {
            return 0;
        }
    }
    return res;
}

/* An Interest for name with Scope 1: only the local ccnd answers it. */
static int build_local_interest(struct ccnx_buf *out, const struct ccnx_name *name)
{
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = name->enc.data;
    ip.name_len = name->enc.len;
    ip.scope = 1;
    return ccnx_interest_build(out, &ip);
}

int ccnd_link_ccndid(struct ccnd_link *link)
{
    if (link->have_ccndid) {
        return 0;
    }
    struct ccnx_name name;
    struct ccnx_buf msg = CCNX_BUF_INIT, obj = CCNX_BUF_INIT;
    ccnx_name_init(&name);
    int res = ccnx_uri_parse_str(&name, KEY_URI);
    if (res == 0) {
        res = build_local_interest(&msg, &name);
    }
    if (res == 0) {
        res = ccnd_link_get(link, msg.data, msg.len, &obj);
    }
    struct ccnx_content_parsed pc;
    if (res == 0 &&
        (ccnx_content_parse(obj.data, obj.len, &pc) != 0 || pc.publisher.len != CCNX_DIGEST_LEN)) {
        snprintf(link->err, sizeof link->err, "ccnd at %s answered its KEY without a publisher",
                 link->where);
        res = CCNX_E_VALUE;
    }
    if (res == 0) {
        memcpy(link->ccndid, obj.data + pc.publisher.off, CCNX_DIGEST_LEN);
        link->have_ccndid = 1;
    }
    ccnx_name_free(&name);
    ccnx_buf_free(&msg);
    ccnx_buf_free(&obj);
    return res;
}

/* The user's key (the default keystore, created on first use) in *key. */
static int user_key(struct ccnd_link *link, const struct ccnx_key **key)
{
    if (link->ks == NULL) {
        int res = ccnx_keystore_open_or_create(NULL, NULL, &link->ks);
        if (res != 0) {
            struct ccnx_buf path = CCNX_BUF_INIT;
            ccnx_keystore_default_path(&path);
            snprintf(link->err, sizeof link->err, "cannot open or create the keystore %s: %s",
                     path.len ? ccnx_buf_cstr(&path) : "(set HOME or CCNX_DIR)",
                     ccnx_strerror(res));
            ccnx_buf_free(&path);
            link->ks = NULL;
            return res;
        }
    }
    *key = ccnx_keystore_key(link->ks);
    return 0;
}

/* A NACK's StatusResponse as "<code> <text>" in link->err. */
static void read_status(struct ccnd_link *link, const uint8_t *p, size_t n)
{
    uint64_t code;
    struct ccnx_view text;
    if (ccnx_status_response_parse(p, n, &code, &text) != 0) {
        snprintf(link->err, sizeof link->err, "ccnd refused the request (no status given)");
        return;
    }
    snprintf(link->err, sizeof link->err, "%llu %.*s", (unsigned long long)code, (int)text.n,
             (const char *)text.p);
}

int ccnd_link_control(struct ccnd_link *link, const char *verb, const uint8_t *body, size_t n,
                      struct ccnx_buf *reply)
{
    struct ccnx_buf msg = CCNX_BUF_INIT, obj = CCNX_BUF_INIT;
    struct ccnx_name name;
    ccnx_name_init(&name);
    const struct ccnx_key *key = NULL;
    int res = ccnd_link_ccndid(link);
    if (res == 0) {
        res = user_key(link, &key);
    }
    if (res == 0) {
        res = ccnx_mgmt_signed_request_name(&name, link->ccndid, verb, body, n, key);
        if (res != 0) {
            snprintf(link->err, sizeof link->err, "cannot sign the request: %s",
                     ccnx_strerror(res));
        }
    }
    if (res == 0) {
        res = build_local_interest(&msg, &name);
    }
    if (res == 0) {
        res = ccnd_link_get(link, msg.data, msg.len, &obj);
    }
    struct ccnx_content_parsed pc;
    if (res == 0 && ccnx_content_parse(obj.data, obj.len, &pc) == 0) {
        const uint8_t *v = obj.data + pc.content_value.off;
        if (pc.type == CCNX_TYPE_NACK) {
            read_status(link, v, pc.content_value.len);
            res = CCND_LINK_NACK;
        } else {
            ccnx_buf_reset(reply);
            ccnx_buf_append(reply, v, pc.content_value.len);
            res = ccnx_buf_status(reply);
        }
    }
    ccnx_name_free(&name);
    ccnx_buf_free(&msg);
    ccnx_buf_free(&obj);
    return res;
}

int ccnd_link_peer_pid(const char *path, long *pid)
{
    int fd = connect_unix(path);
    if (fd < 0) {
        return CCNX_E_NOTFOUND;
    }
    int res = CCNX_E_UNSUPPORTED;
#ifdef SO_PEERCRED
    struct ucred cred;
    socklen_t len = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 && cred.pid > 0) {
        *pid = (long)cred.pid;
        res = 0;
    }
#endif
    close(fd);
    return res;
}
