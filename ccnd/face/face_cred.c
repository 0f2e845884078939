/* Who is at the other end of a local face: the uid of the process, so the
 * forwarder can tell one local user's control requests from another's.
 * A unix socket says it directly (SO_PEERCRED). A TCP connection from a
 * loopback address is a socket of this host: the kernel lists it in
 * /proc/net/tcp (or tcp6) with its owner, local address = our peer's,
 * remote address = our own end; in the other table when the two ends'
 * sockets are of different families (IPv4-mapped addresses). */
#define _GNU_SOURCE /* struct ucred */
#include "face/face_internal.h"

#include <ccnx/error.h>

#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

/* The kernel prints an address as the raw 32-bit words of the address in
 * hex (%08X, each word read in host order), then ':' and the port (%04X). */
static void proc_addr(const struct sockaddr_storage *ss, char *out, size_t cap)
{
    uint32_t w[4];
    if (ss->ss_family == AF_INET) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)ss;
        memcpy(w, &a->sin_addr, 4);
        snprintf(out, cap, "%08X:%04X", (unsigned)w[0], (unsigned)ntohs(a->sin_port));
    } else {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)ss;
        memcpy(w, &a->sin6_addr, 16);
        snprintf(out, cap, "%08X%08X%08X%08X:%04X", (unsigned)w[0], (unsigned)w[1], (unsigned)w[2],
                 (unsigned)w[3], (unsigned)ntohs(a->sin6_port));
    }
}

/* The owner of the socket bound to `local` and connected to `remote`, in
 * the kernel's table of local's family. */
static int proc_tcp_lookup(const struct sockaddr_storage *local,
                           const struct sockaddr_storage *remote, int64_t *uid)
{
    char want_local[64], want_remote[64], line[512];
    proc_addr(local, want_local, sizeof want_local);
    proc_addr(remote, want_remote, sizeof want_remote);
    FILE *f = fopen(local->ss_family == AF_INET ? "/proc/net/tcp" : "/proc/net/tcp6", "re");
    if (f == NULL) {
        return CCNX_E_NOTFOUND;
    }
    int res = CCNX_E_NOTFOUND;
    while (res != 0 && fgets(line, sizeof line, f) != NULL) {
        char la[64], ra[64];
        long long u;
        /* sl local rem st tx:rx tr:when retrnsmt uid; the kernel writes the
         * table, and a line that does not match in full is skipped
         * NOLINTNEXTLINE(cert-err34-c) */
        if (sscanf(line, " %*s %63s %63s %*s %*s %*s %*s %lld", la, ra, &u) == 3 &&
            strcmp(la, want_local) == 0 && strcmp(ra, want_remote) == 0 && u >= 0) {
            *uid = u;
            res = 0;
        }
    }
    fclose(f);
    return res;
}

/* The same endpoint in the other family: an IPv4 address as the IPv6
 * socket that holds it sees it (::ffff:a.b.c.d), or an IPv4-mapped one as
 * plain IPv4. 0 when there is such a form. */
static int other_family(const struct sockaddr_storage *in, struct sockaddr_storage *out)
{
    memset(out, 0, sizeof *out);
    if (in->ss_family == AF_INET) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)in;
        struct sockaddr_in6 *b = (struct sockaddr_in6 *)out;
        b->sin6_family = AF_INET6;
        b->sin6_port = a->sin_port;
        b->sin6_addr.s6_addr[10] = 0xff;
        b->sin6_addr.s6_addr[11] = 0xff;
        memcpy(&b->sin6_addr.s6_addr[12], &a->sin_addr, 4);
        return 0;
    }
    const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)in;
    if (!IN6_IS_ADDR_V4MAPPED(&a->sin6_addr)) {
        return CCNX_E_NOTFOUND;
    }
    struct sockaddr_in *b = (struct sockaddr_in *)out;
    b->sin_family = AF_INET;
    b->sin_port = a->sin6_port;
    memcpy(&b->sin_addr, &a->sin6_addr.s6_addr[12], 4);
    return 0;
}

/* The owner of the peer's socket, bound to `peer` and connected to `ours`.
 * The peer's socket may be of the other family than ours: a dual-stack
 * IPv6 socket connected to 127.0.0.1 (as Java's are) is listed in
 * /proc/net/tcp6 as ::ffff:127.0.0.1, and an IPv4 one reaching our
 * dual-stack listener is listed in /proc/net/tcp. */
static int proc_tcp_uid(const struct sockaddr_storage *peer, const struct sockaddr_storage *ours,
                        int64_t *uid)
{
    if (proc_tcp_lookup(peer, ours, uid) == 0) {
        return 0;
    }
    struct sockaddr_storage peer2, ours2;
    if (other_family(peer, &peer2) != 0 || other_family(ours, &ours2) != 0) {
        return CCNX_E_NOTFOUND;
    }
    return proc_tcp_lookup(&peer2, &ours2, uid);
}

int face_cred_unix(int fd, int64_t *uid)
{
    struct ucred cred;
    socklen_t len = sizeof cred;
    if (fd < 0 || getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
        return CCNX_E_NOTFOUND;
    }
    *uid = cred.uid;
    return 0;
}

int face_cred_tcp(const struct face *f, int64_t *uid)
{
    struct sockaddr_storage ours;
    socklen_t len = sizeof ours;
    if (!(f->flags & FACE_F_LOOPBACK) || f->fd < 0 ||
        getsockname(f->fd, (struct sockaddr *)&ours, &len) != 0 ||
        ours.ss_family != f->addr.ss_family) {
        return CCNX_E_NOTFOUND;
    }
    return proc_tcp_uid(&f->addr, &ours, uid);
}

int face_peer_uid(struct face_table *ft, unsigned faceid, int64_t *uid)
{
    struct face *f = face_lookup(ft, faceid);
    if (f == NULL) {
        return CCNX_E_NOTFOUND;
    }
    if (!f->peer_uid_looked) {
        int64_t u;
        f->peer_uid = f->ops->peer_uid != NULL && f->ops->peer_uid(f, &u) == 0 ? u : -1;
        f->peer_uid_looked = 1;
    }
    if (f->peer_uid < 0) {
        return CCNX_E_NOTFOUND;
    }
    *uid = f->peer_uid;
    return 0;
}
