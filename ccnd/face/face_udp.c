/* Datagram faces: one bound UDP socket per address family with a face per
 * remote address, and multicast faces (three kinds, their tables at the
 * end). */
#define _GNU_SOURCE
#include "face/face_internal.h"

#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <ccnx/dtag.h>
#include <ccnx/error.h>

#define UDP_READ_BUDGET 64 /* datagrams per wakeup */

static void udp_ready(struct loop *loop, int fd, unsigned events, void *arg);
static void mcast_ready(struct loop *loop, int fd, unsigned events, void *arg);
static const struct face_ops udp_socket_ops, udp_ops, mcast_ops;

static int family_index(int family)
{
    return family == AF_INET6 ? 1 : 0;
}

static void close_fd(struct face *f)
{
    if (f->fd >= 0) {
        loop_io_remove(f->ft->loop, f->fd);
        close(f->fd);
        f->fd = -1;
    }
}

static void udp_peer_close(struct face *f)
{
    if (f->flags & FACE_F_ACCEPTED) {
        f->ft->udp_accepted--;
    }
    ccnx_htab_remove(&f->ft->udp_peers, &f->k.udp.hn);
}

static void udp_socket_close(struct face *f)
{
    struct face_table *ft = f->ft;
    ft->udp_sock[family_index(f->addr.ss_family)] = FACE_NONE;
    /* Its peers cannot outlive the socket they talk through. */
    for (unsigned id = face_next(ft, FACE_NONE); id != FACE_NONE; id = face_next(ft, id)) {
        struct face *p = face_lookup(ft, id);
        if (p->ops == &udp_ops && p->sock == f->faceid) {
            face_destroy(p, FACE_CLOSE_SHUTDOWN);
        }
    }
    close_fd(f);
}

static void mcast_close(struct face *f)
{
    close_fd(f);
    if (f->k.mcast.send_fd >= 0) {
        close(f->k.mcast.send_fd);
        f->k.mcast.send_fd = -1;
    }
}

#define UDP_BUFFER_BYTES (4 << 20)

/* Every peer of a UDP socket shares its buffer: windows of segments from
 * several at once overflow the default (about 200 KB), and each drop costs
 * a consumer a retransmission timeout. The kernel caps the size at
 * net.core.rmem_max and wmem_max. */
static void set_buffers(int fd)
{
    int size = UDP_BUFFER_BYTES;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
}

static int udp_socket(const struct sockaddr *addr, socklen_t len)
{
    int fd = socket(addr->sa_family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        return -1;
    }
    int one = 1;
    if (addr->sa_family == AF_INET6) {
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
    }
    set_buffers(fd);
    if (bind(fd, addr, len) != 0) {
        int err = errno;
        close(fd);
        errno = err;
        return -1;
    }
    return fd;
}

int face_udp_bind(struct face_table *ft, const struct sockaddr *addr, socklen_t len,
                  unsigned *faceid)
{
    if (addr == NULL || (addr->sa_family != AF_INET && addr->sa_family != AF_INET6)) {
        return CCNX_E_INVAL;
    }
    if (ft->udp_sock[family_index(addr->sa_family)] != FACE_NONE) {
        return CCNX_E_INVAL;
    }
    int fd = udp_socket(addr, len);
    if (fd < 0) {
        return CCNX_E_IO;
    }
    unsigned flags = FACE_F_DGRAM | FACE_F_PASSIVE | FACE_F_PERMANENT |
                     (face_addr_flags(addr) & (FACE_F_INET | FACE_F_INET6));
    struct face *f = face_new(ft, &udp_socket_ops, flags, fd);
    if (f == NULL) {
        close(fd);
        return CCNX_E_NOMEM;
    }
    f->addrlen = sizeof(f->addr);
    getsockname(fd, (struct sockaddr *)&f->addr, &f->addrlen);
    face_addr_text((struct sockaddr *)&f->addr, f->addrlen, f->remote, sizeof(f->remote));
    ft->udp_sock[family_index(addr->sa_family)] = f->faceid;
    if (loop_io_add(ft->loop, fd, LOOP_READ, udp_ready, f) != 0) {
        ft->udp_sock[family_index(addr->sa_family)] = FACE_NONE;
        face_discard(f);
        return CCNX_E_IO;
    }
    if (faceid != NULL) {
        *faceid = f->faceid;
    }
    face_announce(f);
    return 0;
}

#define PEER_OF(x) CCNX_HTAB_ENTRY(x, struct face, k.udp.hn)

/* A peer's key: its socket and its address's family, bytes and port. */
static uint64_t peer_hash(unsigned sock, const struct sockaddr *sa)
{
    uint64_t h = ccnx_hash_bytes(CCNX_HASH_INIT, &sock, sizeof sock);
    return ccnx_hash_mix(face_addr_hash(h, sa, 1));
}

/* One probe of the peers' table per datagram, whatever their number. */
static struct face *udp_find(struct face_table *ft, const struct face *sock,
                             const struct sockaddr *sa, socklen_t len)
{
    uint64_t h = peer_hash(sock->faceid, sa);
    for (struct ccnx_hnode *x = ccnx_htab_chain(&ft->udp_peers, h); x != NULL; x = x->next) {
        struct face *p = PEER_OF(x);
        if (x->hash == h && p->sock == sock->faceid &&
            face_addr_equal((struct sockaddr *)&p->addr, p->addrlen, sa, len)) {
            return p;
        }
    }
    return NULL;
}

static struct face *udp_peer_new(struct face_table *ft, struct face *sock,
                                 const struct sockaddr *sa, socklen_t len, unsigned extra)
{
    unsigned flags = FACE_F_DGRAM | face_addr_flags(sa) | extra;
    if (ft->cfg.udp_seq == FACE_SEQ_ALWAYS) {
        flags |= FACE_F_SEQOK;
    }
    struct face *p = face_new(ft, &udp_ops, flags, -1);
    if (p == NULL) {
        return NULL;
    }
    p->sock = sock->faceid;
    memcpy(&p->addr, sa, len < sizeof(p->addr) ? len : sizeof(p->addr));
    p->addrlen = len;
    ccnx_htab_insert(&ft->udp_peers, &p->k.udp.hn, peer_hash(sock->faceid, sa));
    face_addr_text(sa, len, p->remote, sizeof(p->remote));
    if (p->flags & FACE_F_ACCEPTED) {
        ft->udp_accepted++;
    }
    /* Reference behaviour: probe non-local peers once with a random start. */
    p->k.udp.pktseq = (uint16_t)(loop_now(ft->loop) ^ (p->faceid * 40503u));
    p->k.udp.seqprobe = ft->cfg.udp_seq == FACE_SEQ_PROBE && !(p->flags & FACE_F_LOCAL);
    face_announce(p);
    return p;
}

int face_udp_peer(struct face_table *ft, const struct sockaddr *remote, socklen_t len,
                  unsigned *faceid)
{
    if (remote == NULL || (remote->sa_family != AF_INET && remote->sa_family != AF_INET6)) {
        return CCNX_E_INVAL;
    }
    struct face *sock = face_lookup(ft, ft->udp_sock[family_index(remote->sa_family)]);
    if (sock == NULL) {
        return CCNX_E_NOTFOUND;
    }
    struct face *p = udp_find(ft, sock, remote, len);
    if (p == NULL) {
        p = udp_peer_new(ft, sock, remote, len, FACE_F_PERMANENT);
        if (p == NULL) {
            return CCNX_E_NOMEM;
        }
    }
    if (faceid != NULL) {
        *faceid = p->faceid;
    }
    return 0;
}

/* Frames one datagram received on face f; returns the link
 * SequenceNumbers it carried. */
static uint64_t dgram_input(struct face *f, const uint8_t *p, size_t n)
{
    struct framer_counts before = {0}, counts = {0};
    struct framer_sink sink = face_sink(f, &counts);
    f->c.bytes_in += n;
    f->last_rx = loop_now(f->ft->loop);
    framer_datagram(p, n, f->ft->cfg.max_message, &sink);
    face_framed(f, &before, &counts);
    return counts.link_seq;
}

static void udp_peer_flush(struct face *f);

static void udp_flush_peers(struct face *sock)
{
    struct face_table *ft = sock->ft;
    for (unsigned id = face_next(ft, FACE_NONE); id != FACE_NONE; id = face_next(ft, id)) {
        struct face *p = face_lookup(ft, id);
        if (p->ops == &udp_ops && p->sock == sock->faceid && p->qhead != NULL) {
            udp_peer_flush(p);
        }
    }
}

/* Faces looked at for one eviction: a flood of new senders costs each a
 * bounded scan; the cursor moves on, so the next one looks further. */
#define UDP_EVICT_SCAN 256

/* Makes room for a new sender at the cap: closes the peer face made for a
 * sender that was heard from least recently among those nothing holds
 * (the owner's in_use: no registrations, no pending Interests). 0 when
 * every peer looked at is in use. */
static int udp_evict(struct face_table *ft)
{
    struct face *victim = NULL;
    unsigned slot = ft->udp_evict_cursor;
    for (unsigned k = 0; k < UDP_EVICT_SCAN && k < ft->nslots; k++) {
        slot = (slot + 1) % ft->nslots;
        struct face *p = ft->slots[slot];
        if (p == NULL || p->dead || p->ops != &udp_ops || !(p->flags & FACE_F_ACCEPTED) ||
            (p->flags & FACE_F_PERMANENT)) {
            continue;
        }
        if (ft->cb.in_use != NULL && ft->cb.in_use(ft->cb.arg, p->faceid)) {
            continue;
        }
        if (victim == NULL || p->last_rx < victim->last_rx) {
            victim = p;
        }
    }
    ft->udp_evict_cursor = slot;
    if (victim == NULL) {
        return 0;
    }
    face_destroy(victim, FACE_CLOSE_EVICTED);
    return 1;
}

/* A datagram from an address no face has. A face is made only for one
 * that carries a whole message, so random datagrams from many ports cost a
 * count and no face. At most max_udp_peers such faces exist (idle ones
 * are reaped after udp_idle_timeout_us); at the cap, one nothing holds
 * makes room (udp_evict), so senders of one datagram each cannot shut
 * out a new neighbour. */
static struct face *udp_accept(struct face_table *ft, struct face *sock, const struct sockaddr *sa,
                               socklen_t len, size_t n)
{
    if (!framer_datagram_is_message(ft->dgram, n, ft->cfg.max_message)) {
        sock->c.drops[FACE_DROP_MALFORMED]++;
        return NULL;
    }
    if (ft->udp_accepted >= ft->cfg.max_udp_peers && !udp_evict(ft)) {
        sock->c.drops[FACE_DROP_NO_PEER]++;
        return NULL;
    }
    return udp_peer_new(ft, sock, sa, len, FACE_F_ACCEPTED);
}

static void udp_ready(struct loop *loop, int fd, unsigned events, void *arg)
{
    struct face *sock = arg;
    struct face_table *ft = sock->ft;
    face_enter(ft);
    if (events & LOOP_WRITE) {
        loop_io_set(loop, fd, LOOP_READ); /* peers re-arm it if they block again */
        udp_flush_peers(sock);
    }
    for (int i = 0; i < UDP_READ_BUDGET && (events & LOOP_READ) && !sock->dead; i++) {
        struct sockaddr_storage ss;
        socklen_t len = sizeof(ss);
        ssize_t n = recvfrom(fd, ft->dgram, FACE_DGRAM_MAX, 0, (struct sockaddr *)&ss, &len);
        if (n < 0) {
            break; /* EAGAIN; ICMP errors of earlier sends are not ours to act on */
        }
        struct face *p = udp_find(ft, sock, (struct sockaddr *)&ss, len);
        if (p == NULL) {
            p = udp_accept(ft, sock, (struct sockaddr *)&ss, len, (size_t)n);
        }
        /* A peer that sends SequenceNumbers gets them back (the
         * reference's behaviour). */
        if (p != NULL && !p->dead && dgram_input(p, ft->dgram, (size_t)n) > 0 &&
            ft->cfg.udp_seq == FACE_SEQ_PROBE) {
            p->flags |= FACE_F_SEQOK;
        }
    }
    face_leave(ft);
}

/* <SequenceNumber> with a 2-byte BLOB (header 10 82, BLOB header 95), for
 * a UDP peer that plays or is probed. */
static size_t seq_element(struct face *f, int udp_peer, uint8_t out[6])
{
    if (!udp_peer || !((f->flags & FACE_F_SEQOK) || f->k.udp.seqprobe)) {
        return 0;
    }
    out[0] = 0x10;
    out[1] = 0x82;
    out[2] = 0x95;
    out[3] = (uint8_t)(f->k.udp.pktseq >> 8);
    out[4] = (uint8_t)f->k.udp.pktseq;
    out[5] = CCNX_CCNB_CLOSE;
    return 6;
}

#define PACK_MAX 32 /* messages in one datagram */

/* Gathers the head of the queue into iov: one message, or with an MTU as
 * many as fit in it (the receiver's framer cuts a datagram into its
 * elements), then the SequenceNumber if any. Returns the iov count; *nmsg
 * gets the messages taken. */
static size_t dgram_gather(struct face *f, int udp_peer, struct iovec iov[PACK_MAX + 1],
                           uint8_t seq[6], size_t *nmsg)
{
    size_t seqlen = seq_element(f, udp_peer, seq);
    size_t mtu = f->ft->cfg.mtu, total = f->qhead->len + seqlen, k = 1;
    iov[0] = (struct iovec){(void *)f->qhead->p, f->qhead->len};
    for (struct face_msg *m = f->qhead->next; m != NULL && mtu > 0 && k < PACK_MAX; m = m->next) {
        if (total + m->len > mtu) {
            break;
        }
        iov[k++] = (struct iovec){(void *)m->p, m->len};
        total += m->len;
    }
    *nmsg = k;
    if (seqlen > 0) {
        iov[k++] = (struct iovec){seq, seqlen};
    }
    return k;
}

/* Sends queued messages through fd, one per datagram or packed up to the
 * MTU, until the socket would block: then a UDP peer waits for its shared
 * socket (the socket's watcher flushes every blocked peer) and a multicast
 * face loses them. */
static void dgram_flush(struct face *f, int fd, struct face *udp_sock)
{
    struct face_table *ft = f->ft;
    while (f->qhead != NULL && fd >= 0 && !f->dead) {
        uint8_t seq[6];
        struct iovec iov[PACK_MAX + 1];
        size_t nmsg;
        struct msghdr mh;
        memset(&mh, 0, sizeof(mh));
        mh.msg_name = &f->addr;
        mh.msg_namelen = f->addrlen;
        mh.msg_iov = iov;
        mh.msg_iovlen = dgram_gather(f, udp_sock != NULL, iov, seq, &nmsg);
        int has_seq = mh.msg_iovlen > nmsg;
        ssize_t w = sendmsg(fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS)) {
            if (udp_sock != NULL) {
                loop_io_set(ft->loop, udp_sock->fd, LOOP_READ | LOOP_WRITE);
                return;
            }
            f->c.drops[FACE_DROP_QUEUE] += nmsg;
        } else if (w < 0) {
            f->last_errno = errno; /* a datagram is lost, the face lives on */
        } else {
            f->c.bytes_out += (uint64_t)w;
            if (has_seq) {
                f->k.udp.pktseq++;
                f->k.udp.seqprobe = 0;
            }
        }
        f->last_progress = loop_now(ft->loop);
        face_queue_pop(f, nmsg, w >= 0);
    }
}

static void udp_peer_flush(struct face *f)
{
    struct face *sock = face_lookup(f->ft, f->sock);
    if (sock != NULL) {
        dgram_flush(f, sock->fd, sock);
    }
}

static void mcast_flush(struct face *f)
{
    dgram_flush(f, f->k.mcast.send_fd, NULL);
}

/* ---- multicast ---- */

static int mcast_join(int fd, const struct face_mcast_params *p)
{
    if (p->group.ss_family == AF_INET) {
        struct ip_mreqn mr;
        memset(&mr, 0, sizeof(mr));
        mr.imr_multiaddr = ((const struct sockaddr_in *)&p->group)->sin_addr;
        if (p->local.ss_family == AF_INET) {
            mr.imr_address = ((const struct sockaddr_in *)&p->local)->sin_addr;
        }
        mr.imr_ifindex = (int)p->ifindex;
        return setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &mr, sizeof(mr));
    }
    struct ipv6_mreq mr6;
    memset(&mr6, 0, sizeof(mr6));
    mr6.ipv6mr_multiaddr = ((const struct sockaddr_in6 *)&p->group)->sin6_addr;
    mr6.ipv6mr_interface = p->ifindex;
    return setsockopt(fd, IPPROTO_IPV6, IPV6_JOIN_GROUP, &mr6, sizeof(mr6));
}

/* The receiving socket binds the group address itself, so it hears only the
 * group, and shares the port with other listeners on the host. */
static int mcast_recv_socket(const struct face_mcast_params *p)
{
    int fd = socket(p->group.ss_family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        return -1;
    }
    int one = 1, zero = 0;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    set_buffers(fd);
    /* Only the group as joined on this face's interface: with a face per
     * interface, each hears its own link. */
    if (p->group.ss_family == AF_INET6) {
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
        setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_ALL, &zero, sizeof(zero));
    } else {
        setsockopt(fd, IPPROTO_IP, IP_MULTICAST_ALL, &zero, sizeof(zero));
    }
    if (bind(fd, (const struct sockaddr *)&p->group, p->group_len) != 0 || mcast_join(fd, p) != 0) {
        int err = errno;
        close(fd);
        errno = err;
        return -1;
    }
    return fd;
}

static int mcast_send_options(int fd, const struct face_mcast_params *p)
{
    int ttl = p->ttl > 0 ? p->ttl : 1;
    int zero = 0;
    if (p->group.ss_family == AF_INET) {
        struct ip_mreqn mr;
        memset(&mr, 0, sizeof(mr));
        if (p->local.ss_family == AF_INET) {
            mr.imr_address = ((const struct sockaddr_in *)&p->local)->sin_addr;
        }
        mr.imr_ifindex = (int)p->ifindex;
        if (setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &mr, sizeof(mr)) != 0 ||
            setsockopt(fd, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof(ttl)) != 0 ||
            setsockopt(fd, IPPROTO_IP, IP_MULTICAST_LOOP, &zero, sizeof(zero)) != 0) {
            return -1;
        }
        return 0;
    }
    unsigned ifindex = p->ifindex;
    if (setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_IF, &ifindex, sizeof(ifindex)) != 0 ||
        setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_HOPS, &ttl, sizeof(ttl)) != 0 ||
        setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_LOOP, &zero, sizeof(zero)) != 0) {
        return -1;
    }
    return 0;
}

static int mcast_send_socket(const struct face_mcast_params *p)
{
    int fd = socket(p->group.ss_family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        return -1;
    }
    if (mcast_send_options(fd, p) != 0) {
        int err = errno;
        close(fd);
        errno = err;
        return -1;
    }
    return fd;
}

int face_mcast_open(struct face_table *ft, const struct face_mcast_params *p, unsigned *faceid)
{
    if (p == NULL || (p->group.ss_family != AF_INET && p->group.ss_family != AF_INET6)) {
        return CCNX_E_INVAL;
    }
    int rfd = mcast_recv_socket(p);
    if (rfd < 0) {
        return CCNX_E_IO;
    }
    int sfd = mcast_send_socket(p);
    if (sfd < 0) {
        int err = errno;
        close(rfd);
        errno = err;
        return CCNX_E_IO;
    }
    unsigned flags =
        FACE_F_DGRAM | FACE_F_MCAST | FACE_F_PERMANENT |
        (face_addr_flags((const struct sockaddr *)&p->group) & (FACE_F_INET | FACE_F_INET6));
    struct face *f = face_new(ft, &mcast_ops, flags, rfd);
    if (f == NULL) {
        close(rfd);
        close(sfd);
        return CCNX_E_NOMEM;
    }
    f->k.mcast.send_fd = sfd;
    memcpy(&f->addr, &p->group, sizeof(p->group));
    f->addrlen = p->group_len;
    face_addr_text((const struct sockaddr *)&p->group, p->group_len, f->remote, sizeof(f->remote));
    if (loop_io_add(ft->loop, rfd, LOOP_READ, mcast_ready, f) != 0) {
        close(sfd);
        face_discard(f);
        return CCNX_E_IO;
    }
    if (faceid != NULL) {
        *faceid = f->faceid;
    }
    face_announce(f);
    return 0;
}

static void mcast_ready(struct loop *loop, int fd, unsigned events, void *arg)
{
    (void)loop;
    (void)events;
    struct face *f = arg;
    face_enter(f->ft);
    for (int i = 0; i < UDP_READ_BUDGET && !f->dead; i++) {
        ssize_t n = recv(fd, f->ft->dgram, FACE_DGRAM_MAX, 0);
        if (n < 0) {
            break;
        }
        dgram_input(f, f->ft->dgram, (size_t)n);
    }
    face_leave(f->ft);
}

/* ---- the kinds ---- */

/* A UDP peer made for a sender (not asked for) and silent for
 * udp_idle_timeout_us is closed. */
static void udp_peer_sweep(struct face *f, uint64_t now)
{
    uint64_t limit = f->ft->cfg.udp_idle_timeout_us;
    if (!(f->flags & FACE_F_PERMANENT) && limit > 0 && now - f->last_rx >= limit) {
        face_destroy(f, FACE_CLOSE_IDLE);
    }
}

static int udp_peer_send_fd(const struct face *f)
{
    const struct face *sock = face_lookup(f->ft, f->sock);
    return sock != NULL ? sock->fd : -1;
}

static const struct face_ops udp_socket_ops = {
    .kind = FACE_KIND_UDP_SOCKET,
    .close = udp_socket_close,
};

static const struct face_ops udp_ops = {
    .kind = FACE_KIND_UDP,
    .flush = udp_peer_flush,
    .close = udp_peer_close,
    .sweep = udp_peer_sweep,
    .send_fd = udp_peer_send_fd,
};

static const struct face_ops mcast_ops = {
    .kind = FACE_KIND_MCAST,
    .flush = mcast_flush,
    .close = mcast_close,
};
