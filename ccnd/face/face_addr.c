/* Socket address helpers shared by the face kinds. */
#define _GNU_SOURCE
#include "face/face_internal.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/un.h>

void face_addr_text(const struct sockaddr *sa, socklen_t len, char *out, size_t outlen)
{
    char host[INET6_ADDRSTRLEN];
    out[0] = '\0';
    if (sa->sa_family == AF_INET && len >= (socklen_t)sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
        snprintf(out, outlen, "%s:%u", host, (unsigned)ntohs(in->sin_port));
    } else if (sa->sa_family == AF_INET6 && len >= (socklen_t)sizeof(struct sockaddr_in6)) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
        inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
        snprintf(out, outlen, "[%s]:%u", host, (unsigned)ntohs(in6->sin6_port));
    } else if (sa->sa_family == AF_UNIX) {
        const struct sockaddr_un *un = (const struct sockaddr_un *)sa;
        size_t off = offsetof(struct sockaddr_un, sun_path);
        size_t n = len > off ? strnlen(un->sun_path, len - off) : 0;
        snprintf(out, outlen, "%.*s", (int)n, un->sun_path);
    }
}

uint64_t face_addr_hash(uint64_t h, const struct sockaddr *sa, int with_port)
{
    if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)sa;
        if (with_port) {
            h = ccnx_hash_bytes(h, &a->sin6_port, sizeof a->sin6_port);
        }
        return ccnx_hash_bytes(h, &a->sin6_addr, sizeof a->sin6_addr);
    }
    const struct sockaddr_in *a = (const struct sockaddr_in *)sa;
    if (with_port) {
        h = ccnx_hash_bytes(h, &a->sin_port, sizeof a->sin_port);
    }
    return ccnx_hash_bytes(h, &a->sin_addr, sizeof a->sin_addr);
}

/* Flags that follow from a peer address: family, and loopback peers count
 * as local (the reference trusts them like unix-socket clients). */
unsigned face_addr_flags(const struct sockaddr *sa)
{
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        unsigned f = FACE_F_INET;
        if ((ntohl(in->sin_addr.s_addr) >> 24) == 127) {
            f |= FACE_F_LOOPBACK | FACE_F_LOCAL;
        }
        return f;
    }
    if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
        unsigned f = FACE_F_INET6;
        if (IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr)) {
            f |= FACE_F_LOOPBACK | FACE_F_LOCAL;
        } else if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr) && in6->sin6_addr.s6_addr[12] == 127) {
            f |= FACE_F_LOOPBACK | FACE_F_LOCAL;
        }
        return f;
    }
    if (sa->sa_family == AF_UNIX) {
        return FACE_F_LOCAL;
    }
    return 0;
}

/* Same family, address and port (scope id too for IPv6). */
int face_addr_equal(const struct sockaddr *a, socklen_t alen, const struct sockaddr *b,
                    socklen_t blen)
{
    if (a->sa_family != b->sa_family) {
        return 0;
    }
    if (a->sa_family == AF_INET && alen >= (socklen_t)sizeof(struct sockaddr_in) &&
        blen >= (socklen_t)sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *x = (const struct sockaddr_in *)a;
        const struct sockaddr_in *y = (const struct sockaddr_in *)b;
        return x->sin_port == y->sin_port && x->sin_addr.s_addr == y->sin_addr.s_addr;
    }
    if (a->sa_family == AF_INET6 && alen >= (socklen_t)sizeof(struct sockaddr_in6) &&
        blen >= (socklen_t)sizeof(struct sockaddr_in6)) {
        const struct sockaddr_in6 *x = (const struct sockaddr_in6 *)a;
        const struct sockaddr_in6 *y = (const struct sockaddr_in6 *)b;
        return x->sin6_port == y->sin6_port && x->sin6_scope_id == y->sin6_scope_id &&
               memcmp(&x->sin6_addr, &y->sin6_addr, sizeof(x->sin6_addr)) == 0;
    }
    return 0;
}

int face_set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) {
        return -1;
    }
    return fcntl(fd, F_SETFD, FD_CLOEXEC);
}
