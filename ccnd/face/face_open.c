/* Faces from numeric addresses: the one a newface request (FaceInstance)
 * asks for (a TCP connection, a multicast group, or a UDP peer), and the
 * TCP and UDP listeners on one local address. */
#define _GNU_SOURCE
#include "face/face.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <string.h>

#include <ccnx/error.h>
#include <ccnx/mgmt.h>

/* A numeric IPv4 or IPv6 address and a port. 0 or -1. */
static int parse_text(const char *text, int64_t port, struct sockaddr_storage *ss, socklen_t *len)
{
    memset(ss, 0, sizeof *ss);
    struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;
    if (inet_pton(AF_INET, text, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)port);
        *len = sizeof *v4;
        return 0;
    }
    if (inet_pton(AF_INET6, text, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t)port);
        *len = sizeof *v6;
        return 0;
    }
    return -1;
}

static int parse_addr(const struct ccnx_view host, int64_t port, struct sockaddr_storage *ss,
                      socklen_t *len)
{
    char text[64];
    if (host.n >= sizeof text) {
        return -1;
    }
    memcpy(text, host.p, host.n);
    text[host.n] = '\0';
    return parse_text(text, port, ss, len);
}

int face_listen_inet(struct face_table *ft, const char *addr_text, unsigned port)
{
    struct sockaddr_storage ss;
    socklen_t len;
    unsigned id;
    if (parse_text(addr_text, port, &ss, &len) != 0) {
        return CCNX_E_VALUE;
    }
    if (face_listen_tcp(ft, (struct sockaddr *)&ss, len, &id) != 0 ||
        face_udp_bind(ft, (struct sockaddr *)&ss, len, &id) != 0) {
        return CCNX_E_IO;
    }
    return 0;
}

static int is_multicast(const struct sockaddr_storage *ss)
{
    if (ss->ss_family == AF_INET) {
        return IN_MULTICAST(ntohl(((const struct sockaddr_in *)ss)->sin_addr.s_addr));
    }
    return IN6_IS_ADDR_MULTICAST(&((const struct sockaddr_in6 *)ss)->sin6_addr);
}

/* The interface index that holds the address, 0 when none does. */
static unsigned ifindex_of(const struct sockaddr_storage *ss)
{
    struct ifaddrs *all, *i;
    unsigned found = 0;
    if (getifaddrs(&all) != 0) {
        return 0;
    }
    for (i = all; i != NULL && found == 0; i = i->ifa_next) {
        const struct sockaddr *a = i->ifa_addr;
        if (a == NULL || a->sa_family != ss->ss_family) {
            continue;
        }
        int same = a->sa_family == AF_INET
                       ? ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
                             ((const struct sockaddr_in *)ss)->sin_addr.s_addr
                       : memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
                                &((const struct sockaddr_in6 *)ss)->sin6_addr, 16) == 0;
        found = same ? if_nametoindex(i->ifa_name) : 0;
    }
    freeifaddrs(all);
    return found;
}

/* A multicast face's local interface, as ccndc sends it: an address, an
 * IPv6 one possibly with its zone (fe80::1%eth0). The interface index
 * comes from the zone or from the interface holding the address: IPv6
 * link-local groups need it. */
static int mcast_interface(struct ccnx_view v, struct face_mcast_params *mp)
{
    const uint8_t *pct = memchr(v.p, '%', v.n);
    socklen_t len;
    if (pct != NULL) {
        char name[IF_NAMESIZE + 1];
        size_t n = v.n - (size_t)(pct + 1 - v.p);
        if (n == 0 || n > IF_NAMESIZE) {
            return -1;
        }
        memcpy(name, pct + 1, n);
        name[n] = '\0';
        mp->ifindex = if_nametoindex(name);
        if (mp->ifindex == 0) {
            return -1;
        }
        v.n = (size_t)(pct - v.p);
    }
    if (parse_addr(v, 0, &mp->local, &len) != 0) {
        return -1;
    }
    if (mp->ifindex == 0) {
        mp->ifindex = ifindex_of(&mp->local);
    }
    return 0;
}

int face_open_instance(struct face_table *ft, const struct ccnx_face_instance *req,
                       unsigned *faceid)
{
    struct sockaddr_storage ss;
    socklen_t len;
    if (parse_addr(req->host, req->port, &ss, &len) != 0) {
        return -1;
    }
    if (req->ip_proto == 6) {
        return face_connect_tcp(ft, (struct sockaddr *)&ss, len, faceid);
    }
    if (!is_multicast(&ss)) {
        return face_udp_peer(ft, (struct sockaddr *)&ss, len, faceid);
    }
    struct face_mcast_params mp;
    memset(&mp, 0, sizeof mp);
    memcpy(&mp.group, &ss, len);
    mp.group_len = len;
    mp.ttl = req->mcast_ttl > 0 ? (int)req->mcast_ttl : 1;
    if (req->mcast_interface.p != NULL && mcast_interface(req->mcast_interface, &mp) != 0) {
        return -1;
    }
    if (mp.group.ss_family == AF_INET6) {
        /* a link-scope group is bound and sent to on one interface */
        ((struct sockaddr_in6 *)&mp.group)->sin6_scope_id = mp.ifindex;
    }
    return face_mcast_open(ft, &mp, faceid);
}
