/* The client's connection to ccnd, its input framing and output queue, its
 * timers and its loop. Interests live in client_pending.c, filters and
 * registration in client_filter.c. */
#include "client_internal.h"

#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/key.h>
#include <ccnx/keystore.h>
#include <ccnx/local.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "base/env.h"

#define READ_CHUNK       (256 * 1024)
#define MAX_ELEMENT_SIZE (1 << 20) /* larger than any message ccnd forwards */
#define DESTROY_DRAIN_MS 2000      /* how long destroy waits for queued output */

int64_t ccnx_client_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void client_set_error(struct ccnx_client *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, sizeof c->err, fmt, ap);
    va_end(ap);
}

/* ---- Timers ---- */

#define TIMER_OF(x) ((struct client_timer *)((char *)(x)-offsetof(struct client_timer, node)))

void client_timer_init(struct client_timer *t, ccnx_timer_fn fn, void *arg)
{
    ccnx_heap_node_init(&t->node);
    t->fn = fn;
    t->arg = arg;
}

int client_timer_arm(struct ccnx_client *c, struct client_timer *t, int64_t due)
{
    return ccnx_heap_set(&c->timers, &t->node, due > 0 ? (uint64_t)due : 0);
}

void client_timer_disarm(struct ccnx_client *c, struct client_timer *t)
{
    ccnx_heap_remove(&c->timers, &t->node);
}

static void run_due_timers(struct ccnx_client *c)
{
    uint64_t now = (uint64_t)ccnx_client_now_ms();
    /* Timers armed by these callbacks wait for the next round, so a
     * callback that re-arms itself with delay 0 cannot starve the loop. */
    uint64_t limit = c->timers.sets;
    struct ccnx_heap_node *x;
    while ((x = ccnx_heap_top(&c->timers)) != NULL && x->when <= now && x->order < limit &&
           !c->stop) {
        ccnx_heap_remove(&c->timers, x);
        struct client_timer *t = TIMER_OF(x);
        t->fn(t->arg);
    }
}

/* A user timer fires once: it is forgotten before its function runs, so the
 * function may schedule again or unschedule anything. */
static void user_timer_fire(void *arg)
{
    struct user_timer *u = arg;
    struct ccnx_client *c = u->owner;
    for (struct user_timer **pp = &c->user_timers; *pp != NULL; pp = &(*pp)->next) {
        if (*pp == u) {
            *pp = u->next;
            break;
        }
    }
    ccnx_timer_fn fn = u->fn;
    void *fn_arg = u->arg;
    free(u);
    fn(fn_arg);
}

int ccnx_client_schedule(struct ccnx_client *c, int delay_ms, ccnx_timer_fn fn, void *arg,
                         uint64_t *id)
{
    if (fn == NULL) {
        return CCNX_E_INVAL;
    }
    struct user_timer *u = calloc(1, sizeof *u);
    if (u == NULL) {
        return CCNX_E_NOMEM;
    }
    u->id = ++c->next_id;
    u->owner = c;
    u->fn = fn;
    u->arg = arg;
    client_timer_init(&u->timer, user_timer_fire, u);
    if (client_timer_arm(c, &u->timer, ccnx_client_now_ms() + (delay_ms > 0 ? delay_ms : 0)) != 0) {
        free(u);
        return CCNX_E_NOMEM;
    }
    u->next = c->user_timers;
    c->user_timers = u;
    if (id != NULL) {
        *id = u->id;
    }
    return 0;
}

int ccnx_client_unschedule(struct ccnx_client *c, uint64_t id)
{
    for (struct user_timer **pp = &c->user_timers; *pp != NULL; pp = &(*pp)->next) {
        if ((*pp)->id == id) {
            struct user_timer *u = *pp;
            *pp = u->next;
            client_timer_disarm(c, &u->timer);
            free(u);
            return 0;
        }
    }
    return CCNX_E_NOTFOUND;
}

/* ---- Connection ---- */

/* Where ccnd listens, from the environment: 1 for TCP (port in *port), 0
 * for the unix socket (path in c->where), negative when it cannot be named. */
static int resolve_address(struct ccnx_client *c, unsigned *port)
{
    struct ccnx_env env;
    ccnx_env_read(&env);
    *port = ccnx_local_port(env.port);
    if (env.transport != NULL && strcmp(env.transport, "tcp") == 0) {
        snprintf(c->where, sizeof c->where, "tcp 127.0.0.1:%u", *port);
        return 1;
    }
    int res = ccnx_local_sockname(c->where, sizeof c->where, env.sockname, env.port);
    if (res != 0) {
        client_set_error(c, "CCN_LOCAL_SOCKNAME is too long for a unix socket path");
    }
    return res;
}

static int socket_for(int tcp, unsigned port, const char *path)
{
    struct sockaddr_un su = {.sun_family = AF_UNIX};
    struct sockaddr_in si = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    si.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (!tcp && strlen(path) >= sizeof su.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    if (!tcp) {
        memcpy(su.sun_path, path, strlen(path) + 1);
    }
    int fd = socket(tcp ? AF_INET : AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const struct sockaddr *sa = tcp ? (const struct sockaddr *)&si : (const struct sockaddr *)&su;
    socklen_t salen = tcp ? sizeof si : sizeof su;
    if (fd >= 0 && connect(fd, sa, salen) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    if (tcp) {
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    /* Large buffers let a window of segments travel in few system calls. */
    int size = 1 << 20;
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    return fd;
}

static int client_connect(struct ccnx_client *c)
{
    unsigned port;
    int tcp = resolve_address(c, &port);
    if (tcp < 0) {
        return tcp;
    }
    c->tcp = tcp;
    c->fd = socket_for(tcp, port, c->where);
    if (c->fd < 0) {
        const char *why = strerror(errno);
        if (errno == ENOENT || errno == ECONNREFUSED) {
            why = "start it with ccndstart";
        } else if (errno == EACCES) {
            why = "permission denied: the socket belongs to another user";
        }
        client_set_error(c, "no ccnd at %s: %s", c->where, why);
        return CCNX_E_IO;
    }
    ccnx_skel_init(&c->skel);
    c->skel.max_element = MAX_ELEMENT_SIZE;
    c->in.len = c->in_off = c->in_scan = 0;
    c->out.len = c->out_off = 0;
    return 0;
}

static void drain_output(struct ccnx_client *c, int ms);

static void try_reconnect(void *arg)
{
    struct ccnx_client *c = arg;
    if (client_connect(c) != 0) {
        client_timer_arm(c, &c->reconnect_timer, ccnx_client_now_ms() + CCNX_CLIENT_RECONNECT_MS);
        return;
    }
    c->err[0] = '\0';
    /* Interests first: registration starts new ones that must go out once. */
    pending_resend_all(c);
    filter_connection_reset(c);
}

/* The connection broke: what was half sent or half read is dropped (ccnd
 * drops it too), then either reconnect or fail everything that waits. */
static void connection_lost(struct ccnx_client *c, const char *why)
{
    client_set_error(c, "lost the connection to ccnd at %s: %s%s", c->where, why,
                     c->reconnect ? " (reconnecting)" : "");
    close(c->fd);
    c->fd = -1;
    c->have_ccndid = 0;
    if (c->reconnect) {
        client_timer_arm(c, &c->reconnect_timer, ccnx_client_now_ms() + CCNX_CLIENT_RECONNECT_MS);
    } else {
        pending_fail_all(c);
    }
}

int ccnx_client_open(struct ccnx_client **out)
{
    struct ccnx_client *c = calloc(1, sizeof *c);
    *out = c;
    if (c == NULL) {
        return CCNX_E_NOMEM;
    }
    c->fd = -1;
    c->reconnect = 1;
    ccnx_buf_init(&c->in);
    ccnx_buf_init(&c->out);
    client_timer_init(&c->reconnect_timer, try_reconnect, c);
    ccnx_heap_init(&c->timers);
    return client_connect(c);
}

void ccnx_client_destroy(struct ccnx_client *c)
{
    if (c == NULL) {
        return;
    }
    if (c->fd >= 0) {
        c->reconnect = 1; /* a failure now must not run timeout callbacks */
        drain_output(c, DESTROY_DRAIN_MS);
    }
    if (c->fd >= 0) {
        close(c->fd);
    }
    filter_free_all(c);
    pending_table_free(&c->pending);
    while (c->user_timers != NULL) {
        struct user_timer *u = c->user_timers;
        c->user_timers = u->next;
        free(u);
    }
    if (c->own_ks) {
        ccnx_keystore_destroy(c->ks);
    }
    ccnx_buf_free(&c->in);
    ccnx_buf_free(&c->out);
    ccnx_heap_free(&c->timers);
    free(c);
}

const char *ccnx_client_error(const struct ccnx_client *c)
{
    return c->err;
}

const char *ccnx_client_where(const struct ccnx_client *c)
{
    return c->where;
}

int ccnx_client_connected(const struct ccnx_client *c)
{
    return c->fd >= 0;
}

void ccnx_client_set_reconnect(struct ccnx_client *c, int on)
{
    c->reconnect = on != 0;
}

void ccnx_client_set_keystore(struct ccnx_client *c, struct ccnx_keystore *ks)
{
    if (c->own_ks) {
        ccnx_keystore_destroy(c->ks);
    }
    c->ks = ks;
    c->own_ks = 0;
}

const struct ccnx_key *ccnx_client_key(struct ccnx_client *c)
{
    if (c->ks == NULL) {
        int res = ccnx_keystore_open_or_create(NULL, NULL, &c->ks);
        if (res != 0) {
            struct ccnx_buf path = CCNX_BUF_INIT;
            ccnx_keystore_default_path(&path);
            client_set_error(c, "cannot open or create the keystore %s: %s",
                             path.len ? ccnx_buf_cstr(&path) : "(set HOME or CCNX_DIR)",
                             ccnx_strerror(res));
            ccnx_buf_free(&path);
            c->ks = NULL;
            return NULL;
        }
        c->own_ks = 1;
    }
    return ccnx_keystore_key(c->ks);
}

/* ---- Output ---- */

static int flush_output(struct ccnx_client *c)
{
    while (c->fd >= 0 && c->out_off < c->out.len) {
        ssize_t w = send(c->fd, c->out.data + c->out_off, c->out.len - c->out_off, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            break;
        }
        if (w <= 0) {
            connection_lost(c, strerror(errno));
            return CCNX_E_IO;
        }
        c->out_off += (size_t)w;
    }
    if (c->out_off == c->out.len) {
        c->out.len = c->out_off = 0;
    } else if (c->out_off > c->out.len / 2) {
        memmove(c->out.data, c->out.data + c->out_off, c->out.len - c->out_off);
        c->out.len -= c->out_off;
        c->out_off = 0;
    }
    return 0;
}

/* Waits up to ms for queued output to reach ccnd, without reading (no
 * callback may run): a tool that puts an object and exits at once must not
 * lose it. */
static void drain_output(struct ccnx_client *c, int ms)
{
    int64_t end = ccnx_client_now_ms() + ms;
    while (c->fd >= 0 && ccnx_client_output_pending(c) > 0 && flush_output(c) == 0) {
        int64_t left = end - ccnx_client_now_ms();
        struct pollfd p = {c->fd, POLLOUT, 0};
        if (left <= 0 || poll(&p, 1, (int)left) <= 0) {
            break;
        }
    }
}

int client_send(struct ccnx_client *c, const uint8_t *p, size_t n)
{
    if (c->fd < 0) {
        return 0; /* sent again after the reconnection */
    }
    if (ccnx_buf_append(&c->out, p, n) != 0) {
        return CCNX_E_NOMEM;
    }
    /* Inside _process the whole batch goes out at the end, in few writes. */
    return c->in_process ? 0 : flush_output(c);
}

int ccnx_client_put(struct ccnx_client *c, const uint8_t *obj, size_t len)
{
    if (c->fd < 0) {
        client_set_error(c, "not connected to ccnd at %s", c->where);
        return CCNX_E_IO;
    }
    return client_send(c, obj, len);
}

size_t ccnx_client_output_pending(const struct ccnx_client *c)
{
    return c->out.len - c->out_off;
}

/* ---- Input ---- */

static void dispatch_element(struct ccnx_client *c, const uint8_t *p, size_t n)
{
    switch (c->skel.top_dtag) {
    case CCNX_DTAG_ContentObject:
        pending_dispatch_content(c, p, n);
        break;
    case CCNX_DTAG_Interest:
        filter_dispatch_interest(c, p, n);
        break;
    default:
        break; /* anything else ccnd sends is not for applications */
    }
}

/* Cuts and dispatches every whole element read so far. Callbacks may
 * express or put (appending to c->out) but never touch c->in. */
static int frame_input(struct ccnx_client *c)
{
    while (c->in_scan < c->in.len && c->fd >= 0 && !c->stop) {
        size_t used = 0;
        int res = ccnx_skel_feed(&c->skel, c->in.data + c->in_scan, c->in.len - c->in_scan, &used);
        if (res < 0) {
            connection_lost(c, "malformed data from ccnd");
            return res;
        }
        c->in_scan += used;
        if (res == 0) {
            break;
        }
        size_t start = c->in_off;
        c->in_off = c->in_scan;
        dispatch_element(c, c->in.data + start, c->in_off - start);
    }
    if (c->in_off == c->in.len) {
        c->in.len = c->in_off = c->in_scan = 0;
    }
    return 0;
}

static int read_input(struct ccnx_client *c)
{
    for (int rounds = 0; rounds < 8 && c->fd >= 0 && !c->stop; rounds++) {
        if (c->in_off > 0) {
            memmove(c->in.data, c->in.data + c->in_off, c->in.len - c->in_off);
            c->in.len -= c->in_off;
            c->in_scan -= c->in_off;
            c->in_off = 0;
        }
        uint8_t *room = ccnx_buf_reserve(&c->in, READ_CHUNK);
        if (room == NULL) {
            return CCNX_E_NOMEM;
        }
        ssize_t r = recv(c->fd, room, READ_CHUNK, 0);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            break;
        }
        if (r <= 0) {
            connection_lost(c, r == 0 ? "ccnd closed it" : strerror(errno));
            break;
        }
        c->in.len += (size_t)r;
        int res = frame_input(c);
        if (res != 0 || r < READ_CHUNK) {
            return res;
        }
    }
    return 0;
}

/* ---- Loop ---- */

int ccnx_client_fd(const struct ccnx_client *c)
{
    return c->fd;
}

short ccnx_client_poll_events(const struct ccnx_client *c)
{
    return (short)(POLLIN | (ccnx_client_output_pending(c) > 0 ? POLLOUT : 0));
}

int ccnx_client_timeout_ms(const struct ccnx_client *c)
{
    if (c->in_scan < c->in.len) {
        return 0; /* elements left unread when the loop was stopped */
    }
    if (ccnx_heap_top(&c->timers) == NULL) {
        return -1;
    }
    int64_t left = (int64_t)ccnx_heap_next(&c->timers) - ccnx_client_now_ms();
    return left <= 0 ? 0 : left > INT32_MAX ? INT32_MAX : (int)left;
}

int ccnx_client_process(struct ccnx_client *c)
{
    int outer = !c->in_process;
    c->in_process = 1;
    int res = c->fd >= 0 ? frame_input(c) : 0;
    if (res == 0 && c->fd >= 0) {
        res = read_input(c);
    }
    if (res == 0) {
        run_due_timers(c);
    }
    if (outer) {
        c->in_process = 0;
        if (flush_output(c) != 0 && !c->reconnect) {
            res = CCNX_E_IO;
        }
    }
    if (c->fd < 0 && !c->reconnect) {
        return CCNX_E_IO;
    }
    return res == CCNX_E_NOMEM ? res : 0;
}

void ccnx_client_stop(struct ccnx_client *c)
{
    c->stop = 1;
}

int ccnx_client_run(struct ccnx_client *c, int ms)
{
    int64_t end = ms < 0 ? INT64_MAX : ccnx_client_now_ms() + ms;
    c->stop = 0;
    int res = 0;
    while (!c->stop && res == 0) {
        int64_t left = end - ccnx_client_now_ms();
        if (left <= 0) {
            break;
        }
        int wait = ccnx_client_timeout_ms(c);
        if (wait < 0 || wait > left) {
            wait = left > INT32_MAX ? INT32_MAX : (int)left;
        }
        struct pollfd p = {c->fd, ccnx_client_poll_events(c), 0};
        int n = poll(&p, c->fd >= 0 ? 1 : 0, wait);
        if (n < 0 && errno != EINTR) {
            client_set_error(c, "poll failed: %s", strerror(errno));
            return CCNX_E_IO;
        }
        res = ccnx_client_process(c);
    }
    c->stop = 0;
    return res;
}
