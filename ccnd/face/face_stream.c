/* Stream faces: unix and TCP listeners, accepted and outbound connections
 * (four kinds, their tables at the end). An accepted connection whose first
 * bytes are an HTTP request becomes an HTTP face (face_http.c). */
#define _GNU_SOURCE
#include "face/face_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include <ccnx/error.h>

#define STREAM_READ_CHUNK  65536
#define STREAM_READ_BUDGET (256 * 1024) /* per wakeup, so one peer cannot starve others */
#define STREAM_IOV_MAX     64
#define LISTEN_PAUSE_US    100000

static void stream_ready(struct loop *loop, int fd, unsigned events, void *arg);
static void listener_ready(struct loop *loop, int fd, unsigned events, void *arg);
static const struct face_ops unix_ops, tcp_ops, unix_listener_ops, tcp_listener_ops;

/* Registers a new socket face and its watcher; closes fd on failure. */
static struct face *stream_face(struct face_table *ft, const struct face_ops *ops, unsigned flags,
                                int fd, loop_io_cb cb)
{
    struct face *f = face_new(ft, ops, flags, fd);
    if (f == NULL) {
        close(fd);
        return NULL;
    }
    unsigned ev = LOOP_READ | ((flags & FACE_F_CONNECTING) ? LOOP_WRITE : 0);
    if (loop_io_add(ft->loop, fd, ev, cb, f) != 0) {
        face_discard(f);
        return NULL;
    }
    return f;
}

void face_stream_close(struct face *f)
{
    if (f->fd >= 0) {
        loop_io_remove(f->ft->loop, f->fd);
        close(f->fd);
        f->fd = -1;
    }
}

static void listener_close(struct face *f)
{
    face_stream_close(f);
    char *path = f->k.listener.path;
    if (path != NULL) {
        /* Remove the socket file only if it is still the one we bound: a
         * newer server may have replaced it. */
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode) && st.st_ino == f->k.listener.ino) {
            unlink(path);
        }
        free(path);
        f->k.listener.path = NULL;
    }
}

/* A connection whose output has not moved for stall_timeout_us is closed:
 * its peer stopped reading. */
void face_stream_sweep(struct face *f, uint64_t now)
{
    uint64_t limit = f->ft->cfg.stall_timeout_us;
    if (f->qhead != NULL && limit > 0 && now - f->last_progress >= limit) {
        face_destroy(f, FACE_CLOSE_STALLED);
    }
}

static int fill_sun(struct sockaddr_un *sun, const char *path)
{
    memset(sun, 0, sizeof(*sun));
    sun->sun_family = AF_UNIX;
    if (path == NULL || strlen(path) >= sizeof(sun->sun_path) || path[0] == '\0') {
        return CCNX_E_INVAL;
    }
    strcpy(sun->sun_path, path);
    return 0;
}

/* Removes a socket file nobody answers on; refuses a live one or a non-socket. */
static int clear_stale_socket(const struct sockaddr_un *sun)
{
    struct stat st;
    if (lstat(sun->sun_path, &st) != 0) {
        return errno == ENOENT ? 0 : CCNX_E_IO;
    }
    if (!S_ISSOCK(st.st_mode)) {
        errno = EEXIST;
        return CCNX_E_IO;
    }
    int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (probe < 0) {
        return CCNX_E_IO;
    }
    int res = connect(probe, (const struct sockaddr *)sun, sizeof(*sun));
    int err = errno;
    close(probe);
    if (res == 0) {
        errno = EADDRINUSE;
        return CCNX_E_IO;
    }
    if (err == ECONNREFUSED) {
        unlink(sun->sun_path);
        return 0;
    }
    errno = err == ENOENT ? 0 : err;
    return err == ENOENT ? 0 : CCNX_E_IO;
}

static int listen_fd_face(struct face_table *ft, int fd, const struct face_ops *ops, unsigned flags,
                          unsigned *faceid, struct face **out)
{
    if (listen(fd, ft->cfg.listen_backlog) != 0 || face_set_nonblock(fd) != 0) {
        int err = errno;
        close(fd);
        errno = err;
        return CCNX_E_IO;
    }
    struct face *f =
        stream_face(ft, ops, flags | FACE_F_PASSIVE | FACE_F_PERMANENT, fd, listener_ready);
    if (f == NULL) {
        return CCNX_E_NOMEM;
    }
    *out = f;
    if (faceid != NULL) {
        *faceid = f->faceid;
    }
    return 0;
}

int face_listen_unix(struct face_table *ft, const char *path, unsigned *faceid)
{
    struct sockaddr_un sun;
    if (fill_sun(&sun, path) != 0) {
        return CCNX_E_INVAL;
    }
    int res = clear_stale_socket(&sun);
    if (res != 0) {
        return res;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return CCNX_E_IO;
    }
    /* Every local user may connect, whatever the umask (the reference binds
     * under umask 0111): what one user may do to another's faces and
     * registrations is decided per request, by the peer's uid. */
    int bound = bind(fd, (const struct sockaddr *)&sun, sizeof(sun)) == 0;
    if (!bound || chmod(path, 0666) != 0) {
        int err = errno;
        if (bound) {
            unlink(path);
        }
        close(fd);
        errno = err;
        return CCNX_E_IO;
    }
    struct stat st;
    ino_t ino = lstat(path, &st) == 0 ? st.st_ino : 0;
    struct face *f;
    res = listen_fd_face(ft, fd, &unix_listener_ops, FACE_F_LOCAL | FACE_F_STREAM, faceid, &f);
    if (res != 0) {
        unlink(path);
        return res;
    }
    f->k.listener.path = strdup(path);
    f->k.listener.ino = ino;
    memcpy(&f->addr, &sun, sizeof(sun));
    f->addrlen = sizeof(sun);
    face_addr_text((struct sockaddr *)&sun, sizeof(sun), f->remote, sizeof(f->remote));
    face_announce(f);
    return 0;
}

int face_listen_tcp(struct face_table *ft, const struct sockaddr *addr, socklen_t len,
                    unsigned *faceid)
{
    if (addr == NULL || (addr->sa_family != AF_INET && addr->sa_family != AF_INET6)) {
        return CCNX_E_INVAL;
    }
    int fd = socket(addr->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return CCNX_E_IO;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (addr->sa_family == AF_INET6) {
        /* Keeps the IPv4 listener on the same port possible. */
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
    }
    if (bind(fd, addr, len) != 0) {
        int err = errno;
        close(fd);
        errno = err;
        return CCNX_E_IO;
    }
    struct face *f;
    unsigned flags = face_addr_flags(addr) & (FACE_F_INET | FACE_F_INET6);
    int res = listen_fd_face(ft, fd, &tcp_listener_ops, flags | FACE_F_STREAM, faceid, &f);
    if (res != 0) {
        return res;
    }
    f->addrlen = sizeof(f->addr);
    getsockname(fd, (struct sockaddr *)&f->addr, &f->addrlen);
    face_addr_text((struct sockaddr *)&f->addr, f->addrlen, f->remote, sizeof(f->remote));
    face_announce(f);
    return 0;
}

static int stream_connect(struct face_table *ft, const struct sockaddr *addr, socklen_t len,
                          const struct face_ops *ops, unsigned *faceid)
{
    int fd = socket(addr->sa_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        return CCNX_E_IO;
    }
    unsigned flags = FACE_F_STREAM | FACE_F_PERMANENT | face_addr_flags(addr);
    if (connect(fd, addr, len) != 0) {
        if (errno != EINPROGRESS) {
            int err = errno;
            close(fd);
            errno = err;
            return CCNX_E_IO;
        }
        flags |= FACE_F_CONNECTING;
    }
    if (ops == &tcp_ops) {
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    }
    struct face *f = stream_face(ft, ops, flags, fd, stream_ready);
    if (f == NULL) {
        return CCNX_E_NOMEM;
    }
    memcpy(&f->addr, addr, len < sizeof(f->addr) ? len : sizeof(f->addr));
    f->addrlen = len;
    face_addr_text(addr, len, f->remote, sizeof(f->remote));
    if (faceid != NULL) {
        *faceid = f->faceid;
    }
    face_announce(f);
    return 0;
}

int face_connect_unix(struct face_table *ft, const char *path, unsigned *faceid)
{
    struct sockaddr_un sun;
    if (fill_sun(&sun, path) != 0) {
        return CCNX_E_INVAL;
    }
    return stream_connect(ft, (struct sockaddr *)&sun, sizeof(sun), &unix_ops, faceid);
}

int face_connect_tcp(struct face_table *ft, const struct sockaddr *addr, socklen_t len,
                     unsigned *faceid)
{
    if (addr == NULL || (addr->sa_family != AF_INET && addr->sa_family != AF_INET6)) {
        return CCNX_E_INVAL;
    }
    /* One connection per peer, as the reference keeps it: asking again for
     * the same address (ccndc add, then del) names the face that exists. */
    for (unsigned id = face_next(ft, FACE_NONE); id != FACE_NONE; id = face_next(ft, id)) {
        struct face *f = face_lookup(ft, id);
        if (f->ops == &tcp_ops && !f->dead && !(f->flags & FACE_F_NOSEND) &&
            face_addr_equal((struct sockaddr *)&f->addr, f->addrlen, addr, len)) {
            *faceid = id;
            return 0;
        }
    }
    return stream_connect(ft, addr, len, &tcp_ops, faceid);
}

/* ---- accepting ---- */

static void listener_resume(struct loop *loop, void *arg)
{
    struct face_table *ft = arg;
    for (unsigned id = face_next(ft, FACE_NONE); id != FACE_NONE; id = face_next(ft, id)) {
        struct face *f = face_lookup(ft, id);
        if (f->ops->manages_read) {
            loop_io_set(loop, f->fd, LOOP_READ);
        }
    }
}

/* Out of descriptors: the pending connection would keep the listener
 * readable forever. Shed it with the spare fd, or pause listening briefly. */
static void accept_starved(struct face *l)
{
    struct face_table *ft = l->ft;
    if (ft->reserve_fd >= 0) {
        close(ft->reserve_fd);
        int fd = accept(l->fd, NULL, NULL);
        if (fd >= 0) {
            close(fd);
        }
        ft->reserve_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            return;
        }
    }
    loop_io_set(ft->loop, l->fd, 0);
    loop_timer_init(&ft->resume, listener_resume, ft);
    loop_timer_start(ft->loop, &ft->resume, LISTEN_PAUSE_US, 0);
}

static void accept_one(struct face *l, int fd, const struct sockaddr_storage *ss, socklen_t len)
{
    struct face_table *ft = l->ft;
    int is_unix = l->ops == &unix_listener_ops;
    unsigned flags = FACE_F_STREAM | FACE_F_ACCEPTED;
    if (is_unix) {
        flags |= FACE_F_LOCAL;
    } else {
        flags |= face_addr_flags((const struct sockaddr *)ss);
        if (!face_guard_admit(ft, fd, (const struct sockaddr *)ss, flags)) {
            l->c.drops[FACE_DROP_REFUSED]++;
            close(fd);
            return;
        }
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    }
    struct face *f = stream_face(ft, is_unix ? &unix_ops : &tcp_ops, flags, fd, stream_ready);
    if (f == NULL) {
        return;
    }
    f->sock = l->faceid;
    if (is_unix) {
        memcpy(f->remote, l->remote, sizeof(f->remote));
        int64_t uid;
        if (face_peer_uid(ft, f->faceid, &uid) == 0) {
            f->owner = uid; /* a local application's own connection */
        }
    } else {
        memcpy(&f->addr, ss, sizeof(*ss));
        f->addrlen = len;
        face_addr_text((const struct sockaddr *)ss, len, f->remote, sizeof(f->remote));
        if (face_guard_applies(ft, flags)) {
            face_guard_add(f);
        }
    }
    face_announce(f);
}

static void listener_ready(struct loop *loop, int fd, unsigned events, void *arg)
{
    (void)loop;
    (void)events;
    struct face *l = arg;
    face_enter(l->ft);
    for (int i = 0; i < 64 && !l->dead; i++) {
        struct sockaddr_storage ss;
        socklen_t len = sizeof(ss);
        int c = accept4(fd, (struct sockaddr *)&ss, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (c < 0) {
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                l->last_errno = errno;
                accept_starved(l);
            }
            break; /* EAGAIN, or a transient error: wait for the next wakeup */
        }
        l->last_errno = 0; /* accepting again */
        accept_one(l, c, &ss, len);
    }
    face_leave(l->ft);
}

/* ---- reading and writing ---- */

/* Messages forwarded from the input buffer stay borrowed (see
 * face_borrow_begin) across reads until the buffer is about to move, and
 * at most until the read ends. */
static int stream_read_chunks(struct face *f)
{
    size_t total = 0;
    while (total < STREAM_READ_BUDGET && !f->dead) {
        size_t avail;
        if (framer_stream_moves(&f->in, STREAM_READ_CHUNK)) {
            face_borrow_end(f->ft);
        }
        uint8_t *p = framer_stream_space(&f->in, STREAM_READ_CHUNK, &avail);
        if (p == NULL) {
            return FACE_CLOSE_ERROR;
        }
        ssize_t n = read(f->fd, p, avail);
        if (n == 0) {
            return f->ops->eof(f);
        }
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                return -1;
            }
            f->last_errno = errno;
            return FACE_CLOSE_ERROR;
        }
        total += (size_t)n;
        f->c.bytes_in += (uint64_t)n;
        f->last_rx = loop_now(f->ft->loop);
        int why = f->ops->input(f, p, (size_t)n);
        if (why >= 0) {
            return why;
        }
    }
    return -1;
}

/* ccnb input: the bytes just read at p (in the framer's space) are framed
 * into messages. An accepted connection whose first bytes are an HTTP
 * request becomes an HTTP face instead. */
static int stream_input(struct face *f, const uint8_t *p, size_t n)
{
    if (f->c.bytes_in == n && face_http_claims(f, p, n)) {
        return face_http_take(f) == 0 ? f->ops->input(f, p, n) : FACE_CLOSE_ERROR;
    }
    struct framer_counts before = {0}, counts = {0};
    struct framer_sink sink = face_sink(f, &counts);
    face_borrow_begin(f->ft, f->in.buf, f->in.len + n);
    int res = framer_stream_commit(&f->in, n, &sink);
    face_framed(f, &before, &counts);
    if (res < 0) {
        return res == CCNX_E_TOOBIG ? FACE_CLOSE_OVERSIZE : FACE_CLOSE_MALFORMED;
    }
    return -1;
}

static int stream_eof(struct face *f)
{
    (void)f;
    return FACE_CLOSE_EOF;
}

static int stream_read(struct face *f)
{
    int why = stream_read_chunks(f);
    face_borrow_end(f->ft);
    return why;
}

/* The peer closed its reading side (a producer that exits right after
 * writing its last objects): what it sent before is still in the socket, so
 * the face is read to its end, as the reference does, and only sending
 * stops. Dropping the face here would lose that content. */
static void stream_stop_sending(struct face *f)
{
    size_t n = 0;
    for (struct face_msg *m = f->qhead; m != NULL; m = m->next) {
        n++;
    }
    f->c.drops[FACE_DROP_QUEUE] += n;
    face_queue_pop(f, n, 0);
    f->flags |= FACE_F_NOSEND;
}

void face_stream_flush(struct face *f)
{
    while (f->qhead != NULL && f->fd >= 0 && !f->dead) {
        struct iovec iov[STREAM_IOV_MAX];
        int n = 0;
        for (struct face_msg *m = f->qhead; m != NULL && n < STREAM_IOV_MAX; m = m->next) {
            iov[n].iov_base = (void *)(m->p + m->off);
            iov[n].iov_len = m->len - m->off;
            n++;
        }
        struct msghdr mh;
        memset(&mh, 0, sizeof(mh));
        mh.msg_iov = iov;
        mh.msg_iovlen = (size_t)n;
        ssize_t w = sendmsg(f->fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                break;
            }
            f->last_errno = errno;
            if (errno == EPIPE || errno == ECONNRESET) {
                stream_stop_sending(f);
                break;
            }
            face_destroy(f, FACE_CLOSE_ERROR);
            return;
        }
        f->c.bytes_out += (uint64_t)w;
        f->last_progress = loop_now(f->ft->loop);
        size_t left = (size_t)w, done = 0;
        for (struct face_msg *m = f->qhead; m != NULL && left > 0; m = m->next) {
            size_t rest = m->len - m->off;
            size_t take = left < rest ? left : rest;
            m->off += take;
            left -= take;
            done += m->off == m->len;
        }
        face_queue_pop(f, done, 1);
    }
    face_watch_update(f);
}

static void connect_done(struct face *f)
{
    int err = 0;
    socklen_t len = sizeof(err);
    if (getsockopt(f->fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) {
        err = errno;
    }
    if (err != 0) {
        f->last_errno = err;
        face_destroy(f, FACE_CLOSE_ERROR);
        return;
    }
    f->flags &= ~FACE_F_CONNECTING;
    f->last_progress = loop_now(f->ft->loop);
}

static void stream_ready(struct loop *loop, int fd, unsigned events, void *arg)
{
    (void)loop;
    (void)fd;
    struct face *f = arg;
    face_enter(f->ft);
    if ((f->flags & FACE_F_CONNECTING) && (events & (LOOP_WRITE | LOOP_ERROR))) {
        connect_done(f);
    }
    if (!f->dead && (events & LOOP_READ) && !(f->flags & FACE_F_CONNECTING)) {
        int why = stream_read(f);
        if (why >= 0 && !f->dead) {
            face_destroy(f, (enum face_close_reason)why);
        }
    }
    if (!f->dead && !(f->flags & FACE_F_CONNECTING)) {
        f->ops->flush(f);
    }
    face_leave(f->ft);
}

/* ---- the kinds ---- */

static int unix_peer_uid(struct face *f, int64_t *uid)
{
    return face_cred_unix(f->fd, uid);
}

static int tcp_peer_uid(struct face *f, int64_t *uid)
{
    return face_cred_tcp(f, uid);
}

static const struct face_ops unix_ops = {
    .kind = FACE_KIND_UNIX,
    .flush = face_stream_flush,
    .close = face_stream_close,
    .sweep = face_stream_sweep,
    .input = stream_input,
    .eof = stream_eof,
    .peer_uid = unix_peer_uid,
};

static void tcp_close(struct face *f)
{
    face_guard_remove(f);
    face_stream_close(f);
}

static void tcp_sweep(struct face *f, uint64_t now)
{
    face_stream_sweep(f, now);
    face_guard_sweep(f, now);
}

static const struct face_ops tcp_ops = {
    .kind = FACE_KIND_TCP,
    .flush = face_stream_flush,
    .close = tcp_close,
    .sweep = tcp_sweep,
    .input = stream_input,
    .eof = stream_eof,
    .peer_uid = tcp_peer_uid,
};

static const struct face_ops unix_listener_ops = {
    .kind = FACE_KIND_UNIX_LISTENER,
    .close = listener_close,
    .manages_read = 1,
};

static const struct face_ops tcp_listener_ops = {
    .kind = FACE_KIND_TCP_LISTENER,
    .close = listener_close,
    .manages_read = 1,
};
